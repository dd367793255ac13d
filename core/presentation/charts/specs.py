"""The charts of the Charts panel and the reports, defined once (figure specs).

Each function turns one chart dataclass of :mod:`yardstick.presentation.charts` into a
:class:`~yardstick.presentation.charts.figure_spec.FigureSpec`: titles, labels, series,
styles, legend entries and hover texts live here and nowhere else.  The window
(``yardstick.gui.charts``) and every export and report
(:mod:`yardstick.presentation.charts.render_mpl`) draw these specs.  ``caption`` says which
runs are shown (:class:`yardstick.presentation.charts.run_filter.RunSelection`).

Styles follow the TREC appendix: recall-precision curves as circles joined by
lines, one topic's actual points solid and the interpolated curve dashed
(Figure 1); bars of run − median per topic (Figure 2); the robust overview's
per-topic median/maximum and MAP(X) figures (Voorhees 2003, Figures 2 and 4).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from yardstick.inputs.io.text_source import shown
from yardstick.presentation.charts.figure_spec import (
    Axis,
    Bars,
    Cells,
    ErrorBars,
    FigureSpec,
    Line,
    Plot,
    RefLine,
    Style,
    Text,
    diverging_color,
    run_color,
)

__all__ = ["recall_precision_figure", "topic_recall_precision_figure",
           "median_difference_figure", "topic_spread_figure", "map_at_x_figure",
           "precision_cutoffs_figure", "measure_scatter_figure", "rank_correlation_figure",
           "system_ranking_figure", "found_by_rank_figure", "rank_histogram_figure",
           "topic_axis"]

_UNIT = (0.0, 1.0)


def topic_axis(topics, label: str = "Topic") -> Axis:
    """A categorical topic axis: every topic a tick (renderers thin them), written vertically."""
    return Axis(label, (-1, max(len(topics), 1)),
                tuple((float(i), shown(t)) for i, t in enumerate(topics)), rotate=True)


def recall_precision_figure(curves, colors=None, caption: str = "") -> FigureSpec:
    """Averaged 11-point curves (appendix Figure 1), one line per run."""
    series = []
    for i, run in enumerate(curves.runs):
        c = run_color(run, i, colors)
        y = curves.precision[i]
        label = shown(run) if curves.map is None else f"{shown(run)} (MAP {curves.map[i]:.4f})"
        series.append(Line(curves.levels, y, Style(c, 1.5, marker="o", marker_size=4),
                           label, run, tuple(f"{run}\nrecall {lv:.2f}: precision {p:.4f}"
                                             for lv, p in zip(curves.levels, y))))
    plot = Plot(x=Axis("Recall", (-0.02, 1.02)), y=Axis("Precision", (-0.02, 1.02)),
                series=tuple(series))
    return FigureSpec("Recall-Precision Curve", (plot,), caption, name="recall_precision",
                      runs=tuple(curves.runs))


def topic_recall_precision_figure(trp) -> FigureSpec:
    """One topic: actual points (circles, solid) and the interpolated curve (dashed)."""
    actual = Line(trp.recall, trp.precision,
                  Style("#1f77b4", 1.5, marker="o", marker_size=6, marker_fill=False), "actual",
                  hover=tuple(f"relevant #{j + 1} at rank {k}\nrecall {r:.4f}, precision {p:.4f}"
                              for j, (k, r, p) in enumerate(zip(trp.relevant_ranks, trp.recall,
                                                                trp.precision))))
    interp = Line(trp.step_recall, trp.step_precision, Style("#d62728", 1.5, "dash"),
                  "interpolated")
    levels = Line(trp.levels, trp.interpolated, Style("#d62728", 0, marker="x", marker_size=5),
                  hover=tuple(f"recall level {lv:.2f}\ninterpolated precision {p:.4f}"
                              for lv, p in zip(trp.levels, trp.interpolated)))
    title = (f"Topic {shown(trp.topic)}" + (f" — {shown(trp.run)}" if trp.run else "")
             + f" (R = {trp.num_rel}, AP {trp.average_precision:.4f})")
    plot = Plot(x=Axis("Recall", (-0.03, 1.03)), y=Axis("Precision", (-0.03, 1.05)),
                series=(actual, interp, levels))
    return FigureSpec(title, (plot,), name="recall_precision_topic")


def median_difference_figure(md, show_max: bool = True, label: str | None = None
                             ) -> FigureSpec:
    """Per-topic bars of run − median (appendix Figure 2); best-run markers optional."""
    measure = label or md.measure
    x = np.arange(len(md.topics), dtype=float)
    d = np.asarray(md.difference, float)
    texts = tuple(f"topic {t}\n{md.run}: {v:.4f}\nmedian: {m:.4f}\ndifference: {dd:+.4f}\n"
                  f"best: {b:.4f}" for t, v, m, dd, b in zip(md.topics, md.value, md.median, d,
                                                             md.maximum))
    topics = tuple(map(str, md.topics))
    series = [Bars(x, d, colors=tuple("#2ca02c" if v >= 0 else "#d62728" for v in d),
                   name=f"{shown(md.run)} − median", hover=texts, topics=topics)]
    if show_max:
        series.append(Line(x, md.max_difference, Style("#000000", 0, marker="^", marker_size=4),
                           "best − median", hover=texts, topics=topics))
    series.append(RefLine(0.0, True, Style("#000000", 0.8)))
    lim = max(1.0, float(np.nanmax(np.abs(np.r_[d, np.asarray(md.max_difference, float), 0]))))
    source = md.source or f"{md.n_runs} runs"
    order = "by difference" if getattr(md, "order", "topic") == "difference" else ""
    plot = Plot(x=topic_axis(md.topics, "Topic" + (f" ({order})" if order else "")),
                y=Axis(f"{measure} − median", (-lim * 1.02, lim * 1.02)), series=tuple(series))
    return FigureSpec(f"{measure}: {shown(md.run)} − median of {source}", (plot,),
                      name="median_difference", size=(8.0, 4.2))


def topic_spread_figure(spread, boxes: bool = False, highlight: Iterable[str] = ()
                        ) -> FigureSpec:
    """Per-topic median and maximum over runs, or box plots (robust overview Figure 2)."""
    n = len(spread.topics)
    x = np.arange(n, dtype=float)
    topics = tuple(map(str, spread.topics))
    out = spread.high_outliers.to_numpy()
    texts = []
    for i, t in enumerate(spread.topics):
        hi = [r for r, o in zip(spread.scores.columns, out[i]) if o]
        texts.append(f"topic {t}\nmedian {spread.median[i]:.4f}  max {spread.maximum[i]:.4f}"
                     f"\nq1 {spread.q1[i]:.4f}  q3 {spread.q3[i]:.4f}"
                     + (f"\nhigh outliers: {', '.join(hi)}" if hi else ""))
    texts = tuple(texts)
    series = []
    hl = set(map(str, highlight))
    if hl:
        idx = np.asarray([i for i, t in enumerate(topics) if t in hl], float)
        series.append(Bars(idx, np.ones(len(idx)), 0.0, 0.9, ("#ffe9a6",), name="difficult"))
    if boxes:
        series.append(Bars(x, spread.q3 - spread.q1, spread.q1, 0.6, ("#aec7e8",), "#1f77b4",
                           name="box (q1–q3)", hover=texts, topics=topics))
        wy = np.column_stack([spread.whisker_low, spread.q1, spread.q3,
                              spread.whisker_high]).ravel()
        series.append(Line(np.repeat(x, 4), wy, Style("#1f77b4", 1.0), pairs=True))
        series.append(Line(np.column_stack([x - 0.3, x + 0.3]).ravel(),
                           np.repeat(spread.median, 2), Style("#d62728", 1.5), "median",
                           pairs=True))
        pts = spread.outlier_points()
        pos = {t: i for i, t in enumerate(topics)}
        series.append(Line(pts["topic"].map(pos).to_numpy(float), pts["value"].to_numpy(float),
                           Style("#000000", 0, marker="o", marker_size=4, marker_fill=False),
                           "outliers",
                           hover=tuple(f"topic {t}\n{r}: {v:.4f} ({s} outlier)"
                                       for t, r, v, s in pts[["topic", "run", "value", "side"]]
                                       .itertuples(index=False)),
                           topics=tuple(map(str, pts["topic"]))))
    else:
        series.append(Line(x, spread.median, Style("#1f77b4", 0, marker="o", marker_size=5),
                           "median", hover=texts, topics=topics))
        series.append(Line(x, spread.maximum, Style("#d62728", 0, marker="^", marker_size=5,
                                                    marker_fill=False),
                           "maximum", hover=texts, topics=topics))
    kind = "Box plots" if boxes else "Median and maximum"
    plot = Plot(x=topic_axis(spread.topics, "Topic (by decreasing median)"),
                y=Axis(spread.measure, (-0.02, 1.02)), series=tuple(series))
    return FigureSpec(f"{kind} of {spread.measure} over {spread.scores.shape[1]} runs", (plot,),
                      name="topic_spread_boxes" if boxes else "topic_spread", size=(8.0, 4.2))


def map_at_x_figure(mx, colors=None, worst_quarter_only: bool = False,
                    caption: str = "") -> FigureSpec:
    """MAP(X) vs X (robust overview Figure 4); the legend gives each run's worst-quarter area."""
    stop = mx.x_max if worst_quarter_only else len(mx.x)
    series = []
    for i, run in enumerate(mx.runs):
        x, y = mx.x[:stop], mx.values[i, :stop]
        series.append(Line(x, y, Style(run_color(run, i, colors), 1.5),
                           f"{shown(run)} (area {mx.area[i]:.4f})", run,
                           tuple(f"{run}\n{mx.measure}(X={k}) = {v:.4f}" for k, v in zip(x, y))))
    series.append(RefLine(float(mx.x_max), False, Style("#888888", 1.0, "dot")))
    plot = Plot(x=Axis("X (worst topics)"), y=Axis(f"{mx.measure}(X)"), series=tuple(series))
    return FigureSpec(f"{mx.measure}(X) vs X" + (" (worst quarter)" if worst_quarter_only
                                                 else ""), (plot,), caption, name="map_at_x",
                      runs=tuple(mx.runs))


