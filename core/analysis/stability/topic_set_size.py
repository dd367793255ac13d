"""Topic-set-size design (Sakai 2014, 2016).

Sakai, "Designing test collections for comparing many systems", CIKM 2014,
and "Topic set size design", Information Retrieval Journal 19(3), 2016.  From
a variance estimate of the loaded runs, a Type I error ``α``, a Type II error
``β`` and a minimum detectable difference, the number of topics ``n`` needed:

* **paired t-test** (two-sided): smallest ``n`` whose power
  ``P(|t'| ≥ t_{α/2}(n−1))`` is at least ``1 − β``, with ``t'`` noncentral t,
  ``φ = n − 1`` degrees of freedom and noncentrality ``λ = √n · minDt / σt``
  (``σt²`` = variance of the per-topic difference of two runs);
* **one-way ANOVA** over ``m`` systems: smallest ``n`` with
  ``P(F' ≥ F_α(m−1, m(n−1))) ≥ 1 − β``, ``F'`` noncentral F with
  ``λ = n · Δ``, ``Δ = minD² / (2σ²)`` (the worst case: two systems ``minD``
  apart, the others at the grand mean);
* **confidence-interval width**: smallest ``n`` whose expected width of the
  ``100(1−α)%`` CI of a difference, ``2 t_{α/2}(n−1) · c(n) · σt / √n`` with
  ``c(n) = √(2/(n−1)) Γ(n/2) / Γ((n−1)/2)`` (the expected sample standard
  deviation over σ), is at most ``δ``.

Exact noncentral distributions come from ``scipy.stats.nct`` / ``scipy.stats.ncf``.

The variance: ``σ̂²`` is the residual variance ``V_E`` of a one-way ANOVA of
the topics × runs matrix (Sakai 2016 §6; or of a two-way ANOVA without
replication with ``method="twoway"``) and ``σ̂t² = 2σ̂²``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special, stats

from yardstick.analysis.stability.resampling import as_score_array

__all__ = ["residual_variance", "power_paired_t", "power_anova", "expected_ci_width",
           "var_system_diff", "power_systems", "systems_design",
           "n_paired_t", "n_anova", "n_ci_width", "TopicSetSizeResult", "topic_set_size"]

#: Largest topic-set size searched.
MAX_TOPICS = 1_000_000


def residual_variance(scores: pd.DataFrame, method: str = "oneway") -> float:
    """``σ̂²``: residual variance of a one-way (or two-way, no replication) ANOVA.

    ``oneway``: ``Σ_i Σ_j (x_ij − x̄_.j)² / (m(n−1))`` (runs are the groups);
    ``twoway``: ``Σ (x_ij − x̄_i. − x̄_.j + x̄)² / ((m−1)(n−1))``.
    """
    x = as_score_array(scores, min_topics=2).values
    n, m = x.shape
    if method == "oneway":
        return float(((x - x.mean(axis=0)) ** 2).sum() / (m * (n - 1)))
    if method == "twoway":
        resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0) + x.mean()
        return float((resid ** 2).sum() / ((m - 1) * (n - 1)))
    raise ValueError(f"method must be 'oneway' or 'twoway', not {method!r}")


def power_paired_t(n: int, alpha: float, min_diff: float, var_diff: float) -> float:
    """Power of the two-sided paired t-test with ``n`` topics (noncentral t)."""
    df = n - 1
    crit = stats.t.ppf(1.0 - alpha / 2.0, df)
    lam = np.sqrt(n) * min_diff / np.sqrt(var_diff)
    return float(stats.nct.sf(crit, df, lam) + stats.nct.cdf(-crit, df, lam))


def power_anova(n: int, alpha: float, min_range: float, variance: float, systems: int) -> float:
    """Power of one-way ANOVA over ``systems`` runs with ``n`` topics each (noncentral F)."""
    dfn, dfd = systems - 1, systems * (n - 1)
    crit = stats.f.ppf(1.0 - alpha, dfn, dfd)
    lam = n * min_range ** 2 / (2.0 * variance)
    return float(stats.ncf.sf(crit, dfn, dfd, lam))


def expected_ci_width(n: int, alpha: float, var_diff: float) -> float:
    """Expected width of the ``100(1−α)%`` t confidence interval of a mean difference."""
    c = np.sqrt(2.0 / (n - 1)) * np.exp(special.gammaln(n / 2.0) - special.gammaln((n - 1) / 2.0))
    return float(2.0 * stats.t.ppf(1.0 - alpha / 2.0, n - 1) * c * np.sqrt(var_diff / n))


def _smallest(ok, start: int) -> int:
    """Smallest ``n >= start`` with ``ok(n)`` (``ok`` monotone): doubling, then bisection."""
    lo, hi = start, start
    while not ok(hi):
        lo, hi = hi + 1, hi * 2
        if hi > MAX_TOPICS:
            raise ValueError(f"more than {MAX_TOPICS} topics would be needed")
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    return hi


def n_paired_t(alpha: float, beta: float, min_diff: float, var_diff: float) -> int:
    """Topics needed by the paired t-test design (Sakai 2016 §3)."""
    _check(alpha, beta, min_diff, var_diff)
    return _smallest(lambda n: power_paired_t(n, alpha, min_diff, var_diff) >= 1.0 - beta, 2)


def n_anova(alpha: float, beta: float, min_range: float, variance: float, systems: int) -> int:
    """Topics needed by the one-way ANOVA design with ``systems`` runs (Sakai 2016 §4)."""
    _check(alpha, beta, min_range, variance)
    if systems < 2:
        raise ValueError("ANOVA needs at least two systems")
    return _smallest(lambda n: power_anova(n, alpha, min_range, variance, systems) >= 1 - beta, 2)


def n_ci_width(alpha: float, max_width: float, var_diff: float) -> int:
    """Topics needed for the expected CI width to be at most ``max_width`` (Sakai 2016 §5)."""
    _check(alpha, 0.5, max_width, var_diff)
    return _smallest(lambda n: expected_ci_width(n, alpha, var_diff) <= max_width, 2)


def _check(alpha: float, beta: float, diff: float, var: float) -> None:
    if not 0 < alpha < 1 or not 0 < beta < 1:
        raise ValueError("alpha and beta must be in (0, 1)")
    if not diff > 0:
        raise ValueError(f"the minimum detectable difference must be > 0, not {diff}")
    if not var > 0:
        raise ValueError("the scores' residual variance is 0 (no run differs from another by "
                         "more than a constant on any topic), so no number of topics follows")


@dataclass(frozen=True, eq=False)
class TopicSetSizeResult:
    """Topics needed per minimum detectable difference, by the three methods.

    Attributes
    ----------
    measure : str
    variance : float
        ``σ̂²`` used (``σ̂t² = 2σ̂²``).
    variance_method : str
    alpha, beta : float
    systems : int
        ``m`` for the ANOVA design (default: the loaded runs).
    table : pandas.DataFrame
        Index ``min_diff``; columns ``paired_t``, ``anova``, ``ci_width``.
    n_topics : int
        Topics in the matrix the variance came from.
    """

    measure: str
    variance: float
    variance_method: str
    alpha: float
    beta: float
    systems: int
    table: pd.DataFrame
    n_topics: int

    def to_frame(self) -> pd.DataFrame:
        return self.table.reset_index()

    def summary(self) -> pd.Series:
        return pd.Series({"measure": self.measure, "variance": self.variance,
                          "variance_method": self.variance_method, "alpha": self.alpha,
                          "beta": self.beta, "systems": self.systems, "topics": self.n_topics})


def topic_set_size(scores: pd.DataFrame, min_diffs: Sequence[float] = (0.02, 0.05, 0.1),
                   alpha: float = 0.05, beta: float = 0.20, systems: int | None = None,
                   variance: float | str = "oneway", measure: str = "") -> TopicSetSizeResult:
    """Topic-set sizes for the loaded runs' variance (Sakai 2014/2016).

    Parameters
    ----------
    scores : pandas.DataFrame
        Topics × runs per-topic measure (only its variance is used).
    min_diffs : sequence of float
        Minimum detectable differences (``minDt`` for the t-test, ``minD`` for
        ANOVA, the CI width ``δ`` for the CI method).
    alpha, beta : float
        Type I and Type II error rates (defaults 0.05, 0.20).
    systems : int, optional
        ``m`` for ANOVA; default the number of runs.
    variance : float or {"oneway", "twoway"}
        ``σ̂²`` directly, or how to estimate it from ``scores``.
    """
    sa = as_score_array(scores, min_topics=2)
    if isinstance(variance, str):
        var, how = residual_variance(scores, variance), variance
    else:
        var, how = float(variance), "given"
    m = sa.n_runs if systems is None else int(systems)
    rows = []
    for d in min_diffs:
        rows.append({"min_diff": float(d),
                     "paired_t": n_paired_t(alpha, beta, d, 2 * var),
                     "anova": n_anova(alpha, beta, d, var, m),
                     "ci_width": n_ci_width(alpha, d, 2 * var)})
    table = pd.DataFrame(rows).set_index("min_diff")
    return TopicSetSizeResult(measure, var, how, float(alpha), float(beta), m, table, sa.n_topics)


def var_system_diff(topics: int, runs: int, var_run: float, var_residual: float) -> float:
    """Variance of the difference of two system means, each ``runs`` runs over ``topics``
    topics, under ``score = μ + β_s + u_t + v_r + e`` (the mixed model of
    :mod:`yardstick.analysis.systems_mixed_model`): ``2σ_run²/r + 2σ_e²/(n r)`` — the topic
    effect cancels in the paired design, the run effect shrinks only with more runs."""
    return 2.0 * var_run / runs + 2.0 * var_residual / (topics * runs)


def power_systems(topics: int, runs: int, alpha: float, min_diff: float, var_run: float,
                  var_residual: float) -> float:
    """Power of the two-sided test of two systems ``min_diff`` apart (noncentral t).

    Sakai's paired-t design (§3) extended to runs: the variance is
    :func:`var_system_diff`, the degrees of freedom Welch–Satterthwaite's over its two
    parts (``2(r−1)`` for the run part, ``2r(n−1)`` for the residual part), an
    approximation that reduces to many degrees of freedom as both grow.
    """
    c1 = 2.0 * var_run / runs
    c2 = 2.0 * var_residual / (topics * runs)
    df1, df2 = 2.0 * (runs - 1), 2.0 * runs * (topics - 1)
    if runs < 2 and var_run > 0:
        return float("nan")
    den = (c1 ** 2 / df1 if df1 > 0 and c1 > 0 else 0.0) + (c2 ** 2 / df2 if c2 > 0 else 0.0)
    df = (c1 + c2) ** 2 / den if den > 0 else 1e6
    crit = stats.t.ppf(1.0 - alpha / 2.0, df)
    lam = min_diff / np.sqrt(c1 + c2)
    power = float(stats.nct.sf(crit, df, lam) + stats.nct.cdf(-crit, df, lam))
    if not np.isfinite(power):      # scipy's nct fails far in the tail: the normal limit
        power = float(stats.norm.sf(crit - lam) + stats.norm.cdf(-crit - lam))
    return power


def systems_design(var_run: float, var_residual: float, min_diffs: Sequence[float] = (0.02,
                   0.05), alpha: float = 0.05, beta: float = 0.20,
                   runs: Sequence[int] = (2, 3, 5, 10, 20),
                   max_topics: int = 10_000) -> pd.DataFrame:
    """Runs per system and topics needed to see a difference between two systems.

    One row per (``min_diff``, ``n_runs``): ``n_topics`` is the smallest topic count whose
    :func:`power_systems` reaches ``1 − beta`` (NaN when no number of topics up to
    ``max_topics`` suffices: the run-to-run variance alone, ``2σ_run²/r``, is too large
    and only more runs help), ``power_at_50`` the power with 50 topics.
    """
    _check(alpha, beta, min(min_diffs), var_run + var_residual)
    rows = []
    for d in min_diffs:
        for r in runs:
            def ok(n, r=r, d=d):
                return power_systems(n, r, alpha, d, var_run, var_residual) >= 1.0 - beta

            n = float("nan")
            if ok(max_topics):
                lo, hi = 2, max_topics
                while lo < hi:
                    mid = (lo + hi) // 2
                    lo, hi = (lo, mid) if ok(mid) else (mid + 1, hi)
                n = hi
            rows.append({"min_diff": float(d), "n_runs": int(r), "n_topics": n,
                         "power_at_50": power_systems(50, r, alpha, d, var_run, var_residual)})
    return pd.DataFrame(rows)
