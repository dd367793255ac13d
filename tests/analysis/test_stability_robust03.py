"""Stability diagnostics on the 17 TREC 2003 robust runs.

The real runs (``../shared/data/trectools_robust03``) when they are there, else the
generated track with their layout (:mod:`tests.generated_track`).  Every test
checks against a direct computation (scipy's ``kendalltau`` and ``ttest_rel``,
tau_AP from its definition in :mod:`tests.rank_oracles`); on the real runs also
the published numbers (trectools README, Examples 3-4; SOURCES.md there re-verifies
the first two): (trectools README, Examples 3-4; SOURCES.md there re-verifies the first two):
Kendall's tau between the P_10 and map rankings = 0.7647; tau_AP (P_10 as truth) = 0.77413;
paired t-test on per-topic P_10, aplrob03a vs UIUC03Rd1: p = 0.0167 (t = 2.4337, df = 99).
"""

import numpy as np
import pytest
from scipy import stats

from tests.rank_oracles import ranking, tau_ap_direct
from tests.shared_data import REAL_ROBUST03, robust03_dir
from yardstick.common.progress import run_sync

DATA = robust03_dir()


@pytest.fixture(scope="module")
def matrices():
    """Per-topic P_10 and map of the 17 runs: yardstick.evaluation.evaluation_service, or
    pytrec_eval while it is absent."""
    from yardstick.inputs.io import read_qrels, read_run

    qrels = read_qrels(DATA / "qrels" / "robust03_qrels.txt")
    runs = [read_run(p, name=p.name.removeprefix("input.").removesuffix(".gz"))
            for p in sorted((DATA / "runs").glob("input.*.gz"))]
    try:
        from yardstick.evaluation.engine import evaluate_run  # noqa: F401
        from yardstick.session.evaluating import evaluate_runs
        evals = run_sync(evaluate_runs(runs, qrels, ["map", "P.10"]))
    except ImportError:
        from pytrec_evaluations import pytrec_evaluations
        evals = pytrec_evaluations(runs, qrels, {"map", "P_10"})
    from yardstick.evaluation.evaluation_service import score_matrix
    # trec_eval -c: a topic a run lacks scores 0 (the generated humR03dc lacks 601)
    return score_matrix(evals, "P_10").fillna(0.0), score_matrix(evals, "map").fillna(0.0)


def test_kendall_tau_p10_vs_map_is_published_value(matrices):
    from yardstick.analysis.stability import compare_rankings

    p10, mapm = matrices
    assert p10.shape == (100, 17)
    res = compare_rankings(p10.mean(), mapm.mean(), "P_10", "map")
    assert res.tau == pytest.approx(stats.kendalltau(p10.mean(), mapm.mean())[0], abs=1e-12)
    truth, est = ranking(p10.mean().to_dict()), ranking(mapm.mean().to_dict())
    assert res.tau_ap == pytest.approx(tau_ap_direct(truth, est), abs=1e-12)
    if REAL_ROBUST03:
        assert round(res.tau, 4) == 0.7647
        assert round(res.tau_ap, 5) == 0.77413   # trectools get_correlation(..., "tauap")


def test_paired_t_test_p10_is_published_value(matrices):
    from yardstick.analysis.paired_tests import paired_t_test
    from yardstick.analysis.stability import paired_t_tests

    p10, _ = matrices
    res = paired_t_test(p10["aplrob03a"].to_numpy(float), p10["UIUC03Rd1"].to_numpy(float))
    t, p = float(res.statistic), float(res.pvalue)
    want = stats.ttest_rel(p10["aplrob03a"], p10["UIUC03Rd1"])
    assert (t, p) == pytest.approx((want.statistic, want.pvalue), rel=1e-9)
    if REAL_ROBUST03:
        assert round(p, 4) == 0.0167 and round(t, 4) == 2.4337
    table = paired_t_tests(p10)
    row = table[(table.run_a == "UIUC03Rd1") & (table.run_b == "aplrob03a")]
    if row.empty:
        row = table[(table.run_a == "aplrob03a") & (table.run_b == "UIUC03Rd1")]
    assert float(row["p_value"].iloc[0]) == pytest.approx(p, rel=1e-9)


def test_old_and_new_topics_and_diagnostics(matrices):
    from yardstick.analysis.stability import (
        error_rates,
        group_rank_correlation,
        parse_topic_spec,
        run_per_group,
        swap_rates,
    )
    from yardstick.analysis.stability.error_rate import error_rate

    p10, mapm = matrices
    old = parse_topic_spec("301-450", mapm.index)
    new = parse_topic_spec("601-650", mapm.index)
    assert len(old) == 50 and len(new) == 50
    # old topics are harder (robust overview §2)
    assert (mapm.loc[old].mean() < mapm.loc[new].mean()).all()
    corr = group_rank_correlation(p10, old, new, "old", "new", tie_break=mapm)
    assert -1 <= corr.tau <= 1 and len(corr.ranking_a) == 17
    er = run_sync(error_rates({"map": mapm, "P_10": p10}, samples=200, seed=1))
    for r in er.values():
        assert 0 <= r.error_rate <= 0.5 and 0 <= r.tie_rate <= 1
    grouped = run_sync(run_per_group(error_rate, mapm, {"old": old, "new": new}, samples=100,
                                     seed=2))
    assert grouped.topics["old"] == old
    sw = run_sync(swap_rates(mapm, sizes=[10, 20, 30, 40, 50], samples=100, seed=3))
    assert sw.top_score == pytest.approx(mapm.mean().max())
    assert np.isfinite(sw.min_difference)
