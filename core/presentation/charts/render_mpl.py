"""Draw a :class:`~yardstick.presentation.charts.figure_spec.FigureSpec` with matplotlib (Qt-free).

Used by the reports (:mod:`yardstick.presentation.reports.figures`) and by every chart export
of the window: PNG at the chosen DPI, SVG with text kept as text, and PDF — both
vector (lines, markers, bars, cells are paths; nothing is rasterised).  The
legend sits outside the axes, on the right, so that it never covers data.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np

from yardstick.presentation.charts.chart_fonts import (
    FILE_FONTS,
    HEADING_PT,
    PLOT_TITLE_PT,
    chars_per_line,
    use_file_fonts,
)
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

__all__ = ["draw_plot", "render_figure", "figure_bytes", "write_figure", "MARKERS", "DASHES"]

use_file_fonts()

MARKERS = {"o": "o", "s": "s", "^": "^", "v": "v", "d": "D", "x": "x", "+": "+", None: None}
DASHES = {"solid": "-", "dash": "--", "dot": ":"}


def _segments(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of points as separate segments (NaN between them)."""
    n = len(x) // 2 * 2
    pad = np.full(n // 2, np.nan)
    xs = np.column_stack([x[:n:2], x[1:n:2], pad]).ravel()
    ys = np.column_stack([y[:n:2], y[1:n:2], pad]).ravel()
    return xs, ys


def _line(ax, s: Line) -> None:
    st = s.style
    x, y = (_segments(s.x, s.y) if s.pairs else (s.x, s.y))
    ax.plot(x, y, color=st.color, lw=st.width if st.width > 0 else 0,
            ls=DASHES.get(st.dash, "-") if st.width > 0 else "none",
            marker=MARKERS.get(st.marker), ms=st.marker_size,
            mfc=st.color if st.marker_fill else "none", mec=st.color,
            drawstyle="steps-post" if s.step else "default", label=s.name or None,
            zorder=3)


def _bars(ax, s: Bars) -> None:
    colors = s.color_list()
    kw = dict(color=colors, edgecolor=s.edge if s.edge else "none",
              linewidth=0.8 if s.edge else 0, label=s.name or None, zorder=2)
    if s.horizontal:
        ax.barh(s.x, s.height, height=s.width, left=s.base, **kw)
    else:
        ax.bar(s.x, s.height, width=s.width, bottom=s.base, **kw)


def _error_bars(ax, s: ErrorBars) -> None:
    ok = np.isfinite(s.low) & np.isfinite(s.high)
    lo, hi = (s.x - s.low, s.high - s.x) if s.horizontal else (s.y - s.low, s.high - s.y)
    err = [lo[ok], hi[ok]]
    ax.errorbar(s.x[ok], s.y[ok], xerr=err if s.horizontal else None,
                yerr=None if s.horizontal else err, fmt="none", ecolor=s.color,
                elinewidth=s.width, capsize=2, zorder=2)


def _cells(ax, s: Cells) -> None:
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    rects = [Rectangle((c - 0.5, r - 0.5), 1, 1) for c, r in zip(s.col, s.row)]
    ax.add_collection(PatchCollection(rects, facecolors=list(s.colors), edgecolors="none",
                                      zorder=1))
    for i, text in enumerate(s.labels):
        if text:
            dark = s.text_colors[i] if s.text_colors else ("#ffffff" if is_dark(s.colors[i])
                                                           else "#000000")
            ax.text(s.col[i], s.row[i], text, ha="center", va="center", color=dark,
                    fontsize=s.font_size, zorder=4)


def _ticks(axis_spec, set_ticks, length_in: float, rotate_default: bool) -> None:
    if axis_spec.ticks is None:
        return
    per_label = 0.14 if (axis_spec.rotate or rotate_default) else 0.5
    n = max(2, min(axis_spec.max_labels, int(length_in / per_label)))
    ticks = thin_ticks(axis_spec.ticks, n)
    set_ticks([p for p, _ in ticks], [lb for _, lb in ticks])


def draw_plot(ax, plot: Plot, width_in: float = 6.0, height_in: float = 4.0,
              title: str | None = None) -> None:
    """Draw one :class:`Plot` on a matplotlib ``Axes``."""
    for s in plot.series:
        if isinstance(s, Line):
            _line(ax, s)
        elif isinstance(s, Bars):
            _bars(ax, s)
        elif isinstance(s, ErrorBars):
            _error_bars(ax, s)
        elif isinstance(s, Cells):
            _cells(ax, s)
        elif isinstance(s, Text):
            ax.text(s.x, s.y, s.text, color=s.color, ha=s.ha, va=s.va, fontsize=s.size,
                    zorder=4, clip_on=True)
        elif isinstance(s, RefLine):
            st = s.style
            kw = dict(color=st.color, lw=st.width, ls=DASHES.get(st.dash, "--"), zorder=1.5,
                      label=s.label or None)
            (ax.axhline if s.horizontal else ax.axvline)(s.value, **kw)
    ax.set_xlabel(plot.x.label)
    ax.set_ylabel(plot.y.label)
    if plot.x.range is not None:
        ax.set_xlim(*plot.x.range)
    if plot.y.range is not None:
        ax.set_ylim(*plot.y.range)
    if plot.x.ticks is not None:
        rot = plot.x.rotate
        _ticks(plot.x, lambda p, lb: ax.set_xticks(p, lb, rotation=90 if rot else 0,
                                                  fontsize=7 if rot else None),
               width_in, False)
    if plot.y.ticks is not None:
        _ticks(plot.y, lambda p, lb: ax.set_yticks(p, lb, fontsize=7 if len(p) > 20 else None),
               height_in, True)
    if plot.x.inverted:
        ax.invert_xaxis()
    if plot.y.inverted:
        ax.invert_yaxis()
    for a in (ax.xaxis, ax.yaxis):
        fmt = a.get_major_formatter()
        if hasattr(fmt, "set_useOffset"):           # plain numbers, no "×1e-3" offset
            fmt.set_useOffset(False)
            fmt.set_scientific(False)
    if plot.equal_aspect:
        ax.set_aspect("equal")
    if plot.grid:
        ax.grid(alpha=0.3)
    if title is not None:
        ax.set_title(title, fontsize=HEADING_PT)
    elif plot.title:
        ax.set_title(plot.title, fontsize=PLOT_TITLE_PT)
    handles, labels = ax.get_legend_handles_labels()
    if plot.legend and handles:
        ncol = 1 + (len(handles) - 1) // 30
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  fontsize="small" if len(handles) <= 15 else "x-small", ncol=ncol,
                  frameon=False, borderaxespad=0.0)


