"""The Stability panel's charts, defined once (figure specs).

* the grid of swap rate vs topic-set size per difference bin with the fitted
  ``A1·exp(−A2·n)`` curves (Voorhees & Buckley, "The effect of topic set size on
  retrieval experiment error", SIGIR 2002, Figures 1–3; Sakai 2006 for the bootstrap);
* the ASL curves of the paired bootstrap test (Sakai, "Evaluating evaluation
  metrics based on the bootstrap", SIGIR 2006, Figure 3);
* error and tie rates per measure (Buckley & Voorhees, "Evaluating evaluation
  measure stability", SIGIR 2000, Table 2);
* Tukey HSD groups (Carterette, "Multiple testing in statistical analysis of
  systems-based information retrieval experiments", TOIS 2012);
* swap rate per difference bin at one topic-set size (sensitivity);
* topics needed per minimum detectable difference (Sakai, "Topic set size design",
  IRJ 2016);
* the rank-correlation heat map between measures (Kendall's τ / τ_AP).

The window (``yardstick.gui.panels.stability_panel``) and every export draw these.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from yardstick.presentation.charts.figure_spec import (
    PALETTE,
    Axis,
    Bars,
    Cells,
    FigureSpec,
    Line,
    Plot,
    RefLine,
    Style,
    Text,
    diverging_color,
)
from yardstick.presentation.charts.specs import color_scale

__all__ = ["swap_grid_figure", "asl_curves_figure", "error_rates_figure", "tukey_figure",
           "sensitivity_figure", "topic_set_size_figure", "measure_heat_map_figure",
           "similarity_order", "stability_figure", "GRID_BINS"]

#: analysis -> the word the heat map's title uses
_CORRELATION = {"kendall": "Kendall's τ", "taup": "τ_AP"}

GRID_BINS = 20
_TARGET = Style("#999999", 1.0, "dash")


def swap_grid_figure(res) -> FigureSpec:
    """Swap rate against topic-set size, one small plot per difference bin (at most
    :data:`GRID_BINS`), each with its fitted exponential and the target error rate."""
    grid = np.linspace(1, res.n_topics, 200)
    plots = []
    for k in range(min(GRID_BINS, res.n_bins)):
        rates = res.rates[:, k]
        ok = np.isfinite(rates)
        series = [Line(res.sizes[ok], rates[ok], Style("#1f77b4", 0, marker="o",
                                                        marker_size=2.5))]
        f = res.fits[k]
        if f.ok:
            series += [Line(grid, f(grid), Style("#d62728", 1.2)),
                       RefLine(res.target, True, _TARGET),
                       Text(float(res.n_topics), 0.5, f"A1 {f.a1:.3g}\nA2 {f.a2:.3g}",
                            ha="right", va="top", size=6)]
        plots.append(Plot(f"≥ {k * res.bin_width:.3g}", Axis("", (0, res.n_topics * 1.02)),
                          Axis("", (0, 0.5)), tuple(series), legend=False))
    return FigureSpec(f"{res.method} swap rates, {res.measure}: error rate vs topic-set size "
                      f"per difference bin (min. difference {res.min_difference:.3g})",
                      tuple(plots), columns=5, name=f"swap_rates_{res.measure}",
                      size=(10.0, 7.0))


def asl_curves_figure(results: dict) -> FigureSpec:
    """ASL of every run pair, pairs sorted by ASL, one curve per (measure, topic group)."""
    series = []
    alpha = 0.05
    for i, ((m, g), r) in enumerate(results.items()):
        curve = r.asl_curve()
        series.append(Line(curve["pair_rank"].to_numpy(float), curve["asl"].to_numpy(float),
                           Style(PALETTE[i % len(PALETTE)], 1.5),
                           f"{m}, {g}: {100 * r.share_significant:.1f}% < α"))
        alpha = r.alpha
    series.append(RefLine(alpha, True, _TARGET, f"α = {alpha:g}"))
    plot = Plot(x=Axis("run pair (sorted by ASL)"), y=Axis("ASL"),
                series=tuple(series))
    return FigureSpec("Achieved significance level of every run pair (pairs sorted by ASL)",
                      (plot,), name="asl_curves", size=(7.5, 4.2))


def error_rates_figure(results: dict) -> FigureSpec:
    """Error rate and tie rate (%) per (measure, topic group), side by side."""
    labels = [f"{m}, {g}" for m, g in results]
    x = np.arange(len(labels), dtype=float)
    err = np.array([100 * r.error_rate for r in results.values()])
    ties = np.array([100 * r.tie_rate for r in results.values()])
    series = (Bars(x - 0.2, err, width=0.4, colors=("#1f77b4",), name="error rate",
                   hover=tuple(f"{lb}\nerror rate {v:.2f}%" for lb, v in zip(labels, err))),
              Bars(x + 0.2, ties, width=0.4, colors=("#aaaaaa",), name="ties",
                   hover=tuple(f"{lb}\nties {v:.2f}%" for lb, v in zip(labels, ties))))
    plot = Plot(x=Axis("", (-0.6, len(x) - 0.4), tuple(zip(x.tolist(), labels)),
                       rotate=len(labels) > 4),
                y=Axis("% of comparisons", (0, max(1.0, float(np.r_[err, ties, 0].max())) * 1.1)),
                series=series)
    return FigureSpec("Error rate and ties per measure", (plot,), name="error_rates",
                      size=(7.5, 4.2))


def tukey_figure(res, max_labels: int = 60, selection=None) -> FigureSpec:
    """Each run's mean as a bar, best at the top; the runs not distinguishable from the
    best (Tukey HSD top group) in green, the others grey.  ``selection``: a
    :class:`~yardstick.presentation.charts.run_filter.RunSelection` of the runs to draw (the test
    itself is over every run), named in the caption."""
    top = set(res.top_group())
    shown = set(selection.runs) if selection is not None else set(res.runs)
    idx = [i for i, r in enumerate(res.runs) if r in shown]
    runs = [res.runs[i] for i in idx]
    means = np.asarray(res.means, float)[idx]
    k = len(runs)
    y = np.arange(k, dtype=float)
    colors = tuple("#2ca02c" if r in top else "#7f7f7f" for r in runs)
    hover = tuple(f"#{i + 1} {res.runs[i]}: mean {res.means[i]:.4f}\np vs {res.best} = "
                  f"{res.pvalues[0][i]:.3g}{' (top group)' if res.runs[i] in top else ''}"
                  for i in idx)
    bars = Bars(y, means, 0.0, 0.8, colors, horizontal=True, runs=tuple(runs), hover=hover)
    res_means = means
    hi = float(np.nanmax(np.r_[res_means, 0])) or 1.0
    plot = Plot(x=Axis(res.measure, (0, hi * 1.05)),
                y=Axis("", (k - 0.4, -0.6), tuple(zip(y.tolist(), map(str, runs))),
                       max_labels=max_labels),
                series=(bars,), legend=False)
    caption = selection.description if selection is not None and selection.filtered else ""
    return FigureSpec(f"Tukey HSD, {res.measure}: {len(top)} of {len(res.runs)} runs not "
                      f"distinguishable from {res.best} (green; α = {res.alpha:g})", (plot,),
                      caption, name=f"tukey_{res.measure}",
                      size=(7.5, max(3.0, min(14.0, 1.2 + 0.15 * k))), runs=tuple(runs))


def sensitivity_figure(res) -> FigureSpec:
    """Swap rate per difference bin at one topic-set size; the target as a dashed line."""
    f = res.to_frame()
    x = f["bin_lo"].to_numpy(float)
    rate = f["swap_rate"].to_numpy(float)
    ok = np.isfinite(rate)
    series = (Line(x[ok], rate[ok], Style("#1f77b4", 1.2, marker="o", marker_size=3),
                   "swap rate",
                   hover=tuple(f"difference ≥ {a:.3g}: swap rate {r:.4f} "
                               f"({int(c)} comparisons)"
                               for a, r, c in zip(x[ok], rate[ok], f["comparisons"][ok]))),
              RefLine(1 - res.confidence, True, _TARGET, f"{1 - res.confidence:.2g}"))
    plot = Plot(x=Axis(f"difference in {res.measure} (bin lower edge)"),
                y=Axis("swap rate", (0, max(0.5, float(np.nanmax(np.r_[rate, 0])) * 1.05))),
                series=series)
    return FigureSpec(f"Swap rate per difference bin at {res.subset_size} topics "
                      f"({res.measure}); min. difference {res.min_difference:.3g}", (plot,),
                      name=f"sensitivity_{res.measure}", size=(7.5, 4.2))


def topic_set_size_figure(res) -> FigureSpec:
    """Topics needed against the minimum detectable difference, for the paired t-test,
    one-way ANOVA and the CI-width designs; topics on a log scale."""
    t = res.table
    x = t.index.to_numpy(float)
    series = []
    values = []
    for i, col in enumerate(t.columns):
        v = t[col].to_numpy(float)
        ok = np.isfinite(v) & (v > 0)
        values.append(v[ok])
        series.append(Line(x[ok], np.log10(v[ok]), Style(PALETTE[i % len(PALETTE)], 1.5,
                                                         marker="o", marker_size=3), str(col),
                           hover=tuple(f"{col}: {int(n)} topics for a difference of {d:g}"
                                       for d, n in zip(x[ok], v[ok]))))
    allv = np.concatenate(values) if values else np.array([1.0])
    lo, hi = (int(np.floor(np.log10(allv.min()))), int(np.ceil(np.log10(allv.max())))) \
        if len(allv) else (0, 3)
    ticks = tuple((float(e), f"{10 ** e:g}") for e in range(lo, max(hi, lo + 1) + 1))
    plot = Plot(x=Axis("minimum detectable difference"),
                y=Axis("topics needed (log scale)", (lo, max(hi, lo + 1)), ticks),
                series=tuple(series))
    return FigureSpec(f"Topics needed, {res.measure} (α = {res.alpha}, β = {res.beta}, "
                      f"σ² = {res.variance:.4f})", (plot,), name=f"topic_set_size_{res.measure}",
                      size=(7.5, 4.2))


def similarity_order(matrix: np.ndarray) -> np.ndarray:
    """Rows ordered by their mean correlation with the others, highest first (similar
    measures end up next to each other; ties keep the given order)."""
    m = np.asarray(matrix, float)
    k = len(m)
    if k < 3:
        return np.arange(k)
    off = np.where(np.eye(k, dtype=bool), np.nan, m)
    score = np.nanmean(off, axis=1)
    return np.argsort(-np.nan_to_num(score, nan=-2.0), kind="stable")


def measure_heat_map_figure(matrix: pd.DataFrame, title: str) -> FigureSpec:
    """A measures × measures correlation matrix as coloured cells with their values, rows
    sorted by :func:`similarity_order`, and a colour scale from −1 to 1."""
    order = similarity_order(matrix.to_numpy(float))
    m = matrix.iloc[order, order]
    k = len(m)
    names = [str(x) for x in m.index]
    vals = m.to_numpy(float)
    jj, ii = np.meshgrid(np.arange(k), np.arange(k))
    v = vals[ii.ravel(), jj.ravel()]
    cells = Cells(jj.ravel(), ii.ravel(), tuple(diverging_color(x) for x in v),
                  tuple(f"{x:.2f}" for x in v),
                  tuple(f"{names[i]} vs {names[j]}: {vals[i, j]:.4f}"
                        for i, j in zip(ii.ravel(), jj.ravel())),
                  font_size=8 if k <= 10 else 6)
    ticks = tuple((float(i), n) for i, n in enumerate(names))
    plot = Plot(x=Axis("", (-0.5, k + 1.1), ticks, rotate=True), y=Axis("", (k - 0.5, -0.9),
                                                                        ticks),
                series=(cells, *color_scale(k, -1.0, 1.0, "τ")), legend=False, grid=False,
                equal_aspect=True)
    return FigureSpec(title, (plot,), name="rank_correlation_measures", size=(6.4, 5.4))


def stability_figure(report, analysis: str, key, run_filter=None,
                     teams=None) -> FigureSpec | None:
    """The figure of one result of a :class:`yardstick.analysis.stability.report.StabilityReport`:
    ``key`` is a (measure, topic set) pair, or None for every pair of the analyses drawn
    together (discriminative power, error rate).  None when the result has no chart.
    ``run_filter`` (:class:`~yardstick.presentation.charts.run_filter.RunFilter`) and ``teams``
    choose the runs of the charts that draw one bar per run (Tukey HSD)."""
    results = report.results.get(analysis, {})
    if key is not None and key not in results:
        return None
    if analysis in ("swap", "bootstrap"):
        return swap_grid_figure(results[key])
    if analysis == "discriminative":
        return asl_curves_figure(results if key is None else {key: results[key]})
    if analysis == "error-rate":
        return error_rates_figure(results if key is None else {key: results[key]})
    if analysis == "tukey":
        res = results[key]
        sel = None
        if run_filter is not None:
            sel = run_filter.select(res.runs, dict(zip(res.runs, map(float, res.means))),
                                    teams, res.measure)
        return tukey_figure(res, selection=sel)
    if analysis in _CORRELATION and isinstance(results.get(key), pd.DataFrame):
        return measure_heat_map_figure(results[key], f"{_CORRELATION[analysis]} between the "
                                                     "measures' system rankings")
    if analysis == "sensitivity":
        return sensitivity_figure(results[key])
    if analysis == "topic-set-size":
        return topic_set_size_figure(results[key])
    return None
