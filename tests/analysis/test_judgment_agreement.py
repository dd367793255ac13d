"""Agreement between two qrels: kappa, weighted kappa, confusion and overlap by hand.

The ten documents both sets judge on topic 1 (grades of set a, then b)::

    a: 2 2 1 1 1 0 0 0 0 0        b: 2 1 1 1 0 0 0 0 0 1

Binary at level 1: 8 agreements of 10 (p_o = 0.8); both sets call half relevant, so
p_e = 0.5·0.5 + 0.5·0.5 = 0.5 and Cohen's kappa = (0.8 − 0.5) / (1 − 0.5) = 0.6.

Confusion (rows a, columns b, grades 0 1 2): [[4, 1, 0], [1, 2, 0], [0, 1, 1]].
Marginals a = (.5, .3, .2), b = (.5, .4, .1).  Linear weights |i−j|/2: observed
disagreement (1+1+1)·0.5/10 = 0.15; expected 0.1 + 0.05 + 0.075 + 0.015 + 0.1 + 0.04 =
0.38; kappa_linear = 1 − 0.15/0.38.  Quadratic weights (i−j)²/4: observed 0.075,
expected 0.05 + 0.05 + 0.0375 + 0.0075 + 0.1 + 0.02 = 0.265; kappa = 1 − 0.075/0.265.

Set a also judges ``x`` relevant and b judges ``y`` non-relevant (one-only each); a
``z`` judged −1 in b counts as not judged.  Relevant sets: a = {d0..d4, x}, b = {d0..d3,
d9}: overlap 4/7.  Topic 2 is judged in a only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

from yardstick.analysis.judgment_agreement import (
    agreement_table,
    cohen_kappa,
    confusion_matrix,
    confusion_table,
    missing_judgments,
    weighted_kappa,
)
from yardstick.inputs.qrels import Qrels

A = [2, 2, 1, 1, 1, 0, 0, 0, 0, 0]
B = [2, 1, 1, 1, 0, 0, 0, 0, 0, 1]


def _sets():
    rows_a = [("1", f"d{i}", g) for i, g in enumerate(A)] + [("1", "x", 1), ("1", "z", 0),
                                                             ("2", "d0", 1)]
    rows_b = [("1", f"d{i}", g) for i, g in enumerate(B)] + [("1", "y", 0), ("1", "z", -1)]
    cols = ["topic", "docno", "rel"]
    return (Qrels.from_frame(pd.DataFrame(rows_a, columns=cols), name="a"),
            Qrels.from_frame(pd.DataFrame(rows_b, columns=cols), name="b"))


def test_kappas_by_hand():
    assert cohen_kappa(np.array(A) >= 1, np.array(B) >= 1) == pytest.approx(0.6)
    assert weighted_kappa(A, B, "linear") == pytest.approx(1 - 0.15 / 0.38)
    assert weighted_kappa(A, B, "quadratic") == pytest.approx(1 - 0.075 / 0.265)


def test_kappas_match_statsmodels():
    table = confusion_matrix(A, B).to_numpy()
    assert table.tolist() == [[4, 1, 0], [1, 2, 0], [0, 1, 1]]
    assert weighted_kappa(A, B, "linear") == pytest.approx(sm_kappa(table, wt="linear").kappa)
    assert weighted_kappa(A, B, "quadratic") == pytest.approx(
        sm_kappa(table, wt="quadratic").kappa)
    bin_table = confusion_matrix(np.array(A) >= 1, np.array(B) >= 1).to_numpy()
    assert cohen_kappa(np.array(A) >= 1, np.array(B) >= 1) == pytest.approx(
        sm_kappa(bin_table).kappa)


def test_weighted_kappa_spaces_an_unused_grade():
    # nobody gives grade 1: 0 and 2 are still two steps apart (a 4 x 4 table over 0..3)
    a, b = [0, 0, 2, 3, 3, 0], [0, 2, 2, 3, 2, 0]
    table = confusion_matrix(a, b, range(4)).to_numpy()
    for w in ("linear", "quadratic"):
        assert weighted_kappa(a, b, w) == pytest.approx(sm_kappa(table, wt=w).kappa)
    squeezed = confusion_matrix(a, b).to_numpy()      # 3 x 3 over 0, 2, 3
    assert weighted_kappa(a, b, "linear") != pytest.approx(
        sm_kappa(squeezed, wt="linear").kappa)


def test_kappa_undefined_when_one_category():
    assert np.isnan(cohen_kappa([1, 1, 1], [1, 1, 1]))
    assert np.isnan(weighted_kappa([2, 2], [2, 2]))


def test_agreement_table_per_topic_and_overall():
    a, b = _sets()
    t = agreement_table(a, b).set_index("topic")
    one = t.loc["1"]
    assert (one["judged_both"], one["only_a"], one["only_b"]) == (10, 2, 1)   # x, z / y
    assert (one["relevant_a"], one["relevant_b"], one["relevant_both"]) == (6, 5, 4)
    assert one["overlap"] == pytest.approx(4 / 7)
    assert one["kappa"] == pytest.approx(0.6)
    assert one["kappa_linear"] == pytest.approx(1 - 0.15 / 0.38)
    assert one["kappa_quadratic"] == pytest.approx(1 - 0.075 / 0.265)
    two = t.loc["2"]
    assert bool(two["in_a"]) and not bool(two["in_b"])
    # topic 2 (judged by a only) stays out of the overall row
    allrow = t.loc["all"]
    assert allrow["n_topics"] == 1 and allrow["judged_a"] == 12
    assert allrow["kappa"] == pytest.approx(0.6) and allrow["overlap"] == pytest.approx(4 / 7)


def test_confusion_and_missing_tables():
    a, b = _sets()
    c = confusion_table(a, b).set_index(["grade_a", "grade_b"])["count"]
    assert c[("0", "0")] == 4 and c[("2", "1")] == 1 and c[("1", "unjudged")] == 1
    assert c[("0", "unjudged")] == 1 and c[("unjudged", "0")] == 1
    assert c.sum() == 13
    m = missing_judgments(a, b)
    assert sorted(zip(m["docno"], m["missing_in"])) == [("d0", "b"), ("x", "b"), ("y", "a"),
                                                        ("z", "b")]
