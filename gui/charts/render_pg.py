"""Draw a :class:`~yardstick.presentation.charts.figure_spec.FigureSpec` with pyqtgraph (the
window).

The spec decides every title, label, series and style
(:mod:`yardstick.presentation.charts.specs`); this module only maps them onto pyqtgraph
items: lines and markers (``PlotDataItem``), bars and heat-map cells
(``BarGraphItem``, filled rectangles so that nothing becomes an image), error
bars, text and reference lines.  Sizes in points become pixels at 96 dpi.
``draw_plot`` returns, for each drawn series, its item so that the chart widget
registers hover and click targets; ``draw_figure`` fills a
``GraphicsLayoutWidget`` with a multi-plot figure (stability and pool panels).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QSizePolicy

from yardstick.gui.charts import staged_figure
from yardstick.gui.charts.cell_labels import CellLabels
from yardstick.gui.charts.figure_hover import FigureHover
from yardstick.gui.charts.staged_figure import still_drawing
from yardstick.presentation.charts.chart_fonts import HEADING_PT, PLOT_TITLE_PT, chars_per_line
from yardstick.presentation.charts.figure_spec import (
    Bars,
    Cells,
    ErrorBars,
    FigureSpec,
    Line,
    Plot,
    RefLine,
    Text,
    is_dark,
    thin_ticks,
)

__all__ = ["draw_plot", "draw_figure", "still_drawing", "discard", "FigureHover", "PT",
           "set_spec", "spec_of", "plain_numbers", "RotatingAxis"]

PT = 96 / 72                                   # pixels per point on screen
#: the mean character width of a heading on screen, in ems (Qt's label, wider than
#: matplotlib's estimate for a file)
SCREEN_EM = 0.675
_SYMBOLS = {"o": "o", "s": "s", "^": "t1", "v": "t", "d": "d", "x": "x", "+": "+"}
_DASHES = {"solid": Qt.PenStyle.SolidLine, "dash": Qt.PenStyle.DashLine,
           "dot": Qt.PenStyle.DotLine}
_HA = {"left": 0.0, "center": 0.5, "right": 1.0}
_VA = {"top": 0.0, "center": 0.5, "bottom": 1.0}
#: pixels a written tick label needs: per character, and its height
CHAR_PX, LINE_PX = 7.0, 16.0


def _pen(color, width, dash="solid"):
    if width <= 0:
        return None
    return pg.mkPen(color, width=width * PT, style=_DASHES.get(dash, Qt.PenStyle.SolidLine))


def _line(p, s: Line):
    st = s.style
    x, y = s.x, s.y
    if s.step and len(x) > 1:
        x = np.repeat(x, 2)[1:]
        y = np.repeat(y, 2)[:-1]
    # dynamicRangeLimit=None: measure values never reach the 1e6 x view range it guards
    # against, and with it every change of the view rebuilt every line's markers
    kw = {"pen": _pen(st.color, st.width, st.dash), "dynamicRangeLimit": None}
    if st.marker:
        kw.update(symbol=_SYMBOLS.get(st.marker, "o"), symbolSize=st.marker_size * PT,
                  symbolBrush=st.color if st.marker_fill and st.marker not in "x+" else None,
                  symbolPen=pg.mkPen(st.color, width=1.2))
    if s.pairs:
        kw["connect"] = "pairs"
    return p.plot(x, y, **kw)


def _bars(p, s: Bars):
    colors = s.color_list()
    pen = pg.mkPen(s.edge, width=1) if s.edge else pg.mkPen(None)
    if len(set(colors)) == 1:       # one brush: the legend's sample shows the colour too
        paint = {"brush": pg.mkBrush(colors[0]), "pen": pen}
    else:
        paint = {"brushes": [pg.mkBrush(c) for c in colors], "pens": [pen] * len(colors)}
    lo = np.minimum(s.base, s.base + s.height)
    hi = np.maximum(s.base, s.base + s.height)
    if s.horizontal:
        item = pg.BarGraphItem(x0=lo, x1=hi, y=s.x, height=s.width, **paint)
    else:
        item = pg.BarGraphItem(x=s.x, y0=lo, y1=hi, width=s.width, **paint)
    p.addItem(item)
    return item


def _error_bars(p, s: ErrorBars):
    ok = np.isfinite(s.low) & np.isfinite(s.high)
    if not ok.any():
        return None
    lo, hi = (s.x - s.low, s.high - s.x) if s.horizontal else (s.y - s.low, s.high - s.y)
    kw = ({"left": lo[ok], "right": hi[ok]} if s.horizontal
          else {"top": hi[ok], "bottom": lo[ok]})
    item = pg.ErrorBarItem(x=s.x[ok], y=s.y[ok], beam=s.cap, pen=pg.mkPen(s.color,
                                                                          width=s.width * PT),
                           **kw)
    p.addItem(item)
    return item


def _cells(p, s: Cells):
    item = pg.BarGraphItem(x=s.col, y=s.row, width=1.0, height=1.0,
                           brushes=[pg.mkBrush(c) for c in s.colors],
                           pens=[pg.mkPen(None)] * len(s.col))
    p.addItem(item)
    shown = [i for i, text in enumerate(s.labels) if text]
    if shown:
        colors = [s.text_colors[i] if s.text_colors else ("w" if is_dark(s.colors[i]) else "k")
                  for i in shown]
        p.addItem(CellLabels(np.asarray(s.col, float)[shown], np.asarray(s.row, float)[shown],
                             [s.labels[i] for i in shown], colors, s.font_size))
    return item


#: labels are drawn above lines and markers (as the files draw them, zorder 4), on a
#: light veil, so another run's marker never hides a label
TEXT_Z = 4
TEXT_VEIL = (255, 255, 255, 150)


def _text(p, s: Text):
    t = pg.TextItem(s.text, color=s.color, anchor=(_HA.get(s.ha, 0.0), _VA.get(s.va, 1.0)),
                    fill=pg.mkBrush(*TEXT_VEIL))
    f = t.textItem.font()
    f.setPointSizeF(s.size)
    t.setFont(f)
    t.setPos(s.x, s.y)
    t.setZValue(TEXT_Z)
    p.addItem(t)
    return t


class RotatingAxis(pg.AxisItem):
    """A bottom axis that can write its categorical labels vertically (topics, measures),
    so that long or many labels fit; the axis grows to the longest label."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.rotated = False
        self._plain_style = dict(self.style)

    def set_rotated(self, on: bool, labels=()) -> None:
        self.rotated = bool(on)
        if self.rotated:
            self.setStyle(hideOverlappingLabels=False, autoReduceTextSpace=False,
                          textFillLimits=[(0, 1000.0)])
            fm = pg.QtGui.QFontMetrics(self.style["tickFont"] or self.font())
            longest = max((fm.horizontalAdvance(str(t)) for t in labels), default=20)
            self.setHeight(min(160, longest + 14) + (22 if self.labelText else 0))
        else:
            self.setStyle(**{k: self._plain_style[k] for k in
                             ("hideOverlappingLabels", "autoReduceTextSpace",
                              "textFillLimits")})
            self.setHeight(None)

    def drawPicture(self, p, axisSpec, tickSpecs, textSpecs):
        if not self.rotated:
            return super().drawPicture(p, axisSpec, tickSpecs, textSpecs)
        super().drawPicture(p, axisSpec, tickSpecs, [])
        if self.style["tickFont"] is not None:
            p.setFont(self.style["tickFont"])
        p.setPen(self.textPen())
        p.setClipping(False)
        fm = p.fontMetrics()
        for rect, _flags, text in textSpecs:
            w, h = fm.horizontalAdvance(text), fm.height()
            p.save()
            p.translate(rect.center().x(), rect.top())
            p.rotate(-90)
            p.drawText(pg.QtCore.QRectF(-w - 2, -h / 2, w, h),
                       int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), text)
            p.restore()


