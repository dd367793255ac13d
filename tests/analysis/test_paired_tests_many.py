"""The paired tests of many pairs at once (``yardstick.analysis.paired_tests``) give, row by
row, the p-values of scipy called one pair at a time (Wilcoxon, randomisation) and of an
independent pair-by-pair bootstrap loop (Efron & Tibshirani 1993, section 16.4), on random
scores, on scores with ties and zero differences (P@10-like tenths), with rows of all-zero
differences, and with few topics (scipy's exact distributions)."""

import numpy as np
import pytest
from scipy import stats

from yardstick.analysis.paired_tests import (
    bootstrap_pvalues,
    randomisation_pvalues,
    wilcoxon_pvalues,
)


def _differences(n_topics: int, seed: int = 1) -> np.ndarray:
    """40 pairs: 15 on continuous scores, 15 on tenths (ties, zeros), 2 identical runs,
    one with three zero differences, and a few strongly different pairs."""
    rng = np.random.default_rng(seed)
    a, b = rng.random((40, n_topics)), rng.random((40, n_topics))
    a[15:30], b[15:30] = a[15:30].round(1), b[15:30].round(1)
    b[30:32] = a[30:32]
    b[32, :3] = a[32, :3]
    a[33:36] += 1.0
    return a - b


def _wilcoxon_one(d):
    return 1.0 if not np.any(d != 0) else stats.wilcoxon(d, zero_method="wilcox").pvalue


def _randomisation_one(d, seed, n_resamples):
    a, b = d, np.zeros_like(d)   # the statistic is the mean of a - b
    return stats.permutation_test(
        (a, b), lambda x, y, axis: np.mean(x - y, axis=axis), permutation_type="samples",
        n_resamples=n_resamples, vectorized=True, alternative="two-sided",
        rng=np.random.default_rng(seed), batch=1000).pvalue


def _bootstrap_one(d, seed, n_resamples):
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(d), size=(n_resamples, len(d)))
    means = (d - d.mean())[idx].mean(axis=1)
    return np.mean(np.abs(means) >= abs(d.mean()) - 1e-15)


@pytest.mark.parametrize("n_topics", [50, 30, 60, 10])
def test_wilcoxon_rows_equal_scipy_pair_by_pair(n_topics):
    d = _differences(n_topics)
    want = np.array([_wilcoxon_one(row) for row in d])
    got = wilcoxon_pvalues(d)
    np.testing.assert_array_equal(got, want)
    assert np.all(got[30:32] == 1.0) and got[33:36].max() < 0.01


@pytest.mark.parametrize(("n_topics", "seed"), [(50, 0), (30, 7), (12, 3)])
def test_randomisation_rows_equal_scipy_permutation_test_same_seed(n_topics, seed):
    d = _differences(n_topics)
    want = np.array([_randomisation_one(row, seed, 4000) for row in d])
    got = randomisation_pvalues(d, seed, 4000)
    np.testing.assert_array_equal(got, want)
    assert np.all(got[30:32] == 1.0)
    # the p-value moves with the seed (10,000 resamples are not all 2**50 sign patterns)
    assert not np.array_equal(randomisation_pvalues(d[:15], seed + 1, 4000), got[:15])


@pytest.mark.parametrize(("n_topics", "seed"), [(50, 0), (25, 4)])
def test_bootstrap_rows_equal_an_independent_pair_by_pair_loop(n_topics, seed):
    d = _differences(n_topics)
    want = np.array([_bootstrap_one(row, seed, 3000) for row in d])
    np.testing.assert_array_equal(bootstrap_pvalues(d, seed, 3000), want)


def test_tenths_with_exact_ties_in_the_null_counted_as_scipy_counts_them():
    # differences of one tenth on every topic but one: many resampled sums equal the
    # observed sum in exact arithmetic and differ from it by rounding only
    d = np.full((3, 20), 0.1)
    d[0, 0], d[1, :5], d[2, ::2] = -0.1, 0.0, -0.3
    for row, p in zip(d, randomisation_pvalues(d, 2, 3000)):
        assert p == _randomisation_one(row, 2, 3000)
    for row, p in zip(d, bootstrap_pvalues(d, 2, 3000)):
        assert p == _bootstrap_one(row, 2, 3000)


def test_fewer_than_two_topics_give_nan():
    assert np.isnan(randomisation_pvalues(np.ones((2, 1)))).all()
    assert np.isnan(bootstrap_pvalues(np.ones((2, 1)))).all()
    assert np.isnan(wilcoxon_pvalues(np.ones((2, 0)))).all()


def test_compare_runs_of_many_runs_gives_scipys_pvalues_run_by_run():
    import pandas as pd

    from yardstick.analysis.significance import compare_runs

    rng = np.random.default_rng(4)
    base = rng.random(30).round(1)
    runs = {"base": base, "same": base.copy(), "tenths": rng.random(30).round(1),
            "plus": base + 0.2, **{f"r{k}": rng.random(30) for k in range(4)}}
    cmp = compare_runs(pd.DataFrame(runs), "base", seed=5, n_permutations=3000)
    assert len(cmp.pairs) == 7
    for pair in cmp.pairs:
        d = runs[pair.run] - base
        assert pair.p_wilcoxon == _wilcoxon_one(d), pair.run
        assert pair.p_permutation == _randomisation_one(d, 5, 3000), pair.run
