"""Work the window does not do for what nobody can see (issue 28: nothing on the GUI thread
longer than 50 ms while a track loads).  A dock behind a tab stays "visible" to Qt, parked
outside the window at 100x84 pixels; the topic explorer's curve, drawn again after each
such resize, took 20-40 ms of a load's turns."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow


def test_a_chart_behind_a_tab_is_drawn_again_only_when_it_comes_to_the_front(qtbot):
    from yardstick.gui.charts.base import ChartWidget
    from yardstick.presentation.charts.figure_spec import FigureSpec, Line, Plot, Style

    win = QMainWindow()
    qtbot.addWidget(win)
    win.setCentralWidget(QLabel("centre"))
    chart = ChartWidget()
    docks = [QDockWidget(name, win) for name in ("chart", "other")]
    docks[0].setWidget(chart)
    docks[1].setWidget(QLabel("another panel"))
    for d in docks:
        win.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, d)
    win.tabifyDockWidget(docks[0], docks[1])
    win.resize(900, 600)
    win.show()
    qtbot.waitExposed(win)
    docks[0].raise_()
    line = Line([0, 1], [0.0, 1.0], Style("#1f77b4", 1.5), name="a", run="a")
    chart.show_figure(FigureSpec("a chart", (Plot("", series=(line,)),)))
    qtbot.waitUntil(lambda: not chart._redraw_timer.isActive())
    drawn: list[tuple[int, int]] = []
    real = chart._draw
    chart._draw = lambda: (drawn.append(chart.size().toTuple()), real())
    shown = chart.size().toTuple()
    docks[1].raise_()                          # the chart parked behind the other tab,
    docks[0].resize(100, 84)                   # at the size Qt parks the window's docks
    qtbot.wait(300)
    assert chart.isVisible() and chart.visibleRegion().isEmpty()
    assert drawn == []                         # (each parked resize drew it before)
    docks[0].raise_()
    qtbot.wait(300)
    assert chart.size().toTuple() == shown == chart._drawn_size  # as drawn: not again
    docks[1].raise_()                          # a new figure while parked: drawn at the
    docks[0].resize(100, 84)                   # parked size, then again at its own
    qtbot.wait(100)
    chart.show_figure(FigureSpec("another", (Plot("", series=(line,)),)))
    assert chart._drawn_size != shown
    drawn.clear()
    docks[0].raise_()
    qtbot.waitUntil(lambda: chart._drawn_size == shown)
    assert drawn[-1] == shown                  # drawn again at its size on screen
