"""One definition per chart: what a figure shows, independent of who draws it.

A :class:`FigureSpec` holds everything a reader sees — title, caption, axis
labels and ranges, categorical tick labels, series (lines, markers, steps, bars,
error bars, heat-map cells, text, reference lines) with their style, legend
entries and the hover text of every point.  The chart builders
(:mod:`yardstick.presentation.charts.specs`, :mod:`yardstick.presentation.charts.stability_specs`,
:mod:`yardstick.presentation.charts.pool_specs`) turn chart data into a spec; two renderers
draw it: :mod:`yardstick.presentation.charts.render_mpl` (matplotlib: PNG at a chosen DPI,
SVG, PDF — the exports and the reports) and ``yardstick.gui.charts.render_pg``
(pyqtgraph: the window, with hover and click).  Neither renderer decides a
title, a label, a colour or a series: the spec does.

Units: line widths and marker sizes in points (1/72 inch); positions in data
coordinates.  Log axes are never used: builders place values at ``log10`` and
label the ticks, so both renderers agree exactly.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Style", "Line", "Bars", "ErrorBars", "Cells", "Text", "RefLine", "Axis", "Plot",
           "FigureSpec", "PALETTE", "GREY", "run_color", "thin_ticks", "diverging_color",
           "wrap_title", "Series"]

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22")
#: ten more distinct dark colours for the 11th to 20th run of a chart
PALETTE_MORE = ("#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#e6550d",
                "#31a354", "#756bb1", "#636363")
#: colour of the runs not highlighted
GREY = "#c8c8c8"


def run_color(run: str, i: int, colors: dict[str, str] | None = None) -> str:
    """The run's own colour (Collection panel) or the ``i``-th palette colour."""
    both = PALETTE + PALETTE_MORE
    return (colors or {}).get(run) or both[i % len(both)]


def _arr(a) -> np.ndarray:
    return np.asarray(a, dtype=float).ravel()


@dataclass(frozen=True)
class Style:
    """How a series looks: colour, line width (points; 0 = no line), dash
    (``solid`` | ``dash`` | ``dot``), marker (``o`` ``s`` ``^`` ``v`` ``d`` ``x`` ``+``
    or ``None``), marker size (points) and whether the marker is filled."""

    color: str = "#1f77b4"
    width: float = 1.5
    dash: str = "solid"
    marker: str | None = None
    marker_size: float = 5.0
    marker_fill: bool = True


@dataclass(frozen=True, eq=False)
class Line:
    """A polyline and/or markers through (x, y).  ``step``: drawn as a staircase
    (value held until the next x); ``pairs``: consecutive points form separate
    segments (whiskers, median ticks).  ``run`` ties the series to a run for
    highlighting; ``hover``/``topics``: one text / topic per point."""

    x: np.ndarray
    y: np.ndarray
    style: Style = Style()
    name: str = ""
    run: str | None = None
    hover: tuple[str, ...] = ()
    topics: tuple[str, ...] | None = None
    step: bool = False
    pairs: bool = False

    def __post_init__(self):
        object.__setattr__(self, "x", _arr(self.x))
        object.__setattr__(self, "y", _arr(self.y))


@dataclass(frozen=True, eq=False)
class Bars:
    """Bars from ``base`` to ``base + height`` at positions ``x`` (vertical bars) or,
    with ``horizontal``, from ``base`` along x at positions ``x`` on the y axis.
    ``colors``: one per bar (or a single one); ``edge``: outline colour or None."""

    x: np.ndarray
    height: np.ndarray
    base: np.ndarray | float = 0.0
    width: float = 0.8
    colors: tuple[str, ...] = ("#1f77b4",)
    edge: str | None = None
    horizontal: bool = False
    name: str = ""
    run: str | None = None
    runs: tuple[str, ...] | None = None     # one run per bar (highlighting)
    hover: tuple[str, ...] = ()
    topics: tuple[str, ...] | None = None

    def __post_init__(self):
        object.__setattr__(self, "x", _arr(self.x))
        object.__setattr__(self, "height", _arr(self.height))
        base = self.base
        object.__setattr__(self, "base", np.broadcast_to(_arr(base) if np.ndim(base) else
                                                         float(base), self.x.shape).astype(float))

    def color_list(self) -> list[str]:
        c = list(self.colors)
        return c if len(c) == len(self.x) else [c[0] if c else "#1f77b4"] * len(self.x)


