"""The checks of tests/wide_track_fit_worker.py, one kind of thing that can hide or cut an
answer at a time (issue 28, "Answers first, at 1280×800"): each appends a sentence per
problem to ``problems``."""

from __future__ import annotations

#: least height of a chart's plotting area (the topic explorer's precision-recall plot was
#: squashed to ~30 px under a three-line title)
MIN_PLOT_HEIGHT = 120


def check_combo(where, combo, problems) -> None:
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


def check_status(where, panel, problems) -> None:
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


def inside(w, kinds, stop=None) -> bool:
    p = w.parentWidget()
    while p is not None and p is not stop:
        if isinstance(p, kinds):
            return True
        p = p.parentWidget()
    return False


def label_of(w) -> str:
    for attr in ("text", "currentText", "placeholderText", "toolTip"):
        f = getattr(w, attr, None)
        if callable(f) and f():
            return f()[:40]
    return w.objectName()


def header_texts(view) -> list[str]:
    from PySide6.QtCore import Qt

    m = view.model()
    return [str(m.headerData(c, Qt.Orientation.Horizontal)) for c in range(m.columnCount())]


def check_columns(where, attr, view, columns, problems) -> None:
    headers = header_texts(view)
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


def check_headers(where, view, problems) -> None:
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


def check_tab_bar(where, bar, problems) -> None:
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


def check_charts(where, panel, problems) -> None:
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


def check_elision_in_table(where, view, problems) -> None:
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
                                    f"{header_texts(view)[c]!r} without a tooltip")
                    break


def check_elision_in_list(where, lst, problems) -> None:
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
