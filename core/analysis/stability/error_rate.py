"""Buckley–Voorhees error rate and proportion of ties (robust overview Table 4).

Buckley and Voorhees, "Evaluating evaluation measure stability", SIGIR 2000,
as used in Voorhees, "Overview of the TREC 2003 Robust Retrieval Track"
(Voorhees 2003, §3.2): draw ``B`` random topic sets of size ``n``
(1000 sets of 50 of the 100 topics there); on each, for every run pair
``(A, B)`` decide ``A > B``, ``A < B`` or ``A ≡ B``, the runs being equivalent
when their scores differ by less than a *fuzziness* (5 % of the larger score).
Over all pairs::

    error rate          = Σ_pairs min(GT, LT) / (pairs · B)
    proportion of ties  = Σ_pairs EQ / (pairs · B)

so the error rate is at most 0.5 and ties lie in [0, 1].  "A measure with a
low error rate but a high proportion of ties has little power."
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.stability.aggregates import MEAN, Aggregate, aggregate_for
from yardstick.analysis.stability.comparable import comparable
from yardstick.analysis.stability.resampling import (
    as_score_array,
    pair_frame,
    subset_indices,
)
from yardstick.common.progress import Progress
from yardstick.common.seeds import resolve_seed

__all__ = ["ErrorRateResult", "count_outcomes", "error_rate", "error_rates", "error_rate_table"]

#: Samples scored per progress step, at most (each numpy pass then covers a run's pairs ×
#: 500 samples: fewer hand-overs of the interpreter lock when tasks share it on threads)
CHUNK_SAMPLES = 500
#: Relative distance from the fuzziness limit within which :func:`count_outcomes` decides a
#: tie on rounded values (see :func:`_below`)
CLOSE = 1e-9


def count_outcomes(values: np.ndarray, indices: np.ndarray, fuzziness: float = 0.05,
                   aggregate: Aggregate = MEAN) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``GT``, ``LT``, ``EQ`` counts of every run pair over the given topic samples.

    Parameters
    ----------
    values : numpy.ndarray
        ``N × R`` scores.
    indices : numpy.ndarray
        ``B × n`` topic indices, one sample per row.
    fuzziness : float
        Runs ``i`` and ``j`` are equivalent on a sample when
        ``|m_i − m_j| < fuzziness · max(|m_i|, |m_j|)`` or ``m_i = m_j``, both
        decided on the values to 12 significant digits
        (:mod:`yardstick.analysis.stability.comparable`): the
        same fractions summed in another order tie, and a difference of exactly
        the fuzziness is never a tie.
    aggregate : Aggregate
        Sample score of a run (mean by default).

    Returns
    -------
    gt, lt, eq : numpy.ndarray
        int64 per pair ``i < j`` (:func:`yardstick.analysis.stability.resampling.run_pairs`):
        samples where ``i`` beats ``j``, loses to it, or ties with it.
    """
    means = comparable(np.ascontiguousarray(aggregate.samples(values, indices).T))  # R × B
    n_runs, n_samples = means.shape
    size = n_runs * (n_runs - 1) // 2
    gt, eq = np.empty(size, np.int64), np.empty(size, np.int64)
    magnitude = np.abs(means)
    k = 0
    for i in range(n_runs - 1):      # pairs (i, j > i): one block of runs × samples at a time
        a, b = means[i], means[i + 1:]
        diff = np.abs(a - b)
        limit = fuzziness * np.maximum(magnitude[i], magnitude[i + 1:])
        tie = _below(diff, limit)
        tie |= a == b
        m = n_runs - 1 - i
        gt[k:k + m] = np.count_nonzero((a > b) & ~tie, axis=1)
        eq[k:k + m] = np.count_nonzero(tie, axis=1)
        k += m
    return gt, n_samples - gt - eq, eq


