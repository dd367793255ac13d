"""Sensitivity: the minimum difference for a confidence level, and how often it is reached.

Voorhees, "Overview of the TREC 2003 Robust Retrieval Track"
(Voorhees 2003, §3.3): with ``N`` topics, the Voorhees–Buckley
relation can be computed *directly* (no extrapolation) for sets of up to
``N/2`` topics.  For topic sets of size ``n`` (50 there) it gives the minimum
difference in scores for which a comparison of two runs is wrong at most
``1 − confidence`` of the time (e.g. 11 topics with no relevant in the top 10
for 95 %), and then the percentage of all run-pair comparisons over the random
``n``-topic sets whose difference is at least that large (11.0 % there; 4.6 %
for the area measure) — a measure with a small percentage can only tell grossly
different systems apart.

Here one draw is a pair of disjoint ``n``-topic subsets: swap rates per
difference bin come from the pair (:func:`yardstick.analysis.stability.swap_rates.count_swaps`),
and the percentage is taken over the comparisons on the first subset of each
draw, itself a random ``n``-topic set.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.stability.aggregates import Aggregate, aggregate_for
from yardstick.analysis.stability.resampling import as_score_array, disjoint_subset_indices
from yardstick.analysis.stability.swap_rates import count_swaps
from yardstick.common.progress import Progress
from yardstick.common.seeds import resolve_seed

__all__ = ["SensitivityResult", "sensitivity", "min_difference_from_counts"]

#: Draws per progress step.
CHUNK_SAMPLES = 200


def min_difference_from_counts(comparisons: np.ndarray, swaps: np.ndarray, bin_width: float,
                               target: float) -> tuple[float, int]:
    """Lower edge of the first bin with observed swap rate ``<= target``, and that bin.

    Returns ``(nan, -1)`` when no bin with comparisons gets there.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(comparisons > 0, swaps / np.maximum(comparisons, 1), np.nan)
    ok = np.flatnonzero(rate <= target)
    if not len(ok):
        return float("nan"), -1
    return float(ok[0] * bin_width), int(ok[0])


@dataclass(frozen=True, eq=False)
class SensitivityResult:
    """Minimum difference at one topic-set size and the share of comparisons above it.

    Attributes
    ----------
    measure : str
    subset_size, samples, n_topics, n_runs : int
    confidence, bin_width : float
    seed : int or None
    comparisons, swaps : numpy.ndarray
        Per difference bin, over all draws.
    min_difference : float
        Lower edge of the first bin whose swap rate is ``<= 1 − confidence``.
    share_exceeding : float
        Fraction of all comparisons with a difference ``>= min_difference``.
    top_score : float
        Best mean over all ``N`` topics.
    """

    measure: str
    subset_size: int
    samples: int
    n_topics: int
    n_runs: int
    confidence: float
    bin_width: float
    seed: int | None
    comparisons: np.ndarray
    swaps: np.ndarray
    min_difference: float
    share_exceeding: float
    top_score: float

    def to_frame(self) -> pd.DataFrame:
        """Per bin: edges, comparisons, swaps, swap rate, share of comparisons at or above."""
        k = np.arange(len(self.comparisons))
        total = self.comparisons.sum()
        at_or_above = self.comparisons[::-1].cumsum()[::-1]
        with np.errstate(invalid="ignore", divide="ignore"):
            rate = np.where(self.comparisons > 0, self.swaps / np.maximum(self.comparisons, 1),
                            np.nan)
        return pd.DataFrame({"bin_lo": k * self.bin_width, "bin_hi": (k + 1) * self.bin_width,
                             "comparisons": self.comparisons, "swaps": self.swaps,
                             "swap_rate": rate, "share_at_or_above": at_or_above / total})

    def summary(self) -> pd.Series:
        return pd.Series({"measure": self.measure, "subset_size": self.subset_size,
                          "samples": self.samples, "confidence": self.confidence,
                          "seed": self.seed, "min_difference": self.min_difference,
                          "percent_exceeding": 100.0 * self.share_exceeding,
                          "top_score": self.top_score})


def sensitivity(scores: pd.DataFrame, subset_size: int | None = None, samples: int = 1000,
                confidence: float = 0.95, bin_width: float = 0.01, seed: int | None = None,
                measure: str = "", aggregate: Aggregate | None = None,
                ) -> Generator[Progress, None, SensitivityResult]:
    """Minimum difference for ``confidence`` at ``subset_size`` topics (progress generator).

    Parameters
    ----------
    scores : pandas.DataFrame
        Topics × runs per-topic measure.
    subset_size : int, optional
        Default ``N // 2``.
    samples : int
        Disjoint subset pairs drawn (default 1000).
    confidence : float
        0.95 → swap rate at most 5 %.
    bin_width : float
        Difference bins; for a count-like measure such as %no-rel@10 over 50
        topics, ``1/50`` makes one bin per topic.
    seed : int, optional
    measure : str
        Label; also picks the aggregate (``area``, ``map_worst``: see
        :mod:`yardstick.analysis.stability.aggregates`).
    aggregate : Aggregate, optional
        Overrides the one chosen from ``measure``.
    """
    agg = aggregate or aggregate_for(measure)
    sa = as_score_array(scores, min_topics=2)
    n = sa.n_topics // 2 if subset_size is None else int(subset_size)
    seed = resolve_seed(seed)  # None: a fresh seed, recorded in the result
    rng = np.random.default_rng(seed)
    idx_a, idx_b = disjoint_subset_indices(rng, sa.n_topics, n, samples)
    comps = np.zeros(0, np.int64)
    swaps = np.zeros(0, np.int64)
    for lo in range(0, samples, CHUNK_SAMPLES):
        yield Progress(lo, samples, f"sensitivity {measure}".strip())
        c, s = count_swaps(sa.values, idx_a[lo:lo + CHUNK_SAMPLES], idx_b[lo:lo + CHUNK_SAMPLES],
                           bin_width, agg)
        size = max(len(comps), len(c))
        comps = np.pad(comps, (0, size - len(comps))) + np.pad(c, (0, size - len(c)))
        swaps = np.pad(swaps, (0, size - len(swaps))) + np.pad(s, (0, size - len(s)))
    yield Progress(samples, samples, "done")
    min_diff, k = min_difference_from_counts(comps, swaps, bin_width, 1.0 - confidence)
    share = float(comps[k:].sum() / comps.sum()) if k >= 0 else 0.0
    return SensitivityResult(measure, n, samples, sa.n_topics, sa.n_runs, float(confidence),
                             float(bin_width), seed, comps, swaps, min_diff, share,
                             float(agg.full(sa.values).max()))
