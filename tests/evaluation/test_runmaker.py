"""The run maker (yardstick.inputs.runmaker, ``yardstick make-runs``) and the bundled sample.

Effectiveness is measured with Yardstick's engine, checked against pytrec_eval
(trec_eval's own C code) on three runs.  Reference points:

* a random ranking of Cranfield's 1,400 documents has MAP about 0.01 (computed
  below with a seeded permutation);
* the only published BM25 figure found for these files is for Vaswani: PISA's
  BM25 (k1 0.9, b 0.4, Porter2 stemming) has MAP 0.305349 in
  terrierteam/pyterrier_pisa ``tests/test_vaswani.py``; our run with the same
  parameters (Lucene stop words, bm25s's tokenizer) must come within 0.03.
"""

from __future__ import annotations

import numpy as np
import pytest
import pytrec_eval
import scipy.sparse as sp

pytest.importorskip("bm25s")
pytest.importorskip("Stemmer")

from yardstick.cli import main as cli_main  # noqa: E402
from yardstick.common.progress import run_sync  # noqa: E402
from yardstick.inputs.collections import load_classic  # noqa: E402
from yardstick.inputs.collections.classic import default_root  # noqa: E402
from yardstick.inputs.io.groups_file import read_groups  # noqa: E402
from yardstick.inputs.io.run_file import read_run, write_run  # noqa: E402
from yardstick.inputs.run import Run  # noqa: E402
from yardstick.inputs.runmaker import DEFAULT_SPECS, make_runs  # noqa: E402
from yardstick.inputs.runmaker.analysis import Analyzer, content_words, s_stem  # noqa: E402
from yardstick.inputs.runmaker.feedback import routing_queries  # noqa: E402
from yardstick.inputs.runmaker.fusion import combsum, rrf  # noqa: E402
from yardstick.inputs.runmaker.index import BM25Index, TermIndex  # noqa: E402


def run_dict(run: Run) -> dict[str, dict[str, float]]:
    topics = run.topics[run.topic_code].tolist()
    docnos = run.docnos[run.doc_code].tolist()
    out: dict[str, dict[str, float]] = {}
    for t, d, s in zip(topics, docnos, run.score.tolist()):
        out.setdefault(t, {})[d] = s
    return out


def engine_map(qrels, run) -> float:
    from yardstick.evaluation.evaluation_service import evaluate_run

    return float(evaluate_run(run, qrels, ["map"]).summary["map"])


def mean_measure(qrels, run_or_dict, measure="map") -> float:
    ev = pytrec_eval.RelevanceEvaluator(qrels.to_dict(), {measure})
    res = ev.evaluate(run_or_dict if isinstance(run_or_dict, dict) else run_dict(run_or_dict))
    return float(np.mean([v[measure] for v in res.values()]))


@pytest.fixture(scope="module")
def cranfield():
    from tests.sample_collections import cranfield_root

    return load_classic("cranfield", cranfield_root())   # real, or rebuilt from the sample


@pytest.fixture(scope="module")
def runset(cranfield):
    return run_sync(make_runs(cranfield.documents, cranfield.topics, cranfield.qrels, depth=1000))


def test_runs_groups_and_depth(runset, cranfield):
    assert len(runset.runs) >= 12 and len(set(runset.groups.values())) >= 4
    assert list(runset.runs) == [s.tag for s in DEFAULT_SPECS]
    assert runset.depth == 1000                           # min(1000, 1,400 documents)
    for tag, run in runset.runs.items():
        assert run.name == run.tag == tag and run.group == runset.groups[tag] != ""
        per_topic = np.bincount(run.topic_code)
        assert per_topic.max() <= 1000
        assert run.num_topics == 225
    # runs retrieve only documents holding a query term: 3-word queries retrieve fewer
    assert len(runset.runs["shT3"]) < len(runset.runs["okBM25"]) <= 225 * 1000


def test_effectiveness_is_real(runset, cranfield):
    rng = np.random.default_rng(0)
    docs = np.asarray(list(cranfield.documents))
    random_run = {t: {d: float(1000 - i) for i, d in enumerate(rng.permutation(docs)[:1000])}
                  for t in cranfield.topics["topic"]}
    random_map = mean_measure(cranfield.qrels, random_run)
    assert random_map < 0.02
    maps = {tag: engine_map(cranfield.qrels, run) for tag, run in runset.runs.items()}
    assert min(maps.values()) > 5 * random_map
    full = [t for t, s in zip(runset.runs, DEFAULT_SPECS) if s.query == "full"]
    assert all(maps[t] > 0.25 for t in full)
    # title-like short queries are worse the shorter they are; RM3 helps BM25
    assert maps["shT3"] < maps["shT5"] < maps["shT8"] < maps["okBM25"]
    assert maps["fbRM3"] > maps["okBM25"]