def _below(diff: np.ndarray, limit: np.ndarray) -> np.ndarray:
    """``comparable(diff) < comparable(limit)`` (:mod:`yardstick.analysis.stability.comparable`),
    rounding only where it can matter: rounding to 12 significant digits moves a value by
    under 1e-11 of itself, so where ``diff / limit`` is further than :data:`CLOSE` from 1
    the plain comparison gives the same answer; the rest (and 0 / 0) are rounded."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = diff / limit
    tie = ratio < 1.0 - CLOSE
    unsure = ~(tie | (ratio > 1.0 + CLOSE))
    if unsure.any():
        tie[unsure] = comparable(diff[unsure]) < comparable(limit[unsure])
    return tie


@dataclass(frozen=True, eq=False)
class ErrorRateResult:
    """Pairwise outcome counts over ``samples`` random topic sets of ``subset_size`` topics.

    Attributes
    ----------
    measure : str
    runs : tuple of str
    gt, lt, eq : numpy.ndarray
        Per run pair ``i < j``.
    subset_size, samples, n_topics : int
    fuzziness : float
    seed : int or None
    """

    measure: str
    runs: tuple[str, ...]
    gt: np.ndarray
    lt: np.ndarray
    eq: np.ndarray
    subset_size: int
    samples: int
    n_topics: int
    fuzziness: float
    seed: int | None

    @property
    def comparisons(self) -> int:
        return int(len(self.gt) * self.samples)

    @property
    def error_rate(self) -> float:
        """``Σ min(GT, LT) / comparisons`` (Buckley and Voorhees 2000)."""
        return float(np.minimum(self.gt, self.lt).sum() / self.comparisons)

    @property
    def tie_rate(self) -> float:
        """``Σ EQ / comparisons``."""
        return float(self.eq.sum() / self.comparisons)

    def to_frame(self) -> pd.DataFrame:
        """One row per run pair: ``run_a``, ``run_b``, ``GT``, ``LT``, ``EQ``, ``errors``."""
        out = pair_frame(self.runs)
        out["GT"], out["LT"], out["EQ"] = self.gt, self.lt, self.eq
        out["errors"] = np.minimum(self.gt, self.lt)
        return out

    def summary(self) -> pd.Series:
        return pd.Series({"measure": self.measure, "topics": self.n_topics,
                          "subset_size": self.subset_size, "samples": self.samples,
                          "fuzziness": self.fuzziness, "seed": self.seed,
                          "error_rate": self.error_rate, "ties": self.tie_rate})


def error_rate(scores: pd.DataFrame, subset_size: int | None = None, samples: int = 1000,
               fuzziness: float = 0.05, seed: int | None = None, measure: str = "",
               aggregate: Aggregate | None = None) -> Generator[Progress, None, ErrorRateResult]:
    """Error rate and ties of one measure (progress generator).

    Parameters
    ----------
    scores : pandas.DataFrame
        Topics × runs per-topic measure.
    subset_size : int, optional
        Topics per random set (drawn without replacement); default ``N // 2``
        (50 of 100 in the robust track).
    samples : int
        ``B`` (default 1000).
    fuzziness : float
        Relative difference below which two runs are equivalent (default 0.05).
    seed : int, optional
        Seed of ``numpy.random.default_rng``; with the same seed and topics,
        every measure sees the same topic sets.
    measure : str
        Label; also picks the aggregate (``area``: see
        :mod:`yardstick.analysis.stability.aggregates`).
    aggregate : Aggregate, optional
        Overrides the one chosen from ``measure``.
    """
    agg = aggregate or aggregate_for(measure)
    sa = as_score_array(scores)
    n = max(1, sa.n_topics // 2) if subset_size is None else int(subset_size)
    seed = resolve_seed(seed)  # None: a fresh seed, recorded in the result
    rng = np.random.default_rng(seed)
    idx = subset_indices(rng, sa.n_topics, n, samples)
    n_pairs = sa.n_runs * (sa.n_runs - 1) // 2
    gt = np.zeros(n_pairs, np.int64)
    lt = np.zeros(n_pairs, np.int64)
    eq = np.zeros(n_pairs, np.int64)
    step = CHUNK_SAMPLES            # count_outcomes holds one run's pairs × step at a time
    for lo in range(0, samples, step):
        yield Progress(lo, samples, f"error rate {measure}".strip())
        g, lo_, e = count_outcomes(sa.values, idx[lo:lo + step], fuzziness, agg)
        gt += g
        lt += lo_
        eq += e
    yield Progress(samples, samples, "done")
    return ErrorRateResult(measure, tuple(sa.runs), gt, lt, eq, n, samples, sa.n_topics,
                           float(fuzziness), seed)


def error_rates(score_matrices: Mapping[str, pd.DataFrame], subset_size: int | None = None,
                samples: int = 1000, fuzziness: float = 0.05, seed: int | None = None,
                ) -> Generator[Progress, None, dict[str, ErrorRateResult]]:
    """:func:`error_rate` of several measures with the same seed (same topic sets)."""
    out: dict[str, ErrorRateResult] = {}
    k = len(score_matrices)
    seed = resolve_seed(seed)  # one seed for every measure
    for i, (name, mat) in enumerate(score_matrices.items()):
        gen = error_rate(mat, subset_size, samples, fuzziness, seed, name)
        try:
            while True:
                p = next(gen)
                yield Progress(i * samples + p.done, k * samples, p.message)
        except StopIteration as stop:
            out[name] = stop.value
    return out


def error_rate_table(results: Mapping[str, ErrorRateResult] | list[ErrorRateResult],
                     percent: bool = True) -> pd.DataFrame:
    """Several measures side by side, as the robust overview's Table 4.

    Index: measure; columns ``error_rate`` and ``ties`` (in % when ``percent``),
    plus the topic-set size, samples and fuzziness used.
    """
    items = list(results.values()) if isinstance(results, Mapping) else list(results)
    scale = 100.0 if percent else 1.0
    rows = [{"measure": r.measure, "error_rate": scale * r.error_rate, "ties": scale * r.tie_rate,
             "subset_size": r.subset_size, "samples": r.samples, "fuzziness": r.fuzziness}
            for r in items]
    frame = pd.DataFrame(rows).set_index("measure")
    if percent:
        frame = frame.rename(columns={"error_rate": "error_rate_%", "ties": "ties_%"})
    return frame
