"""Compiled inner loop of the swap counting: every run pair of every sample in one pass.

:func:`yardstick.analysis.stability.swap_rates.count_swaps` bins every run pair of
every topic sample by ``|d_A|`` and counts the pairs whose order the second sample
reverses (Voorhees and Buckley, "The effect of topic set size on retrieval experiment
error", SIGIR 2002, §3).  Written with numpy it makes about ten passes over a
``pairs × samples`` array; this loop (compiled by numba when it is installed) makes
one and holds nothing but the two histograms.  It does the same floating-point
operations in the same order — ``d = m_i − m_j``, ``⌊|d_A| + 10⁻⁹⌋``, ``d_A·d_B <
−tol`` — so its counts are identical to the numpy version's (tested), which stays as
the fallback when numba is missing.
"""

from __future__ import annotations

import numpy as np

__all__ = ["AVAILABLE", "swap_histograms", "swap_histograms_of_means"]

try:  # numba is optional: without it the numpy path in swap_rates runs
    from numba import njit
except ImportError:  # pragma: no cover - depends on the environment
    njit = None

AVAILABLE = njit is not None


def _count_pairs(ma: np.ndarray, mb: np.ndarray, comps: np.ndarray, swaps: np.ndarray,
                 tol: float) -> None:
    """Add sample ``ma``/``mb``'s (``R`` scores each) run pairs to the histograms."""
    n_runs = ma.shape[0]
    for i in range(n_runs - 1):
        ai = ma[i]
        bi = mb[i]
        for j in range(i + 1, n_runs):
            da = ai - ma[j]
            db = bi - mb[j]
            k = int(abs(da) + 1e-9)
            comps[k] += 1
            if db * da < tol:
                swaps[k] += 1


def _mean_row(values: np.ndarray, idx: np.ndarray, out: np.ndarray) -> None:
    """``out[r]`` = mean of ``values[idx[t], r]`` over ``t``, summed in ``t`` order, as
    numpy's ``values[idx].sum(axis=1) / n`` does."""
    n_runs = values.shape[1]
    for r in range(n_runs):
        out[r] = values[idx[0], r]
    for t in range(1, idx.shape[0]):
        for r in range(n_runs):
            out[r] += values[idx[t], r]
    for r in range(n_runs):
        out[r] = out[r] / idx.shape[0]


def _histograms(ma: np.ndarray, mb: np.ndarray, n_bins: int, tol: float
                ) -> tuple[np.ndarray, np.ndarray]:
    comps = np.zeros(n_bins, np.int64)
    swaps = np.zeros(n_bins, np.int64)
    for b in range(ma.shape[0]):
        count_pairs(ma[b], mb[b], comps, swaps, tol)
    return comps, swaps


def _histograms_of_means(values: np.ndarray, idx_a: np.ndarray, idx_b: np.ndarray,
                         n_bins: int, tol: float) -> tuple[np.ndarray, np.ndarray]:
    ma = np.empty(values.shape[1])
    mb = np.empty(values.shape[1])
    comps = np.zeros(n_bins, np.int64)
    swaps = np.zeros(n_bins, np.int64)
    for b in range(idx_a.shape[0]):
        mean_row(values, idx_a[b], ma)
        mean_row(values, idx_b[b], mb)
        count_pairs(ma, mb, comps, swaps, tol)
    return comps, swaps


if AVAILABLE:
    count_pairs = njit(cache=True, nogil=True)(_count_pairs)
    mean_row = njit(cache=True, nogil=True)(_mean_row)
    _compiled = njit(cache=True, nogil=True)(_histograms)
    _compiled_means = njit(cache=True, nogil=True)(_histograms_of_means)


def swap_histograms(ma: np.ndarray, mb: np.ndarray, tolerance: float
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Comparisons and swaps per bin of ``B × R`` sample scores in bin units.

    ``ma``, ``mb``: each run's score on the first and second sample of each draw,
    already divided by the bin width.  A pair is in bin ``⌊|m_i − m_j| + 10⁻⁹⌋`` of the
    first sample and swapped when ``d_A · d_B < −tolerance``.  Returns int64 arrays up to
    the last bin holding a comparison (empty when there are none), as ``numpy.bincount``
    would.
    """
    ma = np.ascontiguousarray(ma, dtype=np.float64)
    mb = np.ascontiguousarray(mb, dtype=np.float64)
    if ma.size == 0 or ma.shape[1] < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    spread = float((ma.max(axis=1) - ma.min(axis=1)).max())   # |m_i − m_j| <= this, exactly
    n_bins = int(spread + 1e-9) + 1
    comps, swaps = _compiled(ma, mb, n_bins, -tolerance)
    last = np.flatnonzero(comps)
    end = int(last[-1]) + 1 if len(last) else 0
    return comps[:end].copy(), swaps[:end].copy()


def swap_histograms_of_means(scaled: np.ndarray, idx_a: np.ndarray, idx_b: np.ndarray,
                             tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`swap_histograms` of the runs' *mean* scores on the samples ``idx_a``,
    ``idx_b`` (``B × n`` topic indices into the ``N × R`` ``scaled`` scores), each mean
    summed in the order numpy's gather-sum uses, without the ``B × n × R`` gather."""
    scaled = np.ascontiguousarray(scaled, dtype=np.float64)
    if idx_a.size == 0 or scaled.shape[1] < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    spread = float(scaled.max() - scaled.min())   # any two means differ by at most this
    n_bins = int(spread + 1e-9) + 2
    comps, swaps = _compiled_means(scaled, np.ascontiguousarray(idx_a, dtype=np.intp),
                                   np.ascontiguousarray(idx_b, dtype=np.intp), n_bins,
                                   -tolerance)
    last = np.flatnonzero(comps)
    end = int(last[-1]) + 1 if len(last) else 0
    return comps[:end].copy(), swaps[:end].copy()
