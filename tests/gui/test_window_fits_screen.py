"""The main window fits small screens (issue 15, "Fits the screen"): pytest-qt, offscreen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMenuBar, QStatusBar, QTabBar

from tests.gui_support import QRELS, RUNS, load, make_window
from yardstick.gui import settings as st
from yardstick.gui.main_window import FRAME_MARGIN, PREFERRED_SIZE, on_a_screen


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    w = make_window(qtbot, tmp_path, monkeypatch)
    w.show()
    qtbot.waitExposed(w)
    return w


def _top_level_parts(win):
    """The window's own bars, dock tab bars and visible docks (what must never be cut off)."""
    parts = [win.menuBar(), win.statusBar()]
    parts += [t for t in win.findChildren(QTabBar) if t.parent() is win and t.isVisible()]
    parts += [d for d in win.findChildren(QDockWidget)  # (a dock behind a tab is parked outside)
              if d.isVisible() and not d.isFloating() and not d.visibleRegion().isEmpty()]
    return parts


def test_window_is_sized_to_the_available_screen(win):
    avail = (win.screen() or QGuiApplication.primaryScreen()).availableGeometry()
    assert win.frameGeometry().width() <= avail.width()
    assert win.frameGeometry().height() <= avail.height()
    assert win.width() == min(PREFERRED_SIZE[0], avail.width() - FRAME_MARGIN)
    assert win.height() == min(PREFERRED_SIZE[1], avail.height() - FRAME_MARGIN)


@pytest.mark.parametrize("screen", [(1280, 800), (1920, 1080)])
def test_every_part_lies_inside_the_window_at(qtbot, win, screen):
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    w, h = screen[0] - FRAME_MARGIN, screen[1] - FRAME_MARGIN
    hint = win.minimumSizeHint()
    assert hint.width() <= w and hint.height() <= h, hint
    win.resize(min(w, PREFERRED_SIZE[0]), min(h, PREFERRED_SIZE[1]))
    qtbot.waitUntil(lambda: win.width() == min(w, PREFERRED_SIZE[0]))
    inside = QRect(0, 0, win.width(), win.height())
    for part in _top_level_parts(win):
        assert isinstance(part, (QMenuBar, QStatusBar, QTabBar, QDockWidget))
        assert inside.contains(part.geometry()), (type(part).__name__, part.geometry(), inside)
    # each panel's own minimum never forces its dock beyond the window
    for key, dock in win.docks.items():
        assert dock.minimumSizeHint().height() < h, key


def test_saved_geometry_off_every_screen_is_not_restored(qtbot, tmp_path, monkeypatch, win):
    win.move(20000, 20000)
    st.settings().setValue("window/geometry", win.saveGeometry())
    assert not on_a_screen(win.frameGeometry())
    win.close()
    again = make_window(qtbot, tmp_path, monkeypatch)
    assert on_a_screen(again.frameGeometry())


def test_saved_geometry_on_a_screen_is_restored(qtbot, tmp_path, monkeypatch, win):
    win.resize(500, 400)
    win.move(30, 40)
    st.settings().setValue("window/geometry", win.saveGeometry())
    win.close()
    again = make_window(qtbot, tmp_path, monkeypatch)
    assert (again.width(), again.height()) == (500, 400)
    assert again.geometry().topLeft().toTuple() == win.geometry().topLeft().toTuple()  # where


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_every_top_level_part_lies_inside_a_screen_of(size):
    """A fresh process with one screen of ``size`` (offscreen Qt's configfile): the window
    sizes itself to it, and with each panel in front, the menu bar, status bar, docks,
    dock tab bars and toolbars all lie inside the screen, and no panel is wider than
    its dock (tests/screen_fit_worker.py)."""
    import json
    import os
    import subprocess
    import sys

    from tests.gui_support import ROOT

    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    res = subprocess.run([sys.executable, "-m", "tests.screen_fit_worker", *map(str, size)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["screen"] == [0, 0, *size]
    x, y, w, h = out["frame"]
    assert x >= 0 and y >= 0 and x + w <= size[0] and y + h <= size[1]
    assert out["size"] == [min(PREFERRED_SIZE[0], size[0] - FRAME_MARGIN),
                           min(PREFERRED_SIZE[1], size[1] - FRAME_MARGIN)]
    assert out["problems"] == []


def test_every_control_and_answer_column_is_in_view_with_150_long_named_runs():
    """Issue 28 ("Answers first, at 1280×800"): a fresh process with a 1280×800 screen and a
    generated 150-run track (long run and team names, 6 topics): with each panel in front
    (each chart of the Charts panel, each table of two Stability analyses), no toolbar
    hides a control behind », no control is cut, the answer columns lie wholly in their
    tables, a cell, list or legend entry cut short has a tooltip with its whole text, and a
    run or measure picker too narrow for a name elides it in the middle with the whole name
    in its tooltip and in a popup list as wide as its longest entry, a header cut short has
    a tooltip, every tab of a tab bar is in view (no scroll arrows), a chart plots in at
    least 120 px of height with its point labels inside it and apart, and the measure
    scatter's title says over how many runs τ is.  Compare, Topic, Topic explorer and the
    scatter are looked at again with the Collection dock 577 px wide, as QA had it on main
    (Compare's table 341 px wide) (tests/wide_track_fit_worker.py)."""
    import json
    import os
    import subprocess
    import sys

    from tests.gui_support import ROOT

    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    res = subprocess.run([sys.executable, "-m", "tests.wide_track_fit_worker", "1280", "800",
                          "150"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    seen = out["checked"]
    from yardstick.gui.charts.chart_kinds import CHARTS
    from yardstick.gui.panels import PANEL_TITLES

    wide = {k.split("/", 1)[1] for k in seen if k.startswith("wide-collection/")}
    assert wide == {"compare", "topic", "topic_explorer", "charts/Measure scatter"}
    seen = {k: n for k, n in seen.items() if not k.startswith("wide-collection/")}
    assert {k.split("/")[0] for k in seen} == set(PANEL_TITLES)
    assert {k.split("/", 1)[1] for k in seen if k.startswith("charts/")} == set(CHARTS)
    assert any(k.startswith("stability/swap/Minimum difference") for k in seen)
    assert all(n > 0 for n in out["checked"].values()), seen     # controls were looked at
    assert out["problems"] == []