def render_figure(spec: FigureSpec, width: float | None = None, height: float | None = None,
                  dpi: int = 100):
    """A matplotlib ``Figure`` (Agg, no pyplot state) with ``spec`` drawn on it."""
    from matplotlib.figure import Figure

    w, h = width or spec.size[0], height or spec.size[1]
    fig = Figure(figsize=(w, h), dpi=dpi, layout="constrained")
    n = len(spec.plots)
    cols = max(1, min(spec.columns, n))
    rows = -(-n // cols)
    chars = chars_per_line(w * 72)
    heading = spec.heading(chars)
    if n == 1:
        draw_plot(fig.add_subplot(), spec.plots[0], w, h, title=heading)
    else:
        fig.suptitle(heading, fontsize=HEADING_PT)
        for i, p in enumerate(spec.plots):
            draw_plot(fig.add_subplot(rows, cols, i + 1), p, w / cols, h / rows)
    return fig


def figure_bytes(spec: FigureSpec, fmt: str = "png", width: float | None = None,
                 height: float | None = None, dpi: int = 150,
                 metadata: dict | None = None) -> bytes:
    """``spec`` as PNG (at ``dpi``), SVG or PDF bytes; SVG keeps text as text."""
    import matplotlib

    fig = render_figure(spec, width, height, dpi)
    buf = io.BytesIO()
    with matplotlib.rc_context(FILE_FONTS):
        fig.savefig(buf, format=fmt, dpi=dpi, metadata=metadata)
    return buf.getvalue()


def write_figure(spec: FigureSpec, path: str | os.PathLike, fmt: str | None = None,
                 width: float | None = None, height: float | None = None,
                 dpi: int = 150, provenance=None) -> Path:
    """Write ``spec`` to ``path`` (format from the suffix unless ``fmt``), atomically.

    ``provenance`` (:class:`yardstick.common.provenance.Provenance`) goes into the file's
    metadata: SVG Dublin Core fields, the PDF info dictionary, PNG text chunks.
    """
    from yardstick.inputs.io.atomic import atomic_write_bytes

    path = Path(path)
    fmt = (fmt or path.suffix.lstrip(".")).lower()
    if fmt not in ("png", "svg", "pdf"):
        raise ValueError(f"unknown chart format {fmt!r}; expected png, svg or pdf")
    meta = {"Title": spec.title}
    if fmt == "png":
        meta = {"Title": spec.title, "Software": "Yardstick"}
    if provenance is not None:
        meta.update(provenance.matplotlib_metadata(fmt))
    atomic_write_bytes(path, figure_bytes(spec, fmt, width, height, dpi, metadata=meta))
    return path
