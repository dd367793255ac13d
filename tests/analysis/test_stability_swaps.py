"""Voorhees–Buckley swap rates, the bootstrap variant and the exponential fit."""

import numpy as np
import pandas as pd
import pytest

from yardstick.analysis.stability.bootstrap_swaps import bootstrap_swap_rates, compare_swap_methods
from yardstick.analysis.stability.exponential_fit import exp_model, fit_exponential, size_at_rate
from yardstick.analysis.stability.resampling import (
    bin_index,
    disjoint_subset_indices,
    weights_from_indices,
)
from yardstick.analysis.stability.swap_rates import count_swaps, swap_rates
from yardstick.common.progress import run_sync

# 4 topics × 3 runs, small enough to count swaps by hand
HAND = np.array([[0.50, 0.30, 0.10],
                 [0.20, 0.40, 0.10],
                 [0.60, 0.20, 0.30],
                 [0.10, 0.30, 0.35]])


def test_count_swaps_by_hand():
    # draw 1: A = {t0, t1}, B = {t2, t3};  draw 2: A = {t2, t3}, B = {t0, t1}; bins of 0.1
    # means on {t0,t1}: r0 .35  r1 .35  r2 .10     on {t2,t3}: r0 .35  r1 .25  r2 .325
    # draw 1: (r0,r1) dA = 0     bin 0, dB = +.10  -> tie on A: compared, no swap
    #         (r0,r2) dA = +.25  bin 2, dB = +.025 -> no swap
    #         (r1,r2) dA = +.25  bin 2, dB = -.075 -> SWAP
    # draw 2: (r0,r1) dA = +.10  bin 1 (exactly on the edge), dB = 0 -> no swap
    #         (r0,r2) dA = +.025 bin 0, dB = +.25 -> no swap
    #         (r1,r2) dA = -.075 bin 0, dB = +.25 -> SWAP
    # bin 0: 3 comparisons, 1 swap; bin 1: 1, 0; bin 2: 2, 1
    a = np.array([[0, 1], [2, 3]])
    b = np.array([[2, 3], [0, 1]])
    comps, swaps = count_swaps(HAND, a, b, 0.1)
    assert comps.tolist() == [3, 1, 2]
    assert swaps.tolist() == [1, 0, 1]


def test_bin_index_puts_exact_edges_in_the_upper_bin():
    d = np.array([0.0, 0.0299999999999999, 0.03, 0.35 - 0.25, 0.0999])
    assert bin_index(d, 0.01).tolist() == [0, 3, 3, 10, 9]


def test_disjoint_subsets_are_disjoint_and_weights_sum_to_one():
    rng = np.random.default_rng(0)
    a, b = disjoint_subset_indices(rng, 20, 10, 50)
    for ra, rb in zip(a, b):
        assert len(set(ra)) == 10 and not set(ra) & set(rb)
    w = weights_from_indices(np.array([[0, 0, 2], [1, 2, 3]]), 4)
    assert np.allclose(w, [[2 / 3, 0, 1 / 3, 0], [0, 1 / 3, 1 / 3, 1 / 3]])


def test_size_at_rate_reproduces_measuring_the_measure_slides():
    # "V/B delta, MAP, TREC 8" (Soboroff, "Measuring the measure", TREC slides):
    # bin > 0.04: A1 .455 A2 .0465 -> 5%int 47.5
    assert size_at_rate(0.455, 0.0465) == pytest.approx(47.5, abs=0.05)
    # bin > 0.2: A1 2.39, A2 0.54 -> 7.2
    assert size_at_rate(2.39, 0.54) == pytest.approx(7.2, abs=0.05)
    # bootstrap, bin > 0.05: A1 .441 A2 .0599 -> 36.5 ;  bin > 0.06: A1 .451 A2 .075 -> 29.4
    assert size_at_rate(0.441, 0.0599) == pytest.approx(36.5, abs=0.5)
    assert size_at_rate(0.451, 0.075) == pytest.approx(29.4, abs=0.1)  # A1, A2 printed rounded
    # bin > 0.01: A1 .48 A2 .0125 crosses at 181 topics, the slide shows the cap N = 50
    assert size_at_rate(0.48, 0.0125) == pytest.approx(180.9, abs=0.1)
    assert size_at_rate(0.03, 0.1) == 0.0 and size_at_rate(0.5, 0.0) == np.inf


