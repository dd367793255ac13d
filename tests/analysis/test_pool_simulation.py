"""Pool simulations: move-to-front walked by hand, nested random samples, depth pools,
infAP/bpref on simulated judgments checked with pytrec_eval, rank agreement with scipy."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pool_fixtures import hand_qrels, hand_runs, robust03
from scipy import stats

from yardstick.analysis.pool import scoring
from yardstick.analysis.pool.reconstruction import reconstruct_pool
from yardstick.analysis.pool.simulation import (
    judgments_at,
    order_by_depth,
    order_by_runs,
    order_move_to_front,
    order_random,
    simulate,
    simulated_judgments,
)
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.judged_runs_build import build_judged_runs


def _docs(index, keys):
    return list(index.docnos(index.key_doc(np.asarray(keys))))


def test_move_to_front_by_hand():
    # run A: a1 (R), a2 (N), a3 (R); run B: b1 (N), a1, b2 (R)
    runs = [Run.from_frame(pd.DataFrame({"topic": "1", "docno": docs, "score": [3.0, 2.0, 1.0]}),
                           name=n) for n, docs in (("A", ["a1", "a2", "a3"]),
                                                   ("B", ["b1", "a1", "b2"]))]
    qrels = Qrels.from_frame(pd.DataFrame({"topic": "1", "docno": ["a1", "a2", "a3", "b1", "b2"],
                                           "rel": [1, 0, 1, 0, 1]}))
    index = build_judged_runs(runs, qrels)
    order = order_move_to_front(index, max_budget=10, seed=None)
    seq = [d for _, d in sorted(zip(order.value, _docs(index, order.keys)))]
    # both start at priority 0 -> A (first): a1 R keeps A at 0; a2 N -> A -1;
    # B (0): b1 N -> B -1; tie at -1, B was just judged: a1 done, b2 R -> B 0;
    # B exhausted; A: a3 R.
    assert seq == ["a1", "a2", "b1", "b2", "a3"]
    rel, num_rel, num_nonrel = judgments_at(index, order, 3)
    assert num_rel.tolist() == [1] and num_nonrel.tolist() == [2]      # a1 | a2, b1


@pytest.fixture(scope="module")
def hand():
    return build_judged_runs(hand_runs(), hand_qrels())


def test_depth_order_is_the_shallower_pool(hand):
    order = order_by_depth(hand, 3)
    rel, num_rel, num_nonrel = judgments_at(hand, order, 1)
    # depth-1 pool: {d1 d2 d6} and {e2 e4 e1}; judged there: d1 1, d2 0, d6 1 | e2 0, e1 2
    assert num_rel.tolist() == [2, 1] and num_nonrel.tolist() == [1, 1]
    _, levels = simulated_judgments(hand, order, 1)
    ap = scoring.score_all(hand, "map", rel, levels)
    # run C: d6 R, d1 R, d7 (not judged at depth 1) -> (1 + 1)/2; e1 R at 1 -> 1
    assert ap[2].tolist() == pytest.approx([1.0, 1.0])


def test_runs_order_adds_groups(hand):
    order = order_by_runs(hand, 2, unit="group", seed=3)
    _, r1, n1 = judgments_at(hand, order, 1)
    _, r2, n2 = judgments_at(hand, order, 2)
    # all groups (level 2) = the depth-2 pool: d1 d2 d4 d6 | e1 e2 e5 judged
    assert r2.tolist() == [3, 2] and n2.tolist() == [1, 1]
    # one group: G1 alone judges d1 d2 d4 | e1 e2 e5, G2 alone d6 d1 | e1
    assert (r1.tolist(), n1.tolist()) in (([2, 2], [1, 1]), ([2, 1], [0, 0]))


@pytest.fixture(scope="module")
def r03():
    runs, qrels = robust03()
    return runs, qrels, build_judged_runs(runs, qrels, compat=9)


def test_random_sample_sizes_nesting_and_seed(r03):
    _, _, index = r03
    pool = reconstruct_pool(index, 125)
    sizes = np.bincount(index.key_topic(pool.keys), minlength=index.n_topics)
    a = order_random(index, 125, seed=7)
    b = order_random(index, 125, seed=7)
    assert np.array_equal(a.value, b.value)
    per_topic = np.bincount(index.key_topic(a.keys[a.value <= 50]), minlength=index.n_topics)
    assert np.array_equal(per_topic, np.minimum(sizes, 50))
    small = set(a.keys[a.value <= 20].tolist())
    assert small <= set(a.keys[a.value <= 50].tolist())
    c = order_random(index, 125, seed=8)
    assert not np.array_equal(a.value, c.value)


def test_infap_and_bpref_on_a_random_sample_match_pytrec_eval(r03):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    runs, qrels, index = r03
    order = order_random(index, 125, seed=1)
    rel, levels = simulated_judgments(index, order, 100)
    # the same judgments as a qrels file would hold them: sampled pool documents keep
    # their judgment, the rest of the pool is "-1" (in the pool, not judged)
    found, val = index.lookup(order.keys)
    sampled = order.value <= 100
    qd: dict = {}
    for k, f, v, s in zip(order.keys, found, val, sampled):
        t, d = index.topics[index.key_topic(np.array([k]))[0]], index.docnos([index.key_doc(k)])[0]
        if s and f and v >= 0:
            qd.setdefault(t, {})[d] = int(v)
        elif not s:
            qd.setdefault(t, {})[d] = -1
    vals = {m: scoring.score_all(index, m, rel, levels) for m in ("infAP", "bpref")}
    for i, run in enumerate(runs[:2]):
        f = run.to_frame()
        rd: dict = {}
        for t, d, s in zip(f["topic"].astype(str), f["docno"].astype(str), f["score"]):
            rd.setdefault(t, {})[d] = float(s)
        res = pytrec_eval.RelevanceEvaluator(qd, {"infAP", "bpref"}).evaluate(rd)
        for t, v in res.items():
            ti = int(np.flatnonzero(index.topics == t)[0])
            assert vals["infAP"][i, ti] == pytest.approx(v["infAP"], abs=1e-12)
            assert vals["bpref"][i, ti] == pytest.approx(v["bpref"], abs=1e-12)


def test_simulation_rank_agreement_is_scipy_kendall_tau(r03):
    _, _, index = r03
    res = simulate(index, 125, "depth", [10, 125], measures=("map",))
    sc = res.scores
    full = sc[sc["level"] == "full"].set_index("run")["score"]
    ten = sc[(sc["level"] == "10") & (sc["measure"] == "map")].set_index("run")["score"]
    tau = stats.kendalltau(full.to_numpy(), ten.loc[full.index].to_numpy()).statistic
    row = res.levels[(res.levels["level"] == 10) & (res.levels["measure"] == "map")].iloc[0]
    assert row["kendall_tau"] == pytest.approx(tau)
    # depth 10 judges the depth-10 pool: judged per topic counted from the pool itself
    pool = reconstruct_pool(index, 10)
    found, v = index.lookup(pool.keys)
    assert row["judged"] == pytest.approx((found & (v >= 0)).sum() / 100)
    # at the official depth every judged pool document is used again
    full_row = res.levels[res.levels["level"] == 125].iloc[0]
    assert full_row["share_relevant"] == pytest.approx(1.0)


def test_rescoring_a_block_of_runs_at_a_time_changes_nothing(hand, monkeypatch):
    """The simulation and the uniques test re-score runs a block at a time (a cancellation
    point after each block); one run per block must give exactly the numbers of one block
    for all (the per-run judgment counts of the uniques test cut with the runs)."""
    import yardstick.analysis.pool.simulation as sim
    from yardstick.analysis.pool.uniques import leave_out_uniques

    whole = sim.simulate(hand, 2, "random", [2, 4, 8], seed=3)
    uniq = [leave_out_uniques(hand, 2, unit, m) for unit in ("run", "group")
            for m in ("map", "bpref")]
    monkeypatch.setattr(scoring, "RUN_BLOCK", 1)
    blocks = sim.simulate(hand, 2, "random", [2, 4, 8], seed=3)
    pd.testing.assert_frame_equal(whole.levels, blocks.levels)
    pd.testing.assert_frame_equal(whole.scores, blocks.scores)
    uniq_blocks = [leave_out_uniques(hand, 2, unit, m) for unit in ("run", "group")
                   for m in ("map", "bpref")]
    for a, b in zip(uniq, uniq_blocks):
        pd.testing.assert_frame_equal(a.frame, b.frame)
    assert hand.n_runs > 1
