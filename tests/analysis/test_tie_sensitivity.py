"""Tie sensitivity (yardstick.analysis.explain.tie_sensitivity): zero spread without ties, a hand
count
on a small tied example, every sampled value a value some explicit order gives, and
``-M`` applied after the shuffle."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from tests.shared_data import data_dir
from yardstick.analysis.explain.tie_sensitivity import tie_sensitivity
from yardstick.analysis.explain.topic_lesson import appendix_example
from yardstick.common.options import EvalOptions
from yardstick.common.progress import run_sync
from yardstick.evaluation.evaluation_service import evaluate_run
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def _tied_example():
    """Topic q: x, y, z tied at 1.0, only y relevant (R = 1); topic p: no ties.

    trec_eval orders the tie by docno descending: z, y, x -> y at rank 2:
    RR = AP = 1/2, P@1 = 0.  A uniform random order puts y at rank 1, 2 or 3
    with probability 1/3 each: RR in {1, 1/2, 1/3}, mean (1 + 1/2 + 1/3)/3 = 11/18;
    P@1 in {0, 1}, mean 1/3.
    """
    run = Run.from_dict({"q": {"x": 1.0, "y": 1.0, "z": 1.0},
                         "p": {"a": 3.0, "b": 2.0, "c": 1.0}})
    qrels = Qrels.from_dict({"q": {"x": 0, "y": 1, "z": 0}, "p": {"b": 1, "c": 0}})
    return run, qrels


def test_zero_spread_without_ties():
    run, qrels = appendix_example("interpolation")
    res = run_sync(tie_sensitivity(run, qrels, "all_trec", n_orders=20, seed=1))
    assert res.ties["tied_docs"].sum() == 0
    assert (res.per_topic["spread"] == 0).all() and (res.per_topic["changed"] == 0).all()
    assert (res.overall["spread"] == 0).all()
    assert res.overall.loc["map", "trec_eval"] == pytest.approx((1 + 1 + 0.75 + 4 / 15) / 4)


def test_zero_spread_on_a_real_run_without_ties():
    """trec_eval's results.test has ties only in some topics; topic 303's map is untouched."""
    from yardstick.inputs.io import read_qrels, read_run

    te = data_dir("trec_eval_tests") / "v10.0_HEAD"
    if not te.exists():
        pytest.skip("trec_eval test data not present")
    run, qrels = read_run(te / "results.test"), read_qrels(te / "qrels.test")
    res = run_sync(tie_sensitivity(run, qrels, ["map", "P.10", "ndcg"], n_orders=30, seed=2))
    ev = evaluate_run(run, qrels, ["map", "P.10", "ndcg"])
    m = res.topic_frame("map")
    assert m["trec_eval"].tolist() == ev.per_topic["map"].tolist()
    assert (m["min"] <= m["trec_eval"]).all() and (m["trec_eval"] <= m["max"]).all()
    assert res.topic_frame("P_10")["spread"].max() == 0.0  # no tie straddles rank 10
    assert res.ties.loc["303", "tied_docs"] == 3


def test_hand_counted_tied_example():
    run, qrels = _tied_example()
    res = run_sync(tie_sensitivity(run, qrels, ["recip_rank", "map", "P.1"], n_orders=3000,
                                   seed=7))
    rr = res.topic_frame("recip_rank").loc["q"]
    assert rr["trec_eval"] == 0.5
    assert (rr["min"], rr["max"], rr["spread"]) == (1 / 3, 1.0, pytest.approx(2 / 3))
    assert rr["mean"] == pytest.approx(11 / 18, abs=0.02)   # 4 standard errors
    assert rr["changed"] == pytest.approx(2 / 3, abs=0.04)
    p1 = res.topic_frame("P_1").loc["q"]
    assert (p1["trec_eval"], p1["min"], p1["max"]) == (0.0, 0.0, 1.0)
    assert p1["mean"] == pytest.approx(1 / 3, abs=0.04)
    # topic p has no ties: its values never move
    assert res.topic_frame("map").loc["p", "spread"] == 0.0
    assert res.ties.loc["q", "tied_docs"] == 3 and res.ties.loc["p", "tied_docs"] == 0
    assert res.ties.loc["q", "largest_group"] == 3
    # overall MAP = (AP_q + 1/2) / 2 with AP_q in {1, 1/2, 1/3}
    assert set(np.round(res.samples["map"], 6)) == {round((v + 0.5) / 2, 6)
                                                     for v in (1, 0.5, 1 / 3)}
    assert res.overall.loc["map", "trec_eval"] == (0.5 + 0.5) / 2


def test_samples_are_values_of_explicit_orders():
    """Enumerate the 3! orders of the tie by giving distinct scores and evaluating each run."""
    run, qrels = _tied_example()
    explicit = set()
    for order in itertools.permutations("xyz"):
        scores = {d: 10.0 - i for i, d in enumerate(order)}
        r = Run.from_dict({"q": scores, "p": {"a": 3.0, "b": 2.0, "c": 1.0}})
        explicit.add(round(float(evaluate_run(r, qrels, ["ndcg"]).per_topic.loc["q", "ndcg"]), 12))
    res = run_sync(tie_sensitivity(run, qrels, ["ndcg"], n_orders=500, seed=3))
    f = res.topic_frame("ndcg").loc["q"]
    assert round(f["min"], 12) == min(explicit) and round(f["max"], 12) == max(explicit)


def test_cutoff_is_applied_after_the_shuffle():
    """a 2.0, then b and c tied (b relevant, R = 1).  trec_eval: a, c, b, so with -M 2 the
    relevant b is cut off (recall 0); when b is drawn before c it survives (recall 1)."""
    run = Run.from_dict({"q": {"a": 2.0, "b": 1.0, "c": 1.0}})
    qrels = Qrels.from_dict({"q": {"a": 0, "b": 1, "c": 0}})
    res = run_sync(tie_sensitivity(run, qrels, ["num_rel_ret"], n_orders=200, seed=0,
                                   options=EvalOptions(max_docs=2)))
    f = res.topic_frame("num_rel_ret").loc["q"]
    assert (f["trec_eval"], f["min"], f["max"]) == (0.0, 0.0, 1.0)


def test_seeded_and_reproducible():
    run, qrels = _tied_example()
    a = run_sync(tie_sensitivity(run, qrels, ["map"], n_orders=50, seed=11))
    b = run_sync(tie_sensitivity(run, qrels, ["map"], n_orders=50, seed=11))
    assert np.array_equal(a.samples["map"], b.samples["map"])
    assert a.to_frame().equals(b.to_frame())
