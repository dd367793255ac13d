"""Buckley–Voorhees error rate and ties, and the sensitivity (minimum difference) diagnostic."""

import numpy as np
import pandas as pd
import pytest

from yardstick.analysis.stability.error_rate import (
    count_outcomes,
    error_rate,
    error_rate_table,
    error_rates,
)
from yardstick.analysis.stability.sensitivity import min_difference_from_counts, sensitivity
from yardstick.common.progress import run_sync

HAND = np.array([[0.50, 0.30, 0.10],
                 [0.20, 0.40, 0.10],
                 [0.60, 0.20, 0.30],
                 [0.10, 0.30, 0.35]])
SAMPLES = np.array([[0, 1], [2, 3], [0, 2]])
# sample means         r0    r1    r2
#   s1 {t0, t1}       .35   .35   .10
#   s2 {t2, t3}       .35   .25   .325
#   s3 {t0, t2}       .55   .25   .20


def test_outcomes_by_hand_with_5_percent_fuzziness():
    # (r0,r1): s1 equal -> EQ; s2 .35/.25 -> GT; s3 .55/.25 -> GT          GT 2 LT 0 EQ 1
    # (r0,r2): s1 GT; s2 .35/.325: .025 >= 5% of .35 = .0175 -> GT; s3 GT   GT 3 LT 0 EQ 0
    # (r1,r2): s1 GT; s2 .25/.325 -> LT; s3 .25/.20: .05 >= .0125 -> GT    GT 2 LT 1 EQ 0
    gt, lt, eq = count_outcomes(HAND, SAMPLES, 0.05)
    assert gt.tolist() == [2, 3, 2] and lt.tolist() == [0, 0, 1] and eq.tolist() == [1, 0, 0]
    # error rate = (min(2,0) + min(3,0) + min(2,1)) / (3 pairs x 3 samples) = 1/9; ties = 1/9


def test_outcomes_by_hand_with_10_percent_fuzziness():
    # s2 (r0,r2): .025 < 10% of .35 = .035 -> EQ instead of GT; nothing else changes
    # ((r1,r2) s3: .05 >= .025; s2: .075 >= .0325)
    gt, lt, eq = count_outcomes(HAND, SAMPLES, 0.10)
    assert gt.tolist() == [2, 2, 2] and lt.tolist() == [0, 0, 1] and eq.tolist() == [1, 1, 0]


def test_zero_scores_tie():
    vals = np.zeros((3, 2))
    gt, lt, eq = count_outcomes(vals, np.array([[0, 1]]), 0.05)
    assert (gt.tolist(), lt.tolist(), eq.tolist()) == ([0], [0], [1])


def _matrix(n_topics=30, n_runs=6, seed=3):
    rng = np.random.default_rng(seed)
    vals = np.clip(rng.beta(2, 5, (n_topics, 1)) + rng.normal(0, 0.12, (n_topics, n_runs))
                   + np.linspace(0, 0.15, n_runs), 0, 1)
    return pd.DataFrame(vals, index=[str(k) for k in range(n_topics)],
                        columns=[f"r{k}" for k in range(n_runs)])


def test_error_rate_properties_and_seed():
    m = _matrix()
    res = run_sync(error_rate(m, samples=300, seed=5, measure="map"))
    assert res.subset_size == 15 and res.seed == 5
    assert 0.0 <= res.error_rate <= 0.5 and 0.0 <= res.tie_rate <= 1.0
    assert ((res.gt + res.lt + res.eq) == 300).all()
    assert res.error_rate == pytest.approx(
        np.minimum(res.gt, res.lt).sum() / (15 * 300))
    again = run_sync(error_rate(m, samples=300, seed=5))
    assert np.array_equal(again.gt, res.gt) and np.array_equal(again.eq, res.eq)
    frame = res.to_frame()
    assert list(frame.columns) == ["run_a", "run_b", "GT", "LT", "EQ", "errors"]
    assert frame.iloc[0][["run_a", "run_b"]].tolist() == ["r0", "r1"]
    # a larger fuzziness can only turn decisions into ties
    fuzzier = run_sync(error_rate(m, samples=300, seed=5, fuzziness=0.2))
    assert (fuzzier.eq >= res.eq).all() and fuzzier.tie_rate > res.tie_rate


