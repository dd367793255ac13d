"""The report's figures, drawn with matplotlib from the chart definitions (Qt-free).

Every chart is defined once, as a figure spec (:mod:`yardstick.presentation.charts.specs`);
each ``draw_*`` function here draws that same spec onto a given
``matplotlib.axes.Axes`` (:func:`yardstick.presentation.charts.render_mpl.draw_plot`), so a
report shows what the window shows — there is no second hand-written copy of any
chart.  :func:`new_figure` makes a standalone figure for PNG, SVG or PDF files.
"""

from __future__ import annotations

from collections.abc import Callable

from yardstick.presentation.charts import specs
from yardstick.presentation.charts.figure_spec import PALETTE, FigureSpec
from yardstick.presentation.charts.render_mpl import draw_plot

__all__ = ["new_figure", "draw_recall_precision", "draw_topic_recall_precision",
           "draw_median_difference", "draw_found_by_rank", "draw_rank_histogram",
           "draw_map_at_x", "draw_topic_spread", "draw_precision_cutoffs", "draw_system_ranking",
           "draw_spec", "figure_bytes", "PALETTE"]


def new_figure(width: float = 5.0, height: float = 3.6, dpi: int = 100):
    """A standalone matplotlib Figure (Agg; never touches a GUI backend)."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=dpi, layout="constrained")


def figure_bytes(draw: Callable, fmt: str = "png", width: float = 5.0, height: float = 3.6,
                 dpi: int = 150) -> bytes:
    """Render ``draw(ax)`` on a fresh figure to PNG/SVG/PDF bytes."""
    import io

    fig = new_figure(width, height, dpi)
    draw(fig.add_subplot())
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi)
    return buf.getvalue()


def draw_spec(ax, spec: FigureSpec) -> None:
    """Draw a one-plot figure spec on ``ax``, its title and caption as the axes title."""
    w, h = ax.figure.get_size_inches()
    draw_plot(ax, spec.plots[0], w, h, title=spec.heading(int(w * 72 / 6)))


def draw_recall_precision(ax, curves, colors=None) -> None:
    """Averaged 11-point curves (appendix Figure 1), one line per run."""
    draw_spec(ax, specs.recall_precision_figure(curves, colors))


def draw_topic_recall_precision(ax, trp) -> None:
    """One topic: actual points (circles, solid) and interpolated curve (dashed)."""
    draw_spec(ax, specs.topic_recall_precision_figure(trp))


def draw_median_difference(ax, md, show_max: bool = True, label: str | None = None) -> None:
    """Per-topic bars of run − median (appendix Figure 2); maximum markers optional."""
    draw_spec(ax, specs.median_difference_figure(md, show_max, label))


def draw_found_by_rank(ax, fbr) -> None:
    """Cumulative % of topics found by rank, run and hypothetical median run (appendix Fig. 6)."""
    draw_spec(ax, specs.found_by_rank_figure(fbr))


def draw_rank_histogram(ax, hist) -> None:
    """Questions by rank of the first correct answer, run and median run (appendix Fig. 3)."""
    draw_spec(ax, specs.rank_histogram_figure(hist))


def draw_map_at_x(ax, mx, worst_quarter_only: bool = False) -> None:
    """MAP(X) vs X (robust overview Figure 4)."""
    draw_spec(ax, specs.map_at_x_figure(mx, worst_quarter_only=worst_quarter_only))


def draw_topic_spread(ax, spread, boxes: bool = False) -> None:
    """Per-topic median and maximum (or box plots) over runs (robust overview Figure 2)."""
    draw_spec(ax, specs.topic_spread_figure(spread, boxes))


def draw_precision_cutoffs(ax, pc) -> None:
    draw_spec(ax, specs.precision_cutoffs_figure(pc))


def draw_system_ranking(ax, sr, max_labels: int | None = None) -> None:
    """Runs best first, each mean with its t interval; the baseline in red.  Every run is
    labelled (``max_labels`` None) when the figure is tall enough (the report's files
    are: 0.14 in. a run)."""
    draw_spec(ax, specs.system_ranking_figure(
        sr, max_labels=len(sr.runs) if max_labels is None else max_labels))
