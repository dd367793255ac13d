"""Chart definitions (core, no Qt): what each figure spec holds, and that the matplotlib
renderer draws exactly that (issue 16 item 1: one definition per chart)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

from yardstick.presentation.charts.figure_spec import Line, diverging_color, thin_ticks, wrap_title
from yardstick.presentation.charts.median_difference import median_difference
from yardstick.presentation.charts.recall_precision import RecallPrecisionCurves
from yardstick.presentation.charts.render_mpl import figure_bytes, render_figure
from yardstick.presentation.charts.specs import median_difference_figure, recall_precision_figure
from yardstick.presentation.charts.stability_specs import measure_heat_map_figure, similarity_order

SVG = "{http://www.w3.org/2000/svg}"
TOPICS = [str(t) for t in (1, 2, 3, 10, 11, 20, 100)]


def _curves():
    levels = np.round(np.arange(11) / 10, 2)
    return RecallPrecisionCurves(("a", "b"), levels,
                                 np.array([np.linspace(1, 0, 11), np.linspace(0.5, 0, 11)]),
                                 np.array([0.5, 0.25]))


def test_recall_precision_spec_holds_runs_labels_and_hover():
    spec = recall_precision_figure(_curves(), {"a": "#123456"}, caption="top 2 of 9 runs by map")
    lines = [s for s in spec.plot.series if isinstance(s, Line)]
    assert [s.run for s in lines] == ["a", "b"] and spec.runs == ("a", "b")
    assert [s.name for s in lines] == ["a (MAP 0.5000)", "b (MAP 0.2500)"]
    assert lines[0].style.color == "#123456" and lines[1].style.color == "#d62728"
    assert lines[1].hover[5] == "b\nrecall 0.50: precision 0.2500"
    assert spec.heading() == "Recall-Precision Curve — top 2 of 9 runs by map"


def test_per_topic_axis_in_natural_order():
    scores = pd.DataFrame({"A": np.linspace(0, 1, 7), "B": 0.5}, index=TOPICS[::-1])
    spec = median_difference_figure(median_difference(scores, "A"))
    assert [lb for _, lb in spec.plot.x.ticks] == TOPICS
    assert spec.plot.x.rotate
    named = ["q10", "q9", "q100", "q1"]
    scores = pd.DataFrame({"A": [0.1, 0.2, 0.3, 0.4], "B": 0.5}, index=named)
    spec = median_difference_figure(median_difference(scores, "A"))
    assert [lb for _, lb in spec.plot.x.ticks] == ["q1", "q9", "q10", "q100"]


def test_matplotlib_draws_what_the_spec_says(tmp_path):
    """The SVG has the title, the caption, each legend entry, and one 11-vertex path per
    run in the run's colour."""
    spec = recall_precision_figure(_curves(), caption="top 2 of 9 runs by map")
    svg = figure_bytes(spec, "svg")
    root = ET.fromstring(svg)
    text = " ".join(" ".join("".join(e.itertext()) for e in root.iter(SVG + "text")).split())
    for want in ("Recall-Precision Curve", "top 2 of 9 runs by map", "a (MAP 0.5000)",
                 "b (MAP 0.2500)", "Recall", "Precision"):
        assert want in text
    for color in ("#1f77b4", "#d62728"):
        paths = [e.get("d") for e in root.iter(SVG + "path")
                 if f"stroke: {color}" in (e.get("style") or "") and "C" not in e.get("d", "")
                 and "z" not in e.get("d", "")]
        assert max(len(d.split("L")) for d in paths) == 11


def test_legend_sits_outside_the_axes():
    fig = render_figure(recall_precision_figure(_curves()), 6, 4, 100)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    ax = fig.axes[0]
    box = ax.get_legend().get_window_extent()
    assert box.x0 >= ax.get_window_extent().x1          # right of the plot: covers no data


def test_png_dpi_and_size():
    from PIL import Image

    png = figure_bytes(recall_precision_figure(_curves()), "png", 4.0, 3.0, dpi=200)
    img = Image.open(io.BytesIO(png))
    assert img.size == (800, 600)
    assert round(img.info["dpi"][0]) == 200


def test_thin_ticks_and_title_wrapping():
    ticks = [(float(i), str(i)) for i in range(250)]
    kept = thin_ticks(ticks, 40)
    assert len(kept) <= 40 and kept[0] == (0.0, "0") and kept[1] == (7.0, "7")
    assert (123.0, "123") in thin_ticks(ticks, 40, keep=[123.0])
    text = "word " * 40
    assert all(len(line) <= 30 for line in wrap_title(text, 30).split("\n"))


def test_diverging_scale_and_heat_map_order():
    assert diverging_color(-1) == "#2c7bb6" and diverging_color(1) == "#d7191c"
    assert diverging_color(0) == "#f7f7f7" and diverging_color(float("nan")) == "#eeeeee"
    m = pd.DataFrame([[1, 0.2, 0.9], [0.2, 1, 0.1], [0.9, 0.1, 1]], index=list("xyz"),
                     columns=list("xyz"))
    assert similarity_order(m.to_numpy()).tolist() == [0, 2, 1]     # mean τ 0.55, 0.5, 0.15
    spec = measure_heat_map_figure(m, "τ")
    assert [lb for _, lb in spec.plot.y.ticks] == ["x", "z", "y"]
    cells = spec.plot.series[0]
    assert cells.labels[:3] == ("1.00", "0.90", "0.20")
    from yardstick.presentation.charts.render_mpl import write_figure

    with pytest.raises(ValueError, match="png, svg or pdf"):
        write_figure(spec, "chart.gif")
