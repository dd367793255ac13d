"""Discriminative power: paired bootstrap tests on every run pair (Sakai 2006).

Sakai, "Evaluating evaluation metrics based on the bootstrap", SIGIR 2006,
§3 (after Efron and Tibshirani 1993, Algorithm 16.2).  For runs ``X``, ``Y``
with per-topic differences ``z`` (``n`` topics)::

    t(z) = mean(z) / (sd(z) / √n)          w = z − mean(z)   (null hypothesis true)
    ASL  = #{ b : |t(w*b)| ≥ |t(z)| } / B   over B bootstrap samples w*b of w

A measure's *discriminative power* is the share of run pairs with ASL < α;
the *ASL curve* plots every pair's ASL, pairs sorted by ASL.  The *difference
needed* for a pair (Sakai 2006, Fig. 4) is ``|mean(w*b)|`` of the sample whose
``|t(w*b)|`` is the ``⌈Bα⌉``-th largest; Sakai reports the maximum over pairs.

All ``B`` samples are one ``B × N`` weight matrix ``W`` (the same topic samples
for every pair); for a block of pairs the bootstrap means and mean squares are
two matrix products ``W @ w`` and ``W @ w²``.

Also here: classical paired t-tests on every pair
(:func:`yardstick.analysis.paired_tests.paired_t_test`).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.paired_tests import paired_t_test
from yardstick.analysis.stability.aggregates import aggregate_for
from yardstick.analysis.stability.resampling import (
    as_score_array,
    bootstrap_indices,
    pair_frame,
    run_pairs,
    weights_from_indices,
)
from yardstick.common.progress import Progress
from yardstick.common.seeds import resolve_seed

__all__ = ["DiscriminativePowerResult", "discriminative_power", "bootstrap_asl",
           "paired_t_tests"]

#: Upper bound on samples × pairs held at once.
CHUNK_ELEMENTS = 4_000_000


def _t_stat(mean: np.ndarray, meansq: np.ndarray, n: int, tol: np.ndarray | float = 0.0,
            ) -> np.ndarray:
    """One-sample t statistic from the mean and the mean of squares over ``n`` values.

    Means with ``|mean| <= tol`` count as 0 and variances ``<= tol²`` as 0 (rounding
    noise of centred data), so ``0/0`` gives ``t = 0`` and ``m/0`` gives ``±inf``.
    """
    mean = np.where(np.abs(mean) <= tol, 0.0, mean)
    var = np.maximum(meansq - mean * mean, 0.0) * (n / (n - 1.0))
    var = np.where(var <= np.square(tol), 0.0, var)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / np.sqrt(var / n)
    return np.nan_to_num(t, nan=0.0, posinf=np.inf, neginf=-np.inf)


def _abs_t_stat(mean: np.ndarray, meansq: np.ndarray, n: int, tol: np.ndarray) -> np.ndarray:
    """``|_t_stat(mean, meansq, n, tol)|``, the same floats, computed in place on ``|mean|``
    and ``meansq`` (both overwritten): ``|m| / s`` is ``|m / s|`` exactly and ``m²`` does not
    depend on the sign."""
    am = np.abs(mean, out=mean)
    np.putmask(am, am <= tol, 0.0)
    var = np.subtract(meansq, am * am, out=meansq)
    np.maximum(var, 0.0, out=var)
    var *= n / (n - 1.0)
    np.putmask(var, var <= np.square(tol), 0.0)
    var /= n
    np.sqrt(var, out=var)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.divide(am, var, out=am)
    np.putmask(t, np.isnan(t), 0.0)
    return t


def bootstrap_asl(diffs: np.ndarray, weights: np.ndarray, alpha: float = 0.05,
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ASL, t statistic and difference needed for each column of per-topic differences.

    Parameters
    ----------
    diffs : numpy.ndarray
        ``N × P`` per-topic differences ``z`` (one column per run pair).
    weights : numpy.ndarray
        ``B × N`` bootstrap weights (multiplicity / N), see
        :func:`yardstick.analysis.stability.resampling.weights_from_indices`.
    alpha : float

    Returns
    -------
    asl, t, diff_needed : numpy.ndarray
        Per column.  A column of zeros has ``t = 0`` and ASL 1.
    """
    n = diffs.shape[0]
    tol = 1e-12 * np.abs(diffs).max(axis=0)
    t_obs = _t_stat(diffs.mean(axis=0), (diffs * diffs).mean(axis=0), n, tol)
    w = diffs - diffs.mean(axis=0)
    m_star = weights @ w
    # samples × pairs -> pairs × samples, so each pair's values are contiguous below
    t_star = _abs_t_stat(m_star.T.copy(), (weights @ (w * w)).T.copy(), n, tol[:, None])
    asl = np.count_nonzero(t_star >= np.abs(t_obs)[:, None], axis=1) / weights.shape[0]
    asl[np.all(diffs == 0, axis=0)] = 1.0
    n_samples = weights.shape[0]
    k = min(max(int(np.ceil(n_samples * alpha)), 1), n_samples)
    kth = np.argpartition(np.negative(t_star, out=t_star), k - 1, axis=1)[:, k - 1]
    needed = np.abs(np.take_along_axis(m_star, kth[None, :], axis=0)[0])
    return asl, t_obs, needed