def plain_numbers(ax: pg.AxisItem) -> None:
    """Tick labels in plain numbers: no automatic "(×0.001)" SI prefix.

    pyqtgraph 0.14's ``enableAutoSIPrefix(False)`` still computes a prefix once
    (``updateAutoSIPrefix`` ignores the flag), so a 0–1 axis could be frozen at
    ×1000 ("260" for 0.26); with no range in which prefixes apply it stays at 1.
    """
    if hasattr(ax, "setSIPrefixEnableRanges"):
        ax.setSIPrefixEnableRanges(())
    ax.enableAutoSIPrefix(False)


def _axis_ticks(p, name: str, axis, pixels: float) -> None:
    ax = p.getAxis(name)
    if axis.ticks is None:
        ax.setTicks(None)
        if isinstance(ax, RotatingAxis):
            ax.set_rotated(False)
        return
    rotated = name == "bottom" and axis.rotate and isinstance(ax, RotatingAxis)
    if rotated:
        fit = int(pixels / LINE_PX)
    elif name == "bottom":
        longest = max((len(lb) for _, lb in axis.ticks), default=1)
        fit = int(pixels / (CHAR_PX * longest + 10))
    else:
        fit = int(pixels / LINE_PX)
    ticks = thin_ticks(axis.ticks, max(2, min(axis.max_labels, fit)))
    ax.setTicks([ticks, []])
    if isinstance(ax, RotatingAxis):
        ax.set_rotated(rotated, [lb for _, lb in ticks])


