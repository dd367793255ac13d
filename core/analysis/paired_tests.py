"""The paired tests every comparison in Yardstick uses: the one paired t-test
(:func:`paired_t_test`, behind the Compare panel, reports, the API, the CLI and the
stability and pool diagnostics) and the exact two-sided sign test (:func:`sign_test_p`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PairedT", "paired_t_test", "sign_test_p"]


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
