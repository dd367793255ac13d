"""The paired tests every comparison in Yardstick uses: the one paired t-test
(:func:`paired_t_test`, behind the Compare panel, reports, the API, the CLI and the
stability and pool diagnostics) and the exact two-sided sign test (:func:`sign_test_p`);
and the Wilcoxon, randomisation and bootstrap tests of many pairs at once
(:func:`wilcoxon_pvalues`, :func:`randomisation_pvalues`, :func:`bootstrap_pvalues`: the
p-values of scipy's or the pair-by-pair computation, rows of a pairs x topics matrix of
differences in a few vectorised calls — 33,525 pairs of a 150-run report took minutes
one scipy call at a time).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

__all__ = ["PairedT", "paired_t_test", "sign_test_p", "wilcoxon_pvalues",
           "randomisation_pvalues", "bootstrap_pvalues"]


def sign_test_p(wins: int, losses: int) -> float:
    """Two-sided exact sign test: ``scipy.stats.binomtest(wins, wins + losses, 0.5)``'s
    p-value, as one call of the binomial CDF.

    With p = 1/2 the binomial distribution is symmetric, so the outcomes at most as likely
    as ``k = min(wins, losses)`` are ``X <= k`` and ``X >= n - k``: p = min(1, 2 P(X <= k))
    (Conover, *Practical Nonparametric Statistics*, 3rd ed., 1999, §3.4, the sign test).
    binomtest reaches the same value by a binary search over the PMF in Python, ~1 ms a
    call with the GIL held: 149 runs × 7 measures starved the window's event loop.
    """
    from scipy.special import bdtr

    n = wins + losses
    if n == 0:
        return 1.0
    return float(min(1.0, 2.0 * bdtr(min(wins, losses), n, 0.5)))


@dataclass(frozen=True)
class PairedT:
    """A paired t-test's statistic, two-sided p-value and (when asked) confidence interval
    of the mean difference; arrays when the test ran on columns."""

    statistic: float | np.ndarray
    pvalue: float | np.ndarray
    ci_low: float | np.ndarray = float("nan")
    ci_high: float | np.ndarray = float("nan")


def paired_t_test(a, b, axis: int = 0, confidence: float | None = None) -> PairedT:
    """Two-sided paired t-test of ``a`` against ``b`` (the one in Yardstick).

    Student's t on the differences ``a - b`` over topics (Student 1908, "The probable
    error of a mean", Biometrika 6:1-25; as the paired test compared for IR by Smucker,
    Allan & Carterette, CIKM 2007): ``scipy.stats.ttest_rel(a, b, axis=axis)``.  With 2-D
    inputs every column is a test (one call for many runs); with ``confidence`` the
    interval of the mean difference (``TtestResult.confidence_interval``) is filled in.
    Differences with no variance give NaN without a warning (callers decide what to say).
    """
    import warnings

    from scipy import stats

    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # constant differences
        tt = stats.ttest_rel(a, b, axis=axis)
        if confidence is None:
            return PairedT(tt.statistic, tt.pvalue)
        ci = tt.confidence_interval(confidence)
    return PairedT(tt.statistic, tt.pvalue, ci.low, ci.high)


# --- the same tests for many pairs at once (rows of a pairs x topics difference matrix) ---

#: pairs whose resampled statistics are one matrix product (64: resamples x pairs arrays
#: of 5 MB, which the comparisons after the product pass over while they are in cache)
_BLOCK = 64


def wilcoxon_pvalues(d: np.ndarray) -> np.ndarray:
    """Two-sided Wilcoxon signed-rank p-value of each row of ``d`` (pairs x topics
    differences, no NaN): for every row the value of
    ``scipy.stats.wilcoxon(d_row, zero_method="wilcox").pvalue`` (Wilcoxon 1945,
    "Individual comparisons by ranking methods", Biometrics Bulletin 1:80-83; zero
    differences dropped as in Wilcoxon's method), 1 for a row of zero differences.

    scipy decides a call's method from the whole input (exact when no row has a tie or a
    zero and n <= 50, else the normal approximation), so rows are grouped by the method a
    one-row call would use and each group is one vectorised ``scipy.stats.wilcoxon(...,
    axis=1)`` call (rows of at most 13 topics with ties or zeros: scipy's permutation
    distribution over all 2**n signs, as a one-row call uses).
    """
    from scipy import stats

    d, p = _pairs_by_topics(d)
    n = d.shape[1]
    if n < 1 or len(p) == 0:
        return p
    zero = d == 0
    nonzero = ~zero.all(axis=1)
    p[~nonzero] = 1.0
    s = np.sort(np.abs(d), axis=1)
    tied = ((s[:, 1:] == s[:, :-1]) & (s[:, 1:] != 0)).any(axis=1)
    plain = ~(tied | zero.any(axis=1))
    if n > 50:
        groups = [("asymptotic", nonzero)]
    else:   # at most 13 topics with ties or zeros: all 2**n signs (scipy's permutation)
        groups = [("exact", nonzero & plain),
                  ("asymptotic" if n > 13 else stats.PermutationMethod(), nonzero & ~plain)]
    for method, rows in groups:
        if rows.any():
            p[rows] = stats.wilcoxon(d[rows], zero_method="wilcox", method=method,
                                     axis=1).pvalue
    return p


def _pairs_by_topics(d) -> tuple[np.ndarray, np.ndarray]:
    """``d`` as a float pairs x topics array and the p-values to fill (NaN: a pair
    without enough topics keeps it)."""
    d = np.atleast_2d(np.asarray(d, dtype=float))
    return d, np.full(len(d), np.nan)


def _blocks(d: np.ndarray):
    """(rows, the rows of ``d`` as one contiguous array), :data:`_BLOCK` rows at a time."""
    for lo in range(0, len(d), _BLOCK):
        part = slice(lo, min(len(d), lo + _BLOCK))
        yield part, np.ascontiguousarray(d[part])


@functools.lru_cache(maxsize=8)
def _sign_flips(n: int, n_resamples: int, seed: int) -> tuple[np.ndarray, bool]:
    """The within-topic swaps ``scipy.stats.permutation_test(permutation_type="samples",
    n_resamples=n_resamples, rng=numpy.random.default_rng(seed), batch=1000)`` makes for
    ``n`` topics, as a resamples x topics matrix of signs (+1 kept, -1 swapped), and
    whether they are all 2**n of them (scipy's exact test).

    They depend only on ``n``, ``n_resamples`` and the seed, never on the scores, so they
    are read off one scipy call on scores that show them (topic t scored t+1 against
    -(t+1)) and shared by every pair: the same resamples a pair-by-pair call draws.
    """
    from scipy import stats

    seen = []

    def statistic(x, y, axis):
        if x.ndim == 2:
            seen.append(np.sign(x))
        return np.mean(x - y, axis=axis)

    v = np.arange(1.0, n + 1.0)
    stats.permutation_test((v, -v), statistic, permutation_type="samples",
                           n_resamples=n_resamples, vectorized=True, alternative="two-sided",
                           rng=np.random.default_rng(seed), batch=1000)
    signs = np.ascontiguousarray(np.concatenate(seen))
    signs.setflags(write=False)
    return signs, 2 ** n <= n_resamples


def _settle(approx: np.ndarray, thresholds, tol: np.ndarray, exact) -> np.ndarray:
    """``approx`` (resamples x pairs statistics from a matrix product) with the entries
    within ``tol`` of a threshold recomputed by ``exact(rows, cols)`` in the summation
    order of the pair-by-pair computation, so that every comparison with a threshold
    comes out as it does there."""
    near = np.zeros(approx.shape, dtype=bool)
    for t in thresholds:
        near |= np.abs(approx - t) <= tol
    rows, cols = np.nonzero(near)
    for lo in range(0, len(rows), 100_000):
        part = slice(lo, lo + 100_000)
        approx[rows[part], cols[part]] = exact(rows[part], cols[part])
    return approx


def randomisation_pvalues(d: np.ndarray, seed: int = 0,
                          n_resamples: int = 10000) -> np.ndarray:
    """Two-sided paired randomisation (sign-flip) test of each row of ``d`` (pairs x
    topics differences, no NaN) on the mean difference (Fisher 1935, *The Design of
    Experiments*, section 21; the randomisation test of Smucker, Allan & Carterette,
    CIKM 2007): for every row the p-value of ``scipy.stats.permutation_test((a, b),
    mean(a - b), permutation_type="samples", n_resamples=n_resamples,
    rng=numpy.random.default_rng(seed), batch=1000)`` where ``d_row = a - b``.

    Every pair shares scipy's resamples (:func:`_sign_flips`); the resampled means of a
    block of pairs are one matrix product, and those close enough to the observed mean
    for rounding to matter are recomputed as scipy sums them (topic by topic), so the
    p-values are scipy's: ``(#{|null| at least as extreme} + 1) / (R + 1)`` two-sided
    as scipy counts it (Phipson & Smyth 2010, "Permutation p-values should never be
    zero"), exact enumeration when 2**n <= ``n_resamples``.
    """
    d, p = _pairs_by_topics(d)
    n = d.shape[1]
    if n < 2 or len(p) == 0:
        return p
    signs, exact = _sign_flips(n, n_resamples, seed)
    adjust = 0 if exact else 1
    r = len(signs)
    eps = np.finfo(float).eps
    for part, db in _blocks(d):
        observed = np.mean(db, axis=1)               # as scipy: the mean of a - b
        gamma = np.abs(100 * eps * observed)
        tol = 8 * eps * np.abs(db).sum(axis=1) / n + 4 * eps * np.abs(observed)
        null = signs @ db.T / n

        def exact_null(rows, cols, db=db):
            return np.cumsum(signs[rows] * db[cols], axis=1)[:, -1] / n

        null = _settle(null, (observed + gamma, observed - gamma), tol, exact_null)
        less = np.count_nonzero(null <= observed + gamma, axis=0) + adjust
        greater = np.count_nonzero(null >= observed - gamma, axis=0) + adjust
        p[part] = np.clip(2 * np.minimum(less, greater) / (r + adjust), 0.0, 1.0)
    return p


@functools.lru_cache(maxsize=8)
def _resample_indices(n: int, n_resamples: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The bootstrap's resampled topic indices (``default_rng(seed).integers(0, n,
    (n_resamples, n))``, what the pair-by-pair test draws) and how often each topic is
    drawn in each resample (resamples x topics)."""
    idx = np.random.default_rng(seed).integers(0, n, size=(n_resamples, n))
    counts = np.zeros((n_resamples, n))
    np.add.at(counts, (np.arange(n_resamples)[:, None], idx), 1.0)
    idx.setflags(write=False)
    counts.setflags(write=False)
    return idx, counts


def bootstrap_pvalues(d: np.ndarray, seed: int = 0, n_resamples: int = 10000) -> np.ndarray:
    """Paired bootstrap test of each row of ``d`` (pairs x topics differences, no NaN):
    Efron & Tibshirani, *An Introduction to the Bootstrap*, 1993, section 16.4 — the
    differences shifted to mean zero, resampled ``n_resamples`` times with replacement
    (every pair the same resampled topics, ``default_rng(seed)``), p the share of
    resampled means at least as far from zero as the observed mean (1e-15 slack).

    The resampled means of a block of pairs are one matrix product (resample counts x
    differences); those near the observed mean are recomputed from the resampled topics
    as a pair-by-pair computation sums them, so the p-values are the same.
    """
    d, p = _pairs_by_topics(d)
    n = d.shape[1]
    if n < 2 or len(p) == 0:
        return p
    idx, counts = _resample_indices(n, n_resamples, seed)
    eps = np.finfo(float).eps
    for part, db in _blocks(d):
        mean = np.mean(db, axis=1)
        centred = db - mean[:, None]
        edge = np.abs(mean) - 1e-15
        tol = 8 * eps * np.abs(centred).sum(axis=1) / n + 4 * eps * np.abs(mean)
        means = np.abs(counts @ centred.T / n)

        def exact_means(rows, cols, centred=centred):
            return np.abs(np.mean(centred[cols[:, None], idx[rows]], axis=1))

        means = _settle(means, (edge,), tol, exact_means)
        p[part] = np.count_nonzero(means >= edge, axis=0) / n_resamples
    return p
