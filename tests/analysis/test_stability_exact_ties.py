"""Scores equal as fractions compare equal, whatever the summation order (issue #14).

Two runs with P@10 = 175/300 whose float means differ by one ulp were ranked by
that ulp instead of by MAP (as documented), which moved Kendall's tau; and a
difference of exactly 5 % counted as a tie in some samples and not in others,
where Buckley & Voorhees (SIGIR 2000) count a tie only below 5 %.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from yardstick.analysis.stability.comparable import comparable
from yardstick.analysis.stability.error_rate import count_outcomes
from yardstick.analysis.stability.rank_correlation import system_ranking


def _same_mean_other_float(rng):
    """Per-topic P@10 values of two runs, both with mean exactly 175/300, whose float
    means (numpy's sum in the given order) differ."""
    tenths = np.repeat([0, 2, 3, 5, 7, 8, 9, 10], [19, 40, 30, 50, 50, 50, 30, 31])
    assert len(tenths) == 300 and Fraction(int(tenths.sum()), 3000) == Fraction(175, 300)
    a = tenths / 10
    for _ in range(10_000):
        b = rng.permutation(a)
        if a.mean() != b.mean():
            return a, b
    raise AssertionError("no permutation changed the float mean")


def test_runs_with_equal_means_as_fractions_are_ordered_by_map():
    a, b = _same_mean_other_float(np.random.default_rng(14))
    means = pd.Series({"runA": a.mean(), "runB": b.mean()})
    assert means["runA"] != means["runB"]               # the floats differ (by an ulp or so)
    tie_break = pd.Series({"runA": 0.20, "runB": 0.30})  # MAP: runB is better
    assert system_ranking(means, tie_break) == ["runB", "runA"]
    tie_break = pd.Series({"runA": 0.30, "runB": 0.20})
    assert system_ranking(means, tie_break) == ["runA", "runB"]
    # a real difference still decides, however small next to the scores
    means["runA"] = 175 / 300 + 1e-9
    assert system_ranking(means, pd.Series({"runA": 0.1, "runB": 0.9})) == ["runA", "runB"]


def test_a_difference_of_exactly_five_percent_is_never_a_tie():
    """7/20 and 133/400 differ by exactly 5 % of 7/20 (in floats, 0.35 - 0.3325 <
    0.05 * 0.35 holds, so every sample used to call them tied)."""
    assert Fraction(7, 20) - Fraction(133, 400) == Fraction(5, 100) * Fraction(7, 20)
    assert abs(0.35 - 0.3325) < 0.05 * 0.35                 # the float trap
    values = np.array([[7 / 20, 133 / 400]] * 4)           # 4 topics, 2 runs
    idx = np.array([[0, 1], [2, 3], [0, 3]])               # three samples of 2 topics
    gt, lt, eq = count_outcomes(values, idx, fuzziness=0.05)
    assert (gt.tolist(), lt.tolist(), eq.tolist()) == ([3], [0], [0])
    # just under 5 % is a tie in every sample
    values[:, 1] = 7 / 20 * 0.95 + 1e-6
    assert count_outcomes(values, idx, fuzziness=0.05)[2].tolist() == [3]


def test_equal_fractions_summed_in_another_order_tie():
    a, b = _same_mean_other_float(np.random.default_rng(5))
    values = np.stack([a, b], axis=1)
    idx = np.arange(300)[None, :]
    gt, lt, eq = count_outcomes(values, idx, fuzziness=0.0)
    assert (gt.tolist(), lt.tolist(), eq.tolist()) == ([0], [0], [1])


def test_comparable_keeps_real_differences():
    x = np.array([0.1 + 0.2, 0.3, 1e-13, 2e-13, 123456.789, -0.5, 0.0, np.inf, np.nan])
    c = comparable(x)
    assert c[0] == c[1]                       # 0.30000000000000004 and 0.3
    assert c[2] != c[3] and c[4] == 123456.789 and c[5] == -0.5 and c[6] == 0.0
    assert np.isinf(c[7]) and np.isnan(c[8])
