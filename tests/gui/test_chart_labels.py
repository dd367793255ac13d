"""Labels of a chart stay readable where other runs' markers crowd (issue 28: "labels of
scatter and legend never overlap or clip"): on screen a label is drawn above every line
and marker, as the files draw it (matplotlib zorder 4), also after hovering a run."""

from __future__ import annotations


def test_a_label_is_drawn_above_a_marker_drawn_after_it(qtbot):
    import pyqtgraph as pg

    from yardstick.gui.charts.base import ChartWidget
    from yardstick.presentation.charts.figure_spec import FigureSpec, Line, Plot, Style, Text

    label = Text(0.5, 0.5, "team09b", color="#e377c2", run="team09b")
    a = Line([0.5], [0.5], Style("#e377c2", 0, marker="o"), name="team09b", run="team09b")
    b = Line([0.5], [0.5], Style("#ff7f0e", 0, marker="o", marker_size=12), name="team34b",
             run="team34b")
    chart = ChartWidget()
    qtbot.addWidget(chart)
    chart.resize(500, 400)
    chart.show_figure(FigureSpec("scatter", (Plot("", series=(a, label, b)),)))
    texts = [i for i in chart._drawn if isinstance(i, pg.TextItem)]
    marks = [i for i in chart._drawn if not isinstance(i, pg.TextItem)]
    assert len(texts) == 1 and len(marks) == 2
    assert all(texts[0].zValue() > m.zValue() for m in marks)
    chart.emphasise("team34b")                   # hovering the other run ...
    chart.emphasise(None)                        # ... and leaving it
    assert all(texts[0].zValue() > m.zValue() for m in marks)
    assert texts[0].fill.color().alpha() > 0     # on a veil over what lies beneath


def test_a_small_change_of_height_does_not_draw_the_chart_again(qtbot):
    """The Charts toolbar showing another chart's controls changes the chart's height by
    8-26 px; each change drew the chart again (the latency helper's finding).  A change of
    width, or of height beyond REDRAW_HEIGHT, still draws it again."""
    from yardstick.gui.charts.base import REDRAW_HEIGHT, ChartWidget
    from yardstick.presentation.charts.figure_spec import FigureSpec, Line, Plot, Style

    chart = ChartWidget()
    qtbot.addWidget(chart)
    chart.resize(600, 400)
    chart.show()
    qtbot.waitExposed(chart)
    line = Line([0, 1], [0.0, 1.0], Style("#1f77b4", 1.5), name="a", run="a")
    chart.show_figure(FigureSpec("a chart", (Plot("", series=(line,)),)))
    qtbot.waitUntil(lambda: not chart._redraw_timer.isActive())
    drawn = []
    chart._redraw_timer.timeout.connect(lambda: drawn.append(chart.size().toTuple()))
    chart.resize(600, 400 - (REDRAW_HEIGHT - 6))
    qtbot.wait(200)
    assert drawn == []
    chart.resize(600, 400 - (REDRAW_HEIGHT + 8))
    qtbot.waitUntil(lambda: len(drawn) == 1)
    chart.resize(640, 400 - (REDRAW_HEIGHT + 8))
    qtbot.waitUntil(lambda: len(drawn) == 2)