def test_fit_recovers_exact_exponential():
    n = np.arange(1, 26)
    fit = fit_exponential(n, exp_model(n, 0.48, 0.0125))
    assert fit.a1 == pytest.approx(0.48, rel=1e-6) and fit.a2 == pytest.approx(0.0125, rel=1e-6)
    assert fit.res_err == pytest.approx(0.0, abs=1e-9) and fit.points == 25
    zero = fit_exponential(n, np.zeros(25))
    assert (zero.a1, zero.a2) == (0.0, 0.0)
    assert not fit_exponential([3], [0.2]).ok


def _synthetic(n_topics=40, n_runs=8, seed=7):
    rng = np.random.default_rng(seed)
    base = rng.beta(2, 5, (n_topics, 1))
    vals = np.clip(base + rng.normal(0, 0.15, (n_topics, n_runs)) + np.linspace(0, 0.25, n_runs),
                   0, 1)
    return pd.DataFrame(vals, index=[str(301 + k) for k in range(n_topics)],
                        columns=[f"run{k}" for k in range(n_runs)])


@pytest.fixture(scope="module")
def vb():
    return run_sync(swap_rates(_synthetic(), samples=200, seed=11, measure="map"))


def test_swap_rates_shape_totals_and_seed(vb):
    n_pairs = 8 * 7 // 2
    assert vb.sizes.tolist() == list(range(1, 21))
    # every draw compares every pair once
    assert (vb.comparisons.sum(axis=1) == 200 * n_pairs).all()
    assert (vb.swaps <= vb.comparisons).all()
    assert vb.seed == 11 and vb.method == "disjoint"
    again = run_sync(swap_rates(_synthetic(), samples=200, seed=11, measure="map"))
    assert np.array_equal(again.swaps, vb.swaps) and np.array_equal(again.comparisons,
                                                                    vb.comparisons)
    other = run_sync(swap_rates(_synthetic(), samples=200, seed=12))
    assert not np.array_equal(other.swaps, vb.swaps)


def test_swap_rates_properties(vb):
    rates = vb.rates
    assert np.nanmax(rates) <= 1.0
    # fitted error rate never increases with n, and strictly decreases where A2 > 0
    grid = np.arange(1, 41)
    decreasing = 0
    for f in vb.fits:
        if f.ok:
            assert f.a1 >= 0 and f.a2 >= 0
            curve = f(grid)
            assert np.all(np.diff(curve) <= 0)
            if f.a2 > 1e-3 and f.a1 > 1e-3:
                assert np.all(np.diff(curve) < 0)
                decreasing += 1
    assert decreasing >= 30
    # the smallest differences swap most: bin 0 is near a coin toss at n = 1
    assert rates[0, 0] > rates[0, -1] or np.isnan(rates[0, -1])
    frame = vb.to_frame()
    assert list(frame.columns[:6]) == ["bin_lo", "bin_hi", "comparisons", "swaps", "A1", "A2"]
    assert (frame["5%int"].dropna() <= 40).all()
    # minimum difference: first bin whose extrapolated error at N is <= 5 %
    at_n = vb.fitted_error(40)
    k = int(round(vb.min_difference / 0.01))
    assert at_n[k] <= 0.05 and np.all(~(at_n[:k] <= 0.05))
    s = vb.summary()
    assert s["percent_of_top"] == pytest.approx(100 * vb.min_difference / s["top_score"])
    assert s["top_score"] == pytest.approx(_synthetic().mean().max())
    long = vb.rates_frame()
    assert len(long) == len(vb.sizes) * vb.n_bins


def test_bootstrap_variant_goes_to_n_and_reads_observed_rates(vb):
    bs = run_sync(bootstrap_swap_rates(_synthetic(), sizes=[5, 10, 20, 40], samples=200,
                                       seed=11, measure="map"))
    assert bs.sizes.tolist() == [5, 10, 20, 40] and bs.min_difference_from == "observed"
    rates_at_n = bs.rates[-1]
    k = int(round(bs.min_difference / 0.01))
    assert rates_at_n[k] <= 0.05 and np.all(~(rates_at_n[:k] <= 0.05))
    side = compare_swap_methods(vb, bs)
    assert list(side.columns) == ["map disjoint", "map bootstrap"]
    assert side.loc["min_difference", "map bootstrap"] == bs.min_difference