def precision_cutoffs_figure(pc, colors=None, caption: str = "") -> FigureSpec:
    """P@5 … P@1000 (TREC appendix Table 3), cutoffs on a log scale."""
    lx = np.log10(np.asarray(pc.cutoffs, float))
    series = tuple(Line(lx, pc.precision[i], Style(run_color(run, i, colors), 1.5, marker="o",
                                                   marker_size=4), shown(run), run,
                        tuple(f"{run}\nP@{k} = {v:.4f}" for k, v in zip(pc.cutoffs,
                                                                        pc.precision[i])))
                   for i, run in enumerate(pc.runs))
    ticks = tuple((float(v), str(k)) for v, k in zip(lx, pc.cutoffs))
    plot = Plot(x=Axis("Documents retrieved (log scale)", ticks=ticks), y=Axis("Precision"),
                series=series)
    return FigureSpec("Precision at document cutoffs", (plot,), caption,
                      name="precision_at_cutoffs", runs=tuple(pc.runs))


def measure_scatter_figure(sc, colors=None, caption: str = "") -> FigureSpec:
    """Two measures over runs, one point per run; Pearson's r and Kendall's τ.

    Runs are labelled where a label fits without crossing another or leaving the plot
    (:func:`yardstick.presentation.charts.label_placement.place_labels`, the best runs on
    the x measure first); every point's hover text names its run."""
    series = []
    for i, run in enumerate(sc.runs):
        c = run_color(run, i, colors)
        series.append(Line([sc.x[i]], [sc.y[i]], Style(c, 0, marker="o", marker_size=6),
                           shown(run), run, (f"{run}\n{sc.x_measure} = {sc.x[i]:.4f}\n"
                                             f"{sc.y_measure} = {sc.y[i]:.4f}",)))

    def _rng(v):
        v = np.asarray(v, float)
        v = v[np.isfinite(v)]
        if not len(v):
            return None
        lo, hi = float(v.min()), float(v.max())
        pad = 0.15 * (hi - lo) if hi > lo else 0.05
        return lo - pad, hi + pad
    xr, yr = _rng(sc.x), _rng(sc.y)
    if xr is not None and yr is not None:
        from yardstick.presentation.charts.label_placement import place_labels

        order = sorted(range(len(sc.runs)), key=lambda i: -np.nan_to_num(sc.x[i], nan=-1e9))
        places = place_labels([sc.x[i] for i in order], [sc.y[i] for i in order],
                              [shown(sc.runs[i]) for i in order], xr, yr)
        for p in places:
            i = order[p.index]
            series.append(Text(float(sc.x[i]), float(sc.y[i]), shown(sc.runs[i]),
                               run_color(sc.runs[i], i, colors), ha=p.ha, va=p.va,
                               run=sc.runs[i], size=7))
        if len(places) < len(sc.runs):
            note = f"{len(places)} of {len(sc.runs)} labelled (hover for the others)"
            caption = f"{caption}; {note}" if caption else note
    plot = Plot(x=Axis(sc.x_measure, xr), y=Axis(sc.y_measure, yr),
                series=tuple(series), legend=len(sc.runs) <= 20)
    # over how many runs r and τ are (the runs drawn: "top 12 of 150" read as all 150)
    return FigureSpec(f"{sc.y_measure} vs {sc.x_measure} over {len(sc.runs)} runs: Pearson "
                      f"r = {sc.pearson:.3f}, Kendall τ = {sc.kendall:.3f}", (plot,), caption,
                      name="measure_scatter",
                      runs=tuple(sc.runs))


