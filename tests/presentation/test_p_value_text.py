"""p-values as text never read 0.0000 (issue #28): a p of 1.29e-6 from a paired t-test
(scipy) prints in scientific notation, everywhere a p-value column is recognised."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from yardstick.presentation.export.cells import format_p, is_p_column


def _tiny_p() -> float:
    """A real paired t-test p-value far below 1e-4 (scipy's, on 40 shifted topics)."""
    rng = np.random.default_rng(0)
    a = rng.uniform(0.2, 0.6, 40)
    b = a + 0.05 + rng.normal(0, 0.02, 40)
    return float(stats.ttest_rel(b, a).pvalue)


def test_a_tiny_p_is_scientific_and_reads_back():
    p = _tiny_p()
    assert p < 1e-6
    text = format_p(p)
    assert text != "0.0000" and "e-" in text
    assert math.isclose(float(text), p, rel_tol=0.01)


@pytest.mark.parametrize("p,text", [(0.04321, "0.0432"), (0.5, "0.5000"), (1.0, "1.0000"),
                                    (0.0, "0"), (float("nan"), ""), (None, ""),
                                    (1.29e-6, "1.29e-06"), (9.9e-5, "9.90e-05")])
def test_format_p(p, text):
    assert format_p(p) == text


@pytest.mark.parametrize("name,yes", [("p t-test", True), ("p t (holm)", True), ("asl", True),
                                      ("p_vs_best", True), ("p_value", True), ("mean run", False),
                                      ("precision", False), ("pairs", False), ("diff", False)])
def test_is_p_column(name, yes):
    assert is_p_column(name) is yes