def test_swap_rates_rejects_missing_scores():
    s = _synthetic()
    s.iloc[3, 2] = np.nan
    with pytest.raises(ValueError, match="missing"):
        run_sync(swap_rates(s, samples=10))


def test_count_swaps_equals_a_plain_loop():
    rng = np.random.default_rng(3)
    vals = np.round(rng.random((12, 5)), 1)          # coarse values: many exact ties and edges
    a, b = disjoint_subset_indices(rng, 12, 4, 40)
    comps, swaps = count_swaps(vals, a, b, 0.05)
    ref_c, ref_s = np.zeros(len(comps), int), np.zeros(len(comps), int)
    for ra, rb in zip(a, b):
        ma, mb = vals[ra].mean(axis=0), vals[rb].mean(axis=0)
        for i in range(5):
            for j in range(i + 1, 5):
                da, db = ma[i] - ma[j], mb[i] - mb[j]
                k = int(round(abs(da) / 0.05, 9))    # exact bin of a multiple of 0.025
                ref_c[k] += 1
                ref_s[k] += da * db < 0 and abs(da) > 1e-12 and abs(db) > 1e-12
    assert comps.tolist() == ref_c.tolist() and swaps.tolist() == ref_s.tolist()


def test_equal_scores_in_another_order_are_a_tie_not_a_swap():
    # run0 and run1 hold the same values on t0..t2 in another order: summed in order,
    # 0.1 + 0.2 + 0.7 = 1.0000000000000002 but 0.7 + 0.1 + 0.2 = 0.9999999999999999
    vals = np.array([[0.1, 0.7], [0.2, 0.1], [0.7, 0.2],
                     [0.9, 0.1], [0.9, 0.1], [0.9, 0.1]])
    comps, swaps = count_swaps(vals, np.array([[0, 1, 2]]), np.array([[3, 4, 5]]), 0.01)
    assert comps.tolist() == [1] and swaps.tolist() == [0]
    # and the other way round: tie on the second subset
    comps, swaps = count_swaps(vals, np.array([[3, 4, 5]]), np.array([[0, 1, 2]]), 0.01)
    assert swaps.sum() == 0


def test_count_swaps_byte_and_wide_codes_agree_with_a_direct_count(monkeypatch):
    # blocks of 16 samples: some hold a difference of more than 127 bins (intp codes),
    # the others are counted as byte codes, two at a time; both must give the plain counts
    import importlib

    sr = importlib.import_module("yardstick.analysis.stability.swap_rates")
    monkeypatch.setattr(sr, "BLOCK_ELEMENTS", 16)
    rng = np.random.default_rng(7)
    vals = rng.random((16, 7))
    vals[0, 3] = 9.0                                  # run 3 far ahead on topic 0
    perm = rng.permuted(np.broadcast_to(np.arange(1, 16), (64, 15)), axis=1)
    a, b = perm[:, :4].copy(), perm[:, 4:8]
    a[:20, 0] = 0                                     # topic 0 only in the first 20 samples
    w = 0.01
    comps, swaps = sr.count_swaps(vals, a, b, w)
    scaled = vals * (1.0 / w)
    ma = scaled[a].sum(axis=1) / 4
    mb = scaled[b].sum(axis=1) / 4
    ii, jj = np.triu_indices(7, k=1)
    da, db = ma[:, ii] - ma[:, jj], mb[:, ii] - mb[:, jj]
    k = np.floor(np.abs(da) + 1e-9).astype(int).ravel()
    ref_c = np.bincount(k)
    ref_s = np.bincount(k, weights=(da * db < -1e-12).ravel(), minlength=len(ref_c))
    assert k.max() > 127 and np.count_nonzero(k > 127) < len(k) // 2
    assert comps.tolist() == ref_c.tolist() and swaps.tolist() == ref_s.astype(int).tolist()
