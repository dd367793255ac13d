"""What every chart widget shares: a pyqtgraph plot drawn from a figure spec, a
legend list beside the plot (tick to show or hide, click to highlight a run), a
hover read-out with exact values, and clicks on topics.

Chart widgets draw a :class:`~yardstick.presentation.charts.figure_spec.FigureSpec` made in
core (:mod:`yardstick.presentation.charts.specs`) with :func:`ChartWidget.show_figure`; they
decide no title, label, series or style themselves.  Each drawn series with
hover texts becomes a *hover target*.  Moving the mouse near a point shows its
text; clicking one emits :attr:`ChartWidget.topicClicked` (panels connect it to
``state.show_topic``) and highlights its run (the other runs turn grey); clicking
empty space ends the highlight.  Hovering a run's points or its legend entry fades
the other runs while the mouse stays (:meth:`ChartWidget.emphasise`).  The legend is a
scrollable list beside the plot, so it never covers data however many runs are drawn; an
entry too long for it is elided in the middle, whole in its tooltip.  The export menu
writes :meth:`ChartWidget.figure_spec` — the figure as shown, hidden runs left
out and the highlight kept — with matplotlib (:mod:`yardstick.presentation.charts.render_mpl`).

The legend list is :mod:`~yardstick.gui.charts.chart_legend`, the hover search
:mod:`~yardstick.gui.charts.hover_targets`, and the figure as shown (hidden runs out,
highlight in) :mod:`~yardstick.gui.charts.shown_figure`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, QTimer, Signal
from PySide6.QtWidgets import QBoxLayout, QVBoxLayout, QWidget

from yardstick.gui.charts.chart_legend import ChartLegend
from yardstick.gui.charts.hover_targets import HoverTarget, nearest_target
from yardstick.gui.charts.label_fit import fit_labels, labelled_note
from yardstick.gui.charts.render_pg import (
    TEXT_Z,
    RotatingAxis,
    discard,
    draw_plot,
    heading_chars,
    plain_numbers,
)
from yardstick.gui.charts.shown_figure import (
    highlighted,
    legend_entries,
    run_of_name,
    without_hidden,
)
from yardstick.gui.charts.staged_figure import size_axes_to_labels
from yardstick.gui.lazy import is_seen
from yardstick.presentation.charts.chart_fonts import HEADING_PT
from yardstick.presentation.charts.figure_spec import (
    PALETTE,
    Bars,
    FigureSpec,
    Line,
    Text,
    run_color,
)

__all__ = ["ChartWidget", "PALETTE", "run_color", "highlighted"]

#: a change of the chart's height (pixels) smaller than this does not draw it again
REDRAW_HEIGHT = 32


class ChartWidget(QWidget):
    """Base class: ``self.plot`` (PlotWidget), ``self.plot_item``, ``self.legend`` (the
    list beside the plot), hover, clicks and highlighting.

    Signals
    -------
    topicClicked(str)
        A point or bar belonging to a topic was clicked.
    hovered(str)
        The hover text changed ("" when nothing is under the mouse).
    runHighlighted(str)
        A run was highlighted ("" when the highlight ends).
    """

    topicClicked = Signal(str)
    hovered = Signal(str)
    runHighlighted = Signal(str)
    export_name = "chart"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = pg.PlotWidget(background="w", axisItems={"bottom": RotatingAxis("bottom")})
        self.plot_item = self.plot.getPlotItem()
        self.plot_item.showGrid(x=True, y=True, alpha=0.25)
        for ax in ("left", "bottom"):
            self.plot_item.getAxis(ax).setTextPen("k")
            self.plot_item.getAxis(ax).setPen("k")
            plain_numbers(self.plot_item.getAxis(ax))   # keep measure values as-is
        self.legend = ChartLegend()
        self.legend.itemChanged.connect(self._legend_ticked)
        self.legend.itemClicked.connect(self._legend_clicked)
        self.legend.itemEntered.connect(lambda it: self.emphasise(self._run_of_name(it.text())))
        self.legend.viewport().installEventFilter(self)
        self.legend.hide()
        self._targets: list[HoverTarget] = []
        self._readout = pg.TextItem("", anchor=(0, 1), color="k",
                                    fill=pg.mkBrush(255, 255, 224, 235), border=pg.mkPen("#888"))
        self._readout.setZValue(1000)
        self.plot_item.addItem(self._readout, ignoreBounds=True)
        self._readout.hide()
        self.hover_text = ""
        self.spec: FigureSpec | None = None      # the figure as defined in core
        self.hidden: set[str] = set()            # legend names unticked
        self.highlight: str | None = None        # the run highlighted
        self._items: dict[str, list] = {}        # legend name -> drawn items
        self._run_items: dict[str, list] = {}    # run -> its drawn items (hover emphasis)
        self._drawn: list = []                   # every item the spec drew (deleted on redraw)
        self.hover_run: str | None = None        # the run under the mouse, drawn on top
        self._redraw_timer = QTimer(self, singleShot=True, interval=80)
        self._drawn_size = (-1, -1)              # the chart's size when last drawn
        self._redraw_timer.timeout.connect(self._redraw_if_seen)
        self._labels: list = []                  # (point label, its anchor) by priority
        self._shown_caption = ""                 # the caption in the heading drawn
        self._label_timer = QTimer(self, singleShot=True, interval=0)
        self._label_timer.timeout.connect(self.fit_labels)
        self.plot_item.getViewBox().sigTransformChanged.connect(self._label_timer.start)
        scene = self.plot.scene()
        scene.sigMouseMoved.connect(self._on_mouse_moved)
        scene.sigMouseClicked.connect(self._on_mouse_clicked)
        self._layout = lay = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.plot, 1)
        self._side = side = QVBoxLayout()
        side.setContentsMargins(0, 24, 0, 0)
        side.addWidget(self.legend, 0, Qt.AlignmentFlag.AlignTop)
        lay.addLayout(side)

    # ------------------------------------------------------------ drawing
    def show_figure(self, spec: FigureSpec) -> None:
        """Draw ``spec`` (one plot); legend entries of the previous figure that are
        hidden stay hidden, a highlighted run stays highlighted if still drawn."""
        self.spec = spec
        names = legend_entries(spec)
        self.hidden &= set(names)
        if self.highlight not in spec.runs:
            self.highlight = None
        self._fill_legend(names)
        self._draw()

    def figure_spec(self) -> FigureSpec | None:
        """The figure as shown: hidden legend entries left out, the highlight kept."""
        if self.spec is None:
            return None
        return highlighted(without_hidden(self.spec, self.hidden), self.highlight)

    def _fill_legend(self, names: dict[str, str]) -> None:
        self.legend.fill(names, self.hidden)
        if names:       # as narrow and as short as the entries allow; scrolls beyond that
            self._size_legend()

    def _size_legend(self) -> None:
        """Beside the plot, as narrow and short as its entries allow (it scrolls beyond
        that); below the plot, a few rows high, when the chart is too narrow for both."""
        narrow = self.legend.fit(self.width(), self.height())
        self._layout.setDirection(QBoxLayout.Direction.TopToBottom if narrow
                                  else QBoxLayout.Direction.LeftToRight)
        self._side.setContentsMargins(0, 0 if narrow else 24, 0, 0)

    def _draw(self) -> None:
        self._drawn_size = (self.width(), self.height())
        spec = self.figure_spec()
        self.plot_item.clear()
        discard(self._drawn)                    # destroyed here, not by a worker's gc
        self._drawn = []
        self._labels = []
        self._shown_caption = spec.caption if spec is not None else ""
        self._targets.clear()
        self._items.clear()
        self._run_items.clear()
        self.hover_run = None
        self.plot_item.addItem(self._readout, ignoreBounds=True)
        self._readout.hide()
        if spec is None:
            return
        plot = spec.plots[0]
        w = max(200, self.plot.width() or 640)
        h = max(150, self.plot.height() or 420)
        self._set_heading(spec, w)
        for s, item in draw_plot(self.plot_item, plot, w - 80, h - 90):
            self._drawn.append(item)
            name = getattr(s, "name", "")
            if name:
                self._items.setdefault(name, []).append(item)
            if getattr(s, "run", None):
                self._run_items.setdefault(s.run, []).append(item)
            if isinstance(s, Text):
                self._labels.append((item, (float(item.anchor[0]), float(item.anchor[1]))))
            self._register(s, item)
        size_axes_to_labels([self.plot_item])   # its first paint does not move the plot
        if self._labels:
            self._label_timer.start()            # once laid out at the plot's real size

    def fit_labels(self) -> int:
        """Keep the point labels inside the plot and apart at its size on screen
        (:func:`yardstick.gui.charts.label_fit.fit_labels`); returns how many show."""
        alive = [(item, a) for item, a in self._labels if item.scene() is not None]
        shown = fit_labels(self.plot_item.getViewBox(), alive)
        spec = self.spec
        if spec is not None and spec.runs:
            caption = labelled_note(spec.caption, shown, len(alive), len(spec.runs))
            if caption != self._shown_caption:  # the heading: how many are labelled here
                self._shown_caption = caption
                self._set_heading(replace(spec, caption=caption),
                                  max(200, self.plot.width() or 640))
        return shown

    def _set_heading(self, spec: FigureSpec, w: int) -> None:
        """The heading wrapped to the plot's width: by the estimate of characters per
        line, then fewer while its widest line is wider than the plot (a line too wide
        made the plot item wider than its view, which cut the plot's right part)."""
        chars = max(30, heading_chars(w))
        while True:
            heading = spec.heading(chars)
            self.plot_item.setTitle(heading.replace("\n", "<br>"), color="k",
                                    size=f"{HEADING_PT}pt")
            wide = self.plot_item.titleLabel.item.boundingRect().width()
            if wide <= w - 8 or chars <= 20:
                break
            chars = max(20, int(chars * (w - 8) / wide) - 1)
        self._fit_title_rows()
        # the plot item again as wide as its view: set while a wider heading held its
        # minimum, it kept that width and the view showed only its left part
        self.plot_item.setGeometry(self.plot.range)

    def _fit_title_rows(self) -> None:
        """Make the title's row as tall as its lines (pyqtgraph fixes it at 30 pixels, one
        line: a heading wrapped onto two or three lines had its first and last cut)."""
        tall = max(30, int(self.plot_item.titleLabel.item.boundingRect().height()) + 2)
        self.plot_item.titleLabel.setMaximumHeight(tall)
        self.plot_item.layout.setRowFixedHeight(0, tall)

    def _register(self, s, item) -> None:
        run = getattr(s, "run", None)
        if isinstance(s, Line) and s.hover:
            self.add_target(s.x, s.y, s.hover, item, s.topics, run=run)
        elif isinstance(s, Bars) and s.hover:
            top = s.base + s.height
            if s.horizontal:
                self.add_target(top, s.x, s.hover, item, s.topics, mode="y", run=run)
            else:
                self.add_target(s.x, top, s.hover, item, s.topics, mode="x", run=run)
        elif hasattr(s, "col") and s.hover:
            self.add_target(s.col, s.row, s.hover, item, mode="cell")

    def reset(self, title: str = "", x_label: str = "", y_label: str = "") -> None:
        """Clear the chart (nothing drawn)."""
        self.spec = None
        self._fill_legend({})
        self._draw()
        self.plot_item.setTitle(title, color="k")

    def add_target(self, x, y, texts: Sequence[str], item=None,
                   topics: Sequence[str] | None = None, mode: str = "nearest",
                   run: str | None = None) -> None:
        """Register hoverable points (view coordinates) and optionally their topics."""
        self._targets.append(HoverTarget(np.asarray(x, float), np.asarray(y, float), list(texts),
                                     item, list(topics) if topics is not None else None, mode,
                                     run))

    def export_item(self):
        return self.plot_item

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.legend.count():
            self._size_legend()
        if self.spec is not None and self._resized_enough():
            self._redraw_timer.start()  # ticks thinned, title re-wrapped once resizing pauses

    def _redraw_if_seen(self) -> None:
        """Draw again after a resize unless the dock is behind a tab (parked at 100x84:
        the topic explorer's curve took 20-40 ms of a load's turns; shown, it resizes)."""
        if is_seen(self) or not self.window().isVisible():
            self._draw()

    def _resized_enough(self) -> bool:
        """Whether the size changed enough since the chart was drawn to draw it again: any
        width (the title wraps, the x labels thin), or height by more than REDRAW_HEIGHT
        (the Charts toolbar's controls changed it by 8-26 px, each time a redraw)."""
        w, h = self._drawn_size
        return self.width() != w or abs(self.height() - h) > REDRAW_HEIGHT

    # ------------------------------------------------------------ hover and click
    def _pixel_size(self) -> tuple[float, float]:
        px, py = self.plot_item.getViewBox().viewPixelSize()
        return (px or 1e-9), (py or 1e-9)

    def target_at(self, x: float, y: float) -> tuple[HoverTarget, int] | None:
        """The registered point nearest to view position (x, y), within HOVER_PIXELS."""
        px, py = self._pixel_size()
        return nearest_target(self._targets, x, y, px, py)

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
        hit = self.target_at(p.x(), p.y()) if p is not None else None
        text = hit[0].texts[hit[1]] if hit is not None else ""
        if text:
            t, i = hit
            y = p.y() if t.mode == "x" else t.y[i]
            x = p.x() if t.mode == "y" else t.x[i]
            self._readout.setText(text)
            self._readout.setPos(x, y)
            self._readout.show()
        else:
            self._readout.hide()
        self.emphasise(hit[0].run if hit is not None else None)
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
        hit = self.target_at(p.x(), p.y())
        self.highlight_run(hit[0].run if hit is not None else None)
        topic = self.topic_at(p.x(), p.y())
        if topic is not None:
            self.topicClicked.emit(topic)

    # ------------------------------------------------------------ legend and highlight
    def legend_names(self) -> list[str]:
        return self.legend.names()

    def set_run_visible(self, name: str, visible: bool) -> None:
        """What unticking a legend entry does, callable from code and tests."""
        self.legend.set_checked(name, visible)

    def _legend_ticked(self, item) -> None:
        ticked = item.checkState() == Qt.CheckState.Checked
        (self.hidden.discard if ticked else self.hidden.add)(item.text())
        self._draw()

    def _legend_clicked(self, item) -> None:
        run = self._run_of_name(item.text())
        if run is not None:
            self.highlight_run(None if run == self.highlight else run)

    def _run_of_name(self, name: str) -> str | None:
        return run_of_name(self.spec, name)

    def emphasise(self, run: str | None) -> None:
        """While the mouse is over ``run`` (plot or legend), fade the other runs and draw
        it on top; None brings them back.  Only opacities change (a click highlights)."""
        if run not in self._run_items:
            run = None
        if run == self.hover_run:
            return
        self.hover_run = run
        for r, items in self._run_items.items():
            faded = run is not None and r != run
            for it in items:
                it.setOpacity(0.2 if faded else 1.0)
                base = TEXT_Z if isinstance(it, pg.TextItem) else 0
                it.setZValue(base + (5 if r == run else 0))

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt name
        if obj is self.legend.viewport() and event.type() == event.Type.Leave:
            self.emphasise(None)                 # the mouse left the legend
        return super().eventFilter(obj, event)

    def leaveEvent(self, event) -> None:  # noqa: N802 - Qt name
        self.emphasise(None)
        super().leaveEvent(event)

    def highlight_run(self, run: str | None) -> None:
        """Draw ``run`` in its colour and the other runs grey (None: all in colour)."""
        if self.spec is None or run == self.highlight:
            return
        self.highlight = run if run in self.spec.runs else None
        self._draw()
        self.runHighlighted.emit(self.highlight or "")
