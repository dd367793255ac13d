"""Randomised Tukey HSD over all runs (Carterette 2012).

Carterette, "Multiple testing in statistical analysis of systems-based
information retrieval experiments", ACM TOIS 30(1), 2012, §4 (the randomised
version of Tukey's Honest Significant Difference test), mentioned in
Soboroff's "Measuring the measure" (TREC slides) as giving results
similar to the minimum-delta test.  Under the null hypothesis that all runs
are the same, the scores within one topic are exchangeable, so for each of
``B`` trials::

    permute every topic's row of the topics × runs matrix independently
    r*_b = max_run mean − min_run mean

and the p-value of a pair is ``p_ij = #{ b : r*_b ≥ |m_i − m_j| } / B``.  The
range distribution controls the family-wise error over all pairs at once.

The trials are drawn in blocks as ``b × N × R`` arrays shuffled along the run
axis by ``Generator.permuted`` (no Python loop per trial).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.stability.aggregates import MEAN, Aggregate, aggregate_for
from yardstick.analysis.stability.resampling import as_score_array
from yardstick.common.progress import Progress
from yardstick.common.seeds import resolve_seed

__all__ = ["TukeyHSDResult", "tukey_hsd", "permutation_ranges"]

#: Upper bound on trial × topic × run elements held at once.
CHUNK_ELEMENTS = 4_000_000


def permutation_ranges(values: np.ndarray, trials: int, rng: np.random.Generator,
                       aggregate: Aggregate = MEAN) -> np.ndarray:
    """Range of run scores for ``trials`` independent within-topic permutations."""
    n, r = values.shape
    block = np.broadcast_to(values, (trials, n, r))
    shuffled = rng.permuted(block, axis=2)
    means = aggregate.reduce(shuffled)
    return means.max(axis=1) - means.min(axis=1)


@dataclass(frozen=True, eq=False)
class TukeyHSDResult:
    """Pairwise p-values from the randomised range distribution.

    Attributes
    ----------
    measure : str
    runs : tuple of str
        Best first (by mean; ``lower_is_better`` reverses).
    means : numpy.ndarray
        In the order of ``runs``.
    pvalues : numpy.ndarray
        ``R × R`` (1 on the diagonal).
    ranges : numpy.ndarray
        The ``B`` permutation ranges.
    alpha : float
    samples : int
    seed : int or None
    """

    measure: str
    runs: tuple[str, ...]
    means: np.ndarray
    pvalues: np.ndarray
    ranges: np.ndarray
    alpha: float
    samples: int
    seed: int | None

    @property
    def critical_difference(self) -> float:
        """The (1 − alpha) quantile of the range distribution (the HSD)."""
        return float(np.quantile(self.ranges, 1.0 - self.alpha))

    @property
    def best(self) -> str:
        return self.runs[0]

    def top_group(self) -> list[str]:
        """Runs not significantly different from the best (the best included)."""
        return [r for r, p in zip(self.runs, self.pvalues[0]) if p >= self.alpha]

    def groups(self) -> list[list[str]]:
        """Maximal runs of consecutive runs (by mean) all mutually indistinguishable.

        Because every p-value comes from the same range distribution, a block
        ``i..j`` is indistinguishable iff its extremes are; the classic
        "underline" display of Tukey's test.
        """
        r = len(self.runs)
        out: list[list[str]] = []
        last_end = -1
        for i in range(r):
            j = i
            while j + 1 < r and self.pvalues[i, j + 1] >= self.alpha:
                j += 1
            if j > last_end:
                out.append(list(self.runs[i:j + 1]))
                last_end = j
        return out

    def to_frame(self) -> pd.DataFrame:
        """Per run: rank, mean, p vs best, in the top group, group labels (a, b, ...)."""
        member: dict[str, list[int]] = {r: [] for r in self.runs}
        for k, g in enumerate(self.groups()):
            for r in g:
                member[r].append(k)
        labels = {r: group_label(ks) for r, ks in member.items()}
        top = set(self.top_group())
        return pd.DataFrame({"rank": np.arange(1, len(self.runs) + 1), "run": list(self.runs),
                             "mean": self.means, "p_vs_best": self.pvalues[0],
                             "top_group": [r in top for r in self.runs],
                             "groups": [labels[r] for r in self.runs]})

    def pvalue_frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.pvalues, index=list(self.runs), columns=list(self.runs))

    def summary(self) -> pd.Series:
        return pd.Series({"measure": self.measure, "runs": len(self.runs),
                          "samples": self.samples, "alpha": self.alpha, "seed": self.seed,
                          "best": self.best, "top_group_size": len(self.top_group()),
                          "groups": len(self.groups()),
                          "critical_difference": self.critical_difference})


def _letter(k: int) -> str:
    """Group ``k`` (0-based) as a, b, ..., z, aa, ab, ..."""
    s = ""
    k += 1
    while k:
        k, rem = divmod(k - 1, 26)
        s = chr(ord("a") + rem) + s
    return s


def group_label(ks: list[int]) -> str:
    """The groups a run is in (always consecutive: groups are runs of consecutive runs
    by mean) as letters: ``ab`` for two, a range ``c–h`` for three or more, so that 150
    runs in 40 groups read ``ab–an`` rather than 26 letters and a number."""
    if not ks:
        return ""
    if len(ks) >= 3:
        return f"{_letter(ks[0])}–{_letter(ks[-1])}"
    names = [_letter(k) for k in ks]
    return ("," if any(len(n) > 1 for n in names) else "").join(names)


def tukey_hsd(scores: pd.DataFrame, samples: int = 1000, alpha: float = 0.05,
              seed: int | None = None, measure: str = "", lower_is_better: bool = False,
              aggregate: Aggregate | None = None) -> Generator[Progress, None, TukeyHSDResult]:
    """Randomised Tukey HSD test over all runs (progress generator).

    Parameters
    ----------
    scores : pandas.DataFrame
        Topics × runs per-topic measure.
    samples : int
        ``B`` permutation trials (default 1000).
    alpha : float
        Family-wise significance level.
    seed : int, optional
    lower_is_better : bool
        Only changes which run is "best".
    measure, aggregate
        As for :func:`yardstick.analysis.stability.swap_rates.swap_rates` (``area`` ranks
        runs by the area of the permuted scores).
    """
    agg = aggregate or aggregate_for(measure)
    sa = as_score_array(scores)
    n, r = sa.values.shape
    seed = resolve_seed(seed)  # None: a fresh seed, recorded in the result
    rng = np.random.default_rng(seed)
    step = max(1, min(CHUNK_ELEMENTS // (n * r), -(-samples // 20)))
    ranges = np.empty(samples)
    for lo in range(0, samples, step):
        yield Progress(lo, samples, f"Tukey HSD {measure}".strip())
        k = min(step, samples - lo)
        ranges[lo:lo + k] = permutation_ranges(sa.values, k, rng, agg)
    yield Progress(samples, samples, "done")
    means = agg.full(sa.values)
    order = np.lexsort((np.array(sa.runs), means if lower_is_better else -means))
    means = means[order]
    diff = np.abs(means[:, None] - means[None, :])
    srt = np.sort(ranges)
    # p = #(range >= diff) / B, with a small tolerance so equal means are not "significant"
    pvalues = (samples - np.searchsorted(srt, diff - 1e-12, side="left")) / samples
    return TukeyHSDResult(measure, tuple(sa.runs[k] for k in order), means, pvalues, ranges,
                          float(alpha), samples, seed)
