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

__all__ = ["available", "installed", "set_enabled", "swap_histogram", "gather_means",
           "pair_outcomes", "bootstrap_t", "kth_largest", "CLOSE"]

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
        # error_model="numpy": x / 0 is inf or nan, as in numpy, not ZeroDivisionError
        jit = numba.njit(cache=True, nogil=True, error_model="numpy")
        _state["kernels"] = {"swap": jit(_swap_hist), "means": jit(_gather_means),
                             "outcomes": jit(_outcomes), "t_star": jit(_t_star),
                             "kth": jit(_kth_largest)}
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


#: relative gap below which :func:`pair_outcomes` leaves a fuzziness comparison to the caller
CLOSE = 1e-9


def _outcomes(means, fuzziness, gt, lt, eq, close):  # pragma: no cover - compiled by numba
    """Per pair ``i < j`` of the rows of ``means`` (``R × B``): samples where ``i`` wins,
    loses, ties.  A tie is ``a == b`` or ``|a − b| < fuzziness·max(|a|, |b|)``; where the two
    sides are within :data:`CLOSE` of each other (relatively) the outcome is not counted
    and ``close[pair, sample]`` is set, for the caller to decide on rounded values."""
    n_runs, n_samples = means.shape
    p = 0
    for i in range(n_runs - 1):
        for j in range(i + 1, n_runs):
            g = 0
            lo = 0
            e = 0
            for s in range(n_samples):
                a = means[i, s]
                b = means[j, s]
                if a == b:
                    e += 1
                    continue
                d = abs(a - b)
                y = fuzziness * max(abs(a), abs(b))
                if abs(d - y) <= CLOSE * max(d, y):
                    close[p, s] = 1
                elif d < y:
                    e += 1
                elif a > b:
                    g += 1
                else:
                    lo += 1
            gt[p] += g
            lt[p] += lo
            eq[p] += e
            p += 1


def pair_outcomes(means: np.ndarray, fuzziness: float):
    """``gt, lt, eq`` per run pair of ``means`` (``R × B``) and the (pair, sample)
    positions left undecided (:func:`_outcomes`); None without the kernels."""
    kernels = _compile() if _state["enabled"] else None
    if kernels is None:
        return None
    means = np.ascontiguousarray(means, dtype=np.float64)
    n_runs, n_samples = means.shape
    n_pairs = n_runs * (n_runs - 1) // 2
    gt, lt, eq = (np.zeros(n_pairs, np.int64) for _ in range(3))
    close = np.zeros((n_pairs, n_samples), np.uint8)
    kernels["outcomes"](means, float(fuzziness), gt, lt, eq, close)
    return gt, lt, eq, np.nonzero(close)


def _t_star(m_star, msq, n, var_factor, tol, t_obs, t_out, count):  # pragma: no cover
    """``|t|`` of every bootstrap sample and pair (``B × P`` means and mean squares), and per
    pair how many reach ``t_obs``: the arithmetic of
    :func:`yardstick.analysis.stability.discriminative_power._t_stat`, element by element."""
    n_samples, n_pairs = m_star.shape
    for b in range(n_samples):
        for p in range(n_pairs):
            mean = m_star[b, p]
            if abs(mean) <= tol[p]:
                mean = 0.0
            var = max(msq[b, p] - mean * mean, 0.0) * var_factor
            if var <= tol[p] * tol[p]:
                var = 0.0
            t = mean / np.sqrt(var / n)
            if np.isnan(t):
                t = 0.0
            t = abs(t)
            t_out[p, b] = t
            if t >= t_obs[p]:
                count[p] += 1


def bootstrap_t(m_star: np.ndarray, msq: np.ndarray, n: int, tol: np.ndarray,
                t_obs: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``|t*|`` (``P × B``: a pair's samples contiguous) and the count of samples with
    ``|t*| >= t_obs`` per pair, for the paired bootstrap test (Sakai 2006); None without
    the kernels."""
    kernels = _compile() if _state["enabled"] else None
    if kernels is None:
        return None
    t_out = np.empty(m_star.shape[::-1])
    count = np.zeros(m_star.shape[1], np.int64)
    kernels["t_star"](np.ascontiguousarray(m_star), np.ascontiguousarray(msq), int(n),
                      n / (n - 1.0), np.ascontiguousarray(tol, dtype=np.float64),
                      np.ascontiguousarray(t_obs, dtype=np.float64), t_out, count)
    return t_out, count


def _kth_largest(rows, k, where, unique):  # pragma: no cover - compiled by numba
    """Per row: position of its ``k``-th largest value (a sorted top-``k`` kept while
    scanning), and whether that value occurs once in the row."""
    n_rows, width = rows.shape
    top = np.empty(k)
    for p in range(n_rows):
        filled = 0
        for b in range(width):
            x = rows[p, b]
            if filled == k and x <= top[k - 1]:
                continue
            q = filled if filled < k else k - 1
            while q > 0 and top[q - 1] < x:
                top[q] = top[q - 1]
                q -= 1
            top[q] = x
            if filled < k:
                filled += 1
        v = top[k - 1]
        seen = 0
        for b in range(width):
            if rows[p, b] == v:
                seen += 1
                where[p] = b
        unique[p] = seen == 1


def kth_largest(rows: np.ndarray, k: int) -> np.ndarray | None:
    """Per row of ``rows``, the position ``np.argpartition(-rows, k - 1, axis=1)[:, k - 1]``
    gives (its ``k``-th largest value; where that value is tied in the row the choice is
    numpy's own, so it is left to numpy); None without the kernels."""
    kernels = _compile() if _state["enabled"] else None
    if kernels is None:
        return None
    rows = np.ascontiguousarray(rows, dtype=np.float64)
    where = np.zeros(rows.shape[0], np.intp)
    unique = np.zeros(rows.shape[0], np.bool_)
    kernels["kth"](rows, int(k), where, unique)
    tied = np.flatnonzero(~unique)
    if len(tied):
        where[tied] = np.argpartition(-rows[tied], k - 1, axis=1)[:, k - 1]
    return where


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