def test_error_rate_table_side_by_side():
    m = _matrix()
    p10 = (m * 10).round() / 10
    res = run_sync(error_rates({"map": m, "P_10": p10}, samples=200, seed=1))
    table = error_rate_table(res)
    assert list(table.index) == ["map", "P_10"]
    assert table.loc["map", "error_rate_%"] == pytest.approx(100 * res["map"].error_rate)
    # the same seed gives every measure the same topic sets
    alone = run_sync(error_rate(p10, samples=200, seed=1))
    assert np.array_equal(alone.gt, res["P_10"].gt) and np.array_equal(alone.eq, res["P_10"].eq)
    # a measure on which all runs are equal: no errors, all ties
    flat = pd.DataFrame(np.repeat(m[["r0"]].to_numpy(), 6, axis=1), index=m.index,
                        columns=m.columns)
    tie = run_sync(error_rate(flat, samples=50, seed=1))
    assert (tie.error_rate, tie.tie_rate) == (0.0, 1.0)


def test_min_difference_from_counts_by_hand():
    # bins of 0.1: comparisons [3, 1, 2], swaps [1, 0, 1] (the swap-rate hand example):
    # rates 1/3, 0, 1/2 -> the first bin at or below 5 % is bin 1 -> 0.1
    d, k = min_difference_from_counts(np.array([3, 1, 2]), np.array([1, 0, 1]), 0.1, 0.05)
    assert (d, k) == (pytest.approx(0.1), 1)
    d, k = min_difference_from_counts(np.array([3, 1]), np.array([2, 1]), 0.1, 0.05)
    assert np.isnan(d) and k == -1


def test_sensitivity_share_is_the_comparisons_at_or_above_the_minimum():
    m = _matrix(40, 8)
    res = run_sync(sensitivity(m, samples=300, seed=2, measure="map"))
    assert res.subset_size == 20 and res.comparisons.sum() == 300 * 28
    k = int(round(res.min_difference / res.bin_width))
    rates = res.swaps / np.maximum(res.comparisons, 1)
    assert rates[k] <= 0.05 and not (rates[:k][res.comparisons[:k] > 0] <= 0.05).any()
    assert res.share_exceeding == pytest.approx(res.comparisons[k:].sum() / (300 * 28))
    assert 0 < res.share_exceeding < 1
    frame = res.to_frame()
    assert frame["share_at_or_above"].iloc[0] == pytest.approx(1.0)
    assert res.summary()["percent_exceeding"] == pytest.approx(100 * res.share_exceeding)


def test_count_outcomes_equals_a_plain_loop():
    rng = np.random.default_rng(4)
    vals = rng.random((15, 4))
    idx = np.array([rng.permutation(15)[:6] for _ in range(25)])
    gt, lt, eq = count_outcomes(vals, idx, 0.05)
    k = 0
    for i in range(4):
        for j in range(i + 1, 4):
            g = l_ = e = 0
            for row in idx:
                a, b = vals[row, i].mean(), vals[row, j].mean()
                if abs(a - b) < 0.05 * max(a, b):
                    e += 1
                elif a > b:
                    g += 1
                else:
                    l_ += 1
            assert (gt[k], lt[k], eq[k]) == (g, l_, e)
            k += 1


@pytest.mark.parametrize("fuzziness", [0.0, 0.05, 0.25, 0.5])
def test_count_outcomes_rounds_where_the_old_formula_did(fuzziness):
    """Outcomes decided on plain values where rounding cannot matter and on rounded values
    where it can are those of rounding every pair (the formula before #30's speed-up), on
    tenths (P@10: many differences exactly at the fuzziness limit) with zeros."""
    from yardstick.analysis.stability.comparable import comparable
    from yardstick.analysis.stability.resampling import run_pairs, sample_means, subset_indices

    rng = np.random.default_rng(5)
    values = np.round(rng.random((24, 30)) * 10) / 10
    values[:, :3] = 0.0
    idx = subset_indices(np.random.default_rng(6), 24, 12, 200)
    means = comparable(sample_means(values, idx).T)
    ii, jj = run_pairs(30)
    a, b = means[ii], means[jj]
    eq = comparable(np.abs(a - b)) < comparable(fuzziness * np.maximum(np.abs(a), np.abs(b)))
    eq |= a == b
    gt, lt, ties = count_outcomes(values, idx, fuzziness)
    assert np.array_equal(ties, eq.sum(axis=1))
    assert np.array_equal(gt, ((a > b) & ~eq).sum(axis=1))
    assert np.array_equal(lt, ((a < b) & ~eq).sum(axis=1))
    boundary = np.abs(np.abs(a - b) - fuzziness * np.maximum(a, b)) < 1e-12
    assert fuzziness == 0.0 or boundary.sum() > 100      # the rounded path is exercised
