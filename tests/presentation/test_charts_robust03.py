"""Chart numbers on the 17 TREC 2003 Robust runs, against direct computations and,
on the real runs, published values.

Evaluations come from pytrec_eval (trec_eval's C code), so these tests check the
chart layer, not the engine.  Without ``../shared`` the runs are the generated
track with the same layout (:mod:`tests.generated_track`): every test runs there
against a direct computation (scipy's Kendall tau, pytrec_eval's P_k, numpy's
sorted means); the published numbers are asserted only on the real runs.
"""

import numpy as np
import pytest
from pytrec_evaluations import REAL_ROBUST03, ROBUST03, pytrec_evaluations
from scipy import stats

from yardstick.inputs.io import read_qrels, read_run
from yardstick.presentation.charts.map_at_x import map_at_x
from yardstick.presentation.charts.measure_scatter import measure_scatter
from yardstick.presentation.charts.median_difference import median_difference
from yardstick.presentation.charts.precision_cutoffs import CUTOFFS, precision_at_cutoffs
from yardstick.presentation.charts.rank_correlation import rank_correlation
from yardstick.presentation.charts.topic_spread import difficult_topics, topic_spread


@pytest.fixture(scope="module")
def evals():
    qrels = read_qrels(ROBUST03 / "qrels" / "robust03_qrels.txt")
    runs = [read_run(p) for p in sorted((ROBUST03 / "runs").glob("input.*.gz"))]
    assert len(runs) == 17
    return pytrec_evaluations(runs, qrels, {"map", "P", "Rprec"})


def test_kendall_tau_between_p10_and_map_rankings(evals):
    # trectools README, example 4: Kendall tau between P_10 and map rankings = 0.7647
    rc = rank_correlation(evals, ["map", "P_10", "Rprec"])
    means = {m: [evals[r].per_topic[m].mean() for r in evals] for m in ("map", "P_10")}
    assert rc.tau[0, 1] == pytest.approx(stats.kendalltau(means["map"], means["P_10"])[0])
    if REAL_ROBUST03:
        assert round(rc.tau[0, 1], 4) == 0.7647
    assert rc.tau[1, 0] == rc.tau[0, 1] and np.all(np.diag(rc.tau) == 1)
    assert rc.to_frame().loc["P_10", "map"] == rc.tau[0, 1]
    sc = measure_scatter(evals, "map", "P_10")
    assert sc.kendall == pytest.approx(rc.tau[0, 1])
    assert len(sc.runs) == 17


def test_precision_at_cutoffs_equal_nist_summary(evals):
    pc = precision_at_cutoffs(evals)
    assert pc.cutoffs.tolist() == list(CUTOFFS)
    f = pc.to_frame()
    for run in evals:
        assert f.loc[:, run].tolist() == pytest.approx(
            [evals[run].per_topic[f"P_{k}"].mean() for k in CUTOFFS])
    if REAL_ROBUST03:   # NIST TREC-browser summary of aplrob03a: P_100 0.1864, P_1000 0.0417
        assert round(f.loc[100, "input.aplrob03a"], 4) == 0.1864
        assert round(f.loc[1000, "input.aplrob03a"], 4) == 0.0417


def test_area_of_worst_quarter_old_topics(evals):
    # robust overview §3.3: "the best area score … obtained by a run in the robust track
    # over the old set of 50 topics was 0.0203" -- THUIRr0301 here
    old = [t for t in evals["input.aplrob03a"].per_topic.index if int(t) < 600]
    assert len(old) == 50
    m = map_at_x(evals, topics=old)
    assert m.x_max == 12
    area = m.area_frame()["area"]
    for run in evals:   # mean over X = 1..12 of the mean AP of the X worst old topics
        worst = np.sort(evals[run].per_topic.loc[old, "map"].to_numpy())
        assert area[run] == pytest.approx(np.mean([worst[:x].mean() for x in range(1, 13)]))
    full = map_at_x(evals)
    assert full.to_frame().loc[100, "input.aplrob03a"] == pytest.approx(
        evals["input.aplrob03a"].per_topic["map"].mean())
    if REAL_ROBUST03:
        assert area.idxmax() == "input.THUIRr0301"
        assert round(area.max(), 4) == 0.0203
        # MAP(N) over all 100 topics is the run's MAP: NIST's map for aplrob03a is 0.2998
        assert round(full.to_frame().loc[100, "input.aplrob03a"], 4) == 0.2998


def test_histogram_bars_are_ap_minus_median(evals):
    md = median_difference(evals, "input.aplrob03a", "map", order="difference")
    # a run without a topic (the generated humR03dc lacks 601) is left out of its median
    aps = np.array([[evals[r].per_topic["map"].get(t, np.nan) for r in evals]
                    for t in md.topics])
    assert md.value == pytest.approx(evals["input.aplrob03a"].per_topic.loc[list(md.topics),
                                                                             "map"].to_numpy())
    assert md.difference == pytest.approx(md.value - np.nanmedian(aps, axis=1))
    assert np.all(np.diff(md.difference) <= 0)
    assert len(md.topics) == 100


def test_difficult_topics_on_real_runs(evals):
    sp = topic_spread(evals, "map")
    chosen = difficult_topics(sp, median_at_most=0.1, outlier_at_least=0.3)
    assert chosen, "robust03 holds known-difficult topics"
    f = sp.to_frame()
    for t in chosen:
        assert f.loc[t, "median"] <= 0.1
        row = sp.scores.loc[t]
        assert (row > max(f.loc[t, "whisker_high"], 0.3 - 1e-12)).any()
