"""Discriminative power (paired bootstrap), randomised Tukey HSD and topic-set-size design."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from yardstick.analysis.stability.discriminative_power import (
    bootstrap_asl,
    discriminative_power,
    paired_t_tests,
)
from yardstick.analysis.stability.resampling import weights_from_indices
from yardstick.analysis.stability.topic_set_size import (
    expected_ci_width,
    n_anova,
    n_ci_width,
    n_paired_t,
    power_paired_t,
    residual_variance,
    topic_set_size,
)
from yardstick.analysis.stability.tukey_hsd import tukey_hsd
from yardstick.common.progress import run_sync


def test_bootstrap_asl_by_exhaustive_enumeration():
    # z = (.3, .1, -.1): mean .1, sd .2, t = .1 / (.2/sqrt 3) = .866;  w = z - .1 = (.2, 0, -.2)
    # all 27 ordered samples of w (a = .2, b = 0, c = -.2), |t*| >= .866 ?
    #   aaa, ccc (1 each): t = +-inf          yes  2
    #   bbb (1): 0/0 -> 0                      no
    #   aab, ccb (3 each): t = +-2             yes  6
    #   aac, cca (3 each): t = +-0.5           no
    #   abb, cbb (3 each): t = +-1             yes  6
    #   abc (6): mean 0                        no
    # ASL = 14 / 27
    z = np.array([[0.3], [0.1], [-0.1]])
    idx = np.array(list(itertools.product(range(3), repeat=3)))
    asl, t, needed = bootstrap_asl(z, weights_from_indices(idx, 3), alpha=0.05)
    assert t[0] == pytest.approx(0.1 / (0.2 / np.sqrt(3)))
    assert asl[0] == pytest.approx(14 / 27)
    # ceil(27 * .05) = 2nd largest |t*| is one of aaa / ccc, whose |mean(w*)| is .2
    assert needed[0] == pytest.approx(0.2)


def test_identical_runs_have_asl_one():
    z = np.zeros((5, 1))
    idx = np.random.default_rng(0).integers(0, 5, (50, 5))
    asl, t, _ = bootstrap_asl(z, weights_from_indices(idx, 5))
    assert asl[0] == 1.0 and t[0] == 0.0


def _matrix(n_topics=30, n_runs=6, seed=3):
    rng = np.random.default_rng(seed)
    vals = np.clip(rng.beta(2, 5, (n_topics, 1)) + rng.normal(0, 0.1, (n_topics, n_runs))
                   + np.linspace(0, 0.2, n_runs), 0, 1)
    return pd.DataFrame(vals, index=[str(k) for k in range(n_topics)],
                        columns=[f"r{k}" for k in range(n_runs)])


def test_discriminative_power_result():
    m = _matrix()
    res = run_sync(discriminative_power(m, samples=500, seed=9, measure="map"))
    assert len(res.asl) == 15 and res.seed == 9 and res.samples == 500
    # t statistic equals scipy's paired t
    tt = paired_t_tests(m)
    assert res.t == pytest.approx(tt["t"].to_numpy())
    # bootstrap ASL tracks the t-test p-value (large n, smooth scores)
    assert np.corrcoef(res.asl, tt["p_value"])[0, 1] > 0.9
    assert res.share_significant == pytest.approx(np.mean(res.asl < 0.05))
    curve = res.asl_curve()
    assert curve["asl"].is_monotonic_increasing
    assert curve["pair_rank"].tolist() == list(range(1, 16))
    again = run_sync(discriminative_power(m, samples=500, seed=9))
    assert np.array_equal(again.asl, res.asl)


def test_tukey_hsd_two_runs_by_enumeration():
    # 3 topics x 2 runs; per-topic differences d = (1, 1, -.5), observed |mean diff| = 1.5/3 = .5
    # under permutation each topic's pair swaps or not: 8 equally likely sign patterns
    #   |sum(+-d)|/3 = .5 .833 .167 .167 .167 .167 .833 .5 -> 4 of 8 are >= .5 -> p = 0.5
    m = pd.DataFrame([[1.0, 0.0], [1.0, 0.0], [0.0, 0.5]], columns=["x", "y"])
    res = run_sync(tukey_hsd(m, samples=20000, seed=1))
    assert res.runs == ("x", "y")
    assert res.pvalues[0, 1] == pytest.approx(0.5, abs=0.015)
    assert res.pvalues[0, 0] == 1.0


def test_tukey_groups_and_seed():
    m = _matrix(40, 6)
    res = run_sync(tukey_hsd(m, samples=500, seed=4))
    means = m.mean().sort_values(ascending=False)
    assert list(res.runs) == list(means.index)
    p = res.pvalue_frame()
    assert np.allclose(p.to_numpy(), p.to_numpy().T)
    top = res.top_group()
    assert top[0] == res.best and all(p.loc[res.best, r] >= 0.05 for r in top)
    # every group is a block of consecutive runs whose extremes are not significantly different
    for g in res.groups():
        assert p.loc[g[0], g[-1]] >= 0.05
    # significance depends only on |mean difference| vs the range distribution
    crit = res.critical_difference
    diff = np.abs(res.means[:, None] - res.means[None, :])
    assert ((diff > crit + 1e-12) <= (res.pvalues < 0.05 + 1e-12)).all()
    again = run_sync(tukey_hsd(m, samples=500, seed=4))
    assert np.array_equal(again.ranges, res.ranges)


def test_topic_set_size_matches_published_power_tables():
    # G*Power / Cohen: paired t-test, dz = 0.5, alpha .05 two-sided, power .8 -> 34 pairs
    assert n_paired_t(0.05, 0.20, min_diff=0.5, var_diff=1.0) == 34
    assert power_paired_t(34, 0.05, 0.5, 1.0) == pytest.approx(0.8078, abs=5e-4)
    # one-way ANOVA, Cohen's f = .25, 4 groups, alpha .05, power .8 -> 45 per group (180 in all);
    # Sakai's Delta = minD^2 / (2 sigma^2) = m f^2 -> minD = sqrt(2 * 4 * .0625)
    assert n_anova(0.05, 0.20, min_range=np.sqrt(0.5), variance=1.0, systems=4) == 45


def test_ci_width_method():
    # expected CI width with E[s] from the chi distribution (independent of the gamma formula)
    n, var = 20, 0.04
    es = np.sqrt(var) * stats.chi(n - 1).mean() / np.sqrt(n - 1)
    assert expected_ci_width(n, 0.05, var) == pytest.approx(
        2 * stats.t.ppf(0.975, n - 1) * es / np.sqrt(n))
    k = n_ci_width(0.05, 0.1, var)
    assert expected_ci_width(k, 0.05, var) <= 0.1 < expected_ci_width(k - 1, 0.05, var)


def test_topic_set_size_from_scores():
    m = _matrix()
    x = m.to_numpy()
    v = ((x - x.mean(axis=0)) ** 2).sum() / (6 * 29)
    assert residual_variance(m) == pytest.approx(v)
    res = topic_set_size(m, min_diffs=[0.05, 0.1], measure="map")
    assert res.variance == pytest.approx(v) and res.systems == 6
    assert res.table.loc[0.1, "paired_t"] == n_paired_t(0.05, 0.2, 0.1, 2 * v)
    # a smaller detectable difference needs more topics, by every method
    assert (res.table.loc[0.05] > res.table.loc[0.1]).all()
