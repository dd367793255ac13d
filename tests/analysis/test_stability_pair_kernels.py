"""The compiled swap counting (pair_kernels) gives the numpy path's counts exactly.

Voorhees and Buckley (SIGIR 2002, §3) count, per difference bin, the run pairs whose
order two topic samples disagree on; ``count_swaps`` does it with numba when it is
installed and with numpy otherwise.  Both must give the same integers, including on
scores that are fractions with ties (P@10) and for the worst-topics aggregates.
"""

from __future__ import annotations

import numpy as np
import pytest

from yardstick.analysis.stability import pair_kernels
from yardstick.analysis.stability.aggregates import MEAN, aggregate_for
from yardstick.analysis.stability.resampling import bootstrap_indices, disjoint_subset_indices
from yardstick.analysis.stability.swap_rates import count_swaps

pytestmark = pytest.mark.skipif(not pair_kernels.AVAILABLE, reason="numba not installed")


def _numpy_counts(monkeypatch, *args):
    with monkeypatch.context() as m:
        m.setattr(pair_kernels, "AVAILABLE", False)
        return count_swaps(*args)


@pytest.mark.parametrize("kind", ["ap", "p10"])
@pytest.mark.parametrize("agg", ["map", "area", "map_worst.3"])
def test_kernel_counts_equal_numpy_counts(monkeypatch, kind, agg):
    rng = np.random.default_rng(5)
    n_topics, n_runs = 30, 23
    if kind == "ap":
        values = rng.beta(2, 5, (n_topics, n_runs))
        values[:, 3] = values[:, 4]                      # identical runs: always tied
    else:
        values = rng.integers(0, 11, (n_topics, n_runs)) / 10.0   # many exact ties
    aggregate = aggregate_for(agg)
    for size in (1, 4, 15):
        ia, ib = disjoint_subset_indices(rng, n_topics, size, 300)
        got = count_swaps(values, ia, ib, 0.01, aggregate)
        want = _numpy_counts(monkeypatch, values, ia, ib, 0.01, aggregate)
        assert [g.tolist() for g in got] == [w.tolist() for w in want]
        assert got[0].sum() == 300 * n_runs * (n_runs - 1) // 2
        assert size < 4 or got[1].sum() > 0
    ia, ib = bootstrap_indices(rng, n_topics, 30, 200), bootstrap_indices(rng, n_topics, 30, 200)
    got = count_swaps(values, ia, ib, 0.05, aggregate)
    want = _numpy_counts(monkeypatch, values, ia, ib, 0.05, aggregate)
    assert [g.tolist() for g in got] == [w.tolist() for w in want]


def test_kernel_on_constant_scores_counts_ties_only(monkeypatch):
    values = np.full((6, 4), 0.25)
    ia, ib = disjoint_subset_indices(np.random.default_rng(0), 6, 3, 10)
    comps, swaps = count_swaps(values, ia, ib, 0.01, MEAN)
    assert comps.tolist() == [60] and swaps.tolist() == [0]
    assert [c.tolist() for c in _numpy_counts(monkeypatch, values, ia, ib, 0.01, MEAN)] == \
        [[60], [0]]
