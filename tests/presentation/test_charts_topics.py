"""Per-topic charts on hand-made score matrices whose numbers are worked out below."""

import numpy as np
import pandas as pd
import pytest
from pytrec_evaluations import evaluation_from_scores

from yardstick.presentation.charts.map_at_x import map_at_x, worst_quarter
from yardstick.presentation.charts.median_difference import median_difference
from yardstick.presentation.charts.topic_spread import difficult_topics, topic_spread

# three runs, four topics (topic "10" sorts after "3" numerically)
SCORES = pd.DataFrame({"A": [0.5, 0.2, 0.0, 0.9], "B": [0.3, 0.4, 0.1, 0.6],
                       "C": [0.1, 0.6, 0.2, 0.3]}, index=["1", "2", "3", "10"])


def test_median_difference_by_topic():
    md = median_difference(SCORES, "A")
    # medians 0.3, 0.4, 0.1, 0.6; maxima 0.5, 0.6, 0.2, 0.9
    assert md.topics == ("1", "2", "3", "10")
    assert md.median.tolist() == [0.3, 0.4, 0.1, 0.6]
    assert md.difference == pytest.approx([0.2, -0.2, -0.1, 0.3])
    assert md.max_difference == pytest.approx([0.2, 0.2, 0.1, 0.3])
    assert md.counts == {"above": 2, "equal": 0, "below": 2}
    assert md.n_runs == 3


def test_median_difference_sorted_by_difference_and_other_measure():
    evals = {n: evaluation_from_scores(n, {"P_10": SCORES[n].to_dict(), "map": {}})
             for n in SCORES}
    md = median_difference(evals, "A", measure="P_10", order="difference")
    assert md.topics == ("10", "1", "3", "2")
    assert md.difference == pytest.approx([0.3, 0.2, -0.1, -0.2])
    frame = md.to_frame()
    assert frame.loc["2", "difference"] == pytest.approx(-0.2)
    assert list(frame.columns) == ["value", "median", "maximum", "difference", "max_difference"]


def test_median_over_chosen_runs_and_missing_topic():
    s = SCORES.copy()
    s.loc["3", "A"] = np.nan                 # A did not retrieve for topic 3
    md = median_difference(s, "A", runs=["B", "C"])
    assert md.topics == ("1", "2", "10")     # no bar where the run has no value
    assert md.median == pytest.approx([0.2, 0.5, 0.45])   # median of two runs
    assert md.n_runs == 2


def test_topic_spread_boxes_and_difficult_topics():
    s = pd.DataFrame([[0.0, 0.0, 0.0, 0.0, 0.0, 0.8],       # low median, one high outlier
                      [0.5, 0.6, 0.7, 0.4, 0.5, 0.6],       # no outlier
                      [0.0, 0.1, 0.0, 0.1, 0.0, 0.1],       # low median, no outlier
                      [0.9, 0.8, 0.9, 0.7, 0.9, 0.1]],      # low outlier only
                     index=["401", "402", "403", "404"], columns=list("abcdef"))
    sp = topic_spread(s)
    # ordered by decreasing median (robust overview Figure 2): 0.85, 0.55, 0.05, 0.0
    assert sp.topics == ("404", "402", "403", "401")
    assert sp.median.tolist() == pytest.approx([0.85, 0.55, 0.05, 0.0])
    # topic 402 sorted: .4 .5 .5 .6 .6 .7 -> q1 = .5, q3 = .6 (linear interpolation)
    assert (sp.q1[1], sp.q3[1]) == pytest.approx((0.5, 0.6))
    # topic 401: box collapses to 0, whisker at 0, 0.8 is the one high outlier
    assert (sp.q1[3], sp.q3[3], sp.whisker_high[3], sp.maximum[3]) == (0, 0, 0, 0.8)
    assert sp.n_high_outliers.tolist() == [0, 0, 0, 1]
    # topic 404 sorted .1 .7 .8 .9 .9 .9: q1 = .725, q3 = .9, so .1 is below
    # q1 - 1.5 IQR = .4625 and the lower whisker stops at .7
    assert (sp.q1[0], sp.q3[0]) == pytest.approx((0.725, 0.9))
    assert sp.whisker_low[0] == pytest.approx(0.7)
    pts = sp.outlier_points()
    assert pts[["topic", "run", "side"]].values.tolist() == [["404", "f", "low"],
                                                              ["401", "f", "high"]]
    assert difficult_topics(sp, median_at_most=0.1) == ["401"]
    assert difficult_topics(sp, median_at_most=0.1, outlier_at_least=0.9) == []
    assert sp.to_frame().loc["401", "high_outliers"] == 1


def test_map_at_x_by_hand():
    m = map_at_x(SCORES)
    # A's topics sorted worst first: 0, .2, .5, .9 -> MAP(X) = 0, .1, .2333, .4
    assert m.values[0] == pytest.approx([0.0, 0.1, 0.7 / 3, 0.4])
    # C: .1 .2 .3 .6
    assert m.values[2] == pytest.approx([0.1, 0.15, 0.2, 0.3])
    assert m.x.tolist() == [1, 2, 3, 4]
    assert m.x_max == 1                          # worst quarter of 4 topics
    assert m.area.tolist() == pytest.approx([0.0, 0.1, 0.1])
    m2 = map_at_x(SCORES, x_max=2)
    assert m2.area == pytest.approx([0.05, 0.15, 0.125])
    # the last point is the ordinary MAP
    assert m.values[:, -1] == pytest.approx(SCORES.mean().to_numpy())
    assert m.to_frame().shape == (4, 3)


def test_worst_quarter_sizes_from_the_paper():
    # robust overview §1: X up to 12 for 50-topic sets, 25 for the combined 100
    assert worst_quarter(50) == 12 and worst_quarter(100) == 25
