"""Kendall's tau, tau_AP, ranking strings and correlation matrices."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from yardstick.analysis.stability.rank_correlation import (
    compare_rankings,
    correlation_matrix,
    kendall_tau,
    ranking_strings,
    system_ranking,
    tau_ap,
    tau_ap_symmetric,
)


def test_kendall_tau_equals_scipy_on_untied_scores():
    rng = np.random.default_rng(4)
    runs = [f"run{k}" for k in range(25)]
    a = pd.Series(rng.random(25), index=runs)
    b = pd.Series(a.to_numpy() + rng.normal(0, 0.2, 25), index=runs)
    ours = compare_rankings(a, b)
    ref = stats.kendalltau(a.to_numpy(), b.to_numpy())
    assert ours.tau == pytest.approx(ref.statistic, abs=1e-12)
    assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-9)


def test_tau_ap_hand_worked():
    truth = ["A", "B", "C", "D"]
    # Yilmaz et al. 2008, eq. 2: tau_AP = 2/(n-1) * sum_{i=2..n} C(i)/(i-1) - 1
    # estimate B A C D: C(2) = 0 (A is above B in truth), C(3) = 2, C(4) = 3
    #   -> 2/3 * (0/1 + 2/2 + 3/3) - 1 = 1/3        (Kendall's tau: 1 - 2*1/6 = 2/3)
    assert tau_ap(truth, ["B", "A", "C", "D"]) == pytest.approx(1 / 3)
    assert kendall_tau(truth, ["B", "A", "C", "D"])[0] == pytest.approx(2 / 3)
    # estimate A B D C: C(2) = 1, C(3) = 2, C(4) = 2 -> 2/3 * (1 + 1 + 2/3) - 1 = 7/9
    #   (the same one swap costs less at the bottom: the point of tau_AP)
    assert tau_ap(truth, ["A", "B", "D", "C"]) == pytest.approx(7 / 9)
    assert tau_ap(truth, truth) == pytest.approx(1.0)
    assert tau_ap(truth, truth[::-1]) == pytest.approx(-1.0)
    assert tau_ap_symmetric(truth, ["B", "A", "C", "D"]) == pytest.approx(
        0.5 * (1 / 3 + tau_ap(["B", "A", "C", "D"], truth)))


def test_tau_ap_needs_the_same_runs():
    with pytest.raises(ValueError):
        tau_ap(["A", "B"], ["A", "C"])


def test_system_ranking_breaks_ties_by_map_then_name():
    p10 = pd.Series({"A": 0.4, "B": 0.5, "C": 0.4, "D": 0.4, "E": 0.4})
    mapv = pd.Series({"A": 0.30, "B": 0.10, "C": 0.20, "D": 0.05, "E": 0.05})
    assert system_ranking(p10, mapv) == ["B", "A", "C", "D", "E"]
    assert system_ranking(p10, mapv, lower_is_better=True) == ["A", "C", "D", "E", "B"]


def test_ranking_strings_one_character_per_run():
    mapv = pd.Series({"A": 0.30, "B": 0.10, "C": 0.20, "D": 0.05})
    p10 = pd.Series({"A": 0.4, "B": 0.5, "C": 0.4, "D": 0.4})
    rs = ranking_strings({"map": mapv, "P_10": p10}, tie_break=mapv)
    # symbols follow the MAP ranking A C B D -> A:'A', C:'B', B:'C', D:'D'
    assert rs.symbols == {"A": "A", "C": "B", "B": "C", "D": "D"}
    assert rs.string("map") == "ABCD"
    # P_10: B first, then A, C, D tied at .4 and ordered by MAP -> B A C D -> "CABD"
    assert rs.string("P_10") == "CABD"
    frame = rs.to_frame()
    assert frame["ranking"].tolist() == ["ABCD", "CABD"]
    # CABD vs ABCD: discordant pairs (C,A), (C,B) -> tau = 1 - 2*2/6 = 1/3
    assert frame["tau_vs_map"].tolist() == pytest.approx([1.0, 1 / 3])


def test_correlation_matrix():
    means = pd.DataFrame({"map": [0.3, 0.2, 0.1, 0.05], "P_10": [0.5, 0.4, 0.45, 0.1],
                          "nores": [0.1, 0.2, 0.3, 0.4]}, index=list("ABCD"))
    tau = correlation_matrix(means, "kendall", lower_is_better=["nores"])
    assert tau.loc["map", "map"] == 1.0
    # map ABCD vs P_10 ACBD: one swap among 6 pairs -> 2/3; nores (lower better) = ABCD -> 1
    assert tau.loc["map", "P_10"] == pytest.approx(2 / 3)
    assert tau.loc["map", "nores"] == pytest.approx(1.0)
    tap = correlation_matrix(means, "tau_ap")
    # truth ABCD, estimate ACBD: C(2)=1, C(3)=1, C(4)=3 -> 2/3*(1 + 1/2 + 1) - 1 = 2/3
    assert tap.loc["map", "P_10"] == pytest.approx(2 / 3)


def test_ranking_strings_take_any_number_of_runs():
    """Table 3 of the robust overview writes one character per run; beyond the 76
    characters each run gets a two-character code, so 200 runs still get a string."""
    import pandas as pd

    from yardstick.analysis.stability.rank_correlation import ranking_strings

    runs = [f"r{i:03d}" for i in range(200)]
    a = pd.Series(range(200, 0, -1), index=runs, dtype=float)
    b = pd.Series(range(1, 201), index=runs, dtype=float)  # the reverse ranking
    rs = ranking_strings({"a": a, "b": b})
    codes = rs.string("a").split(" ")
    assert len(codes) == 200 and len(set(codes)) == 200 and codes[0] == "AA"
    assert rs.string("b").split(" ") == codes[::-1]
    assert rs.to_frame()["tau_vs_a"].tolist() == [1.0, -1.0]
