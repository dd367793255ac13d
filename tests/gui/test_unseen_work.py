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


def test_a_cell_paints_what_its_roles_answer_one_by_one(qtbot):
    """The sort proxy answers a cell's paint in one call (``multiData``, its common roles
    without a call each): the text, alignment and background the delegate paints are the
    model's ``data()`` answers, role by role, in every kind of column."""
    import numpy as np
    import pandas as pd
    from PySide6.QtWidgets import QStyleOptionViewItem

    from yardstick.gui.table_view import FrameTableView

    view = FrameTableView()
    qtbot.addWidget(view)
    frame = pd.DataFrame({"map": [0.25, np.nan, 1 / 3], "num_ret": [1000, 7, 12],
                          "p t-test": [1.29e-6, 0.5, 0.049], "team": ["a", "bb", None]},
                         index=pd.Index(["r1", "r2", "r3"], name="run"))
    view.set_frame(frame)
    view.source.color_fn = lambda r, c, v: "#ffeeee" if c == 1 and r == 2 else None
    delegate, proxy = view.itemDelegate(), view.proxy
    R = Qt.ItemDataRole
    checked = {"alignment": 0, "background": 0}
    fresh = QStyleOptionViewItem()
    for row in range(proxy.rowCount()):
        for col in range(proxy.columnCount()):
            index = proxy.index(row, col)
            opt = QStyleOptionViewItem()
            delegate.initStyleOption(opt, index)          # (asks multiData, as a paint does)
            assert opt.text == (proxy.data(index, R.DisplayRole) or "")
            align = proxy.data(index, R.TextAlignmentRole)
            if align is not None:
                assert int(opt.displayAlignment.value) == int(align)
                checked["alignment"] += 1
            else:                              # not the cell painted before (the span is
                assert opt.displayAlignment == fresh.displayAlignment  # the delegate's own)
            brush = proxy.data(index, R.BackgroundRole)
            if brush is not None:
                assert opt.backgroundBrush.color().name() == brush.color().name() == "#ffeeee"
                checked["background"] += 1
            else:
                assert opt.backgroundBrush.style() == Qt.BrushStyle.NoBrush
    assert checked["alignment"] >= 9 and checked["background"] == 1  # (numbers: 3 x 3)


def test_each_runs_column_paints_its_own_roles(qtbot, tmp_path, monkeypatch):
    """The Collection's runs table answers a cell's paint in one call: a check box only
    in shown and pooled, a colour only in colour, each cell its own text (the delegate
    keeps the roles of the cell it painted before, which a first cut showed in every
    column)."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    from tests.gui_support import QRELS, RUNS, load, make_window
    from yardstick.gui.runs_model import CHECKS, COLUMNS

    win = make_window(qtbot, tmp_path, monkeypatch)
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    panel = win.panels["collection"]
    model, delegate = panel.runs_model, panel.runs_view.itemDelegate()
    feature = QStyleOptionViewItem.ViewItemFeature
    for row in range(model.rowCount()):
        entry = win.state.workspace.runs[model.names()[row]]
        for col, name in enumerate(COLUMNS):
            opt = QStyleOptionViewItem()
            delegate.initStyleOption(opt, model.index(row, col))
            assert bool(opt.features & feature.HasCheckIndicator) == (name in CHECKS)
            assert (opt.backgroundBrush.style() != Qt.BrushStyle.NoBrush) == (name == "colour")
            assert opt.text == {"name": entry.name, "group": entry.group,
                                "tag": entry.run.tag, "topics": str(entry.run.num_topics),
                                "lines": str(len(entry.run)), "file": entry.path}.get(name, "")
