"""Paired tests of many pairs of runs at once, for the comparison tables of a report.

A 150-run table tests 11,175 pairs per measure.  Called pair by pair (a pandas
``dropna`` and a scipy call each) that took over ten minutes; here the score matrix is
a numpy array, the paired t-test of one run against every later run is one vectorised
``scipy.stats.ttest_rel`` call (:func:`yardstick.analysis.paired_tests.paired_t_test`,
the one paired t-test), and the Wilcoxon, randomisation and bootstrap tests of every pair
scored on every topic are rows of one pairs x topics matrix of differences
(:func:`~yardstick.analysis.paired_tests.wilcoxon_pvalues`,
:func:`~yardstick.analysis.paired_tests.randomisation_pvalues`,
:func:`~yardstick.analysis.paired_tests.bootstrap_pvalues`: the same p-values as one
pair at a time, seeds included); only pairs with topics missing from one run go one pair
at a time.  The tests are those compared by Smucker, Allan & Carterette, "A comparison
of statistical significance tests for information retrieval evaluation", CIKM 2007.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from yardstick.analysis.paired_tests import (
    bootstrap_pvalues,
    paired_t_test,
    randomisation_pvalues,
    wilcoxon_pvalues,
)

__all__ = ["TESTS", "ALIASES", "paired_pvalue", "pair_pvalues"]

TESTS = ("t", "wilcoxon", "randomisation", "bootstrap")
ALIASES = {"permutation": "randomisation", "fisher": "randomisation",
           "randomization": "randomisation", "ttest": "t", "t-test": "t"}


def paired_pvalue(a: np.ndarray, b: np.ndarray, test: str, seed: int = 0,
                  n_resamples: int = 10000) -> float:
    """Two-sided p-value of ``test`` for paired scores ``a`` and ``b`` (same topics).

    ``bootstrap`` is the paired bootstrap test of Efron & Tibshirani, "An Introduction to
    the Bootstrap", 1993, section 16.4: the differences shifted to mean zero, resampled
    ``n_resamples`` times, p the share of resampled means at least as far from zero.
    """
    test = ALIASES.get(test, test)
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; expected one of {TESTS}")
    a, b = np.asarray(a, float), np.asarray(b, float)
    if test == "t":
        if len(a) < 2:
            return float("nan")
        d = a - b
        if _constant(d[:, None])[0]:
            return 1.0 if d[0] == 0 else 0.0
        return float(paired_t_test(a, b).pvalue)
    return float(_many(test, (a - b)[None, :], seed, n_resamples)[0])


def _many(test: str, d: np.ndarray, seed: int, n_resamples: int) -> np.ndarray:
    """p-values of a resampling or rank test for each row of ``d`` (pairs x topics)."""
    if test == "wilcoxon":
        return wilcoxon_pvalues(d)
    if test == "randomisation":
        return randomisation_pvalues(d, seed, n_resamples)
    return bootstrap_pvalues(d, seed, n_resamples)


def _constant(d: np.ndarray) -> np.ndarray:
    """Columns of ``d`` whose differences are all equal to rounding (as ``_pair`` decides)."""
    return np.all(np.abs(d - d[:1]) <= 1e-12 * np.maximum(1.0, np.abs(d[:1])), axis=0)


def pair_pvalues(x: np.ndarray, pairs: Sequence[tuple[int, int]], test: str, seed: int = 0,
                 n_resamples: int = 10000):
    """p-values of ``test`` for column pairs ``(i, j)`` of the topics x runs array ``x``,
    each pair on the topics both runs have (NaN: no score).

    Returns
    -------
    p, n_topics, mean_i, mean_j, identical : arrays, one value per pair
        ``identical``: the two runs have the same score on every topic they share.
    """
    test = ALIASES.get(test, test)
    k = len(pairs)
    p = np.full(k, np.nan)
    n = np.zeros(k, dtype=np.int64)
    mean_i, mean_j = np.full(k, np.nan), np.full(k, np.nan)
    identical = np.zeros(k, dtype=bool)
    complete = ~np.isnan(x).any(axis=0)
    col_mean = x.mean(axis=0) if len(x) else np.full(x.shape[1], np.nan)
    slow: list[int] = []
    rows: list[int] = []
    by_first: dict[int, list[int]] = {}
    for q, (i, j) in enumerate(pairs):
        if complete[i] and complete[j]:
            by_first.setdefault(i, []).append(q)
        else:
            slow.append(q)
    nt = x.shape[0]
    for i, qs in by_first.items():
        js = [pairs[q][1] for q in qs]
        n[qs], mean_i[qs], mean_j[qs] = nt, col_mean[i], col_mean[js]
        if nt == 0:
            continue
        d = x[:, js] - x[:, [i]]
        identical[qs] = np.all(d == 0, axis=0)
        if nt < 2:
            continue
        if test == "t":
            const = _constant(d)
            pt = np.atleast_1d(paired_t_test(x[:, js], x[:, [i]], axis=0).pvalue)
            p[qs] = np.where(const, np.where(d[0] == 0, 1.0, 0.0), pt)
        else:
            rows.extend(qs)
    if rows and nt > 1:    # every complete pair's differences (i - j) in one matrix
        ii, jj = np.asarray([pairs[q] for q in rows]).T
        p[rows] = _many(test, np.ascontiguousarray((x[:, ii] - x[:, jj]).T), seed,
                        n_resamples)
    for q in slow:
        i, j = pairs[q]
        both = ~np.isnan(x[:, i]) & ~np.isnan(x[:, j])
        a, b = x[both, i], x[both, j]
        n[q] = len(a)
        if len(a):
            mean_i[q], mean_j[q] = a.mean(), b.mean()
            identical[q] = bool(np.all(a == b))
        if len(a) > 1:
            p[q] = paired_pvalue(a, b, test, seed, n_resamples)
    return p, n, mean_i, mean_j, identical
