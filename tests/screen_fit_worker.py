"""Child process of tests/test_window_fits_screen.py: the window on a screen of a given size.

``python -m tests.screen_fit_worker WIDTH HEIGHT`` starts offscreen Qt with one screen of
that size (Qt's offscreen ``configfile``), opens the window as a user would (size from
the screen), loads the bundled sample track, brings every panel to the front in turn and
prints JSON: the screen, the window's frame, and every problem found — a top-level part
of the window (menu bar, status bar, docks, dock tab bars, toolbars) not inside the
screen's available area, or a panel wider than its dock (a horizontal scroll bar would
hide its toolbar's or table's right side); panels taller than their dock (they scroll
vertically) are listed apart, under ``scrolls``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time


def main() -> None:
    width, height = int(sys.argv[1]), int(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="screen-fit-")
    config = os.path.join(tmp, "screens.json")
    with open(config, "w") as f:
        json.dump({"screens": [{"name": "screen", "x": 0, "y": 0, "width": width,
                                "height": height, "logicalDpi": 96, "logicalBaseDpi": 96,
                                "dpr": 1}]}, f)
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={config}"
    os.environ["YARDSTICK_DATA_DIR"] = os.path.join(tmp, "appdata")
    from PySide6.QtCore import QPoint, QRect, Qt
    from PySide6.QtWidgets import QApplication, QScrollArea, QWidget

    app = QApplication(["screen-fit"])
    from tests.gui_support import QRELS, RUNS, TOPICS
    from yardstick.gui.main_window import MainWindow

    def spin(seconds: float, until=None) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not (until and until()):
            app.processEvents()
            time.sleep(0.005)

    win = MainWindow(autosave=False)
    win.show()
    done = []
    win.loaded.connect(done.append)
    win.open_items([(str(QRELS), "qrels"), (str(TOPICS), "topics")]
                   + [(str(r), "run") for r in RUNS])
    spin(120, lambda: done and len(win.state.evaluations(visible_only=False)) == len(RUNS)
         and not win.jobs.is_busy())
    screen = app.primaryScreen().availableGeometry()
    problems = []
    scrolls = []  # a panel taller than its dock: it scrolls (reachable, but worth knowing)
    if not screen.contains(win.frameGeometry()):
        problems.append(f"window frame {win.frameGeometry().getRect()}")

    def rect(w: QWidget) -> QRect:
        return QRect(w.mapToGlobal(QPoint(0, 0)), w.size())

    for key in list(win.docks):
        win.raise_panel(key)
        spin(30, lambda: not win.jobs.is_busy())
        spin(0.2)
        for part in win.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if part.isWindow() or not part.isVisible() or part.visibleRegion().isEmpty():
                continue
            if not screen.contains(rect(part)):
                problems.append(f"with {key} in front: {type(part).__name__} "
                                f"{part.objectName()} at {rect(part).getRect()}")
        area = win.docks[key].widget()
        if isinstance(area, QScrollArea):
            for bar, what, out in ((area.horizontalScrollBar(), "wider", problems),
                                   (area.verticalScrollBar(), "taller", scrolls)):
                if bar.isVisible():
                    out.append(f"{key}: panel {what} than its dock "
                               f"({area.widget().minimumSizeHint().toTuple()} in "
                               f"{area.viewport().size().toTuple()})")
    print(json.dumps({"screen": screen.getRect(), "frame": win.frameGeometry().getRect(),
                      "size": win.size().toTuple(),
                      "problems": problems, "scrolls": scrolls}))
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