@dataclass(frozen=True, eq=False)
class DiscriminativePowerResult:
    """Paired bootstrap test of every run pair.

    Attributes
    ----------
    measure : str
    runs : tuple of str
    mean_diff, t, asl, diff_needed : numpy.ndarray
        Per pair ``i < j`` (``mean(run_i − run_j)``).
    samples, n_topics : int
    alpha : float
    seed : int or None
    """

    measure: str
    runs: tuple[str, ...]
    mean_diff: np.ndarray
    t: np.ndarray
    asl: np.ndarray
    diff_needed: np.ndarray
    samples: int
    n_topics: int
    alpha: float
    seed: int | None

    @property
    def share_significant(self) -> float:
        """Discriminative power: fraction of pairs with ASL < alpha."""
        return float(np.mean(self.asl < self.alpha))

    @property
    def difference_needed(self) -> float:
        """Max over pairs of the difference needed (Sakai 2006, Fig. 4)."""
        return float(self.diff_needed.max())

    def asl_curve(self) -> pd.DataFrame:
        """ASL of every pair, pairs sorted by ASL (x = 1 .. pairs)."""
        order = np.argsort(self.asl, kind="stable")
        pairs = pair_frame(self.runs).iloc[order].reset_index(drop=True)
        pairs.insert(0, "pair_rank", np.arange(1, len(order) + 1))
        pairs["asl"] = self.asl[order]
        return pairs

    def to_frame(self) -> pd.DataFrame:
        """Per pair: runs, mean difference, t, ASL, significant, difference needed."""
        out = pair_frame(self.runs)
        out["mean_diff"], out["t"], out["asl"] = self.mean_diff, self.t, self.asl
        out["significant"] = self.asl < self.alpha
        out["diff_needed"] = self.diff_needed
        return out

    def summary(self) -> pd.Series:
        return pd.Series({"measure": self.measure, "runs": len(self.runs),
                          "pairs": len(self.asl), "samples": self.samples, "alpha": self.alpha,
                          "seed": self.seed, "discriminative_power": self.share_significant,
                          "difference_needed": self.difference_needed})


def discriminative_power(scores: pd.DataFrame, samples: int = 1000, alpha: float = 0.05,
                         seed: int | None = None, measure: str = "",
                         ) -> Generator[Progress, None, DiscriminativePowerResult]:
    """Paired bootstrap test on every run pair (progress generator).

    Parameters
    ----------
    scores : pandas.DataFrame
        Topics × runs per-topic measure.
    samples : int
        ``B`` bootstrap samples (default 1000), shared by all pairs.
    alpha : float
        Significance level (default 0.05).
    seed : int, optional
    measure : str
        Label.  The test is on per-topic differences, so measures that are not
        topic means (``area``, ``map_worst``) are refused.
    """
    if not aggregate_for(measure).linear:
        raise ValueError(f"{measure} is not a mean over topics; the paired bootstrap test "
                         "needs per-topic scores (use map)")
    sa = as_score_array(scores, min_topics=2)
    n = sa.n_topics
    seed = resolve_seed(seed)  # None: a fresh seed, recorded in the result
    rng = np.random.default_rng(seed)
    weights = weights_from_indices(bootstrap_indices(rng, n, n, samples), n)
    ii, jj = run_pairs(sa.n_runs)
    n_pairs = len(ii)
    step = max(1, min(CHUNK_ELEMENTS // max(samples, 1), -(-n_pairs // 20)))
    asl = np.empty(n_pairs)
    t = np.empty(n_pairs)
    needed = np.empty(n_pairs)
    for lo in range(0, n_pairs, step):
        yield Progress(lo, n_pairs, f"bootstrap tests {measure}".strip())
        sl = slice(lo, lo + step)
        z = sa.values[:, ii[sl]] - sa.values[:, jj[sl]]
        asl[sl], t[sl], needed[sl] = bootstrap_asl(z, weights, alpha)
    yield Progress(n_pairs, n_pairs, "done")
    mean_diff = sa.values.mean(axis=0)[ii] - sa.values.mean(axis=0)[jj]
    return DiscriminativePowerResult(measure, tuple(sa.runs), mean_diff, t, asl, needed,
                                     samples, n, float(alpha), seed)


def paired_t_tests(scores: pd.DataFrame) -> pd.DataFrame:
    """Two-sided paired t-test on every run pair, all pairs' columns at once
    (:func:`yardstick.analysis.paired_tests.paired_t_test`).

    Returns a frame with ``run_a``, ``run_b``, ``mean_diff`` (a − b), ``t``, ``df``, ``p_value``.
    """
    sa = as_score_array(scores, min_topics=2)
    ii, jj = run_pairs(sa.n_runs)
    a, b = sa.values[:, ii], sa.values[:, jj]
    res = paired_t_test(a, b, axis=0)
    out = pair_frame(sa.runs)
    out["mean_diff"] = (a - b).mean(axis=0)
    out["t"], out["df"], out["p_value"] = res.statistic, sa.n_topics - 1, res.pvalue
    return out
