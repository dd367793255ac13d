"""Labels of the measure scatter (issue 28): none overlaps another, none leaves the plot,
the best runs are labelled first, every run keeps its name in its hover text."""

from __future__ import annotations

import numpy as np

from yardstick.presentation.charts.figure_spec import Line, Text
from yardstick.presentation.charts.label_placement import PLOT_SHARE, place_labels
from yardstick.presentation.charts.measure_scatter import MeasureScatter
from yardstick.presentation.charts.specs import measure_scatter_figure


def _boxes(x, y, texts, places, xr, yr, w_in=6.4, h_in=4.2, pt=7.0, dpi=96.0):
    """Each placed label's box in pixels, worked out independently of the placement."""
    w, h = w_in * dpi * PLOT_SHARE[0], h_in * dpi * PLOT_SHARE[1]
    font = pt * dpi / 72
    out = []
    for p in places:
        px = (x[p.index] - xr[0]) / (xr[1] - xr[0]) * w
        py = (y[p.index] - yr[0]) / (yr[1] - yr[0]) * h
        tw, th = 0.6 * font * len(texts[p.index]) + 2, 1.3 * font
        left = px + 3 if p.ha == "left" else px - 3 - tw
        bottom = py + 3 if p.va == "bottom" else py - 3 - th
        out.append((left, bottom, left + tw, bottom + th))
    return out, (w, h)


def test_labels_of_150_crowded_runs_never_overlap_nor_leave_the_plot():
    rng = np.random.default_rng(3)
    x, y = rng.beta(4, 6, 150), rng.beta(4, 6, 150)
    texts = [f"lab{i:03d}-bm25-rm3-fusion-{i % 3}" for i in range(150)]
    xr, yr = (x.min() - 0.05, x.max() + 0.05), (y.min() - 0.05, y.max() + 0.05)
    places = place_labels(x, y, texts, xr, yr)
    assert 0 < len(places) < 150                     # thinned, not all dropped
    assert places[0].index == 0                       # the first (best) is labelled
    boxes, (w, h) = _boxes(x, y, texts, places, xr, yr)
    for i, a in enumerate(boxes):
        assert a[0] >= 0 and a[1] >= 0 and a[2] <= w and a[3] <= h, a
        for b in boxes[:i]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def test_a_label_at_the_right_edge_goes_to_the_left_of_its_point():
    places = place_labels([0.99], [0.5], ["a-rather-long-run-name-at-the-edge"], (0, 1), (0, 1))
    assert [(p.ha, p.va) for p in places] == [("right", "bottom")]


def test_spread_out_runs_are_all_labelled():
    x = np.linspace(0, 1, 5)
    places = place_labels(x, x, ["a", "b", "c", "d", "e"], (-0.2, 1.2), (-0.2, 1.2))
    assert sorted(p.index for p in places) == [0, 1, 2, 3, 4]


def test_scatter_figure_labels_a_subset_and_says_so():
    rng = np.random.default_rng(5)
    runs = tuple(f"lab{i:03d}-bm25-rm3-doc2query-fusion" for i in range(150))
    sc = MeasureScatter("map", "P_10", runs, rng.random(150), rng.random(150), 0.5, 0.4)
    spec = measure_scatter_figure(sc)
    texts = [s for s in spec.plots[0].series if isinstance(s, Text)]
    points = [s for s in spec.plots[0].series if isinstance(s, Line)]
    assert 0 < len(texts) < 150 and len(points) == 150
    assert all(p.hover[0].startswith(p.run + "\n") for p in points)  # every name on hover
    assert f"{len(texts)} of 150 labelled (hover for the others)" in spec.caption
