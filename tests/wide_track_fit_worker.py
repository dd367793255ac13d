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
#: least height of a chart's plotting area (the topic explorer's precision-recall plot was
#: squashed to ~30 px under a three-line title)
MIN_PLOT_HEIGHT = 120
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
        if not isinstance(w, kinds) or not w.isVisible() or _inside(w, (QTabBar,
                                                                         QAbstractSpinBox,
                                                                         QComboBox)):
            continue
        if _inside(w, (QAbstractItemView,)) and not isinstance(w, QAbstractItemView):
            continue                            # an editor or scroller inside a table
        seen += 1
        region = w.visibleRegion().boundingRect()
        scrolls = _inside(w, (QAbstractScrollArea,), stop=panel)
        if region.isEmpty() and scrolls:
            continue                            # scrolled out of a column of controls
        if region.width() < w.width() or (not scrolls and region.height() < w.height()):
            problems.append(f"{where}: {type(w).__name__} {_label(w)!r} cut "
                            f"({region.width()}x{region.height()} of "
                            f"{w.width()}x{w.height()} in view)")
    key = key or where.split("/")[0]
    for attr, columns in ANSWER_COLUMNS.get(key, {}).items():
        view = panel
        for part in attr.split("."):
            view = getattr(view, part, None)
        if view is not None and view.isVisible() and not view.visibleRegion().isEmpty():
            _check_columns(where, attr, view, columns, problems)
    for view in panel.findChildren(QTableView):
        if view.isVisible() and not view.visibleRegion().isEmpty():
            _check_elision_in_table(where, view, problems)
            _check_headers(where, view, problems)
    for bar in panel.findChildren(QTabBar):
        if bar.isVisible():
            _check_tab_bar(where, bar, problems)
    _check_charts(where, panel, problems)
    _check_status(where, panel, problems)
    for lst in panel.findChildren(QListWidget):
        if lst.isVisible():
            _check_elision_in_list(where, lst, problems)
    for combo in panel.findChildren(QComboBox):
        if combo.isVisible() and not combo.isEditable() and combo.count():
            _check_combo(where, combo, problems)
    return seen


def _check_combo(where, combo, problems) -> None:
    """A name too wide for its box is elided in the middle (its start and end shown) with
    the whole name in the tooltip; the popup list shows every entry whole."""
    from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

    from yardstick.gui.name_combo import NameCombo

    fm = combo.fontMetrics()
    text = combo.currentText()
    opt = QStyleOptionComboBox()
    combo.initStyleOption(opt)
    room = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                        QStyle.SubControl.SC_ComboBoxEditField, combo).width()
    if fm.horizontalAdvance(text) > room:
        shown = combo.shown_text() if isinstance(combo, NameCombo) else ""
        if not (shown.startswith(text[:3]) and shown.endswith(text[-3:]) and "…" in shown):
            problems.append(f"{where}: combo box cuts {text!r} at the right ({room} px)")
        if text not in (combo.toolTip() or ""):
            problems.append(f"{where}: combo box {text!r} cut without a tooltip")
    longest = max(fm.horizontalAdvance(combo.itemText(i)) for i in range(combo.count()))
    combo.showPopup()
    view = combo.view()
    if view.viewport().width() < longest + 8:
        problems.append(f"{where}: popup of combo box {text!r} {view.viewport().width()} px "
                        f"for entries {longest} px wide")
    combo.hidePopup()


def _check_status(where, panel, problems) -> None:
    """The status / assumptions text under a result wraps inside the panel: no part of the
    label lies past the panel's right edge and no line is wider than the label."""
    label = getattr(panel, "status", None)
    if label is None or not label.isVisible() or not label.text():
        return
    right = label.mapTo(panel, label.rect().topRight()).x()
    if right > panel.width():
        problems.append(f"{where}: status text runs past the panel's right edge "
                        f"({right} > {panel.width()})")
    fm = label.fontMetrics()
    widest = max(fm.horizontalAdvance(w) for w in label.text().split())
    if widest > label.width():
        problems.append(f"{where}: a word of the status text is wider than its label "
                        f"({widest} > {label.width()})")
    if label.visibleRegion().boundingRect().width() < label.width():
        problems.append(f"{where}: status text cut ({label.visibleRegion().boundingRect().width()}"
                        f" of {label.width()} in view)")


def _inside(w, kinds, stop=None) -> bool:
    p = w.parentWidget()
    while p is not None and p is not stop:
        if isinstance(p, kinds):
            return True
        p = p.parentWidget()
    return False


def _label(w) -> str:
    for attr in ("text", "currentText", "placeholderText", "toolTip"):
        f = getattr(w, attr, None)
        if callable(f) and f():
            return f()[:40]
    return w.objectName()


def _headers(view) -> list[str]:
    from PySide6.QtCore import Qt

    m = view.model()
    return [str(m.headerData(c, Qt.Orientation.Horizontal)) for c in range(m.columnCount())]


def _check_columns(where, attr, view, columns, problems) -> None:
    headers = _headers(view)
    want = headers if columns is None else headers[:columns] if isinstance(columns, int) \
        else [c for c in columns if c in headers]
    room = view.viewport().width()
    hfm = view.horizontalHeader().fontMetrics()
    for name in want:
        c = headers.index(name)
        x, w = view.columnViewportPosition(c), view.columnWidth(c)
        if view.isColumnHidden(c) or x < 0 or x + w > room:
            problems.append(f"{where}: {attr} column {name!r} not wholly in view "
                            f"(x {x}, width {w}, table {room}; columns "
                            f"{[(h, view.columnWidth(i)) for i, h in enumerate(headers)]})")
        elif hfm.horizontalAdvance(name) + 8 > w:
            problems.append(f"{where}: {attr} column {name!r}'s header cut short "
                            f"({w} px for {hfm.horizontalAdvance(name)} px of text)")


