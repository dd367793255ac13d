"""``yardstick --screenshot DIR``: render every panel (and each chart a panel lists) to PNG.

A panel may define ``screenshot_items() -> dict[str, QWidget]`` to have several
pictures (e.g. one per chart); they are written as ``DIR/<panel>_<name>.png``.
Otherwise the whole panel is written as ``DIR/<panel>.png``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication


def wait_idle(win, timeout: float = 120.0) -> bool:
    """Process events until no job is running and no figure is being drawn a few plots
    per turn (and a few more rounds for queued events)."""
    from yardstick.gui.charts.staged_figure import any_drawing

    app = QApplication.instance()
    end = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < end:
        app.processEvents()
        if any_drawing():
            quiet = 0
            time.sleep(0.002)
        elif win.jobs.is_busy():
            quiet = 0
            win.jobs.pool.waitForDone(20)
        else:
            quiet += 1
            if quiet > 20:
                return True
            time.sleep(0.01)
    return False


def render_all(win, out_dir: str | os.PathLike) -> list[str]:
    """Show each dock in turn, wait for its jobs, save its picture; returns the files."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    wait_idle(win)
    written = []
    win.grab().save(str(out / "window.png"))
    written.append(str(out / "window.png"))
    for key, dock in win.docks.items():
        dock.show()
        dock.raise_()
        wait_idle(win)
        panel = win.panels[key]
        items = {}
        getter = getattr(panel, "screenshot_items", None)
        if callable(getter):
            try:
                items = dict(getter())
            except Exception:  # noqa: BLE001 - fall back to the whole panel
                items = {}
            wait_idle(win)
        if not items:
            items = {"": panel}
        for name, widget in items.items():
            bring_forward(widget)
            wait_idle(win)
            path = out / (f"{key}_{name}.png" if name else f"{key}.png")
            widget.grab().save(str(path))
            written.append(str(path))
    return written


def bring_forward(widget) -> None:
    """Make the tab / stacked page holding ``widget`` current so it is laid out and drawn."""
    from PySide6.QtWidgets import QStackedWidget, QTabWidget

    child, parent = widget, widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QStackedWidget):
            tabs = parent.parentWidget()
            if isinstance(tabs, QTabWidget):  # a tab widget's own pages: through it, so
                tabs.setCurrentWidget(child)  # that its tab bar shows the page's tab
            else:
                parent.setCurrentWidget(child)
        child, parent = parent, parent.parentWidget()
