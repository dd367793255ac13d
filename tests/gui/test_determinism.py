"""Determinism: every randomised diagnostic takes a seed, records it, and reproduces exactly.

For each randomised routine — the stability analyses (:mod:`yardstick.analysis.stability`:
swap rates, bootstrap swap rates, discriminative power, error rate,
sensitivity, Tukey HSD), the pool judging simulations
(:mod:`yardstick.analysis.pool.simulation`: runs, random, move-to-front), tie sensitivity
(:mod:`yardstick.analysis.explain.tie_sensitivity`) and the permutation test of
:mod:`yardstick.analysis.significance` — the same seed gives bit-identical results, the result
records the seed it used, and ``seed=None`` records the seed it drew, which
then reproduces the result.  Inputs are real: per-topic AP of three Robust
2003 runs (the bundled sample), and the hand-built pool of
``tests/pool_fixtures.py``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.gui_support import QRELS, RUNS, engine_or_skip
from yardstick.common.progress import run_sync


@pytest.fixture(scope="module")
def robust():
    engine_or_skip()
    from yardstick.common.options import EvalOptions
    from yardstick.evaluation.engine import evaluate_run
    from yardstick.inputs.io import read_qrels, read_run

    qrels = read_qrels(QRELS)
    runs = [read_run(p) for p in RUNS]
    ap = pd.DataFrame({r.name: evaluate_run(r, qrels, ["map"], EvalOptions()).per_topic["map"]
                       for r in runs})
    return qrels, runs, ap


def _stability_calls():
    from yardstick.analysis.stability.bootstrap_swaps import bootstrap_swap_rates
    from yardstick.analysis.stability.discriminative_power import discriminative_power
    from yardstick.analysis.stability.error_rate import error_rate
    from yardstick.analysis.stability.sensitivity import sensitivity
    from yardstick.analysis.stability.swap_rates import swap_rates
    from yardstick.analysis.stability.tukey_hsd import tukey_hsd

    return {
        "swap_rates": lambda s, seed: swap_rates(s, sizes=[5, 10, 25], samples=200, seed=seed),
        "bootstrap_swap_rates": lambda s, seed: bootstrap_swap_rates(s, sizes=[5, 10, 25],
                                                                     samples=200, seed=seed),
        "discriminative_power": lambda s, seed: discriminative_power(s, samples=300, seed=seed),
        "error_rate": lambda s, seed: error_rate(s, subset_size=25, samples=300, seed=seed),
        "sensitivity": lambda s, seed: sensitivity(s, subset_size=25, samples=300, seed=seed),
        "tukey_hsd": lambda s, seed: tukey_hsd(s, samples=300, seed=seed),
    }


def _same(a, b) -> None:
    """Results equal field by field (frames, arrays and numbers exactly)."""
    assert type(a) is type(b)
    for name in getattr(a, "__dataclass_fields__", {}):
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, pd.DataFrame):
            pd.testing.assert_frame_equal(x, y, check_exact=True)
        elif isinstance(x, pd.Series):
            pd.testing.assert_series_equal(x, y, check_exact=True)
        elif isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)
        elif isinstance(x, dict):
            assert x.keys() == y.keys()
            for k in x:
                np.testing.assert_array_equal(x[k], y[k])
        elif isinstance(x, float) and np.isnan(x):
            assert np.isnan(y)
        else:
            assert x == y, name


@pytest.mark.parametrize("name", sorted(_stability_calls()))
def test_stability_analysis_reproduces_from_its_recorded_seed(robust, name):
    _, _, ap = robust
    call = _stability_calls()[name]
    a = run_sync(call(ap, 1234))
    b = run_sync(call(ap, 1234))
    assert a.seed == 1234
    _same(a, b)
    drawn = run_sync(call(ap, None))               # no seed given: one is drawn and recorded
    assert isinstance(drawn.seed, int) and 0 <= drawn.seed < 2**31
    _same(drawn, run_sync(call(ap, drawn.seed)))


def test_swap_counts_depend_on_the_seed(robust):
    from yardstick.analysis.stability.swap_rates import swap_rates

    _, _, ap = robust
    a, b = (run_sync(swap_rates(ap, sizes=[5, 10, 25], samples=200, seed=s)) for s in (1, 2))
    assert not np.array_equal(a.swaps, b.swaps) or not np.array_equal(a.comparisons,
                                                                        b.comparisons)


def test_error_rates_of_several_measures_share_one_drawn_seed(robust):
    from yardstick.analysis.stability.error_rate import error_rates

    _, _, ap = robust
    res = run_sync(error_rates({"map": ap, "map2": ap}, subset_size=25, samples=200))
    assert res["map"].seed == res["map2"].seed
    _same(res["map"], res["map2"].__class__(**{**res["map2"].__dict__, "measure": "map"}))


@pytest.mark.parametrize("strategy", ["runs", "random", "mtf"])
def test_pool_simulation_reproduces_and_records_its_seed(strategy):
    from pool_fixtures import hand_qrels, hand_runs

    from yardstick.analysis.pool.simulation import simulate
    from yardstick.judging.judged_runs_build import build_judged_runs

    index = build_judged_runs(hand_runs(), hand_qrels())
    levels = [1, 2] if strategy == "runs" else [1, 2, 3]
    a = simulate(index, 3, strategy, levels, seed=42)
    b = simulate(index, 3, strategy, levels, seed=42)
    assert a.seed == 42
    _same(a, b)
    assert simulate(index, 3, "depth", [1, 2]).seed is None   # not random


def test_tie_sensitivity_reproduces_and_records_its_seed(robust):
    from yardstick.analysis.explain.tie_sensitivity import tie_sensitivity
    from yardstick.inputs.run import Run

    qrels, runs, _ = robust
    f = runs[0].to_frame()
    f["score"] = f["score"].round(0)                    # many ties
    tied = Run.from_frame(f, name="tied")
    a = run_sync(tie_sensitivity(tied, qrels, ["map", "P.10"], n_orders=20, seed=9))
    b = run_sync(tie_sensitivity(tied, qrels, ["map", "P.10"], n_orders=20, seed=9))
    assert a.seed == 9 and a.n_orders == 20
    _same(a, b)
    c = run_sync(tie_sensitivity(tied, qrels, ["map", "P.10"], n_orders=20, seed=10))
    assert not np.array_equal(a.samples["map"], c.samples["map"])   # the seed matters
    assert a.overall.loc["map", "spread"] > 0                        # there were ties to shuffle


def test_permutation_test_reproduces_and_records_its_seed(robust):
    from yardstick.analysis.significance import compare_runs

    _, runs, ap = robust
    base = runs[0].name
    a = compare_runs(ap, base, test="permutation", seed=5, n_permutations=2000)
    b = compare_runs(ap, base, test="permutation", seed=5, n_permutations=2000)
    assert a.seed == 5 and a.n_permutations == 2000
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame(), check_exact=True)
    c = compare_runs(ap, base, test="permutation", seed=6, n_permutations=2000)
    assert [p.p_permutation for p in a.pairs] != [p.p_permutation for p in c.pairs]
    assert [p.p_t for p in a.pairs] == [p.p_t for p in c.pairs]     # the t-test is not random