def _check_headers(where, view, problems) -> None:
    """A header in view cut short ("top…") has a tooltip that gives its whole text."""
    from PySide6.QtCore import Qt

    m = view.model()
    hfm = view.horizontalHeader().fontMetrics()
    room = view.viewport().width()
    for c in range(m.columnCount()):
        x, w = view.columnViewportPosition(c), view.columnWidth(c)
        if view.isColumnHidden(c) or x < 0 or x >= room:
            continue
        text = m.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
        if not text:
            continue
        text = str(text)
        if hfm.horizontalAdvance(text) + 8 > min(w, room - x):
            tip = m.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
            if not tip or text not in str(tip):
                problems.append(f"{where}: header {text!r} cut ({min(w, room - x)} px for "
                                f"{hfm.horizontalAdvance(text)} px) without a tooltip")


def _check_tab_bar(where, bar, problems) -> None:
    """Every tab of a tab bar in view: no tab scrolled out behind the bar's arrows."""
    from PySide6.QtWidgets import QToolButton

    inside = bar.rect()
    for i in range(bar.count()):
        if bar.isTabVisible(i) and not inside.contains(bar.tabRect(i)):
            problems.append(f"{where}: tab {bar.tabText(i)!r} out of its bar's view "
                            f"({bar.tabRect(i)} in {inside})")
    if any(b.isVisible() for b in bar.findChildren(QToolButton)):
        problems.append(f"{where}: tab bar shows scroll arrows (tabs "
                        f"{[bar.tabText(i) for i in range(bar.count())]} in {bar.width()} px)")


def _check_charts(where, panel, problems) -> None:
    """Each chart in view: its plotting area at least :data:`MIN_PLOT_HEIGHT` tall, and
    its point labels wholly inside it, none over another."""
    import pyqtgraph as pg

    from yardstick.gui.charts.base import ChartWidget

    for chart in panel.findChildren(ChartWidget):
        if not chart.isVisible() or chart.visibleRegion().isEmpty() or chart.spec is None:
            continue
        vb = chart.plot_item.getViewBox()
        box = vb.sceneBoundingRect()
        seen_box = chart.plot.mapFromScene(chart.plot_item.sceneBoundingRect()).boundingRect()
        if not chart.plot.viewport().rect().adjusted(-2, -2, 2, 2).contains(seen_box):
            problems.append(f"{where}: chart {chart.spec.title[:40]!r} is wider than its "
                            f"view ({seen_box.width()} px in {chart.plot.viewport().width()}"
                            "): its right part is cut")
        if box.height() < MIN_PLOT_HEIGHT:
            problems.append(f"{where}: chart {chart.spec.title[:40]!r} plots in "
                            f"{box.height():.0f} px of height")
        if chart.spec.name == "measure_scatter" and \
                f"over {len(chart.spec.runs)} runs" not in chart.spec.title:
            problems.append(f"{where}: the scatter's title {chart.spec.title!r} does not say "
                            f"over how many runs its correlations are")
        labels = [it for it in chart.plot_item.items if isinstance(it, pg.TextItem)
                  and it.isVisible() and it is not getattr(chart, "_readout", None)
                  and it.textItem.toPlainText()]
        rects = []
        for it in labels:
            r = it.sceneBoundingRect()
            text = it.textItem.toPlainText()
            if not box.adjusted(-1, -1, 1, 1).contains(r):
                problems.append(f"{where}: label {text!r} runs out of the plot "
                                f"({r.left():.0f}-{r.right():.0f} of "
                                f"{box.left():.0f}-{box.right():.0f})")
            for other, o in rects:
                if r.adjusted(1, 1, -1, -1).intersects(o.adjusted(1, 1, -1, -1)):
                    problems.append(f"{where}: labels {text!r} and {other!r} overlap")
            rects.append((text, r))


def _check_elision_in_table(where, view, problems) -> None:
    from PySide6.QtCore import Qt

    m = view.model()
    fm = view.fontMetrics()
    room = view.viewport().width()
    for c in range(m.columnCount()):
        x, w = view.columnViewportPosition(c), view.columnWidth(c)
        if view.isColumnHidden(c) or x < 0 or x + w > room:
            continue                                 # only the cells in view
        for r in range(min(m.rowCount(), 25)):
            idx = m.index(r, c)
            text = m.data(idx, Qt.ItemDataRole.DisplayRole)
            if text is None or text == "":
                continue
            text = str(text)
            icon = 20 if m.data(idx, Qt.ItemDataRole.CheckStateRole) is not None else 0
            if fm.horizontalAdvance(text) + 8 + icon > w:
                tip = m.data(idx, Qt.ItemDataRole.ToolTipRole)
                if not tip or text not in str(tip):
                    problems.append(f"{where}: cell {text!r} cut in a {w}-pixel column "
                                    f"{_headers(view)[c]!r} without a tooltip")
                    break


def _check_elision_in_list(where, lst, problems) -> None:
    fm = lst.fontMetrics()
    room = lst.viewport().width()
    for i in range(min(lst.count(), 200)):
        it = lst.item(i)
        extra = 24 if it.flags() & it.flags().ItemIsUserCheckable else 0
        extra += 20 if not it.icon().isNull() else 0
        if fm.horizontalAdvance(it.text()) + extra + 8 > room and it.text() not in (
                it.toolTip() or ""):
            problems.append(f"{where}: list entry {it.text()!r} cut without a tooltip")
            break


if __name__ == "__main__":
    main()
