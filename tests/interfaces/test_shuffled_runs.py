"""A run's line order never changes a number (issue #19).

trec_eval sorts each topic's documents itself (``form_res_rels.c``: score
descending, docno descending), so a run written in score order, shuffled within
each topic, or shuffled across topics must print byte-identical output.
Yardstick takes a different path for each (file order, a block permutation, one
packed-integer sort), and these tests hold all three to the same text, and to
pytrec_eval (trec_eval's C code) for the values.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import numpy as np
import pytest

from yardstick.cli import main

pytrec_eval = pytest.importorskip("pytrec_eval")


def _track(rng, topics=30, lines_per_topic=(50, 200)):
    """Runs lines (topic, docno, score) with tie groups, scores one ulp apart and
    docnos of one and two 8-byte words; graded qrels with unjudged documents."""
    lines, qrels = [], []
    for t in range(1, topics + 1):
        n = int(rng.integers(*lines_per_topic))
        docs = [f"D{rng.integers(0, 10**int(rng.integers(2, 12)))}-{i}" for i in range(n)]
        score = np.round(np.sort(rng.gamma(2.0, 3.0, n))[::-1], 2)  # rounding: ties
        score[5:9] = score[5]                                       # one explicit tie group
        score[12] = np.nextafter(score[11], -np.inf)                # one ulp below its neighbour
        for d, s in zip(docs, score.tolist()):
            lines.append((str(t), d, s))
        judged = rng.choice(n, size=n // 2, replace=False)
        for i in judged.tolist():
            qrels.append(f"{t} 0 {docs[i]} {int(rng.choice([0, 0, 1, 2]))}")
        qrels.append(f"{t} 0 never-retrieved-{t} 1")
    return lines, "\n".join(qrels) + "\n"


def _write_run(path, lines):
    path.write_text("".join(f"{t} Q0 {d} {i} {s!r} tag\n" for i, (t, d, s) in enumerate(lines)))


def _eval(*args) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["eval", *args]) == 0
    return out.getvalue()


def _variants(rng, lines):
    """The run's lines in score order, shuffled within topics, shuffled entirely, and
    with the topic blocks reversed."""
    by_topic = {}
    for ln in lines:
        by_topic.setdefault(ln[0], []).append(ln)
    within = [ln for t in by_topic for ln in rng.permutation(np.array(by_topic[t], object))]
    return {"sorted": lines, "within topics": [tuple(x) for x in within],
            "fully shuffled": [lines[i] for i in rng.permutation(len(lines))],
            "topics reversed": [ln for t in reversed(list(by_topic)) for ln in by_topic[t]]}


def test_long_topics_shuffled_print_the_sorted_runs_output(tmp_path):
    """Topics of 300-700 lines: the shuffled runs take the per-topic sorts (the join
    index and trec_eval's order sorted topic by topic, yardstick.inputs.ranking._sort_in_blocks)
    and must print what the run in score order prints."""
    rng = np.random.default_rng(1919)
    lines, qrels_text = _track(rng, topics=12, lines_per_topic=(300, 700))
    qrels = tmp_path / "qrels"
    qrels.write_text(qrels_text)
    texts = {}
    for name, v in _variants(rng, lines).items():
        p = tmp_path / (name.replace(" ", "_") + ".run")
        _write_run(p, [(str(t), str(d), float(s)) for t, d, s in v])
        texts[name] = _eval("-q", "-m", "all_trec", str(qrels), str(p))
        assert _eval("-q", "--compat", "9", "-m", "all_trec", str(qrels), str(p)) == \
            (texts.setdefault("sorted 9", _eval("-q", "--compat", "9", "-m", "all_trec",
                                                str(qrels), str(p)))), name
    assert len(texts["sorted"].splitlines()) > 12 * 80
    for name, text in texts.items():
        if name != "sorted 9":
            assert text == texts["sorted"], name


def test_shuffled_runs_print_the_sorted_runs_output(tmp_path):
    rng = np.random.default_rng(19)
    lines, qrels_text = _track(rng)
    qrels = tmp_path / "qrels"
    qrels.write_text(qrels_text)
    by_topic = {}
    for ln in lines:
        by_topic.setdefault(ln[0], []).append(ln)
    within = [ln for t in by_topic for ln in rng.permutation(np.array(by_topic[t], object))]
    variants = {"sorted": lines, "within topics": [tuple(x) for x in within],
                "fully shuffled": [lines[i] for i in rng.permutation(len(lines))],
                "topics reversed": [ln for t in reversed(list(by_topic)) for ln in by_topic[t]]}
    texts = {}
    for name, v in variants.items():
        p = tmp_path / (name.replace(" ", "_") + ".run")
        _write_run(p, [(str(t), str(d), float(s)) for t, d, s in v])
        texts[name] = _eval("-q", "-m", "all_trec", str(qrels), str(p))
    assert len(texts["sorted"].splitlines()) > 30 * 80
    for name, text in texts.items():
        assert text == texts["sorted"], name

    # and the values are trec_eval's: pytrec_eval runs trec_eval 9's C code, which
    # holds scores as C floats (the one-ulp pair is a tie there: --compat 9)
    shuffled = tmp_path / "fully_shuffled.run"
    assert _eval("-q", "--compat", "9", "-m", "all_trec", str(qrels), str(shuffled)) == \
        _eval("-q", "--compat", "9", "-m", "all_trec", str(qrels), str(tmp_path / "sorted.run"))
    run = {}
    for t, d, s in lines:
        run.setdefault(t, {})[d] = s
    qd = {}
    for ln in qrels_text.split("\n"):
        if ln:
            t, _, d, r = ln.split()
            qd.setdefault(t, {})[d] = int(r)
    ref = pytrec_eval.RelevanceEvaluator(qd, {"map", "ndcg", "P", "bpref"}).evaluate(run)
    seen = 0
    for ln in _eval("-q", "--compat", "9", "-m", "all_trec", str(qrels),
                    str(shuffled)).splitlines():
        m, t, v = ln.split("\t")
        m = m.strip()
        if t != "all" and m in ("map", "ndcg", "P_10", "bpref"):
            assert float(v) == pytest.approx(round(ref[t][m], 4), abs=1e-12), (m, t)
            seen += 1
    assert seen == 30 * 4
