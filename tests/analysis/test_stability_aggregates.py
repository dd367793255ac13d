"""Sample aggregates: the mean, and the robust track's MAP(X) and area over each sample's
worst topics."""

import numpy as np
import pytest

from yardstick.analysis.stability.aggregates import (
    MEAN,
    WorstTopicsAggregate,
    aggregate_for,
    per_topic_measure,
)
from yardstick.analysis.stability.error_rate import error_rate
from yardstick.analysis.stability.swap_rates import swap_rates
from yardstick.common.progress import run_sync


def test_worst_topics_by_hand():
    # AP of one run over 8 topics; X = 8 // 4 = 2 worst topics: .05, .10
    # MAP(1) = .05, MAP(2) = (.05 + .10) / 2 = .075 -> map_worst = .075, area = (.05 + .075)/2
    ap = np.array([[0.1], [0.4], [0.2], [0.3], [0.05], [0.5], [0.6], [0.7]])
    assert aggregate_for("map_worst").full(ap)[0] == pytest.approx(0.075)
    assert aggregate_for("area").full(ap)[0] == pytest.approx(0.0625)
    # area.3: MAP(1..3) = .05, .075, .35/3 -> mean
    assert aggregate_for("area.3").full(ap)[0] == pytest.approx((0.05 + 0.075 + 0.35 / 3) / 3)
    assert aggregate_for("map_worst_1").full(ap)[0] == pytest.approx(0.05)
    # on a sample of 4 topics (indices 0, 1, 2, 4) X = 1 -> the sample's own worst, .05
    assert aggregate_for("area").samples(ap, np.array([[0, 1, 2, 4]]))[0, 0] == pytest.approx(0.05)


def test_mean_aggregate_and_names():
    vals = np.arange(12.0).reshape(4, 3)
    idx = np.array([[0, 1], [2, 2]])
    assert MEAN.samples(vals, idx) == pytest.approx(np.array([[1.5, 2.5, 3.5], [6, 7, 8]]))
    assert aggregate_for("map") is MEAN and aggregate_for("P_10") is MEAN
    assert aggregate_for("area") == WorstTopicsAggregate(None, True)
    assert per_topic_measure("area") == "map" and per_topic_measure("ndcg_cut_10") == "ndcg_cut_10"


def test_area_matches_the_engine_on_a_real_run():
    from tests.shared_data import robust03_dir
    data = robust03_dir()          # the real runs, or the generated track with their layout
    from yardstick.evaluation.evaluation_service import evaluate_run
    from yardstick.inputs.io import read_qrels, read_run
    ev = evaluate_run(read_run(data / "runs" / "input.aplrob03a.gz"),
                  read_qrels(data / "qrels" / "robust03_qrels.txt"), ["map", "area", "map_worst"])
    ap = ev.per_topic[["map"]].to_numpy()
    assert aggregate_for("area").full(ap)[0] == pytest.approx(ev.summary["area"], abs=1e-12)
    assert aggregate_for("map_worst").full(ap)[0] == pytest.approx(ev.summary["map_worst"],
                                                                  abs=1e-12)


def test_diagnostics_use_the_aggregate_of_the_measure():
    import pandas as pd
    rng = np.random.default_rng(0)
    ap = pd.DataFrame(rng.random((40, 5)) ** 2, columns=list("ABCDE"))
    sw = run_sync(swap_rates(ap, sizes=[8, 12, 20], samples=50, seed=1, measure="area"))
    assert sw.top_score == pytest.approx(aggregate_for("area").full(ap.to_numpy()).max())
    a = run_sync(error_rate(ap, samples=50, seed=1, measure="area"))
    m = run_sync(error_rate(ap, samples=50, seed=1, measure="map"))
    assert not np.array_equal(a.gt, m.gt)


def test_sample_means_gathers_into_its_buffers_without_copies():
    """The sums of :func:`sample_means` are ``values[indices].sum(axis=1)``'s, and its gathers
    write straight into its output: no buffer allocated a topic (``np.take(out=...)`` with
    the default ``mode="raise"`` copies ``out`` on every call, which a Dask worker maps and
    faults afresh each time, issue 30's 1-worker overhead).  tracemalloc sees numpy's data
    buffers: the peak is the output, the row buffer and a little, not a third block."""
    import tracemalloc

    from yardstick.analysis.stability.resampling import GATHER_ELEMENTS, sample_means

    rng = np.random.default_rng(3)
    values = rng.random((50, 150))
    idx = rng.integers(0, 50, size=(1000, 20))
    want = values[idx].sum(axis=1) / 20
    tracemalloc.start()
    try:
        got = sample_means(values, idx)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert np.array_equal(got, want)
    block = (GATHER_ELEMENTS // 150) * 150 * 8          # one block of samples × runs
    assert got.nbytes + block < peak < got.nbytes + block + block // 2
