"""The exponential error-rate fit finds the non-negative optimum where one exists (issue #14).

Voorhees & Buckley (SIGIR 2002) model a bin's swap rate as ``A1 · exp(−A2 · n)``
with ``A1, A2 >= 0``.  On sparse, noisy bins scipy's ``curve_fit`` used to give
up and the fit came out NaN (about one random sparse bin in five), although the
constrained least-squares problem always has a solution.
"""

from __future__ import annotations

import numpy as np
import pytest

from yardstick.analysis.stability.exponential_fit import fit_exponential


def test_rates_rising_with_n_fit_a_flat_line_at_their_mean():
    """With rates that grow with n, the best A2 >= 0 is 0, and then the best A1 is the
    mean rate (least squares of a constant): an independent closed form."""
    n = np.array([28.0, 29.0, 58.0])
    r = np.array([0.0, 0.0, 0.17214786548116262])
    fit = fit_exponential(n, r)
    assert fit.ok
    assert fit.a2 == pytest.approx(0.0, abs=1e-9)
    assert fit.a1 == pytest.approx(r.mean(), rel=1e-9)
    assert fit.res_err == pytest.approx(np.sqrt(((r - r.mean()) ** 2).sum() / 1), rel=1e-9)


def test_the_fit_is_the_least_squares_optimum_on_a_grid():
    """Against a brute-force search over (A1, A2) >= 0 (the fit may only be better)."""
    rng = np.random.default_rng(3)
    for _ in range(40):
        m = int(rng.integers(3, 8))
        n = np.sort(rng.choice(np.arange(1, 60), m, replace=False)).astype(float)
        r = np.where(rng.random(m) < 0.4, 0.0, rng.random(m) * 0.5)
        fit = fit_exponential(n, r)
        if not fit.ok:
            # no optimum: a lone non-zero rate at the smallest size, zeros after it, is
            # fitted ever better as A2 grows without end (a spike); no curve is given
            assert r[0] > 0 and not r[1:].any(), (n, r)
            continue
        assert fit.a1 >= 0 and fit.a2 >= 0
        ssr = ((r - fit(n)) ** 2).sum()
        a1s, a2s = np.linspace(0, 1.5, 151), np.concatenate([[0], np.geomspace(1e-4, 2, 150)])
        grid = ((r[None, None, :] - a1s[:, None, None]
                 * np.exp(-a2s[None, :, None] * n[None, None, :])) ** 2).sum(axis=2)
        assert ssr <= grid.min() + 1e-12


def test_grid_costs_are_the_scalar_costs_bit_for_bit():
    """The profile fit's grid, evaluated for all points at once, gives the floats of the
    point-by-point cost (so the chosen grid point, and the fit, are unchanged)."""
    from yardstick.analysis.stability import exponential_fit as ef

    rng = np.random.default_rng(0)
    grid = np.concatenate([[0.0], np.geomspace(1e-6, 10.0, 160)])
    for trial in range(300):
        m = int(rng.integers(2, 80))
        n = np.sort(rng.choice(np.arange(1, 300), m, replace=False)).astype(float)
        r = np.clip(rng.random() * np.exp(-rng.random() * 0.2 * n)
                    + rng.normal(0, 0.02, m), 0, None)
        if trial % 3 == 0:
            r = np.round(r * 7) / 7

        def best_a1(a2, n=n, r=r):
            e = np.exp(-a2 * n)
            den = float(e @ e)
            return max(0.0, float(r @ e) / den) if den > 0 else 0.0

        ref = np.array([ef._ssr(n, r, best_a1(g), g) for g in grid])
        assert np.array_equal(ef._grid_costs(n, r, grid), ref)


def test_a_lone_rate_among_zeros_has_no_curve():
    """Robust 2003, P_10, bin 0.51–0.52: one swap in the smallest sampled size, none after.
    The least-squares decay grows without end; its "fit" (A2 at the search's edge, A1 =
    1.9e24) gave fitted rates of 8.8e19 at sizes with no comparisons.  No curve instead."""
    fit = fit_exponential(np.array([6.0, 7.0, 8.0, 9.0]), np.array([0.02, 0.0, 0.0, 0.0]))
    assert not fit.ok and np.isnan(fit(1.0))
