"""Voorhees–Buckley swap rates and the minimum difference for 95 % confidence.

Voorhees and Buckley, "The effect of topic set size on retrieval experiment
error", SIGIR 2002, as described in Soboroff, "On evaluating web search with
very few relevant documents", SIGIR 2004 (Soboroff, SIGIR 2004, §1) and the
"Minimum-delta test" of "Measuring the measure" (TREC slides):

1. for each topic-set size ``n`` up to ``N/2``, draw ``B`` pairs of *disjoint*
   random topic subsets of size ``n``;
2. score every run on both subsets (mean per-topic measure) and, for every run
   pair, bin it by the absolute score difference on the first subset (bins of
   0.01 by default);
3. count a *swap* when the two subsets order the pair differently
   (``d_A · d_B < 0``; a pair tied on either subset is compared but is no swap);
   swap rate = swaps / comparisons, per size and bin;
4. per bin, fit ``A1 · exp(−A2 · n)`` (:mod:`yardstick.analysis.stability.exponential_fit`),
   report A1, A2, the residual error and "5%int", and extrapolate to ``N``;
5. the minimum difference for 95 % confidence at ``N`` is the lower edge of the
   first bin whose extrapolated error rate is at most 5 %; the web-track note
   (Tables 1–2) prints it with the top score and as % of the top score.

Every sample of every size is drawn at once as index arrays and scored with one
matrix product (:mod:`yardstick.analysis.stability.resampling`); swaps are counted for all
samples × run pairs into one histogram (``numpy.add.at``).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.stability.aggregates import MEAN, Aggregate, aggregate_for
from yardstick.analysis.stability.exponential_fit import ExpFit, fit_exponential, size_at_rate
from yardstick.analysis.stability.resampling import (
    as_score_array,
    default_sizes,
    disjoint_subset_indices,
)
from yardstick.common.progress import Progress
from yardstick.common.seeds import resolve_seed

__all__ = ["SwapRateResult", "count_swaps", "swap_rates", "analyse_swap_counts"]

#: runs × samples in one block of :func:`count_swaps` (its buffers hold ``runs × samples``
#: values, about 1 MB: 150 runs take 1000 samples at a time).  Each numpy pass over a block
#: gives up the interpreter lock once; with blocks of 40,000 (cache-sized) two tasks on
#: threads spent their time handing the lock over (count_swaps 1.15-1.19x faster on two
#: threads than on one; 1.37-1.44x with these, and no slower on one)
BLOCK_ELEMENTS = 150_000
#: ``d_A · d_B`` (in bin units²) must be below ``−TIE_TOLERANCE`` to be a swap: two runs
#: with the same scores in another topic order can differ by an ulp, which is a tie.
TIE_TOLERANCE = 1e-12
#: pair codes gathered before they are counted (bytes; a few hundred kB stay in cache)
CODE_CHUNK = 1 << 17
#: differences (in bins) below which a pair's code fits in a byte (``2·bin + swapped``)
NARROW_BINS = 128


def count_swaps(values: np.ndarray, idx_a: np.ndarray, idx_b: np.ndarray, bin_width: float,
                aggregate: Aggregate = MEAN) -> tuple[np.ndarray, np.ndarray]:
    """Comparisons and swaps per difference bin for given topic samples.

    Parameters
    ----------
    values : numpy.ndarray
        ``N × R`` scores.
    idx_a, idx_b : numpy.ndarray
        ``B × n`` topic indices of the first and second sample of each draw.
    bin_width : float
    aggregate : Aggregate
        How a sample's per-topic scores make a run's score (the mean by default;
        see :mod:`yardstick.analysis.stability.aggregates`).

    Returns
    -------
    comparisons, swaps : numpy.ndarray
        int64 per bin ``k`` (``k·width <= |d_A| < (k+1)·width``); ``B × P``
        comparisons in all, ``P = R(R−1)/2``.  A swap is ``d_A · d_B < 0`` beyond
        rounding noise (:data:`TIE_TOLERANCE`).
    """
    if not bin_width > 0:
        raise ValueError(f"bin width must be > 0, not {bin_width}")
    n_topics, n_runs = values.shape
    scaled = values * (1.0 / bin_width)    # scores in bin units: bin = floor(|d| + 1e-9)
    step = max(16, min(1000, BLOCK_ELEMENTS // max(n_runs, 1)))
    counter = _PairCounter(n_runs, step)
    means = np.empty((2, step, n_runs))     # kept: see _PairCounter.means2
    for lo in range(0, idx_a.shape[0], step):
        a, b = idx_a[lo:lo + step], idx_b[lo:lo + step]
        counter.add(aggregate.samples(scaled, a, means[0, :len(a)]),
                    aggregate.samples(scaled, b, means[1, :len(b)]))
    return counter.per_bin()


class _PairCounter:
    """Histogram of ``code = 2·bin(|d_A|) + swapped`` over run pairs and samples.

    Built one run distance ``d`` at a time (:meth:`add`): the block of pairs
    ``(i, i + d)`` × a block of samples stays in the CPU cache through its numpy passes
    (``d = a_i − a_j`` is one subtraction).  While every ``|d_A|`` of a block is below
    :data:`NARROW_BINS` bins (always so for scores in [0, 1] and bins of 0.01), each code
    is one byte (the float-to-``uint8`` cast is ~6x cheaper than to ``intp``); the bytes
    gather in a cache-sized buffer of :data:`CODE_CHUNK`, and ``numpy.add.at`` counts
    them two at a time, each adjacent pair read as one ``uint16`` (half the indices; its
    256 × 256 histogram is summed over either byte in :meth:`per_bin`), straight into the
    histogram: ``numpy.bincount`` made an ``intp`` copy of the codes and a new histogram on
    every call, 512 kB each, which a Dask worker (whose ``MALLOC_TRIM_THRESHOLD_`` fixes
    glibc's mmap threshold at 128 kB) mapped and faulted in afresh every time — counting
    ran 1.8× slower there (5 % here).  Wider differences take
    ``intp`` codes.  The counts are integers, so any order gives the same result.
    """

    def __init__(self, n_runs: int, samples: int):
        size = max(n_runs, 1) * samples
        self.da, self.db = np.empty(size), np.empty(size)
        self.swapped = np.empty(size, bool)
        # the means of a block, each written twice in a row (see add); kept, not made per
        # block (on a Dask worker each new array of over 128 kB is mapped and faulted in)
        self.means2 = np.empty((2, 2 * size))
        self.wide_code = np.empty(0, np.intp)
        self.codes = np.empty(CODE_CHUNK + size + 1, np.uint8)
        self.fill = 0
        self.pads = 0
        self.hist = np.zeros(0, np.int64)            # per code
        self.hist16 = np.zeros(1 << 16, np.int64)     # per pair of byte codes

    def add(self, means_a: np.ndarray, means_b: np.ndarray) -> None:
        """Count every pair ``i < j`` on every row of the ``samples × runs`` means.

        The pairs go by distance: ``(i, i + d mod R)`` for every run ``i`` and
        ``d = 1 .. (R − 1) // 2`` (and ``d = R / 2`` for ``i < R / 2`` when ``R`` is even)
        is every unordered pair once; each distance is one subtraction of two contiguous
        ``R × samples`` blocks of the runs' means written twice in a row (twice as fast
        as a subtraction broadcasting one run against the others).  ``|d_A|`` and
        ``d_A · d_B`` do not depend on which run of a pair comes first.
        """
        n_samples, n_runs = means_a.shape
        at = self.means2[0, :2 * n_runs * n_samples].reshape(2 * n_runs, n_samples)
        at[:n_runs] = means_a.T
        at[n_runs:] = at[:n_runs]
        bt = self.means2[1, :2 * n_runs * n_samples].reshape(2 * n_runs, n_samples)
        bt[:n_runs] = means_b.T
        bt[n_runs:] = bt[:n_runs]
        span = float((at.max(axis=0) - at.min(axis=0)).max()) if at.size else 0.0
        narrow = span < NARROW_BINS - 1
        half = n_runs // 2
        for d in range(1, half + 1):
            rows = half if 2 * d == n_runs else n_runs
            size = rows * n_samples
            da, db, swapped = self.da[:size], self.db[:size], self.swapped[:size]
            np.subtract(at[:rows].ravel(), at[d:d + rows].ravel(), out=da)
            np.subtract(bt[:rows].ravel(), bt[d:d + rows].ravel(), out=db)
            np.multiply(db, da, out=db)
            np.abs(da, out=da)
            np.add(da, 1e-9, out=da)            # see resampling.bin_index
            np.less(db, -TIE_TOLERANCE, out=swapped)
            if narrow:
                self._narrow(da, swapped)
            else:
                self._wide(da, swapped)

    def _narrow(self, da: np.ndarray, swapped: np.ndarray) -> None:
        code = self.codes[self.fill:self.fill + len(da)]
        np.copyto(code, da, casting="unsafe")     # floor: da >= 0
        np.add(code, code, out=code)
        np.add(code, swapped.view(np.uint8), out=code)
        self.fill += len(da)
        if self.fill >= CODE_CHUNK:
            self._flush()

    def _flush(self) -> None:
        n = self.fill
        if n % 2:
            self.codes[n] = 0                     # a pad, taken off code 0 in per_bin
            self.pads += 1
            n += 1
        if n:
            np.add.at(self.hist16, self.codes[:n].view(np.uint16), 1)
        self.fill = 0

    def _wide(self, da: np.ndarray, swapped: np.ndarray) -> None:
        if len(self.wide_code) < len(da):
            self.wide_code = np.empty(len(self.da), np.intp)
        code = self.wide_code[:len(da)]
        np.copyto(code, da, casting="unsafe")
        np.left_shift(code, 1, out=code)
        np.add(code, swapped, out=code)
        h = np.bincount(code)
        if len(h) > len(self.hist):
            self.hist = np.pad(self.hist, (0, len(h) - len(self.hist)))
        self.hist[:len(h)] += h

    def per_bin(self) -> tuple[np.ndarray, np.ndarray]:
        self._flush()
        pairs = self.hist16.reshape(256, 256)
        narrow = pairs.sum(axis=0) + pairs.sum(axis=1)
        narrow[0] -= self.pads
        n = max(len(self.hist), int(np.flatnonzero(narrow)[-1]) + 1 if narrow.any() else 0)
        hist = np.zeros(n + n % 2, np.int64)
        hist[:len(self.hist)] += self.hist
        hist[:min(n, 256)] += narrow[:min(n, 256)]
        per_bin = hist.reshape(-1, 2)
        return per_bin.sum(axis=1), per_bin[:, 1].copy()


@dataclass(frozen=True, eq=False)
class SwapRateResult:
    """Swap counts per (topic-set size, difference bin), their fits and the minimum difference.

    Attributes
    ----------
    method : str
        ``"disjoint"`` (Voorhees–Buckley) or ``"bootstrap"`` (Sakai 2006).
    measure : str
    sizes : numpy.ndarray
        Topic-set sizes ``n`` (rows of ``comparisons`` / ``swaps``).
    bin_width : float
    comparisons, swaps : numpy.ndarray
        int64, ``len(sizes) × n_bins``.
    fits : tuple of ExpFit
        One per bin.
    n_topics, n_runs, samples : int
        ``N``, ``R`` and ``B``.
    seed : int or None
    target : float
        Error rate for the confidence level (0.05 for 95 %).
    top_score : float
        Best mean score of a run over all ``N`` topics.
    min_difference : float
        Smallest absolute difference with error rate <= ``target`` at ``N``
        (lower edge of its bin; NaN if no bin gets there).
    min_difference_from : str
        ``"fit"`` (extrapolated, disjoint method) or ``"observed"`` (rates
        measured at ``n = N``, bootstrap method).
    """

    method: str
    measure: str
    sizes: np.ndarray
    bin_width: float
    comparisons: np.ndarray
    swaps: np.ndarray
    fits: tuple[ExpFit, ...]
    n_topics: int
    n_runs: int
    samples: int
    seed: int | None
    target: float
    top_score: float
    min_difference: float
    min_difference_from: str

    @property
    def n_bins(self) -> int:
        return self.comparisons.shape[1]

    @property
    def bin_edges(self) -> np.ndarray:
        return np.arange(self.n_bins + 1) * self.bin_width

    @property
    def rates(self) -> np.ndarray:
        """Swap rate per (size, bin); NaN where a bin has no comparisons."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.comparisons > 0, self.swaps / self.comparisons, np.nan)

    @property
    def percent_of_top(self) -> float:
        return 100.0 * self.min_difference / self.top_score if self.top_score else float("nan")

    def fitted_error(self, n: float) -> np.ndarray:
        """Fitted error rate of every bin at topic-set size ``n``."""
        return np.array([f(n) if f.ok else np.nan for f in self.fits], dtype=float)

    def to_frame(self) -> pd.DataFrame:
        """One row per difference bin: A1, A2, ResErr, 5%int, error at N (the slides' grid)."""
        edges = self.bin_edges
        n5 = np.array([size_at_rate(f.a1, f.a2, self.target) for f in self.fits])
        return pd.DataFrame({
            "bin_lo": edges[:-1], "bin_hi": edges[1:],
            "comparisons": self.comparisons.sum(axis=0),
            "swaps": self.swaps.sum(axis=0),
            "A1": [f.a1 for f in self.fits], "A2": [f.a2 for f in self.fits],
            "ResErr": [f.res_err for f in self.fits],
            f"{self.target:.0%}int": np.minimum(n5, self.n_topics),
            "error_at_N": self.fitted_error(self.n_topics),
            "observed_at_max_n": self.rates[-1],
        })

    def rates_frame(self) -> pd.DataFrame:
        """Long form: ``n``, ``bin_lo``, ``bin_hi``, ``comparisons``, ``swaps``, ``rate``,
        ``fitted``."""
        s, k = np.meshgrid(np.arange(len(self.sizes)), np.arange(self.n_bins), indexing="ij")
        edges = self.bin_edges
        fitted = np.array([[f(n) if f.ok else np.nan for f in self.fits] for n in self.sizes])
        return pd.DataFrame({
            "n": self.sizes[s.ravel()], "bin_lo": edges[k.ravel()], "bin_hi": edges[k.ravel() + 1],
            "comparisons": self.comparisons.ravel(), "swaps": self.swaps.ravel(),
            "rate": self.rates.ravel(), "fitted": fitted.ravel()})

    def summary(self) -> pd.Series:
        """The web-track note's table row: N, minimum difference, top score, % of top."""
        return pd.Series({
            "measure": self.measure, "method": self.method, "topics": self.n_topics,
            "runs": self.n_runs, "samples": self.samples, "seed": self.seed,
            "confidence": 1.0 - self.target, "min_difference": self.min_difference,
            "from": self.min_difference_from, "top_score": self.top_score,
            "percent_of_top": self.percent_of_top})


