"""The judged ranking of all runs (yardstick.judging.judged_runs.JudgedRuns) is the engine's judged
ranking, run by run: same topics, order, judgments and lines as build_judged_ranking under
every option (-M, -J, -c, -l, trec_eval 9 and 10 orders), and the measure kernels give the
same numbers on either; where pytrec_eval (trec_eval's C code) has the option, its numbers
too (data: trec_eval's own test files)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import pytrec_eval
from shared_data import data_dir

from yardstick.common.options import EvalOptions
from yardstick.evaluation.engine import compute_columns
from yardstick.evaluation.measures.registry import parse_requests
from yardstick.inputs.io import read_qrels, read_run
from yardstick.inputs.run import Run
from yardstick.inputs.run_cache import derived
from yardstick.judging.judged import build_judged_ranking
from yardstick.judging.judged_runs_build import build_judged_runs

TE = data_dir("trec_eval_tests") / "v10.0_HEAD"
RUNS = ("results.test", "results.trunc", "results-302.test")


def _inputs():
    return ([read_run(TE / name) for name in RUNS],
            {"qrels.test": read_qrels(TE / "qrels.test"),
             "qrels.rel_level": read_qrels(TE / "qrels.rel_level")})


@pytest.fixture(scope="module")
def inputs():
    return _inputs()


def _same_ranking(mine, ref, compat):
    assert [str(t) for t in mine.topics] == [str(t) for t in ref.topics.tolist()]
    assert np.array_equal(mine.start, ref.start)
    assert mine.rel.dtype == ref.rel.dtype and np.array_equal(mine.rel, ref.rel)
    assert np.array_equal(mine.line, ref.line)
    assert np.array_equal(mine.missing, ref.missing)
    assert np.array_equal(mine.rel_levels, ref.rel_levels)
    assert np.array_equal(mine.num_rel, ref.num_rel)
    assert mine.num_qrels_topics == ref.num_qrels_topics
    requests = parse_requests(["all_trec"], compat)
    a, b = compute_columns(mine, requests), compute_columns(ref, requests)
    assert [c.name for c in a] == [c.name for c in b]
    for x, y in zip(a, b):
        u, v = np.asarray(x.values), np.asarray(y.values)
        assert np.array_equal(u, v, equal_nan=u.dtype.kind == "f"), x.name


@pytest.mark.parametrize("qname, level, compat", [("qrels.test", 1, 10), ("qrels.test", 1, 9),
                                                   ("qrels.rel_level", 2, 10),
                                                   ("qrels.rel_level", 0, 10)])
def test_each_run_of_judged_runs_is_the_engines_judged_ranking(inputs, qname, level, compat):
    runs, qrels = inputs
    index = build_judged_runs(runs, qrels[qname], relevance_level=level, compat=compat)
    for i, run in enumerate(runs):
        ref = build_judged_ranking(run, qrels[qname], EvalOptions(relevance_level=level,
                                                                   compat=compat))
        _same_ranking(index.ranking(i), ref, compat)


OPTIONS = [dict(zip(("max_docs", "judged_only", "complete", "relevance_level"), v))
           for v in itertools.product((None, 0, 3, 100), (False, True), (False, True), (1, 2))]


@pytest.mark.parametrize("compat", [10, 9])
@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_every_option_gives_the_engines_judged_ranking(opts, compat):
    """-M, -J, -c and -l, alone and together: ranking(i, options) is build_judged_ranking.
    Fresh runs (nothing kept from another test), with a topic the qrels lack
    (results-302.test has only 302; qrels.rel_level judges other topics) and runs that
    miss judged topics (the -c stand-ins)."""
    runs, qrels = _inputs()
    q = qrels["qrels.rel_level"]
    index = build_judged_runs(runs, q, relevance_level=opts["relevance_level"], compat=compat)
    options = EvalOptions(compat=compat, **opts)
    for i, run in enumerate(runs):
        _same_ranking(index.ranking(i, options), build_judged_ranking(run, q, options), compat)


@pytest.mark.parametrize("level, judged_only", [(1, False), (2, False), (1, True)])
def test_judged_runs_rankings_give_pytrec_evals_numbers(inputs, level, judged_only):
    """trec_eval's C code (pytrec_eval, trec_eval 9's order) on the same run and options."""
    runs, qrels = inputs
    q = qrels["qrels.rel_level"]
    index = build_judged_runs(runs, q, relevance_level=level, compat=9)
    measures = {"map", "P_10", "ndcg", "bpref", "recip_rank", "num_rel_ret", "Rprec"}
    evaluator = pytrec_eval.RelevanceEvaluator(q.to_dict(), measures, relevance_level=level,
                                               judged_docs_only_flag=judged_only)
    requests = parse_requests(["map", "P.10", "ndcg", "bpref", "recip_rank", "num_rel_ret",
                               "Rprec"], 9)
    checked = 0
    for i, run in enumerate(runs):
        jr = index.ranking(i, EvalOptions(relevance_level=level, judged_only=judged_only,
                                          compat=9))
        want = evaluator.evaluate({str(t): dict(zip(run.docnos[run.doc_code[run.topic_code == c]],
                                                    run.score[run.topic_code == c].tolist()))
                                   for c, t in enumerate(run.topics)})
        for col in compute_columns(jr, requests):
            for t, v in zip(jr.topics.tolist(), np.asarray(col.values)):
                assert v == pytest.approx(want[str(t)][col.name], abs=1e-12), (col.name, t)
                checked += 1
    assert checked >= 7 * 6          # every measure of every evaluated topic of the 3 runs


def test_all_runs_scored_at_once_equal_the_engine_run_by_run(inputs):
    runs, qrels = inputs
    index = build_judged_runs(runs, qrels["qrels.test"])
    jr = index.judged()                                 # segments: run x topic
    requests = parse_requests(["map", "bpref", "infAP", "P.10", "ndcg_cut.10"], 10)
    cols = compute_columns(jr, requests)
    for i, run in enumerate(runs):
        ref = build_judged_ranking(run, qrels["qrels.test"])
        t = [list(index.topics).index(str(x)) for x in ref.topics.tolist()]
        for c, r in zip(cols, compute_columns(ref, requests)):
            got = np.asarray(c.values).reshape(index.n_runs, index.n_topics)[i, t]
            assert np.array_equal(got, np.asarray(r.values)), c.name


def test_judged_once_the_evaluations_order_and_judgments_are_read_not_remade(monkeypatch):
    """After the evaluation, building the judged runs neither sorts nor joins again: the
    lines are the run's cached order (the same array), and the run's kept judgments
    become a view of the one e_rel (memory held once)."""
    runs, qrels = _inputs()
    q = qrels["qrels.test"]
    for run in runs:
        build_judged_ranking(run, q)                    # what the window's evaluation does
    joins, sorts = [], []
    monkeypatch.setattr(Run, "lookup", lambda self, *a, **k: joins.append(self.name))
    import yardstick.inputs.ranking as rk  # cached_order sorts with it
    monkeypatch.setattr(rk, "trec_order", lambda *a, **k: sorts.append(a))
    index = build_judged_runs(runs, q)
    assert joins == [] and sorts == []
    for i, run in enumerate(runs):
        assert index.run_lines[i] is derived(run).trec_order[10]
        assert np.shares_memory(derived(run).judgments[2], index.e_rel)
        jr = index.ranking(i)
        if jr.start[-1] == len(run):                   # nothing cut: the run's own order
            assert jr.line is derived(run).trec_order[10]
    # and the engine, asked again, reads those views (no join): same ranking as before
    again = build_judged_ranking(runs[0], q)
    assert joins == []
    _same_ranking(index.ranking(0), again, 10)


def test_judgments_equal_an_independent_look_up_of_the_coded_qrels(inputs):
    """e_rel (the engine's join, exact on docno bytes) equals the qrels looked up by
    (topic, docno code) in the index's own sorted keys."""
    runs, qrels = inputs
    for q in qrels.values():
        index = build_judged_runs(runs, q)
        want = index.lookup_rel(np.sort(index.entry_keys()))
        order = np.argsort(index.entry_keys(), kind="stable")
        got = index.e_rel[order]
        assert np.array_equal(got, want)
        assert index.e_rel.dtype == np.int8


def test_doc_codes_follow_first_appearance_qrels_first(inputs):
    runs, qrels = inputs
    q = qrels["qrels.test"]
    index = build_judged_runs(runs, q)
    seen = list(dict.fromkeys([b.rstrip(b"\0") for b in q.docno_bytes.tolist()]
                              + [b.rstrip(b"\0") for r in runs for b in r.docno_bytes.tolist()]))
    assert [b.rstrip(b"\0") for b in index.doc_bytes.tolist()] == seen


def test_docno_codes_are_pandas_factorize_of_the_arrays_one_after_another():
    # the codes DocnoCodes builds one array at a time are those pandas.factorize gives
    # the concatenation (first appearance first), whatever mix of known and new docnos
    import pandas as pd

    from yardstick.judging.docno_codes import DocnoCodes

    rng = np.random.default_rng(5)
    vocab = np.array([f"D{i:0{rng.integers(1, 9)}d}".encode() for i in range(400)])
    arrays = [vocab[rng.integers(0, k, size=n)] for k, n in
              ((50, 80), (120, 300), (400, 500), (60, 10), (400, 1))]
    arrays.append(np.array([b"D1", b"new", b"D1", b"new", b"x" * 30]))  # wider, repeated new
    codes = DocnoCodes()
    got = np.concatenate([codes.add(a) for a in arrays])
    want, uniques = pd.factorize(pd.Series(np.concatenate([a.astype(object) for a in arrays])))
    assert got.tolist() == want.tolist() and codes.n == len(uniques)
    assert codes.doc_bytes().tolist() == list(uniques)