def draw_plot(p: pg.PlotItem, plot: Plot, width_px: float = 640, height_px: float = 420,
              legend=None) -> list[tuple[object, object]]:
    """Draw ``plot`` into PlotItem ``p`` (not cleared here); returns (series, item) pairs.

    ``legend``: a pyqtgraph ``LegendItem`` to receive the named series, or None (the
    chart widget keeps its own legend list beside the plot)."""
    drawn = []
    # no auto-range while items are added: each addition would move the view and make
    # every line drawn so far recompute its points (quadratic in the series)
    p.getViewBox().disableAutoRange()
    for s in plot.series:
        if isinstance(s, Line):
            item = _line(p, s)
        elif isinstance(s, Bars):
            item = _bars(p, s)
        elif isinstance(s, ErrorBars):
            item = _error_bars(p, s)
        elif isinstance(s, Cells):
            item = _cells(p, s)
        elif isinstance(s, Text):
            item = _text(p, s)
        elif isinstance(s, RefLine):
            item = pg.InfiniteLine(pos=s.value, angle=0 if s.horizontal else 90,
                                   pen=_pen(s.style.color, s.style.width, s.style.dash))
            p.addItem(item)
        else:
            continue
        if item is not None:
            drawn.append((s, item))
            if legend is not None and getattr(s, "name", "") and not isinstance(s, RefLine):
                legend.addItem(item, s.name)
    for name in ("left", "bottom"):
        ax = p.getAxis(name)
        ax.setTextPen("k")
        ax.setPen("k")
        plain_numbers(ax)                     # measure values in plain numbers
    p.setLabel("bottom", plot.x.label, color="k")
    p.setLabel("left", plot.y.label, color="k")
    _axis_ticks(p, "bottom", plot.x, width_px)
    _axis_ticks(p, "left", plot.y, height_px)
    p.showGrid(x=plot.grid, y=plot.grid, alpha=0.25 if plot.grid else 0)
    p.setAspectLocked(plot.equal_aspect)
    vb = p.getViewBox()
    xr, yr = plot.x.range, plot.y.range
    p.invertY(bool(plot.y.inverted or (yr is not None and yr[0] > yr[1])))
    p.invertX(bool(plot.x.inverted or (xr is not None and xr[0] > xr[1])))
    p.enableAutoRange(x=xr is None, y=yr is None)
    if xr is None or yr is None:
        vb.updateAutoRange()                              # now, as adding items did before
    if xr is not None or yr is not None:                  # one change of the view, not two
        vb.setRange(xRange=None if xr is None else (min(xr), max(xr)),
                    yRange=None if yr is None else (min(yr), max(yr)), padding=0)
    return drawn


#: figures of more plots than this draw them without pyqtgraph's context menus
MENU_PLOTS = 4


def heading_chars(width_px: float) -> int:
    """How many characters of a figure's heading fit on a line ``width_px`` pixels wide."""
    return chars_per_line(width_px / PT, HEADING_PT, SCREEN_EM)


