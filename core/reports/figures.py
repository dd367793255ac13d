"""Matplotlib drawings of the chart data for reports (Qt-free, no pyplot state).

Each function draws one chart dataclass from :mod:`yardstick.charts` onto a given
``matplotlib.axes.Axes``; :func:`new_figure` makes a standalone figure for PNG,
SVG or PDF files.  Styles follow the TREC appendix: the recall-precision graph
with circles joined by a solid line for actual points and a dashed line for the
interpolated curve (Figure 1), bars of run − median per topic (Figure 2).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from yardstick.io.text_source import shown

__all__ = ["new_figure", "draw_recall_precision", "draw_topic_recall_precision",
           "draw_median_difference", "draw_found_by_rank", "draw_rank_histogram",
           "draw_map_at_x", "draw_topic_spread", "draw_precision_cutoffs", "draw_system_ranking",
           "figure_bytes"]

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22"]


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


def draw_recall_precision(ax, curves, colors=None) -> None:
    """Averaged 11-point curves (appendix Figure 1), one line per run."""
    for i, run in enumerate(curves.runs):
        c = (colors or {}).get(run, PALETTE[i % len(PALETTE)])
        ax.plot(curves.levels, curves.precision[i], marker="o", ms=3.5, color=c, label=shown(run))
    ax.set(xlim=(0, 1), ylim=(0, 1.02), xlabel="Recall", ylabel="Precision",
           title="Recall-Precision Curve")
    ax.grid(alpha=0.3)
    if len(curves.runs):
        ax.legend(fontsize="small", loc="upper right")


def draw_topic_recall_precision(ax, trp) -> None:
    """One topic: actual points (circles, solid) and interpolated curve (dashed)."""
    ax.plot(trp.recall, trp.precision, "o-", color="#1f77b4", label="actual")
    ax.plot(trp.step_recall, trp.step_precision, "--", color="#d62728", label="interpolated")
    ax.plot(trp.levels, trp.interpolated, "x", color="#d62728", ms=4)
    ax.set(xlim=(0, 1.02), ylim=(0, 1.05), xlabel="Recall", ylabel="Precision",
           title=f"Topic {trp.topic}" + (f" — {trp.run}" if trp.run else ""))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")


def draw_median_difference(ax, md, show_max: bool = True, label: str | None = None) -> None:
    """Per-topic bars of run − median (appendix Figure 2); maximum markers optional."""
    x = np.arange(len(md.topics))
    d = md.difference
    ax.bar(x, d, color=np.where(d >= 0, "#2ca02c", "#d62728"), width=0.8)
    if show_max:
        ax.plot(x, md.max_difference, "_", color="black", ms=5, label="best − median")
        ax.legend(fontsize="small", loc="lower left")
    ax.axhline(0, color="black", lw=0.6)
    n = len(md.topics)
    step = max(1, int(np.ceil(n / 25)))
    ax.set_xticks(x[::step], [shown(md.topics[i]) for i in range(0, n, step)], rotation=90,
                  fontsize=6)
    ax.set(xlim=(-1, max(n, 1)), ylim=(-1.02, 1.02) if abs(d).max(initial=0) <= 1 else None,
           ylabel=f"Difference from median {label or md.measure}",
           title=f"{label or md.measure}: {shown(md.run)} vs median of "
                 f"{md.source or f'{md.n_runs} runs'}")


def draw_found_by_rank(ax, fbr) -> None:
    """Cumulative % of topics found by rank, run and hypothetical median run (appendix Fig. 6)."""
    ax.step(fbr.ranks, fbr.run_percent, where="post", color="#1f77b4", label=shown(fbr.run))
    ax.step(fbr.ranks, fbr.median_percent, where="post", color="#7f7f7f", ls="--",
            label="median run")
    ax.set(xscale="log", xlim=(1, fbr.ranks[-1]), ylim=(0, 100), xlabel="Rank",
           ylabel="% of topics found", title="Cumulative % of topics found by rank")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize="small", loc="lower right")


def draw_rank_histogram(ax, hist) -> None:
    """Questions by rank of the first correct answer, run and median run (appendix Fig. 3)."""
    labels = [str(r) for r in hist.ranks] + ["none"]
    x = np.arange(len(labels))
    ax.bar(x - 0.2, hist.run_counts, width=0.4, color="#1f77b4", label=shown(hist.run))
    ax.bar(x + 0.2, hist.median_counts, width=0.4, color="#7f7f7f", label="median run")
    ax.set_xticks(x, labels)
    ax.set(xlabel="Rank of first correct response", ylabel="Number of questions",
           title="First correct response by rank")
    ax.legend(fontsize="small")


def draw_map_at_x(ax, mx, worst_quarter_only: bool = False) -> None:
    """MAP(X) vs X (robust overview Figure 4)."""
    stop = mx.x_max if worst_quarter_only else len(mx.x)
    for i, run in enumerate(mx.runs):
        ax.plot(mx.x[:stop], mx.values[i, :stop], color=PALETTE[i % len(PALETTE)], label=shown(run))
    ax.set(xlabel="X (worst topics)", ylabel=f"{mx.measure}(X)", title="MAP(X) vs X")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")


def draw_topic_spread(ax, spread) -> None:
    """Per-topic median (filled) and maximum (hollow) over runs (robust overview Figure 2)."""
    x = np.arange(len(spread.topics))
    ax.plot(x, spread.median, "o", color="#1f77b4", ms=3.5, label="median")
    ax.plot(x, spread.maximum, "^", mfc="none", color="#d62728", ms=4, label="maximum")
    ax.set(ylabel=spread.measure, xlabel="Topic (by decreasing median)",
           title="Per-topic median and maximum over runs")
    ax.legend(fontsize="small")


def draw_precision_cutoffs(ax, pc) -> None:
    for i, run in enumerate(pc.runs):
        ax.plot(pc.cutoffs, pc.precision[i], "o-", ms=3, color=PALETTE[i % len(PALETTE)],
                label=shown(run))
    ax.set(xscale="log", xlabel="Documents retrieved", ylabel="Precision",
           title="Precision at cutoffs")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize="small")


def draw_system_ranking(ax, sr, max_labels: int = 40) -> None:
    """Runs best first, each mean with its t interval (:mod:`yardstick.charts.system_ranking`);
    the baseline in red."""
    k = len(sr.runs)
    y = np.arange(k)
    base = np.array([r == sr.baseline for r in sr.runs], bool)
    ok = np.isfinite(sr.low) & np.isfinite(sr.high)
    ax.errorbar(sr.mean[ok], y[ok], xerr=[(sr.mean - sr.low)[ok], (sr.high - sr.mean)[ok]],
                fmt="none", ecolor="#555555", elinewidth=1, capsize=2)
    ax.scatter(sr.mean, y, s=14, c=np.where(base, "#d62728", "#1f77b4"), zorder=3)
    step = max(1, int(np.ceil(k / max_labels)))
    picked = [i for i in range(k) if i % step == 0 or base[i]]
    ax.set_yticks(picked, [shown(sr.runs[i]) + (" (baseline)" if base[i] else "") for i in picked],
                  fontsize=6 if k > 20 else 8)
    ax.set(ylim=(k - 0.5, -0.5), xlabel=f"mean {sr.measure} over topics",
           title=f"Runs by mean {sr.measure} with {sr.confidence:.0%} confidence intervals")
    ax.grid(alpha=0.3, axis="x")
