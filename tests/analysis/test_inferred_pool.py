"""The pool inferred from runs and qrels alone, on generated tracks whose pool is known.

Each track is built as TREC builds one (Buckley et al. 2007, §1): teams' runs ranked from a
shared latent relevance, the qrels the union of the top-k of the pooled runs (per-topic
depths, a second team-level pool, near-copies of pooled runs, or no pool at all), plus a few
relevant documents found by other means.  The inference must recover the contributors and
depths the generator used, or say it cannot tell.
"""

from __future__ import annotations

import numpy as np
import pytest
from pool_tracks import make_track

from yardstick.analysis.pool.inferred_pool import infer_pool, judged_depths
from yardstick.judging.judged_runs_build import build_judged_runs


def _figures(inf, runs, truth):
    found = {r.name for r, c in zip(runs, inf.contributing) if c in ("yes", "likely")}
    pooled = set(truth)
    return len(found & pooled), len(pooled - found), len(found - pooled)


def test_judged_depth_is_the_rank_before_the_first_unjudged_document():
    runs, qrels, _ = make_track(teams=3, topics=4)
    index = build_judged_runs(runs, qrels)
    judged, length = judged_depths(index)
    j = set(zip(qrels.frame["topic"], qrels.frame["docno"]))
    for r, run in enumerate(runs):
        f = run.to_frame() if hasattr(run, "to_frame") else None
        if f is None:
            continue
        for t, topic in enumerate(index.topics):
            docs = f[f["topic"] == topic].sort_values("score", ascending=False)["docno"]
            inq = [(topic, d) in j for d in docs]
            expect = inq.index(False) if False in inq else len(inq)
            assert judged[r, t] == expect


def test_one_pool_per_topic_depths_are_recovered():
    depth = np.tile([20, 50, 80, 35], 5)
    runs, qrels, truth = make_track(depth=depth)
    inf = infer_pool(build_judged_runs(runs, qrels))
    assert inf.status == "inferred"
    assert _figures(inf, runs, truth) == (len(truth), 0, 0)
    np.testing.assert_array_equal(inf.depth, depth)


def test_a_second_team_level_pool_is_found_with_its_depth():
    runs, qrels, truth = make_track(seed=5, depth=np.full(20, 60), second_depth=15)
    inf = infer_pool(build_judged_runs(runs, qrels))
    found, missed, wrong = _figures(inf, runs, truth)
    assert (missed, wrong) == (0, 0) and found == len(truth)
    second = inf.runs[inf.runs["level"] == 2]
    assert set(second.index) == {n for n, d in truth.items() if d[0] == 15}
    assert (second["depth"] == 15).all()
    assert (inf.depth == 60).all()


def test_near_copies_of_pooled_runs_are_only_likely():
    runs, qrels, truth = make_track(seed=11, copies=3)
    inf = infer_pool(build_judged_runs(runs, qrels))
    c = dict(zip(inf.runs.index, inf.runs["contributing"]))
    # a copy is judged to the pool depth on every topic, but has nothing of its own: it and
    # the run it copies are both only "likely"; every other pooled run is "yes"
    for i, name in enumerate(list(truth)[:3]):
        assert c[f"copy{i}"] == "likely" and c[name] == "likely"
    assert all(c[n] == "yes" for n in list(truth)[3:])
    assert not any(v != "no" for n, v in c.items() if n not in truth and not n.startswith("copy"))


def test_a_track_without_pool_structure_cannot_tell():
    runs, qrels, _ = make_track(seed=2, pool=False)
    inf = infer_pool(build_judged_runs(runs, qrels))
    assert inf.status == "cannot tell"
    assert not inf.pooled().any()
    assert inf.summary().startswith("pool cannot be inferred: ")


@pytest.mark.parametrize("seed", [1, 4])
def test_contributors_hold_across_seeds(seed):
    runs, qrels, truth = make_track(seed=seed, teams=15)
    inf = infer_pool(build_judged_runs(runs, qrels))
    assert _figures(inf, runs, truth) == (len(truth), 0, 0)
    assert (inf.depth == 50).all()


def test_several_depths_that_fit_are_said():
    """A topic whose explained documents stay flat from depth 10 to 40 cannot tell which;
    one with a clear peak at 30 can."""
    from yardstick.analysis.pool.judged_depth import best_depth as _best_depth
    from yardstick.analysis.pool.judged_depth import close_depths as _close_depths

    flat = np.minimum(np.arange(51), 10) * 10                 # 100 documents from depth 10 on
    peak = np.concatenate([np.arange(31) * 3, 90 - np.arange(1, 21) * 2])
    cov = np.vstack([np.where(np.arange(51) <= 40, flat, 50), peak])
    depth, share = _best_depth(cov, np.array([100, 90]))
    assert depth.tolist() == [40, 30] and share.tolist() == [1.0, 1.0]
    assert _close_depths(cov, depth, np.array([True, True])) == {0: (10, 40)}


def test_coverage_a_block_of_topics_at_a_time_is_the_same(monkeypatch):
    """The sweep over judged prefixes in blocks of topics (memory bounded) gives what one
    sweep over the whole track gives."""
    from yardstick.analysis.pool import judged_depth

    runs, qrels, _ = make_track(depth=np.tile([20, 50, 80, 35], 5))
    index = build_judged_runs(runs, qrels)
    whole = infer_pool(index)
    monkeypatch.setattr(judged_depth, "COVERAGE_BLOCK", 500)
    blocks = infer_pool(index)
    np.testing.assert_array_equal(whole.depth, blocks.depth)
    assert whole.topics.equals(blocks.topics) and whole.runs.equals(blocks.runs)
