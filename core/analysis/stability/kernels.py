"""Compiled inner loops of the resampling analyses, when numba is installed.

The swap-rate analyses (Voorhees and Buckley, "The effect of topic set size on retrieval
experiment error", SIGIR 2002; Sakai, "Evaluating evaluation metrics based on the
bootstrap", SIGIR 2006) look at every run pair on every sample: 150 runs, B = 1000 and 50
topic-set sizes are 560 million pair comparisons per measure.  As numpy array passes that
is ten passes over ``samples × pairs`` temporaries (about 6 ns a comparison); compiled with
numba it is one loop with nothing stored (under 2 ns) — a loop of numba (``pip install
"yardstick-ir[fast]"``), used when it can be imported.

Every kernel does the *same floating-point operations in the same order* as the numpy
code it replaces (no fast-math, no reassociation), so results are bit-identical with and
without numba: ``tests/analysis/test_stability_frozen.py`` checks both against the
digests of the code before the speed-up.  ``YARDSTICK_NO_JIT=1`` (or :func:`set_enabled`)
switches the kernels off.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

__all__ = ["available", "installed", "set_enabled", "swap_histogram", "gather_means"]

_state: dict[str, Any] = {"enabled": not os.environ.get("YARDSTICK_NO_JIT"), "kernels": None}


def set_enabled(on: bool) -> bool:
    """Switch the compiled kernels on or off (tests compare both paths); -> previous."""
    was = _state["enabled"]
    _state["enabled"] = bool(on)
    return was


def _compile() -> dict[str, Any] | None:
    """The jitted kernels (compiled once, cached on disk by numba), or None without numba."""
    if _state["kernels"] is None:
        try:
            import numba
        except ImportError:
            _state["kernels"] = {}
            return None
        jit = numba.njit(cache=True, nogil=True)
        _state["kernels"] = {"swap": jit(_swap_hist), "means": jit(_gather_means)}
    return _state["kernels"] or None


def installed() -> bool:
    """True when numba can be imported (the kernels can be compiled)."""
    return _compile() is not None


def available() -> bool:
    """True when the compiled kernels are switched on and numba can be imported."""
    return bool(_state["enabled"]) and installed()


def _swap_hist(ma, mb, tol, hist):  # pragma: no cover - compiled by numba
    """``hist[k, 0]`` += comparisons, ``hist[k, 1]`` += swaps in bin ``k``, every pair
    ``i < j`` of every row: ``d_A = a_i − a_j``, bin ``int(|d_A| + 1e-9)``, a swap when
    ``(b_i − b_j)·d_A < −tol`` (:func:`yardstick.analysis.stability.swap_rates.count_swaps`)."""
    n_samples, n_runs = ma.shape
    for s in range(n_samples):
        for i in range(n_runs - 1):
            ai = ma[s, i]
            bi = mb[s, i]
            for j in range(i + 1, n_runs):
                da = ai - ma[s, j]
                db = bi - mb[s, j]
                k = int(abs(da) + 1e-9)
                hist[k, 0] += 1
                if db * da < -tol:
                    hist[k, 1] += 1


def _gather_means(values, indices, out):  # pragma: no cover - compiled by numba
    """``out[b] = (values[indices[b, 0]] + values[indices[b, 1]] + …) / n``, summed in
    index order exactly as ``values[indices].sum(axis=1) / n`` does."""
    n_samples, size = indices.shape
    n_runs = values.shape[1]
    for b in range(n_samples):
        t0 = indices[b, 0]
        for r in range(n_runs):
            out[b, r] = values[t0, r]
        for t in range(1, size):
            row = indices[b, t]
            for r in range(n_runs):
                out[b, r] += values[row, r]
        for r in range(n_runs):
            out[b, r] /= size


def swap_histogram(ma: np.ndarray, mb: np.ndarray, tol: float,
                   ) -> tuple[np.ndarray, np.ndarray] | None:
    """Comparisons and swaps per difference bin over every pair and row of ``ma``/``mb``
    (``B × R`` sample scores in bin units), or None without the kernels."""
    kernels = _compile() if _state["enabled"] else None
    if kernels is None:
        return None
    ma = np.ascontiguousarray(ma, dtype=np.float64)
    mb = np.ascontiguousarray(mb, dtype=np.float64)
    if ma.shape[0] == 0 or ma.shape[1] < 2:
        return np.zeros(1, np.int64), np.zeros(1, np.int64)
    # the largest |d_A| is max − min of a row (a float difference is monotone in each side)
    top = float(np.max(ma.max(axis=1) - ma.min(axis=1)))
    if not np.isfinite(top):
        return None
    hist = np.zeros((int(top + 1e-9) + 2, 2), dtype=np.int64)
    kernels["swap"](ma, mb, float(tol), hist)
    last = int(np.flatnonzero(hist[:, 0])[-1]) + 1
    return hist[:last, 0].copy(), hist[:last, 1].copy()


def gather_means(values: np.ndarray, indices: np.ndarray) -> np.ndarray | None:
    """Every run's mean on every sample (``B × R``), bit-identical to
    ``values[indices].sum(axis=1) / n``; None without the kernels."""
    kernels = _compile() if _state["enabled"] else None
    if kernels is None or indices.shape[1] == 0:
        return None
    values = np.ascontiguousarray(values, dtype=np.float64)
    indices = np.ascontiguousarray(indices, dtype=np.intp)
    out = np.empty((indices.shape[0], values.shape[1]))
    kernels["means"](values, indices, out)
    return out