def draw_figure(view: pg.GraphicsLayoutWidget, spec: FigureSpec | None,
                per_turn: int | None = None) -> list:
    """Clear ``view`` and draw every plot of ``spec`` in a grid, the heading on top and
    each plot's legend in a column beside it (never over the data).  Remembers the spec
    for the export menu (:func:`spec_of`).  The plots taken off are destroyed here
    (:func:`discard`).  Returns the (series, item) pairs drawn.

    ``per_turn``: build at most this many plots now and the rest over the next turns of
    the event loop, then show them a few per turn (:mod:`yardstick.gui.charts.staged_figure`;
    ``still_drawing``
    says when it is done): a Stability figure of 20 plots took 0.2-0.3 s of the GUI thread
    at once.  Drawing the view again (or another figure) ends a drawing still under way;
    only the plots drawn now are returned.
    """
    old = list(view.ci.items)
    view.clear()
    discard(old)
    set_spec(view, spec)
    hover = getattr(view, "_yardstick_hover", None)
    if hover is None:
        hover = view._yardstick_hover = FigureHover(view)
    hover.set_drawn([])
    staged_figure.end(view)                    # an earlier drawing, left under way
    if spec is None:
        return []
    cols = max(1, min(spec.columns, len(spec.plots)))
    w = max(200.0, view.width() or 640)
    h = max(150.0, view.height() or 420)
    rows = -(-len(spec.plots) // cols)
    has_legend = any(p.legend and any(getattr(s, "name", "") for s in p.series)
                     for p in spec.plots)
    span = cols * (2 if has_legend else 1)
    view.addLabel(spec.heading(heading_chars(w)).replace("\n", "<br>"), row=0, col=0,
                  colspan=span, color="k", size=f"{HEADING_PT}pt")
    per_plot: list = []
    shown: list = []                            # (plot, legend or None)
    # small multiples without pyqtgraph's right-click menus (export is on the toolbar):
    # each plot's menu took ~5 ms to build, 0.1 s of the swap-rate grid's 20 plots
    menus = len(spec.plots) <= MENU_PLOTS

    def build(first: int, last: int) -> list:
        drawn = []
        for i in range(first, last):
            plot = spec.plots[i]
            r, c = 1 + i // cols, (i % cols) * (2 if has_legend else 1)
            p = view.addPlot(row=r, col=c, axisItems={"bottom": RotatingAxis("bottom")},
                             enableMenu=menus)
            if plot.title:
                p.setTitle(plot.title, color="k", size=f"{PLOT_TITLE_PT}pt")
            legend = None
            if has_legend and plot.legend:
                legend = pg.LegendItem(labelTextColor="k")
                view.addItem(legend, row=r, col=c + 1)
            items = draw_plot(p, plot, w / cols, h / rows, legend)
            drawn += items
            per_plot.append((p, items))
            shown.append((p, legend))
            if legend is not None:        # as tall as its entries, at the top of its cell
                legend.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
                legend.setMaximumHeight(legend.layout.preferredHeight())
                view.ci.layout.setAlignment(legend, Qt.AlignmentFlag.AlignTop)
        return drawn

    n = len(spec.plots)
    if per_turn is None or per_turn >= n:
        drawn = build(0, n)
        view.ci.layout.activate()
        staged_figure.size_axes_to_labels([p for p, _legend in shown])
        hover.set_drawn(per_plot)
        if view.isVisible():          # painted in the next turn, not in the one that built it
            staged_figure.paint_next_turn(view)
        return drawn
    return staged_figure.draw_in_turns(view, n, per_turn, build, shown,
                                       lambda: hover.set_drawn(per_plot))


def discard(items) -> None:
    """Destroy plot items taken off a plot, now, on the GUI thread.  Left to Python's
    cycle collector (pyqtgraph's signal connections make reference cycles), an item's
    Qt object is destroyed in whichever thread collects, often a job's worker."""
    for item in items:
        if isinstance(item, QObject) and shiboken6.isValid(item):
            shiboken6.delete(item)


def set_spec(widget, spec: FigureSpec | None) -> None:
    """Remember the figure a widget shows (what its export menu writes)."""
    widget._yardstick_spec = spec


def spec_of(widget) -> FigureSpec | None:
    """The figure a widget shows: its ``figure_spec()`` or the one :func:`set_spec` kept."""
    if hasattr(widget, "figure_spec") and callable(widget.figure_spec):
        return widget.figure_spec()
    return getattr(widget, "_yardstick_spec", None)