def rank_correlation_figure(rc) -> FigureSpec:
    """Heat map of Kendall's τ between the measures' run rankings (robust overview §2),
    with a colour scale from −1 to 1 beside it."""
    k = len(rc.measures)
    jj, ii = np.meshgrid(np.arange(k), np.arange(k))
    tau = rc.tau[ii.ravel(), jj.ravel()]
    colors = tuple(diverging_color(v) for v in tau)
    hover = tuple(f"{rc.measures[i]} vs {rc.measures[j]}\nτ = {rc.tau[i, j]:.4f} "
                  f"(p = {rc.p_value[i, j]:.3g})" for i, j in zip(ii.ravel(), jj.ravel()))
    cells = Cells(jj.ravel(), ii.ravel(), colors, tuple(f"{v:.2f}" for v in tau), hover,
                  font_size=8 if k <= 10 else 6)
    series = [cells, *color_scale(k, -1.0, 1.0, "τ")]
    ticks = tuple((float(i), str(m)) for i, m in enumerate(rc.measures))
    plot = Plot(x=Axis("", (-0.5, k + 1.1), ticks, rotate=True),
                y=Axis("", (k - 0.5, -0.9), ticks), series=tuple(series), legend=False,
                grid=False, equal_aspect=True)
    return FigureSpec(f"Kendall's τ between run rankings ({len(rc.means)} runs)", (plot,),
                      name="rank_correlation", size=(6.4, 5.4))


