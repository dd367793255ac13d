"""What every chart widget shares: a pyqtgraph plot, a legend that toggles runs,
a hover read-out with exact values, and clicks on topics.

Chart widgets draw a chart dataclass from :mod:`yardstick.charts` (they compute
nothing themselves).  While drawing they register *hover targets* — the points
(in view coordinates) with the text to show and, for per-topic charts, the
topic of each point.  Moving the mouse near a point shows its text; clicking
one emits :attr:`ChartWidget.topicClicked` (panels connect it to
``state.show_topic``).  Clicking a legend entry hides or shows that run
(pyqtgraph's legend behaviour).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

__all__ = ["ChartWidget", "PALETTE", "run_color"]

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22"]
HOVER_PIXELS = 12


def run_color(run: str, i: int, colors: dict[str, str] | None) -> str:
    return (colors or {}).get(run) or PALETTE[i % len(PALETTE)]


@dataclass
class _Target:
    x: np.ndarray
    y: np.ndarray
    texts: list[str]
    item: object | None
    topics: list[str] | None
    mode: str   # "nearest" (2-D distance), "x" (same column: bars), "cell" (heat-map cell)


class ChartWidget(QWidget):
    """Base class: ``self.plot`` (PlotWidget), ``self.plot_item``, legend, hover, clicks.

    Signals
    -------
    topicClicked(str)
        A point or bar belonging to a topic was clicked.
    hovered(str)
        The hover text changed ("" when nothing is under the mouse).
    """

    topicClicked = Signal(str)
    hovered = Signal(str)
    export_name = "chart"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = pg.PlotWidget(background="w")
        self.plot_item = self.plot.getPlotItem()
        self.plot_item.showGrid(x=True, y=True, alpha=0.25)
        for ax in ("left", "bottom"):
            self.plot_item.getAxis(ax).setTextPen("k")
            self.plot_item.getAxis(ax).setPen("k")
            self.plot_item.getAxis(ax).enableAutoSIPrefix(False)   # keep measure values as-is
        self.legend = self.plot_item.addLegend(offset=(-10, 10), labelTextColor="k",
                                               brush=pg.mkBrush(255, 255, 255, 210))
        self._targets: list[_Target] = []
        self._readout = pg.TextItem("", anchor=(0, 1), color="k",
                                    fill=pg.mkBrush(255, 255, 224, 235), border=pg.mkPen("#888"))
        self._readout.setZValue(1000)
        self.plot_item.addItem(self._readout, ignoreBounds=True)
        self._readout.hide()
        self.hover_text = ""
        scene = self.plot.scene()
        scene.sigMouseMoved.connect(self._on_mouse_moved)
        scene.sigMouseClicked.connect(self._on_mouse_clicked)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot)

    # ------------------------------------------------------------ drawing helpers
    def reset(self, title: str = "", x_label: str = "", y_label: str = "") -> None:
        """Remove everything drawn; set title and axis labels."""
        self.plot_item.clear()
        self.legend.clear()
        self._targets.clear()
        self.plot_item.addItem(self._readout, ignoreBounds=True)
        self._readout.hide()
        self.plot_item.setTitle(title, color="k")
        self.plot_item.setLabel("bottom", x_label, color="k")
        self.plot_item.setLabel("left", y_label, color="k")
        self.plot_item.getAxis("bottom").setTicks(None)
        self.plot_item.getAxis("left").setTicks(None)
        self.plot_item.setLogMode(False, False)
        self.plot_item.enableAutoRange()

    def add_target(self, x, y, texts: Sequence[str], item=None,
                   topics: Sequence[str] | None = None, mode: str = "nearest") -> None:
        """Register hoverable points (view coordinates) and optionally their topics."""
        self._targets.append(_Target(np.asarray(x, float), np.asarray(y, float), list(texts),
                                     item, list(topics) if topics is not None else None, mode))

    def set_topic_ticks(self, topics: Sequence[str], max_labels: int = 40) -> None:
        step = max(1, int(np.ceil(len(topics) / max_labels)))
        self.plot_item.getAxis("bottom").setTicks(
            [[(i, str(t)) for i, t in enumerate(topics) if i % step == 0], []])

    def export_item(self):
        return self.plot_item

    # ------------------------------------------------------------ hover and click
    def _pixel_size(self) -> tuple[float, float]:
        px, py = self.plot_item.getViewBox().viewPixelSize()
        return (px or 1e-9), (py or 1e-9)

    def target_at(self, x: float, y: float) -> tuple[_Target, int] | None:
        """The registered point nearest to view position (x, y), within HOVER_PIXELS."""
        px, py = self._pixel_size()
        best, best_d = None, float("inf")
        for t in self._targets:
            if t.item is not None and hasattr(t.item, "isVisible") and not t.item.isVisible():
                continue
            if not len(t.x):
                continue
            if t.mode == "cell":
                inside = np.flatnonzero((np.abs(t.x - x) <= 0.5) & (np.abs(t.y - y) <= 0.5))
                if not len(inside):
                    continue
                i, d = int(inside[0]), 0.0
            elif t.mode == "x":
                i = int(np.argmin(np.abs(t.x - x)))
                d = abs(t.x[i] - x) / px
                if abs(t.x[i] - x) > 0.5:
                    continue
                d = min(d, HOVER_PIXELS - 1e-6)      # inside the column counts as a hit
            else:
                dd = np.hypot((t.x - x) / px, (t.y - y) / py)
                dd = np.where(np.isfinite(dd), dd, np.inf)
                i = int(np.argmin(dd))
                d = float(dd[i])
            if d < best_d:
                best, best_d = (t, i), d
        if best is None or best_d > HOVER_PIXELS:
            return None
        return best

    def hover_text_at(self, x: float, y: float) -> str:
        hit = self.target_at(x, y)
        return hit[0].texts[hit[1]] if hit else ""

    def topic_at(self, x: float, y: float) -> str | None:
        hit = self.target_at(x, y)
        if hit is None or hit[0].topics is None:
            return None
        return hit[0].topics[hit[1]]

    def _view_pos(self, scene_pos) -> QPointF | None:
        vb = self.plot_item.getViewBox()
        if not vb.sceneBoundingRect().contains(scene_pos):
            return None
        return vb.mapSceneToView(scene_pos)

    def _on_mouse_moved(self, scene_pos) -> None:
        p = self._view_pos(scene_pos)
        text = self.hover_text_at(p.x(), p.y()) if p is not None else ""
        if text:
            hit = self.target_at(p.x(), p.y())
            t, i = hit
            y = p.y() if t.mode == "x" else t.y[i]
            self._readout.setText(text)
            self._readout.setPos(t.x[i], y)
            self._readout.show()
        else:
            self._readout.hide()
        self.plot.setToolTip(text)
        if text != self.hover_text:
            self.hover_text = text
            self.hovered.emit(text)

    def _on_mouse_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        p = self._view_pos(event.scenePos())
        if p is None:
            return
        topic = self.topic_at(p.x(), p.y())
        if topic is not None:
            self.topicClicked.emit(topic)

    # ------------------------------------------------------------ legend
    def legend_names(self) -> list[str]:
        return [label.text for _, label in self.legend.items]

    def set_run_visible(self, name: str, visible: bool) -> None:
        """What clicking a legend entry does, callable from code and tests."""
        for sample, label in self.legend.items:
            if label.text == name:
                sample.item.setVisible(visible)