def test_vaswani_bm25_near_published_figure():
    if not default_root("vaswani").is_dir():
        pytest.skip("extra check (../shared): Vaswani not available")
    col = load_classic("vaswani")
    spec = next(s for s in DEFAULT_SPECS if s.tag == "okBM25a")   # k1 0.9, b 0.4, Porter2
    rs = run_sync(make_runs(col.documents, col.topics, col.qrels, specs=[spec], depth=1000))
    ours = mean_measure(col.qrels, rs.runs["okBM25a"])
    assert ours == pytest.approx(0.305349, abs=0.03)   # PISA BM25, pyterrier_pisa tests


def test_engine_agrees_with_pytrec_eval(runset, cranfield):
    from yardstick.common.options import EvalOptions
    from yardstick.evaluation.evaluation_service import evaluate_run

    for tag in ("okBM25", "fbRRF", "rtRoute"):
        ours = evaluate_run(runset.runs[tag], cranfield.qrels, ["map"], EvalOptions(compat=9))
        assert ours.summary["map"] == pytest.approx(
            mean_measure(cranfield.qrels, runset.runs[tag]), abs=1e-9)


def test_cranfield_code_1_is_most_relevant(runset, cranfield):
    """Why code 1 -> grade 4 (yardstick.inputs.collections.smart): BM25 ranks code-1 documents
    highest."""
    f = runset.runs["okBM25"].to_frame()
    f["topic"], f["docno"] = f["topic"].astype(str), f["docno"].astype(str)
    f["r"] = f.groupby("topic")["score"].rank(ascending=False, method="first")
    m = cranfield.qrels.frame.merge(f, on=["topic", "docno"], how="left").fillna({"r": 2000})
    med = m.groupby("rel")["r"].median()
    assert med[4] < med[3] < med[2] < med[1]


def test_routing_run_retrieves_fewer_topic_words(runset, cranfield):
    """sab05ror1's property (Buckley et al. 2007, section 4): fewer topic words retrieved."""
    import re

    topic_words = {t: set(content_words(title, 100))
                   for t, title in zip(cranfield.topics["topic"], cranfield.topics["title"])}
    doc_words = {d: set(re.findall(r"\w\w+", text.lower()))
                 for d, text in cranfield.documents.items()}

    def share(run):
        order = np.lexsort((-run.score, run.topic_code))
        code = run.topic_code[order]
        first = np.r_[0, np.flatnonzero(np.diff(code)) + 1]
        rank = np.arange(len(order)) - np.repeat(first, np.diff(np.r_[first, len(order)]))
        top = order[rank < 20]
        topics = run.topics[run.topic_code[top]].tolist()
        docnos = run.docnos[run.doc_code[top]].tolist()
        return np.mean([len(topic_words[t] & doc_words[d]) / max(1, len(topic_words[t]))
                        for t, d in zip(topics, docnos)])

    route = share(runset.runs["rtRoute"])
    others = [share(runset.runs[s.tag]) for s in DEFAULT_SPECS
              if s.query == "full" and not s.routing]
    assert route < min(others)


def test_deterministic_and_seeded(cranfield, runset):
    again = run_sync(make_runs(cranfield.documents, cranfield.topics, cranfield.qrels,
                               specs=[s for s in DEFAULT_SPECS if s.tag in ("okBM25", "rtRoute")],
                               depth=1000, seed=0))
    for tag in ("okBM25", "rtRoute"):
        a, b = runset.runs[tag], again.runs[tag]
        assert np.array_equal(a.score, b.score) and np.array_equal(a.docno_bytes, b.docno_bytes)
    other = run_sync(make_runs(cranfield.documents, cranfield.topics, cranfield.qrels,
                               specs=[s for s in DEFAULT_SPECS if s.tag == "rtRoute"], seed=1))
    assert not np.array_equal(other.runs["rtRoute"].score, runset.runs["rtRoute"].score)


def test_scores_equal_bm25s(cranfield):
    import bm25s

    docs = list(cranfield.documents.values())[:300]
    ids = list(cranfield.documents)[:300]
    an = Analyzer("porter2", "lucene")
    for method in ("lucene", "bm25+"):
        index = BM25Index.build(TermIndex.build(ids, docs, an), method, 1.2, 0.75, 1.0)
        queries = list(cranfield.topics["title"][:5])
        ours, _ = index.score(index.terms.query_matrix(queries))
        model = bm25s.BM25(method=method, k1=1.2, b=0.75, delta=1.0)
        model.index(an.analyze(docs), show_progress=False)
        for i, q in enumerate(an.analyze(queries)):
            theirs = model.get_scores_from_ids(model.get_tokens_ids(q))
            assert np.allclose(ours[i], theirs, atol=1e-4)   # bm25s computes in float32