def color_scale(k: int, lo: float, hi: float, label: str, steps: int = 21) -> list:
    """A vertical colour scale (diverging, ``hi`` at the top) to the right of a k×k map,
    made of cells and text so that exports stay vector."""
    values = np.linspace(hi, lo, steps)
    step = k / steps
    rows = -0.5 + step * (np.arange(steps) + 0.5)
    bar = Bars(rows, np.full(steps, 0.3), np.full(steps, k + 0.1), step,
               tuple(diverging_color(2 * (v - lo) / (hi - lo) - 1) for v in values),
               horizontal=True)
    mid = (lo + hi) / 2
    return [bar, Text(k + 0.45, -0.5 + step / 2, f"{hi:g}", va="center"),
            Text(k + 0.45, -0.5 + k / 2, f"{mid:g}", va="center"),
            Text(k + 0.45, k - 0.5 - step / 2, f"{lo:g}", va="center"),
            Text(k + 0.25, -0.55, label, ha="center", va="bottom")]


def system_ranking_figure(sr, caption: str = "", max_labels: int = 40) -> FigureSpec:
    """Every run's mean with its confidence interval, best at the top; the baseline in red."""
    pct = f"{sr.confidence:.0%}"
    k = len(sr.runs)
    y = np.arange(k, dtype=float)
    base = [r == sr.baseline for r in sr.runs]
    hover = tuple(f"#{i + 1} {r}{' (baseline)' if b else ''}\nmean {m:.4f}\n{pct} CI "
                  f"[{lo:.4f}, {hi:.4f}] over {n} topics"
                  for i, (r, b, m, lo, hi, n) in enumerate(zip(sr.runs, base, sr.mean, sr.low,
                                                               sr.high, sr.topics)))
    dense = k > 60                    # 150 runs: thin intervals that do not merge into a band
    series = [ErrorBars(sr.mean, y, sr.low, sr.high, horizontal=True, color="#555555",
                        width=0.6 if dense else 1.2, runs=tuple(sr.runs))]
    for i, (r, b) in enumerate(zip(sr.runs, base)):
        series.append(Line([sr.mean[i]], [y[i]], Style("#d62728" if b else "#1f77b4", 0,
                                                       marker="o", marker_size=3 if dense else 5),
                           run=r, hover=(hover[i],)))
    ticks = tuple((float(i), f"{shown(r)} ◀" if base[i] else shown(r))
                  for i, r in enumerate(sr.runs))
    plot = Plot(x=Axis(f"mean {sr.measure} over topics"),
                y=Axis("", (k - 0.3, -0.7), ticks, max_labels=max_labels), series=tuple(series),
                legend=False)
    return FigureSpec(f"Runs by mean {sr.measure} with {pct} confidence intervals", (plot,),
                      caption, name="system_ranking",
                      size=(6.4, max(3.0, min(12.0, 1.2 + 0.16 * k))), runs=tuple(sr.runs))


