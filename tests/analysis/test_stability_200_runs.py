"""Every stability analysis on a generated 200-run track agrees with a direct computation
(issue 15: "Tests with a 200-run generated track: every stability analysis completes
and agrees with a direct computation").

The track: 200 runs × 60 topics of a continuous AP-like measure (``map``, no ties
between run means) and a P_10-like one in tenths (``P_10``, many tied means, broken
by MAP as the report does).  All analyses of the registry run in one report
(:func:`yardstick.analysis.stability.report.run_stability`, B = 20 to stay fast); each is then
recomputed independently:

* Kendall's tau: :func:`scipy.stats.kendalltau` of the runs' positions;
* tau_AP: the definition of Yilmaz, Aslam & Robertson, "A new rank correlation
  coefficient for information retrieval", SIGIR 2008, §3 (``tests/rank_oracles.py``);
* error rate: the same topic subsets (same seed), sample means and the
  Buckley & Voorhees fuzziness rule ("Evaluating evaluation measure stability",
  SIGIR 2000, §3) counted pair by pair with plain numpy;
* discriminative power: the paired t statistics of :func:`scipy.stats.ttest_rel`
  and the mean differences;
* Tukey HSD: the run means and the best run;
* topic-set size: the residual variance of a one-way ANOVA as the mean of the
  runs' sample variances (Sakai, "Topic set size design", 2016, §6);
* swap rates (disjoint and bootstrap) and sensitivity: the best mean, and every
  run pair compared once per sample and subset size.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from tests.rank_oracles import tau_ap_direct
from yardstick.analysis.stability.analyses import REGISTRY
from yardstick.analysis.stability.report import ANALYSES, StabilitySettings, run_stability
from yardstick.analysis.stability.resampling import subset_indices
from yardstick.common.progress import run_sync

RUNS, TOPICS, B, SEED = 200, 60, 20, 11


@pytest.fixture(scope="module")
def track():
    rng = np.random.default_rng(2008)
    skill = rng.beta(2, 5, RUNS)
    difficulty = rng.beta(2, 2, TOPICS)
    ap = np.clip(skill[None, :] * (0.4 + difficulty[:, None]) + rng.normal(0, 0.12,
                                                                          (TOPICS, RUNS)), 0, 1)
    p10 = np.round(np.clip(ap + rng.normal(0, 0.1, ap.shape), 0, 1) * 10) / 10
    topics = [str(301 + i) for i in range(TOPICS)]
    runs = [f"team{r // 4:02d}-run{r % 4}" for r in range(RUNS)]
    mats = {"map": pd.DataFrame(ap, index=topics, columns=runs),
            "P_10": pd.DataFrame(p10, index=topics, columns=runs)}
    settings = StabilitySettings(samples=B, seed=SEED)
    rep = run_sync(run_stability(mats, ANALYSES, {"all": topics}, settings, mats["map"]))
    return mats, rep


def _ranking(means: pd.Series, tie_break: pd.Series) -> list[str]:
    # means to 12 places: the same tenths summed in another order tie
    return sorted(means.index, key=lambda r: (-round(means[r], 12), -tie_break[r]))


def test_every_analysis_completes(track):
    _, rep = track
    assert set(rep.results) == set(ANALYSES) == set(REGISTRY)
    assert not [n for n in rep.notes if "skipped" in n]
    for name in ANALYSES:
        assert rep.results[name], name


def test_rank_correlations_equal_scipy_and_the_definition(track):
    mats, rep = track
    mapm = mats["map"].mean()
    order = {m: _ranking(mat.mean(), mapm) for m, mat in mats.items()}
    pos = {m: [o.index(r) for r in mapm.index] for m, o in order.items()}
    tau = rep.table("kendall_matrix")
    assert tau.loc["map", "P_10"] == pytest.approx(
        stats.kendalltau(pos["map"], pos["P_10"])[0], abs=1e-12)
    tap = rep.table("taup_matrix")                  # row = truth, column = estimate
    assert tap.loc["map", "P_10"] == pytest.approx(tau_ap_direct(order["map"], order["P_10"]),
                                                   abs=1e-12)
    assert tap.loc["P_10", "map"] == pytest.approx(tau_ap_direct(order["P_10"], order["map"]),
                                                   abs=1e-12)
    assert len(rep.table("ranking_legend")) == RUNS       # one symbol per run


def _sig12(x: np.ndarray) -> np.ndarray:
    return np.vectorize(lambda v: float(f"{v:.12g}"))(x)


def test_error_rate_equals_a_direct_count(track):
    mats, rep = track
    for m, mat in mats.items():
        r = rep.results["error-rate"][(m, "all")]
        values = mat.to_numpy()
        idx = subset_indices(np.random.default_rng(SEED), TOPICS, TOPICS // 2, B)
        means = _sig12(values[idx].mean(axis=1))              # B × R
        ii, jj = np.triu_indices(RUNS, k=1)
        a, b = means[:, ii], means[:, jj]
        tie = (np.abs(a - b) < 0.05 * np.maximum(np.abs(a), np.abs(b))) | (a == b)
        assert r.eq.tolist() == tie.sum(axis=0).tolist()
        assert r.gt.tolist() == ((a > b) & ~tie).sum(axis=0).tolist()
        assert r.lt.tolist() == ((a < b) & ~tie).sum(axis=0).tolist()
        assert r.error_rate == pytest.approx(np.minimum(r.gt, r.lt).sum() / (len(ii) * B))


def test_discriminative_power_t_statistics_equal_scipy(track):
    mats, rep = track
    mat = mats["map"]
    r = rep.results["discriminative"][("map", "all")]
    ii, jj = np.triu_indices(RUNS, k=1)
    x = mat.to_numpy()
    want = stats.ttest_rel(x[:, ii], x[:, jj], axis=0).statistic
    assert len(r.t) == RUNS * (RUNS - 1) // 2
    np.testing.assert_allclose(np.abs(r.t), np.abs(want), rtol=1e-9)
    np.testing.assert_allclose(np.abs(r.mean_diff), np.abs(x[:, ii].mean(0) - x[:, jj].mean(0)),
                               atol=1e-12)
    assert ((0 <= r.asl) & (r.asl <= 1)).all()


def test_tukey_topic_set_size_and_swap_rates(track):
    mats, rep = track
    for m, mat in mats.items():
        means = mat.mean()
        tk = rep.results["tukey"][(m, "all")]
        np.testing.assert_allclose(tk.means, means.loc[list(tk.runs)].to_numpy(), atol=1e-12)
        assert tk.best == means.idxmax() or np.isclose(means[tk.best], means.max())
        tss = rep.results["topic-set-size"][(m, "all")]
        assert tss.variance == pytest.approx(mat.var(axis=0, ddof=1).mean(), rel=1e-12)
        pairs = RUNS * (RUNS - 1) // 2
        for name in ("swap", "bootstrap"):
            sw = rep.results[name][(m, "all")]
            assert sw.top_score == pytest.approx(means.max())
            assert (sw.comparisons.sum(axis=1) == B * pairs).all()
            assert (sw.swaps <= sw.comparisons).all()
        se = rep.results["sensitivity"][(m, "all")]
        assert se.top_score == pytest.approx(means.max())
        assert se.comparisons.sum() == B * pairs and (se.swaps <= se.comparisons).all()
