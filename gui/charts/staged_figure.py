"""A figure of many plots drawn over several turns of the event loop (issue 15: the event
loop blocked at most 100 ms).

A Stability figure has up to 20 plots: built at once they held the GUI thread 0.2-0.3 s,
and their first paint alone took another 0.12 s.  Here
(:func:`yardstick.gui.charts.render_pg.draw_figure` with ``per_turn``):

1. the plots are built ``per_turn`` at a time, one zero-time timer per turn, the view not
   painted meanwhile (``setUpdatesEnabled(False)``);
2. one turn sizes every axis to its tick labels (``AxisItem.generateDrawSpecs``, which
   widens an axis that needs it), fixes those sizes and makes the plots and their legends
   transparent; the next lets the view paint (its heading);
3. the plots are made opaque :data:`REVEAL_PER_TURN` at a time: with the axes' sizes
   fixed no plot moves, so each turn paints only the plots it reveals.  (Without step 2
   an axis widened by its first paint moved the whole grid, and the next paint redrew
   every plot: a 200 ms turn.)  The axes may widen again afterwards (a resize).

Drawing the view again ends a drawing under way (:func:`end`): its timers find another
drawing on the view and stop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QTimer
from PySide6.QtGui import QImage, QPainter

__all__ = ["REVEAL_PER_TURN", "draw_in_turns", "end", "still_drawing", "any_drawing",
           "size_axes_to_labels", "paint_next_turn"]

log = logging.getLogger(__name__)
#: plots (with their legends) made visible per turn once every plot is built
REVEAL_PER_TURN = 2
#: plots whose axes are sized to their labels per turn (about 2 ms each)
SIZED_PER_TURN = 5
_ATTR = "_yardstick_drawing"


#: the drawings under way (any view)
_drawings: set = set()


def still_drawing(view) -> bool:
    """True while a figure is still being drawn into ``view`` a few plots per turn."""
    return getattr(view, _ATTR, None) is not None


def any_drawing() -> bool:
    """True while any figure is still being drawn (``--screenshot`` waits for it)."""
    for d in list(_drawings):
        if not d.alive():
            _drawings.discard(d)                # ended, replaced or its view gone
    return bool(_drawings)


def end(view) -> None:
    """End the drawing under way in ``view`` (if any): its next turn does nothing."""
    if still_drawing(view):
        setattr(view, _ATTR, None)
        view.setUpdatesEnabled(True)


def draw_in_turns(view, n: int, per_turn: int, build: Callable[[int, int], list],
                  plots: list, done: Callable[[], None]) -> list:
    """Build the plots ``per_turn`` at a time over the next turns (``build(first, last)``
    draws plots ``[first, last)`` and appends ``(plot item, legend or None)`` to
    ``plots``), then show them as the module docstring says and call ``done``.  Nothing
    is built in this turn (which cleared the view's previous figure): returns []."""
    drawing = _Drawing(view, n, max(1, per_turn), build, plots, done)
    end(view)
    setattr(view, _ATTR, drawing)
    _drawings.add(drawing)
    view.setUpdatesEnabled(False)
    drawing.later(drawing.build_from, 0)
    return []


def paint_next_turn(view) -> None:
    """Hold ``view``'s paints until the next turn of the event loop (a figure built at once
    is then painted in a turn of its own: a one-plot figure of 11,000-point curves took
    ~25 ms to build and two paints of ~20 ms, in one turn)."""
    view.setUpdatesEnabled(False)

    def paint() -> None:
        if shiboken6.isValid(view) and not still_drawing(view):
            view.setUpdatesEnabled(True)

    QTimer.singleShot(1, paint)


def size_axes_to_labels(plots) -> None:
    """Widen each plot's left and bottom axes to their tick labels now, as their first
    paint would (``AxisItem.generateDrawSpecs`` on the range the paint would find): a
    plot whose axis widens in its first paint moves, and everything is painted again."""
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        for plot in plots:
            try:
                plot.getViewBox().prepareForPaint()
                for name in ("left", "bottom"):
                    plot.getAxis(name).generateDrawSpecs(painter)
            except Exception:  # noqa: BLE001 - then its first paint sizes it, as before
                log.debug("axes of %r not sized before painting", plot, exc_info=True)
    finally:
        painter.end()


class _Drawing:
    def __init__(self, view, n, step, build, plots, done):
        self.view, self.n, self.step = view, n, step
        self.build, self.plots, self.done = build, plots, done
        self.frozen: list = []                    # (axis, its autoExpandTextSpace)

    def alive(self) -> bool:
        return shiboken6.isValid(self.view) and getattr(self.view, _ATTR, None) is self

    def later(self, fn, *args) -> None:
        # 1 ms, not 0: a zero-time call posted from one could run before a timer already due
        QTimer.singleShot(1, lambda: fn(*args) if self.alive() else None)

    def build_from(self, first: int) -> None:
        if first < self.n:
            self.build(first, min(self.n, first + self.step))
            self.later(self.build_from, first + self.step)
        else:
            self.later(self.size_axes, 0)

    def size_axes(self, first: int) -> None:
        self.view.ci.layout.activate()
        chunk = [plot for plot, _legend in self.plots[first:first + SIZED_PER_TURN]]
        size_axes_to_labels(chunk)
        self.frozen += [(ax, ax.style["autoExpandTextSpace"])
                        for plot in chunk for ax in (plot.getAxis("left"), plot.getAxis("bottom"))]
        if first + SIZED_PER_TURN < len(self.plots):
            self.later(self.size_axes, first + SIZED_PER_TURN)
        else:
            self.later(self.hide)

    def hide(self) -> None:
        self.view.ci.layout.activate()
        for ax, _expand in self.frozen:
            ax.style["autoExpandTextSpace"] = False  # no plot moves while they are shown
        for plot, legend in self.plots:
            for item in (plot, legend):
                if item is not None:
                    item.setOpacity(0.0)
        self.later(self.show)

    def show(self) -> None:
        self.view.setUpdatesEnabled(True)          # painted: the heading, the plots unseen
        self.later(self.reveal, 0)

    def reveal(self, first: int) -> None:
        for plot, legend in self.plots[first:first + REVEAL_PER_TURN]:
            for item in (plot, legend):
                if item is not None:
                    item.setOpacity(1.0)
        if first + REVEAL_PER_TURN < len(self.plots):
            self.later(self.reveal, first + REVEAL_PER_TURN)
            return
        for ax, expand in self.frozen:
            if shiboken6.isValid(ax):
                ax.style["autoExpandTextSpace"] = expand
        setattr(self.view, _ATTR, None)
        _drawings.discard(self)
        self.done()