def test_fusion_by_hand():
    scores = np.array([[3.0, 2.0, 1.0, 0.0]])
    a = (scores, np.array([[True, True, True, False]]))           # ranks d0 1, d1 2, d2 3
    b = (scores[:, ::-1].copy(), np.array([[False, True, True, True]]))  # d3 1, d2 2, d1 3
    fused, ret = rrf([a, b], k=60)
    assert ret.all()
    assert fused[0] == pytest.approx([1 / 61, 1 / 62 + 1 / 63, 1 / 63 + 1 / 62, 1 / 61])
    summed, _ = combsum([a, b])                       # min-max: a -> 1, .5, 0; b -> 0, .5, 1
    assert summed[0] == pytest.approx([1.0, 0.5, 0.5, 1.0])


def test_routing_query_uses_terms_of_training_relevant_documents():
    tf = sp.csr_matrix(np.array([[2, 0, 1, 0], [0, 3, 1, 0], [0, 0, 0, 5]], dtype=float))
    query = sp.csr_matrix(np.array([[1, 0, 0, 0]], dtype=float))
    relevant = sp.csr_matrix(np.array([[0, 1, 0]], dtype=float))  # document 1 is relevant
    q = routing_queries(query, relevant, tf, n_terms=2, original_weight=0.2).toarray()[0]
    # document 1: P(w|d) = (0, .75, .25, 0) -> 0.2 * own query + 0.8 * that
    assert q == pytest.approx([0.2, 0.6, 0.2, 0.0])
    none = routing_queries(query, sp.csr_matrix((1, 3)), tf, 2, 0.2).toarray()[0]
    assert none == pytest.approx([1, 0, 0, 0])


def test_analysis_helpers():
    q = "what similarity laws must be obeyed when constructing aeroelastic models of heated"
    assert content_words(q, 3) == ["similarity", "laws", "obeyed"]
    # Harman (1991) S-stemmer rules
    # (the first rule that applies wins: "aies" escapes -ies -> -y but not -es -> -e)
    assert [s_stem(w) for w in ["queries", "aies", "indexes", "toes", "cats", "glass", "corpus"]] \
        == ["query", "aie", "indexe", "toe", "cat", "glass", "corpus"]
    assert Analyzer("none", "lucene").analyze(["The Flows of a wing"]) == [["flows", "wing"]]


def test_missing_extra_gives_a_clear_message(monkeypatch):
    import sys

    from yardstick.inputs.runmaker.analysis import require_runs_extra

    monkeypatch.setitem(sys.modules, "bm25s", None)
    with pytest.raises(ImportError, match=r"pip install 'yardstick-ir\[runs\]'"):
        require_runs_extra()


def test_make_runs_cli(tmp_path):
    from tests.sample_collections import cranfield_root

    root = cranfield_root()          # real, or rebuilt from the bundled sample
    out = tmp_path / "runs"
    assert cli_main(["make-runs", "--collection", "cranfield", "--root", str(root),
                     "--out", str(out), "--depth", "50", "--runs", "okBM25,rtRoute"]) == 0
    assert read_groups(out / "groups.tsv") == {"okBM25": "okapi", "rtRoute": "routing"}
    run = read_run(out / "rtRoute")
    assert run.tag == "rtRoute" and np.bincount(run.topic_code).max() == 50
    assert cli_main(["make-runs", "--collection", "cranfield", "--root", str(root), "--out",
                     str(out), "--runs", "nosuchrun"]) == 1


# ------------------------------------------------------------------ the bundled sample
def test_bundled_sample(cranfield, tmp_path):
    from yardstick.inputs.sample import SAMPLE_DEPTH, load_sample, sample_paths

    paths = sample_paths()
    if not paths.exists():
        pytest.skip("resources/sample not generated")
    files = [paths.qrels, paths.topics, paths.documents, paths.groups, *paths.runs]
    assert sum(p.stat().st_size for p in files) <= 5_000_000
    qrels, topics, documents, runs = load_sample()
    assert (len(qrels), len(topics), len(documents)) == (1837, 225, 1400)
    assert [r.name for r in runs] == [s.tag for s in DEFAULT_SPECS]
    assert {r.group for r in runs} == {s.group for s in DEFAULT_SPECS}
    assert qrels.frame.equals(cranfield.qrels.frame)
    # the files are what make-runs produces at the sample depth (checked on one run of
    # each kind: plain BM25, short queries, feedback + fusion, routing)
    check = {"okBM25", "shT3", "fbRM3", "fbRM3sh", "fbRRF", "rtRoute"}
    fresh = run_sync(make_runs(cranfield.documents, cranfield.topics, cranfield.qrels,
                               specs=[s for s in DEFAULT_SPECS if s.tag in check],
                               depth=SAMPLE_DEPTH, seed=0))
    for run in runs:
        if run.name not in check:
            continue
        write_run(fresh.runs[run.name], tmp_path / "fresh")
        write_run(run, tmp_path / "bundled")
        assert (tmp_path / "fresh").read_bytes() == (tmp_path / "bundled").read_bytes(), run.name
