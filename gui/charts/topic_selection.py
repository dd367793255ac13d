"""Selecting topics in a per-topic chart: Ctrl+click toggles a topic, a rubber band
(Shift+drag, or plain drag while selection mode is on) selects every topic inside.

The topics come from the hover targets a :class:`yardstick.gui.charts.base.ChartWidget`
registered while drawing (points and bars that belong to a topic), so any
per-topic chart works without changes.  Selected points are ringed; the panel
turns the selection into a topic group (:func:`yardstick.gui.topic_groups.make_group`).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, QPointF, QRectF, Qt, Signal

from yardstick.gui.charts.base import ChartWidget

RING = "#ff7f0e"


class ChartTopicSelection(QObject):
    """The topic selection of one chart (see module docstring).

    Signals
    -------
    changed(list)
        The selected topics, in the chart's order.
    """

    changed = Signal(list)

    def __init__(self, chart: ChartWidget):
        super().__init__(chart)
        self.chart = chart
        self.selected: list[str] = []
        self.drag_selects = False       # plain left-drag draws the rubber band
        self._marks: pg.ScatterPlotItem | None = None
        vb = chart.plot_item.getViewBox()
        self._vb = vb
        self._orig_drag = vb.mouseDragEvent
        vb.mouseDragEvent = self._drag
        chart.plot.scene().sigMouseClicked.connect(self._clicked)

    # ------------------------------------------------------------ API
    def topic_points(self) -> list[tuple[str, float, float, str]]:
        """``(topic, x, y, mode)`` of every visible hover target that belongs to a topic."""
        out = []
        for t in self.chart._targets:
            if t.topics is None or t.mode == "cell":
                continue
            if t.item is not None and hasattr(t.item, "isVisible") and not t.item.isVisible():
                continue
            out.extend((str(tp), float(x), float(y), t.mode)
                       for tp, x, y in zip(t.topics, t.x, t.y))
        return out

    def topics_in_rect(self, x0: float, x1: float, y0: float, y1: float) -> list[str]:
        """Topics with a point inside the rectangle (view coordinates), ordered by x.
        Bars (targets in ``x`` mode) count when their column is inside the x range."""
        x0, x1 = sorted((x0, x1))
        y0, y1 = sorted((y0, y1))
        hits = []
        for topic, x, y, mode in self.topic_points():
            if not np.isfinite(x) or not x0 <= x <= x1:
                continue
            if mode == "x" or (np.isfinite(y) and y0 <= y <= y1):
                hits.append((x, topic))
        return list(dict.fromkeys(t for _, t in sorted(hits, key=lambda h: h[0])))

    def select_rect(self, x0: float, x1: float, y0: float, y1: float,
                    add: bool = False) -> list[str]:
        """Select the topics in a rectangle (added to the selection with ``add``)."""
        found = self.topics_in_rect(x0, x1, y0, y1)
        self.set_selected((self.selected + found) if add else found)
        return self.selected

    def toggle(self, topic: str) -> None:
        sel = list(self.selected)
        if topic in sel:
            sel.remove(topic)
        else:
            sel.append(topic)
        self.set_selected(sel)

    def set_selected(self, topics) -> None:
        order = {t: i for i, (t, *_r) in enumerate(sorted(self.topic_points(),
                                                          key=lambda p: p[1]))}
        uniq = list(dict.fromkeys(str(t) for t in topics))
        self.selected = sorted(uniq, key=lambda t: order.get(t, len(order)))
        self._draw()
        self.changed.emit(list(self.selected))

    def clear(self) -> None:
        if self.selected:
            self.set_selected([])
        else:
            self._draw()

    # ------------------------------------------------------------ drawing and mouse
    def _draw(self) -> None:
        pi = self.chart.plot_item
        if self._marks is not None and self._marks.scene() is not None:
            pi.removeItem(self._marks)
        self._marks = None
        if not self.selected:
            return
        sel = set(self.selected)
        pts = [(x, y) for t, x, y, _m in self.topic_points()
               if t in sel and np.isfinite(x) and np.isfinite(y)]
        if not pts:
            return
        xs, ys = np.array(pts, float).T
        self._marks = pg.ScatterPlotItem(xs, ys, size=14, pen=pg.mkPen(RING, width=2),
                                         brush=None, symbol="o")
        self._marks.setZValue(900)
        pi.addItem(self._marks, ignoreBounds=True)

    def _clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or \
                not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            return
        vb = self._vb
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        p = vb.mapSceneToView(event.scenePos())
        topic = self.chart.topic_at(p.x(), p.y())
        if topic is not None:
            self.toggle(topic)

    def _drag(self, ev, axis=None) -> None:
        shift = bool(ev.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if ev.button() != Qt.MouseButton.LeftButton or not (self.drag_selects or shift):
            self._orig_drag(ev, axis)
            return
        ev.accept()
        vb = self._vb
        start, pos = QPointF(ev.buttonDownPos(ev.button())), QPointF(ev.pos())
        if not ev.isFinish():
            vb.updateScaleBox(start, pos)
            return
        vb.rbScaleBox.hide()
        r = vb.childGroup.mapRectFromParent(QRectF(start, pos))
        ctrl = bool(ev.modifiers() & Qt.KeyboardModifier.ControlModifier)
        self.select_rect(r.left(), r.right(), r.top(), r.bottom(), add=ctrl)


def install(chart: ChartWidget) -> ChartTopicSelection:
    """Topic selection for ``chart`` (once; stored as ``chart.topic_selection``)."""
    sel = getattr(chart, "topic_selection", None)
    if sel is None:
        sel = ChartTopicSelection(chart)
        chart.topic_selection = sel
    return sel
