"""Child process of tests/gui/test_window_fits_screen.py: every panel at a given screen size
with a wide track loaded (issue 28, "Answers first, at 1280×800").

``python -m tests.wide_track_fit_worker WIDTH HEIGHT RUNS [SHOTS_DIR]`` starts offscreen Qt with one
screen of that size, writes a small-but-wide track (RUNS runs with long names from
long-named teams, 6 topics, 25 documents a topic), opens it as a user would, brings every
panel to the front in turn (every chart of the Charts panel; the Stability panel after
running its discriminative-power and swap-rate analyses) and prints JSON with every
problem found:

* a toolbar's overflow button (») in view — a control hidden behind it;
* a control (combo box, button, spin box, line edit, check box, slider) in view but cut
  by the edge of what holds it (vertically only outside a scrolling column of controls);
* a table's answer column (:data:`ANSWER_COLUMNS`) not wholly inside its table, or its
  header cut short ("min_d…");
* a table cell, list entry or legend entry whose text is wider than its room without a
  tooltip that gives the whole text (elision without a tooltip);
* a combo box whose name is wider than its box but not elided in the middle (the end of a
  run name, where two runs of a team differ, cut off) or without the whole name in its
  tooltip, and a popup list narrower than its longest entry.

With ``SHOTS_DIR`` the window is also saved as ``SHOTS_DIR/<panel>[_<chart or table>].png``
at each check (to look at).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

import numpy as np

from tests.fit_checks import (
    check_charts,
    check_columns,
    check_combo,
    check_elision_in_list,
    check_elision_in_table,
    check_headers,
    check_status,
    check_tab_bar,
    inside,
    label_of,
)

#: panel -> {table attribute (dotted: a view's table): columns that must lie wholly in view
#: (None: every column; an int n: the first n columns, whatever their headers)}
ANSWER_COLUMNS = {
    "collection": {"runs_view": ["shown", "colour", "name", "group", "pooled", "topics",
                                 "lines"],
                   "topics_view": ["topic", "judged", "relevant", "rel=0", "rel=1", "rel=2"]},
    "measures": {"table": None},
    # the answers (the panel's ANSWER_COLUMNS); parameters after them may elide or scroll
    "stability": {"table": ["measure", "min_difference", "percent_of_top", "error_rate_%",
                            "ties_%", "discriminative_power", "difference_needed"]},
    "pool": {"table": ["run", "contributing"]},
    # the run, by how much, the corrected p and the verdict (QA: 341 px, "p t (holm)" and
    # "significant" needed scrolling)
    "compare": {"summary_table": ["run", "diff", "p t (holm)", "significant"]},
    "topic": {"scores": None},
    # the ranked list's lesson: each document's grade and what AP adds up; the what-if
    # table's measure and its value now
    "topic_explorer": {"table": ["rank", "docno", "rel", "status", "precision", "recall",
                                 "ap_term"],
                       "what_if.changes": 2, "what_if.ranking": 2},
}
#: the panels looked at again with the Collection dock as wide as QA had it on main
#: (Compare's table then had a 341-pixel viewport): their answers must stay in view
WIDE_COLLECTION = 577
WIDE_COLLECTION_PANELS = ("compare", "topic", "topic_explorer")
TOPICS = 6
DEPTH = 25


def write_wide_track(dest: str, runs: int, seed: int = 7) -> dict:
    """``qrels.txt``, ``groups.tsv`` and ``runs/<name>`` with long run and team names."""
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.join(dest, "runs"), exist_ok=True)
    topics = [str(401 + t) for t in range(TOPICS)]
    with open(os.path.join(dest, "qrels.txt"), "w") as f:
        for t in topics:
            for d in range(60):
                f.write(f"{t} 0 D{t}-{d:03d} {int(rng.choice([0, 0, 1, 2]))}\n")
    names = []
    with open(os.path.join(dest, "groups.tsv"), "w") as g:
        for i in range(runs):
            team = f"University-of-Somewhere-Far-Away-IR-Lab-{i // 3:02d}"
            name = f"lab{i // 3:02d}-bm25-rm3-doc2query-monoT5-rerank-fusion-{i % 3}"
            names.append(name)
            g.write(f"{name}\t{team}\n")
            with open(os.path.join(dest, "runs", name), "w") as f:
                for t in topics:
                    docs = rng.permutation(60)[:DEPTH]
                    for r, d in enumerate(docs):
                        f.write(f"{t} Q0 D{t}-{d:03d} {r + 1} {100 - r} {name}\n")
    return {"qrels": os.path.join(dest, "qrels.txt"), "groups": os.path.join(dest, "groups.tsv"),
            "runs": [os.path.join(dest, "runs", n) for n in names]}


def read_track(folder: str) -> dict:
    """The files of a track written by ``gen_track.py`` (qrels.txt, groups.tsv, runs/)."""
    runs = sorted(os.listdir(os.path.join(folder, "runs")))
    return {"qrels": os.path.join(folder, "qrels.txt"),
            "groups": os.path.join(folder, "groups.tsv"),
            "runs": [os.path.join(folder, "runs", n) for n in runs]}


def main() -> None:
    args = sys.argv[1:]
    track_dir = None
    if "--track" in args:               # a generated track (gen_track.py's folder) instead
        i = args.index("--track")
        track_dir = args[i + 1]
        del args[i:i + 2]
    width, height, runs = (int(a) for a in args[:3])
    shots = args[3] if len(args) > 3 else None
    tmp = tempfile.mkdtemp(prefix="wide-fit-")
    config = os.path.join(tmp, "screens.json")
    with open(config, "w") as f:
        json.dump({"screens": [{"name": "screen", "x": 0, "y": 0, "width": width,
                                "height": height, "logicalDpi": 96, "logicalBaseDpi": 96,
                                "dpr": 1}]}, f)
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={config}"
    os.environ["YARDSTICK_DATA_DIR"] = os.path.join(tmp, "appdata")
    track = write_wide_track(os.path.join(tmp, "track"), runs) if track_dir is None else \
        read_track(track_dir)
    runs = len(track["runs"])
    from PySide6.QtWidgets import QApplication

    app = QApplication(["wide-fit"])
    from yardstick.gui.main_window import MainWindow
    from yardstick.gui.screenshots import wait_idle

    win = MainWindow(autosave=False)
    win.show()
    done = []
    win.loaded.connect(done.append)
    win.open_items([(track["qrels"], "qrels"), (track["groups"], "groups")]
                   + [(r, "run") for r in track["runs"]])
    end = time.monotonic() + 300
    while time.monotonic() < end and not (
            done and len(win.state.evaluations(visible_only=False)) == runs
            and not win.jobs.is_busy()):
        app.processEvents()
        time.sleep(0.005)
    wait_idle(win)
    problems: list[str] = []
    checked: dict[str, int] = {}
    for key in list(win.docks):
        win.raise_panel(key)
        wait_idle(win)
        panel = win.panels[key]
        if key == "charts":
            for i in range(panel.chart_box.count()):
                panel.chart_box.setCurrentIndex(i)
                wait_idle(win)
                n = check_panel(app, f"charts/{panel.chart_box.currentText()}", panel, problems,
                                shots)
                checked[f"charts/{panel.chart_box.currentText()}"] = n
            continue
        if key == "stability":
            for analysis in ("discriminative", "swap"):
                panel.configure(analysis=analysis, measures=["map", "P_10"], samples=20)
                panel.run()
                wait_idle(win, 240)
                for t in range(panel.table_choice.count()):
                    panel.table_choice.setCurrentIndex(t)
                    wait_idle(win)
                    name = f"stability/{analysis}/{panel.table_choice.currentText()}"
                    checked[name] = check_panel(app, name, panel, problems, shots)
            continue
        if key == "pool":
            panel.run()
            wait_idle(win, 240)
        checked[key] = check_panel(app, key, panel, problems, shots)
    from PySide6.QtCore import Qt

    win.raise_panel("collection")
    right = win.width() - WIDE_COLLECTION
    win.resizeDocks([win.docks["collection"], win.docks["compare"]], [WIDE_COLLECTION, right],
                    Qt.Orientation.Horizontal)
    wait_idle(win)
    got = win.docks["collection"].width()
    if abs(got - WIDE_COLLECTION) > 30:
        problems.append(f"the Collection dock could not be widened to {WIDE_COLLECTION} px "
                        f"({got} px): a panel on the right is too wide at its narrowest")
    for key in WIDE_COLLECTION_PANELS:
        win.raise_panel(key)
        wait_idle(win)
        where = f"wide-collection/{key}"
        checked[where] = check_panel(app, where, win.panels[key], problems, shots, key=key)
    panel = win.panels["charts"]
    win.raise_panel("charts")
    panel.chart_box.setCurrentIndex(panel.chart_box.findText("Measure scatter"))
    wait_idle(win)
    checked["wide-collection/charts/Measure scatter"] = check_panel(
        app, "wide-collection/charts/Measure scatter", panel, problems, shots, key="charts")
    print(json.dumps({"problems": problems, "checked": checked}))
    sys.stdout.flush()
    os._exit(0)


def check_panel(app, where: str, panel, problems: list[str], shots: str | None = None,
                key: str | None = None) -> int:
    """Append what is hidden or cut in ``panel`` (whose key is ``key``, by default the
    first part of ``where``); returns how many controls were seen."""
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QAbstractScrollArea,
        QAbstractSpinBox,
        QComboBox,
        QLineEdit,
        QListWidget,
        QSlider,
        QTabBar,
        QTableView,
        QToolButton,
        QWidget,
    )

    app.processEvents()
    if shots:
        import re

        os.makedirs(shots, exist_ok=True)
        panel.window().grab().save(os.path.join(
            shots, re.sub(r"[^A-Za-z0-9_-]+", "_", where.replace("/", "__"))[:80] + ".png"))
    seen = 0
    shown = panel.visibleRegion().boundingRect()
    if shown.width() < panel.width() - 1:
        problems.append(f"{where}: the panel is wider than its dock ({panel.width()} px, "
                        f"{shown.width()} in view): its right part is cut")
    for ext in panel.findChildren(QToolButton, "qt_toolbar_ext_button"):
        if ext.isVisible():
            problems.append(f"{where}: a toolbar's overflow button (») hides controls")
    kinds = (QComboBox, QAbstractButton, QAbstractSpinBox, QLineEdit, QSlider)
    for w in panel.findChildren(QWidget):
        if not isinstance(w, kinds) or not w.isVisible() or inside(w, (QTabBar,
                                                                         QAbstractSpinBox,
                                                                         QComboBox)):
            continue
        if inside(w, (QAbstractItemView,)) and not isinstance(w, QAbstractItemView):
            continue                            # an editor or scroller inside a table
        seen += 1
        region = w.visibleRegion().boundingRect()
        scrolls = inside(w, (QAbstractScrollArea,), stop=panel)
        if region.isEmpty() and scrolls:
            continue                            # scrolled out of a column of controls
        if region.width() < w.width() or (not scrolls and region.height() < w.height()):
            problems.append(f"{where}: {type(w).__name__} {label_of(w)!r} cut "
                            f"({region.width()}x{region.height()} of "
                            f"{w.width()}x{w.height()} in view)")
    key = key or where.split("/")[0]
    for attr, columns in ANSWER_COLUMNS.get(key, {}).items():
        view = panel
        for part in attr.split("."):
            view = getattr(view, part, None)
        if view is not None and view.isVisible() and not view.visibleRegion().isEmpty():
            check_columns(where, attr, view, columns, problems)
    for view in panel.findChildren(QTableView):
        if view.isVisible() and not view.visibleRegion().isEmpty():
            check_elision_in_table(where, view, problems)
            check_headers(where, view, problems)
    for bar in panel.findChildren(QTabBar):
        if bar.isVisible():
            check_tab_bar(where, bar, problems)
    check_charts(where, panel, problems)
    check_status(where, panel, problems)
    for lst in panel.findChildren(QListWidget):
        if lst.isVisible():
            check_elision_in_list(where, lst, problems)
    for combo in panel.findChildren(QComboBox):
        if combo.isVisible() and not combo.isEditable() and combo.count():
            check_combo(where, combo, problems)
    return seen


if __name__ == "__main__":
    main()
