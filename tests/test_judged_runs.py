"""The judged ranking of all runs (yardstick.judged_runs.JudgedRuns) is the engine's judged
ranking, run by run: same topics, order, judgments and lines as build_judged_ranking, and the
measure kernels give the same numbers on either (data: trec_eval's own test files)."""

from __future__ import annotations

import numpy as np
import pytest

from yardstick.engine import compute_columns
from yardstick.io import read_qrels, read_run
from yardstick.judged import build_judged_ranking
from yardstick.judged_runs import build_judged_runs
from yardstick.measures.registry import parse_requests
from yardstick.options import EvalOptions
from shared_data import data_dir

TE = data_dir("trec_eval_tests") / "v10.0_HEAD"


@pytest.fixture(scope="module")
def inputs():
    runs = [read_run(TE / name) for name in ("results.test", "results.trunc",
                                             "results-302.test")]
    return runs, {"qrels.test": read_qrels(TE / "qrels.test"),
                  "qrels.rel_level": read_qrels(TE / "qrels.rel_level")}


@pytest.mark.parametrize("qname, level, compat", [("qrels.test", 1, 10), ("qrels.test", 1, 9),
                                                   ("qrels.rel_level", 2, 10),
                                                   ("qrels.rel_level", 0, 10)])
def test_each_run_of_judged_runs_is_the_engines_judged_ranking(inputs, qname, level, compat):
    runs, qrels = inputs
    index = build_judged_runs(runs, qrels[qname], relevance_level=level, compat=compat)
    requests = parse_requests(["all_trec"], compat)
    for i, run in enumerate(runs):
        mine = index.ranking(i)
        ref = build_judged_ranking(run, qrels[qname], EvalOptions(relevance_level=level,
                                                                   compat=compat))
        assert [str(t) for t in mine.topics] == [str(t) for t in ref.topics.tolist()]
        assert np.array_equal(mine.start, ref.start)
        assert np.array_equal(mine.rel, ref.rel)
        assert np.array_equal(mine.line, ref.line)
        assert np.array_equal(mine.num_rel, ref.num_rel)
        a, b = compute_columns(mine, requests), compute_columns(ref, requests)
        assert [c.name for c in a] == [c.name for c in b]
        for x, y in zip(a, b):
            assert np.array_equal(np.asarray(x.values), np.asarray(y.values)), x.name


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


def test_a_view_when_every_run_topic_is_judged(inputs):
    runs, qrels = inputs
    index = build_judged_runs(runs[:1], qrels["qrels.test"])
    jr = index.ranking(0)
    assert np.shares_memory(jr.rel, index.e_rel)