@dataclass(frozen=True, eq=False)
class ErrorBars:
    """Intervals [low, high] around points (x, y); ``horizontal``: intervals along x."""

    x: np.ndarray
    y: np.ndarray
    low: np.ndarray
    high: np.ndarray
    horizontal: bool = False
    color: str = "#555555"
    width: float = 1.0
    cap: float = 0.25
    runs: tuple[str, ...] | None = None

    def __post_init__(self):
        for f in ("x", "y", "low", "high"):
            object.__setattr__(self, f, _arr(getattr(self, f)))


@dataclass(frozen=True, eq=False)
class Cells:
    """Heat-map cells: unit squares centred on (col, row) filled with ``colors``;
    ``labels`` written in each cell (dark cells get white text)."""

    col: np.ndarray
    row: np.ndarray
    colors: tuple[str, ...]
    labels: tuple[str, ...] = ()
    hover: tuple[str, ...] = ()
    text_colors: tuple[str, ...] = ()
    font_size: float = 8.0

    def __post_init__(self):
        object.__setattr__(self, "col", _arr(self.col))
        object.__setattr__(self, "row", _arr(self.row))


@dataclass(frozen=True)
class Text:
    """A label at (x, y); ``ha`` left|center|right, ``va`` top|center|bottom."""

    x: float
    y: float
    text: str
    color: str = "#000000"
    ha: str = "left"
    va: str = "bottom"
    size: float = 8.0
    run: str | None = None


@dataclass(frozen=True)
class RefLine:
    """A horizontal (``horizontal=True``, at y = value) or vertical reference line."""

    value: float
    horizontal: bool = True
    style: Style = Style(color="#888888", width=1.0, dash="dash")
    label: str = ""


Series = Line | Bars | ErrorBars | Cells | Text | RefLine


@dataclass(frozen=True)
class Axis:
    """An axis: label, range (None = fit the data), categorical ticks ((pos, label), ...)
    — None for plain numbers —, ``inverted`` (top to bottom) and the most labels to
    write (renderers thin the rest; hover still names every point)."""

    label: str = ""
    range: tuple[float, float] | None = None
    ticks: tuple[tuple[float, str], ...] | None = None
    inverted: bool = False
    max_labels: int = 60
    rotate: bool = False             # categorical labels written vertically (topics)


@dataclass(frozen=True)
class Plot:
    """One set of axes."""

    title: str = ""
    x: Axis = Axis()
    y: Axis = Axis()
    series: tuple = ()
    legend: bool = True
    grid: bool = True
    equal_aspect: bool = False


@dataclass(frozen=True)
class FigureSpec:
    """A whole figure: a title, a caption (what is shown: "top 12 of 150 runs by map"),
    plots laid out ``columns`` per row, a name for exported files and a preferred
    size in inches."""

    title: str
    plots: tuple[Plot, ...]
    caption: str = ""
    columns: int = 1
    name: str = "chart"
    size: tuple[float, float] = (6.4, 4.2)
    runs: tuple[str, ...] = field(default=())      # runs drawn (for highlighting / tests)

    @property
    def plot(self) -> Plot:
        return self.plots[0]

    def heading(self, width_chars: int = 90) -> str:
        """Title and caption wrapped to ``width_chars`` (never clipped)."""
        return wrap_title(self.title + (f" — {self.caption}" if self.caption else ""),
                          width_chars)


def wrap_title(text: str, width: int = 90) -> str:
    return "\n".join(textwrap.wrap(text, width=max(20, width), break_long_words=False)) or text


def thin_ticks(ticks: Sequence[tuple[float, str]], max_labels: int,
               keep: Sequence[float] = ()) -> list[tuple[float, str]]:
    """Every k-th tick so that at most ``max_labels`` are written (plus those at ``keep``)."""
    ticks = list(ticks)
    step = max(1, int(np.ceil(len(ticks) / max(1, max_labels))))
    keep = set(keep)
    return [t for i, t in enumerate(ticks) if i % step == 0 or t[0] in keep]


#: diverging scale for correlations: blue (−1) – white (0) – red (+1)
_DIVERGING = ((-1.0, (0x2c, 0x7b, 0xb6)), (0.0, (0xf7, 0xf7, 0xf7)), (1.0, (0xd7, 0x19, 0x1c)))


def diverging_color(v: float) -> str:
    """Hex colour of ``v`` in [−1, 1] on the blue–white–red scale (NaN: light grey)."""
    if not np.isfinite(v):
        return "#eeeeee"
    v = float(np.clip(v, -1.0, 1.0))
    (a, ca), (b, cb) = (_DIVERGING[0], _DIVERGING[1]) if v <= 0 else (_DIVERGING[1],
                                                                      _DIVERGING[2])
    t = (v - a) / (b - a)
    rgb = [round(x + (y - x) * t) for x, y in zip(ca, cb)]
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def is_dark(hex_color: str) -> bool:
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 110
