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