def found_by_rank_figure(fbr) -> FigureSpec:
    """Cumulative % of topics found by rank, run and the median run (appendix Figure 6),
    ranks on a log scale."""
    lx = np.log10(np.asarray(fbr.ranks, float))
    series = (Line(lx, fbr.run_percent, Style("#1f77b4", 1.5), shown(fbr.run), step=True),
              Line(lx, fbr.median_percent, Style("#7f7f7f", 1.5, "dash"), "median run",
                   step=True))
    top = int(np.ceil(lx[-1])) if len(lx) else 1
    ticks = tuple((float(e), f"{10 ** e:g}") for e in range(0, top + 1))
    plot = Plot(x=Axis("Rank (log scale)", (0, lx[-1] if len(lx) else 1), ticks),
                y=Axis("% of topics found", (0, 100)), series=series)
    return FigureSpec("Cumulative % of topics found by rank", (plot,), name="found_by_rank")


def rank_histogram_figure(hist) -> FigureSpec:
    """Questions by rank of the first correct answer, run and median run (appendix Figure 3)."""
    labels = [str(r) for r in hist.ranks] + ["none"]
    x = np.arange(len(labels), dtype=float)
    series = (Bars(x - 0.2, hist.run_counts, width=0.4, colors=("#1f77b4",),
                   name=shown(hist.run)),
              Bars(x + 0.2, hist.median_counts, width=0.4, colors=("#7f7f7f",),
                   name="median run"))
    plot = Plot(x=Axis("Rank of first correct response", None,
                       tuple(zip(x.tolist(), labels))),
                y=Axis("Number of questions"), series=series)
    return FigureSpec("First correct response by rank", (plot,), name="rank_histogram")
