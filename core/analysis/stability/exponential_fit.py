"""The exponential error-rate model of Voorhees and Buckley (SIGIR 2002).

Voorhees and Buckley observed that, within one bin of score differences, the
swap (error) rate falls roughly exponentially with the topic-set size ``n``::

    error(n) = A1 · exp(−A2 · n)

Soboroff's "Measuring the measure" slides (TREC slides, "V/B delta,
MAP, TREC 8") print, for every difference bin, ``A1``, ``A2``, ``ResErr`` (the
residual standard error of the fit) and ``5%int`` — the size at which the fitted
curve crosses 5 %, ``ln(A1 / 0.05) / A2``, shown capped at the full topic-set
size (e.g. bin ``> 0.04``: A1 = 0.455, A2 = 0.0465 → 47.5; bin ``> 0.2``:
A1 = 2.39, A2 = 0.54 → 7.2; bins whose crossing lies beyond N = 50 show 50).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy.optimize import OptimizeWarning, curve_fit

__all__ = ["ExpFit", "exp_model", "fit_exponential", "size_at_rate"]


def exp_model(n: np.ndarray, a1: float, a2: float) -> np.ndarray:
    """``A1 · exp(−A2 · n)`` (Voorhees and Buckley 2002)."""
    return a1 * np.exp(-a2 * np.asarray(n, dtype=float))


def _exp_jac(n: np.ndarray, a1: float, a2: float) -> np.ndarray:
    e = np.exp(-a2 * n)
    return np.column_stack([e, -a1 * n * e])


@dataclass(frozen=True)
class ExpFit:
    """A fitted ``A1 · exp(−A2 · n)`` curve.

    Attributes
    ----------
    a1, a2 : float
        Parameters (NaN when there were fewer than two points to fit).
    res_err : float
        Residual standard error ``sqrt(Σ residual² / (m − 2))`` over the ``m``
        fitted points (R's ``nls`` "residual standard error"; 0 when m = 2).
    points : int
        Number of (n, rate) points used.
    """

    a1: float
    a2: float
    res_err: float
    points: int

    @property
    def ok(self) -> bool:
        return bool(np.isfinite(self.a1) and np.isfinite(self.a2))

    def __call__(self, n) -> np.ndarray:
        return exp_model(n, self.a1, self.a2)


def fit_exponential(sizes: np.ndarray, rates: np.ndarray) -> ExpFit:
    """Least-squares fit of ``rate ≈ A1 · exp(−A2 · n)`` with ``scipy.optimize.curve_fit``.

    Both parameters are constrained to be ``>= 0`` (an error rate neither goes
    negative nor grows with more topics).  The start point comes from a
    straight-line fit of ``log(rate)`` on ``n`` over the positive rates.
    When every rate is 0 the fit is ``A1 = 0, A2 = 0`` (no errors at any size).

    Parameters
    ----------
    sizes, rates : array_like
        Topic-set sizes and the observed error rates at those sizes (NaN rates
        — sizes without comparisons in the bin — are ignored).
    """
    n = np.asarray(sizes, dtype=float)
    r = np.asarray(rates, dtype=float)
    keep = np.isfinite(r)
    n, r = n[keep], r[keep]
    m = len(n)
    if m < 2:
        return ExpFit(np.nan, np.nan, np.nan, m)
    if not (r > 0).any():
        return ExpFit(0.0, 0.0, 0.0, m)
    # fit A·exp(−A2·(n − n0)), n0 = mean size (better conditioned); then A1 = A·exp(A2·n0)
    n0 = float(n.mean())
    x = n - n0
    pos = r > 0
    if pos.sum() >= 2 and np.ptp(x[pos]) > 0:
        slope, icpt = np.polyfit(x[pos], np.log(r[pos]), 1)
        p0 = (float(np.exp(icpt)), float(max(-slope, 1e-6)))
    else:
        p0 = (float(r.mean()), 1e-3)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OptimizeWarning)
            warnings.simplefilter("ignore", RuntimeWarning)
            popt, _ = curve_fit(exp_model, x, r, p0=p0, jac=_exp_jac, method="lm", maxfev=400)
            if not (np.all(np.isfinite(popt)) and popt[0] >= 0 and popt[1] >= 0):
                # the unconstrained optimum grows with n (noisy, sparse bin): refit within bounds
                popt, _ = curve_fit(exp_model, x, r, p0=p0, jac=_exp_jac,
                                    bounds=([0.0, 0.0], [np.inf, np.inf]), maxfev=400)
        a, a2 = (float(v) for v in popt)
        with np.errstate(over="ignore"):
            a1 = float(a * np.exp(a2 * n0))
    except (RuntimeError, ValueError):
        a1 = a2 = np.nan
    # curve_fit can stop short or fail on a sparse, noisy bin; the profile fit below
    # always finds the best non-negative (A1, A2): keep whichever fits better
    b1, b2 = _profile_fit(n, r)
    if not (np.isfinite(a1) and a1 >= 0 and a2 >= 0) or _ssr(n, r, b1, b2) < _ssr(n, r, a1, a2):
        a1, a2 = b1, b2
    ssr = _ssr(n, r, a1, a2)
    res_err = float(np.sqrt(ssr / (m - 2))) if m > 2 else 0.0
    if a2 >= _MAX_A2:
        # the best decay is the search's edge: the rates (a lone non-zero point among
        # zeros) do not determine a curve, and the edge's A1 (1e20 and more) made "fitted
        # rates" of 1e19 at sizes without comparisons.  No fit, as with too few points.
        return ExpFit(np.nan, np.nan, res_err, m)
    return ExpFit(a1, a2, res_err, m)


def _ssr(n: np.ndarray, r: np.ndarray, a1: float, a2: float) -> float:
    with np.errstate(over="ignore", invalid="ignore"):
        v = float(np.sum((r - exp_model(n, a1, a2)) ** 2))
    return v if np.isfinite(v) else float("inf")


#: largest A2 the profile fit considers (the rate would fall by e^-10 per topic)
_MAX_A2 = 10.0


def _profile_fit(n: np.ndarray, r: np.ndarray) -> tuple[float, float]:
    """Least squares over ``A1 >= 0, A2 >= 0`` by profiling: for a given ``A2`` the best
    ``A1`` is ``max(0, Σ r·e / Σ e²)`` with ``e = exp(−A2 n)``, so only ``A2`` is searched
    (a grid, then scipy's bounded scalar minimiser around the best grid point)."""
    from scipy.optimize import minimize_scalar

    def best_a1(a2: float) -> float:
        e = np.exp(-a2 * n)
        den = float(e @ e)
        return max(0.0, float(r @ e) / den) if den > 0 else 0.0

    def cost(a2: float) -> float:
        return _ssr(n, r, best_a1(a2), a2)

    grid = np.concatenate([[0.0], np.geomspace(1e-6, _MAX_A2, 160)])
    costs = _grid_costs(n, r, grid)
    k = int(np.argmin(costs))
    lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
    a2 = float(grid[k])
    if hi > lo:
        res = minimize_scalar(cost, bounds=(lo, hi), method="bounded",
                              options={"xatol": 1e-12 + 1e-9 * hi})
        if res.success and res.fun <= costs[k]:
            a2 = float(res.x)
    return best_a1(a2), a2


def _grid_costs(n: np.ndarray, r: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """``cost(a2)`` of :func:`_profile_fit` at every grid point, the same floats: the
    exponentials of all points in one call, each point's dot products as the scalar
    version makes them (``e @ e``, ``r @ e``), and the squared residuals summed row by row
    (numpy sums a contiguous row as it sums a 1-D array)."""
    e = np.exp(-grid[:, None] * n[None, :])
    den = np.array([float(row @ row) for row in e])
    num = np.array([float(r @ row) for row in e])
    with np.errstate(divide="ignore", invalid="ignore"):
        a1 = np.where(den > 0, np.maximum(0.0, num / den), 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        ssr = np.sum((r[None, :] - a1[:, None] * e) ** 2, axis=1)
    return np.where(np.isfinite(ssr), ssr, np.inf)


def size_at_rate(a1: float, a2: float, target: float = 0.05) -> float:
    """Topic-set size where ``A1 · exp(−A2 · n)`` reaches ``target`` ("5%int").

    ``ln(A1 / target) / A2``; 0 when the curve starts at or below the target,
    ``inf`` when it never gets there (``A2 = 0``), NaN for a failed fit.
    """
    if not (np.isfinite(a1) and np.isfinite(a2)):
        return float("nan")
    if a1 <= target:
        return 0.0
    if a2 <= 0:
        return float("inf")
    return float(np.log(a1 / target) / a2)
