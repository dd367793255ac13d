"""Adversarial TREC runs and qrels for differential testing (a helper, not a test).

Each :class:`Case` holds the *text* of a qrels file and of a run file, so the
evaluator under test reads them through its real file readers, plus an
independent minimal parse of that text into the ``{topic: {docno: value}}``
dicts that pytrec_eval takes.  The cases target the places where a
re-implementation of trec_eval usually goes wrong:

* ``ties``: many equal scores inside a topic, docnos whose byte order differs
  from their natural / case-insensitive / length order (``d10`` < ``d9``,
  ``D1`` < ``d1``, ``a-b`` < ``a_b``, non-ASCII UTF-8 after ``z``): trec_eval
  breaks score ties by docno *descending* (``form_res_rels.c``, ``strcmp``).
* ``shuffled``: lines in random order across topics and ranks.
* ``missing_topics``: run topics absent from the qrels (ignored), qrels topics
  absent from the run (not averaged in without ``-c``), a qrels topic with only
  non-relevant judgments, one with only negative judgments.
* ``graded_negative``: relevance -2..4, many unjudged retrieved documents
  (bpref, infAP, ndcg gains, relevance thresholds ``-l``).
* ``deep``: 1,500-2,500 documents per topic (trec_eval has no depth cap, so
  P_1000 / recall_1000 / ndcg_cut_1000 see only the first 1000).
* ``rank_garbage``: the rank column is 0, negative, repeated, huge, fractional
  or not a number; trec_eval never reads it.
* ``sci_notation``: scores such as ``1.5e-03``, ``-2.25E+02``, ``7e0``.
* ``float32``: scores equal only as C ``float`` (trec_eval 9.0.8 stores
  ``sim`` as float): 1.00000001 vs 1.00000002, underflow (1e-50 vs 0 vs
  -1e-50), values near the float32 overflow.
* ``tiny``: one-document topics, topics with every document relevant, topics
  where no relevant document is retrieved, R larger than the run depth.

Everything is deterministic for a given ``seed`` (``numpy.random.default_rng``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["Case", "all_cases", "parse_qrels_text", "parse_run_text"]


@dataclass(frozen=True)
class Case:
    """One adversarial (qrels, run) pair.

    Attributes
    ----------
    name : str
    qrels_text, run_text : str
        File contents (``topic iter docno rel`` / ``topic Q0 docno rank score tag``).
    description : str
    graded : bool
        Whether relevance goes above 1 (worth evaluating with ``-l 2`` too).
    """

    name: str
    qrels_text: str
    run_text: str
    description: str
    graded: bool = False

    @property
    def qrels(self) -> dict[str, dict[str, int]]:
        return parse_qrels_text(self.qrels_text)

    @property
    def run(self) -> dict[str, dict[str, float]]:
        return parse_run_text(self.run_text)


def parse_qrels_text(text: str) -> dict[str, dict[str, int]]:
    """Independent minimal qrels parse (``#`` lines and blank lines skipped)."""
    out: dict[str, dict[str, int]] = {}
    for line in text.splitlines():
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        out.setdefault(f[0], {})[f[2]] = int(f[3])
    return out


def parse_run_text(text: str) -> dict[str, dict[str, float]]:
    """Independent minimal run parse: topic, docno, float(score); rank ignored."""
    out: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        docs = out.setdefault(f[0], {})
        assert f[2] not in docs, f"duplicate docno in adversarial run: {line}"
        docs[f[2]] = float(f[4])
    return out


# --------------------------------------------------------------------------- helpers

def _qrels_lines(judgments: dict[str, dict[str, int]]) -> str:
    return "".join(f"{t} 0 {d} {r}\n" for t, docs in judgments.items() for d, r in docs.items())


def _run_lines(rows: list[tuple[str, str, str, str]], tag: str = "adv",
               sep: str = " ") -> str:
    """rows of (topic, docno, rank text, score text)."""
    return "".join(sep.join((t, "Q0", d, r, s, tag)) + "\n" for t, d, r, s in rows)


def _ranked_rows(topic: str, docnos: list[str], scores) -> list[tuple[str, str, str, str]]:
    return [(topic, d, str(i + 1), repr(float(s))) for i, (d, s) in enumerate(zip(docnos, scores))]


def _judge(rng: np.random.Generator, docnos: list[str], p_judged: float, grades: list[int],
           weights: list[float]) -> dict[str, int]:
    w = np.asarray(weights, dtype=float)
    out = {}
    for d in docnos:
        if rng.random() < p_judged:
            out[d] = int(rng.choice(grades, p=w / w.sum()))
    return out


# --------------------------------------------------------------------------- cases

def _ties(rng: np.random.Generator) -> Case:
    stems = ["d9", "d10", "d1", "D1", "D10", "a-b", "a_b", "a.b", "ab", "Ab", "z", "zz",
             "doc\u00e9", "doc\u00e8", "docz", "doc-1", "doc_1", "DOC1", "10", "9", "099", "1e3"]
    judgments, rows = {}, []
    for t in ("1", "2", "10", "100"):
        docnos = [f"{s}x{k}" for s in stems for k in range(3)]
        rng.shuffle(docnos)
        # few distinct score values: huge tie groups
        scores = rng.choice([3.0, 2.0, 2.0, 1.5, 1.0, 0.0, -1.0], size=len(docnos))
        rows += [(t, d, str(i + 1), repr(float(s))) for i, (d, s) in enumerate(zip(docnos, scores))]
        judgments[t] = _judge(rng, docnos, 0.7, [0, 1], [0.5, 0.5])
        judgments[t][f"unretrieved-{t}"] = 1
    return Case("ties", _qrels_lines(judgments), _run_lines(rows),
                "score ties across docnos whose byte order is not their natural order")


def _shuffled(rng: np.random.Generator) -> Case:
    judgments, rows = {}, []
    for t in range(401, 421):
        n = int(rng.integers(50, 300))
        docnos = [f"FT{t}-{int(x)}" for x in rng.choice(100000, n, replace=False)]
        scores = np.round(np.sort(rng.normal(10, 3, n))[::-1], 2)
        rows += _ranked_rows(str(t), docnos, scores)
        judgments[str(t)] = _judge(rng, docnos, 0.6, [0, 1], [0.8, 0.2])
        for k in range(int(rng.integers(0, 15))):
            judgments[str(t)][f"UNRET{t}-{k}"] = int(rng.integers(0, 2))
    order = rng.permutation(len(rows))
    rows = [rows[i] for i in order]
    return Case("shuffled", _qrels_lines(judgments), _run_lines(rows, sep="\t"),
                "lines shuffled across topics and ranks; tab separated")


def _missing_topics(rng: np.random.Generator) -> Case:
    judgments, rows = {}, []
    for t in range(1, 13):
        docnos = [f"doc{int(x)}" for x in rng.choice(5000, 120, replace=False)]
        judged = _judge(rng, docnos, 0.5, [0, 1, 2], [0.6, 0.3, 0.1])
        if t in (1, 2, 3):      # only in the run: ignored by trec_eval
            pass
        elif t == 4:            # judged, but all non-relevant
            judgments[str(t)] = {d: 0 for d in docnos[:40]}
        elif t == 5:            # judged only with negative labels
            judgments[str(t)] = {d: -1 for d in docnos[:30]}
        elif t == 6:            # relevant documents, none retrieved
            judgments[str(t)] = {f"nowhere{k}": 1 for k in range(7)}
        else:
            judgments[str(t)] = judged
        rows += _ranked_rows(str(t), docnos, np.linspace(50, 1, len(docnos)))
    for t in (20, 21, 22):      # only in the qrels
        judgments[str(t)] = {f"q{t}d{k}": int(k % 3 == 0) for k in range(25)}
    return Case("missing_topics", _qrels_lines(judgments), _run_lines(rows),
                "topics missing on either side; all-non-relevant / negative-only / "
                "unretrieved topics", graded=True)


def _graded_negative(rng: np.random.Generator) -> Case:
    judgments, rows = {}, []
    for t in range(301, 331):
        n = int(rng.integers(80, 400))
        docnos = [f"LA{int(x):06d}-{t}" for x in rng.choice(999999, n, replace=False)]
        scores = np.round(np.sort(rng.gamma(2.0, 3.0, n))[::-1], 3)
        rows += _ranked_rows(str(t), docnos, scores)
        judgments[str(t)] = _judge(rng, docnos, 0.55, [-2, -1, 0, 1, 2, 3, 4],
                                   [0.05, 0.1, 0.5, 0.15, 0.1, 0.05, 0.05])
        for k in range(int(rng.integers(1, 30))):
            judgments[str(t)][f"X{t}-{k}"] = int(rng.choice([-1, 0, 1, 2, 3]))
    return Case("graded_negative", _qrels_lines(judgments), _run_lines(rows),
                "relevance -2..4, many unjudged retrieved documents", graded=True)


def _deep(rng: np.random.Generator) -> Case:
    judgments, rows = {}, []
    for t in range(1, 7):
        n = int(rng.integers(1500, 2500))
        docnos = [f"W{int(x)}" for x in rng.choice(10**7, n, replace=False)]
        scores = np.sort(rng.random(n))[::-1] * 100
        rows += _ranked_rows(str(t), docnos, scores)
        rel_ranks = rng.choice(n, size=int(rng.integers(20, 200)), replace=False)
        judgments[str(t)] = {docnos[i]: int(rng.integers(1, 3)) for i in rel_ranks}
        for i in rng.choice(n, 300, replace=False):
            judgments[str(t)].setdefault(docnos[i], 0)
        for k in range(50):
            judgments[str(t)][f"deepunret{t}-{k}"] = 1
    return Case("deep", _qrels_lines(judgments), _run_lines(rows),
                "1500-2500 documents per topic, relevant documents beyond rank 1000",
                graded=True)


def _rank_garbage(rng: np.random.Generator) -> Case:
    judgments, rows = {}, []
    garbage = ["0", "-5", "1", "1", "999999999", "1.5", "abc", "-0", "1e3", "NaN"]
    for t in ("a1", "a2", "b"):
        docnos = [f"G{t}{k}" for k in range(60)]
        scores = np.round(rng.normal(0, 1, len(docnos)), 4)
        rows += [(t, d, garbage[i % len(garbage)], repr(float(s)))
                 for i, (d, s) in enumerate(zip(docnos, scores))]
        judgments[t] = _judge(rng, docnos, 0.8, [0, 1], [0.7, 0.3])
    return Case("rank_garbage", _qrels_lines(judgments), _run_lines(rows),
                "rank column 0, negative, repeated, huge, fractional, non-numeric")


def _sci_notation(rng: np.random.Generator) -> Case:
    judgments, rows = {}, []
    for t in ("7", "8"):
        docnos = [f"S{t}-{k}" for k in range(80)]
        mant = np.round(rng.uniform(1, 9.99, len(docnos)), 3)
        expo = rng.integers(-12, 12, len(docnos))
        sign = np.where(rng.random(len(docnos)) < 0.3, "-", "")
        style = ["{s}{m}e{e:+03d}", "{s}{m}E{e}", "{s}{m}e{e}"]
        rows += [(t, d, str(i + 1), style[i % 3].format(s=sg, m=m, e=int(e)))
                 for i, (d, m, e, sg) in enumerate(zip(docnos, mant, expo, sign))]
        rows += [(t, f"S{t}-int{k}", "0", v) for k, v in enumerate(["7e0", "7", "7.0", "70E-1"])]
        judgments[t] = _judge(rng, docnos + [f"S{t}-int{k}" for k in range(4)], 0.7, [0, 1],
                              [0.6, 0.4])
    return Case("sci_notation", _qrels_lines(judgments), _run_lines(rows),
                "scores in scientific notation, negative, and equal values written differently")


def _float32(rng: np.random.Generator) -> Case:
    judgments, rows = {}, []
    groups = {
        "f1": ["1.00000001", "1.00000002", "1.0", "0.99999999", "1.0000001", "0.9999999"],
        "f2": ["1e-50", "0", "-1e-50", "1e-46", "-0.0", "1e-38", "1e-45"],
        "f3": ["3.4e38", "3.40282e38", "1e39", "2e39", "-1e39", "1e30"],
        "f4": ["16777216", "16777217", "16777218", "16777219", "16777215"],
    }
    for t, vals in groups.items():
        docnos = []
        for k in range(40):
            for j, v in enumerate(vals):
                d = f"{t}-{k}-{j}"
                docnos.append(d)
                rows.append((t, d, str(len(rows)), v))
        judgments[t] = _judge(rng, docnos, 0.7, [0, 1], [0.6, 0.4])
    return Case("float32", _qrels_lines(judgments), _run_lines(rows),
                "scores equal only as C float (trec_eval 9.0.8 sim is float): "
                "precision, underflow, overflow to inf")


def _tiny(rng: np.random.Generator) -> Case:
    judgments = {
        "1": {"only": 1},                                   # 1 doc, relevant
        "2": {"only": 0, "other": 1},                       # 1 doc, not relevant
        "3": {f"t3d{k}": 1 for k in range(5)},              # all retrieved relevant
        "4": {f"t4d{k}": 1 for k in range(3000)},           # R far above depth
        "5": {"t5d0": 2, "t5d1": 0, "t5d2": -1},
    }
    rows = [("1", "only", "1", "1"), ("2", "only", "1", "5")]
    rows += [("3", f"t3d{k}", str(k), str(10 - k)) for k in range(5)]
    rows += [("4", f"t4d{k}", str(k), str(1000 - k)) for k in range(0, 200, 3)]
    rows += [("5", f"t5d{k}", "1", "0") for k in range(4)]
    return Case("tiny", _qrels_lines(judgments), _run_lines(rows),
                "one-document topics, all-relevant topic, R >> depth, all scores tied")


#: name -> builder(rng) -> Case
BUILDERS: dict[str, Callable[[np.random.Generator], Case]] = {
    "ties": _ties,
    "shuffled": _shuffled,
    "missing_topics": _missing_topics,
    "graded_negative": _graded_negative,
    "deep": _deep,
    "rank_garbage": _rank_garbage,
    "sci_notation": _sci_notation,
    "float32": _float32,
    "tiny": _tiny,
}


def all_cases(seed: int = 20240607) -> list[Case]:
    """Every adversarial case, each from its own child generator of ``seed``."""
    seeds = np.random.SeedSequence(seed).spawn(len(BUILDERS))
    return [build(np.random.default_rng(s)) for build, s in zip(BUILDERS.values(), seeds)]