def analyse_swap_counts(method: str, measure: str, sizes: Sequence[int], bin_width: float,
                        counts: list[tuple[np.ndarray, np.ndarray]], n_topics: int,
                        n_runs: int, samples: int, seed: int | None, target: float,
                        top_score: float, min_count: int = 1) -> SwapRateResult:
    """Fit every bin and find the minimum difference (shared by both swap methods).

    ``min_count``: a (size, bin) cell takes part in the fit only with at least
    this many comparisons.
    """
    n_bins = max(len(c) for pair in counts for c in pair)
    comps = np.array([np.pad(c, (0, n_bins - len(c))) for c, _ in counts], dtype=np.int64)
    swaps = np.array([np.pad(s, (0, n_bins - len(s))) for _, s in counts], dtype=np.int64)
    sizes_arr = np.asarray(sizes, dtype=np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = np.where(comps >= max(min_count, 1), swaps / comps, np.nan)
    fits = tuple(fit_exponential(sizes_arr, rates[:, k]) for k in range(n_bins))
    if method == "bootstrap" and sizes_arr[-1] == n_topics:
        at_n, source = rates[-1], "observed"
    else:
        at_n = np.array([f(n_topics) if f.ok else np.nan for f in fits])
        source = "fit"
    ok = np.flatnonzero(at_n <= target)
    min_diff = float(ok[0] * bin_width) if len(ok) else float("nan")
    return SwapRateResult(method, measure, sizes_arr, float(bin_width), comps, swaps, fits,
                          n_topics, n_runs, samples, seed, target, top_score, min_diff, source)


def swap_rates(scores: pd.DataFrame, sizes: Sequence[int] | None = None, samples: int = 1000,
               bin_width: float = 0.01, seed: int | None = None, confidence: float = 0.95,
               measure: str = "", min_count: int = 20, aggregate: Aggregate | None = None,
               ) -> Generator[Progress, None, SwapRateResult]:
    """Voorhees–Buckley swap rates with disjoint topic subsets (progress generator).

    Parameters
    ----------
    scores : pandas.DataFrame
        Topics × runs per-topic measure (``yardstick.evaluation.evaluation_service.score_matrix``).
    sizes : sequence of int, optional
        Topic-set sizes; default every size ``1 .. N // 2`` (spread over at most 60
        sizes beyond that: :func:`yardstick.analysis.stability.resampling.default_sizes`).
    samples : int
        ``B``, subset pairs drawn per size (default 1000).
    bin_width : float
        Width of the absolute-difference bins (default 0.01).
    seed : int, optional
        Seed of ``numpy.random.default_rng``; recorded in the result.
    confidence : float
        0.95 → the minimum difference is for a 5 % error rate.
    measure : str
        Label stored in the result; also picks the aggregate (``area`` and
        ``map_worst`` re-rank each sample's worst topics, see
        :mod:`yardstick.analysis.stability.aggregates`; their score matrix holds per-topic AP).
    min_count : int
        Minimum comparisons for a (size, bin) rate to enter the fit (default
        20; sparse cells of large-difference bins are mostly noise).
    aggregate : Aggregate, optional
        Overrides the aggregate chosen from ``measure``.

    Returns
    -------
    SwapRateResult
        Drive with :func:`yardstick.common.progress.run_sync`.
    """
    sa = as_score_array(scores, min_topics=2)
    n_topics = sa.n_topics
    sizes = default_sizes(n_topics // 2) if sizes is None else sorted({int(s) for s in sizes})
    if not sizes:
        raise ValueError("no topic-set sizes to sample")
    agg = aggregate or aggregate_for(measure)
    seed = resolve_seed(seed)  # None: a fresh seed, recorded in the result
    rng = np.random.default_rng(seed)
    counts = []
    for k, n in enumerate(sizes):
        yield Progress(k, len(sizes), f"swap rates: {n} topics")
        idx_a, idx_b = disjoint_subset_indices(rng, n_topics, n, samples)
        counts.append(count_swaps(sa.values, idx_a, idx_b, bin_width, agg))
    yield Progress(len(sizes), len(sizes), "fitting")
    top = float(agg.full(sa.values).max())
    return analyse_swap_counts("disjoint", measure, sizes, bin_width, counts, n_topics,
                               sa.n_runs, samples, seed, 1.0 - confidence, top, min_count)
