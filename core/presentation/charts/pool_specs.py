"""The Pool panel's charts, defined once (figure specs), from a
:class:`yardstick.analysis.pool.report.PoolReport`.

Earliest ranks of relevant documents (Soboroff, "Measuring the measure"),
P(relevant) by rank (Buckley et al., "Bias and the limits of pooling for large
collections", IRJ 2007, Figure 2), relevant documents by pool depth with the
fitted extrapolation, unique relevant documents per group, the leave-out-uniques
change per run with the 5% red flag (Zobel, "How reliable are the results of
large-scale information retrieval experiments?", SIGIR 1998), titlestat_rank with
P(relevant) and the pool depth (Buckley et al. 2007, Figure 3), and Kendall's tau
of the simulated judgment sets.  Everything plotted is a column of a report table.
"""

from __future__ import annotations

import numpy as np

from yardstick.presentation.charts.figure_spec import (
    PALETTE,
    Axis,
    Bars,
    FigureSpec,
    Line,
    Plot,
    RefLine,
    Style,
    Text,
)

__all__ = ["CHARTS", "pool_figure", "chart_available"]

CHARTS = {
    "earliest": "Earliest rank of relevant documents in the pool",
    "p_rel": "Probability of relevance by rank",
    "depth": "Relevant documents found by pool depth",
    "uniques_groups": "Unique relevant documents per group",
    "lou": "Leave-out-uniques: change per run",
    "titlestat_rank": "titlestat_rank and P(relevant) by rank",
    "titlestat_compare": "titlestat_rel difference per topic vs relevant documents",
    "simulation": "Simulated judgments: Kendall's tau vs level",
}
_DASH = Style("#999999", 1.0, "dash")
_RED = Style("#d62728", 1.2, "dash")


def chart_available(r, key: str) -> bool:
    return {"earliest": r.earliest is not None, "p_rel": r.p_rel is not None,
            "depth": r.depth_curve is not None, "uniques_groups": r.uniques_group is not None,
            "lou": r.uniques_group is not None or r.uniques_run is not None,
            "titlestat_rank": r.titlestat_rank is not None,
            "titlestat_compare": r.titlestat_compare is not None,
            "simulation": bool(r.simulations)}[key]


def _depth_line(depth) -> tuple:
    if isinstance(depth, (int, np.integer)) and depth > 0:
        return (RefLine(float(depth), False, _DASH, f"pool depth {depth}"),)
    return ()


def _hbars(names, values, colors, x_label: str, extra=()) -> Plot:
    """Horizontal bars, largest on top (long run names read on the left axis)."""
    v = np.nan_to_num(np.asarray(values, float))
    y = np.arange(len(v), dtype=float)[::-1]            # first row at the top
    names = [str(n) for n in names]
    bars = Bars(y, v, 0.0, 0.7, tuple(colors), horizontal=True, runs=tuple(names),
                hover=tuple(f"{n}: {x:g}" for n, x in zip(names, v)))
    refs = [e.value for e in extra if isinstance(e, RefLine)]
    lo = float(min(0.0, v.min(initial=0), *refs))
    hi = float(max(0.0, v.max(initial=0), *refs))
    pad = 0.05 * (hi - lo or 1.0)
    return Plot(x=Axis(x_label, (lo - pad, hi + pad)),
                y=Axis("", (-0.6, len(v) - 0.4), tuple(zip(y.tolist(), names))),
                series=(bars, *extra), legend=False)


def pool_figure(r, key: str) -> FigureSpec | None:
    """The figure of chart ``key`` of :data:`CHARTS` for report ``r`` (None: not computed)."""
    if r is None or key is None or not chart_available(r, key):
        return None
    k = int(r.settings.depth) if isinstance(r.settings.depth, int) else 0
    title = CHARTS[key]
    size = (7.5, 4.2)
    if key == "earliest":
        h = r.earliest.histogram(bin_width=10)
        lo, hi = h["bin_start"].to_numpy(float) - 0.5, h["bin_end"].to_numpy(float) + 0.5
        rel = h["relevant"].to_numpy(float)
        plot = Plot(x=Axis("earliest rank in a pooled run"), y=Axis("relevant documents"),
                    series=(Bars((lo + hi) / 2, rel, 0.0, float(np.min(hi - lo)) if len(lo)
                                 else 1.0, ("#1f77b4",),
                                 hover=tuple(f"ranks {a + 0.5:g}–{b - 0.5:g}: {int(n)} relevant"
                                             for a, b, n in zip(lo, hi, rel))),
                            *_depth_line(k)), legend=False)
    elif key == "p_rel":
        f = r.p_rel
        plot = Plot(x=Axis("rank"), y=Axis("P(relevant)"),
                    series=(Line(f.index.to_numpy(float), f["p_rel"].to_numpy(float),
                                 Style("#1f77b4", 1.5), "P(relevant)"), *_depth_line(k)))
    elif key == "depth":
        c, dc = r.depth_curve.curve, r.depth_curve
        x = c.index.to_numpy(float)
        plot = Plot(x=Axis("pool depth"), y=Axis("relevant documents"),
                    series=(Line(x, c["relevant"].to_numpy(float), Style("#1f77b4", 1.5),
                                 "known relevant in the pool"),
                            Line(x, c["fitted"].to_numpy(float), _RED,
                                 f"fit {dc.a:.3g}·d^{dc.b:.3f}"), *_depth_line(dc.pool_depth)))
    elif key == "uniques_groups":
        u = r.uniques_group.per_unit.sort_values("unique_relevant", ascending=False)
        plot = _hbars(u.index, u["unique_relevant"], ["#1f77b4"] * len(u),
                      "unique relevant documents (only this group contributed them)")
        size = (7.5, max(3.0, min(14.0, 1.2 + 0.15 * len(u))))
    elif key == "lou":
        res = r.uniques_group or r.uniques_run
        u = res.frame.sort_values("percent", ascending=False)
        colors = ["#d62728" if f else ("#aaaaaa" if poor else "#1f77b4")
                  for f, poor in zip(u["red_flag"], u["poor"])]
        plot = _hbars(u.index, u["percent"], colors,
                      f"{res.measure} change without the {res.unit}'s uniques, % "
                      "(red: over 5%; grey: left out as poor)",
                      (RefLine(5.0, False, _RED, "5% red flag"),))
        size = (7.5, max(3.0, min(14.0, 1.2 + 0.15 * len(u))))
    elif key == "titlestat_rank":
        f = r.titlestat_rank.frame
        x = f.index.to_numpy(float)
        plot = Plot(x=Axis("rank"), y=Axis(""),
                    series=(Line(x, f["titlestat"].to_numpy(float), Style("#1f77b4", 1.5),
                                 "titlestat_rank"),
                            Line(x, f["p_rel"].to_numpy(float), Style("#ff7f0e", 1.5),
                                 "P(relevant)"), *_depth_line(r.titlestat_rank.pool_depth)))
    elif key == "titlestat_compare":
        c = r.titlestat_compare
        f = c.per_topic
        x, y = f["num_rel_a"].to_numpy(float), f["diff"].to_numpy(float)
        labels = tuple(Text(float(a), float(b), str(t), "#444444", size=6)
                       for t, a, b in zip(f.index, x, y)) if len(f) <= 60 else ()
        plot = Plot(x=Axis(f"relevant documents in {c.names[0]}"),
                    y=Axis("difference in titlestat_rel"),
                    series=(Line(x, y, Style("#1f77b4", 0, marker="o", marker_size=4),
                                 hover=tuple(f"topic {t}: {a:g} relevant, difference {b:+.4f}"
                                             for t, a, b in zip(f.index, x, y)),
                                 topics=tuple(map(str, f.index))),
                            RefLine(0.0, True, _DASH), *labels), legend=False)
        title = (f"titlestat_rel {c.names[0]} − {c.names[1]}: {c.a_higher} of {c.topics} "
                 f"topics higher, paired t = {c.t_statistic:.2f}, p = {c.p_value:.2g}")
    else:                                               # simulation: one plot per strategy
        measures = list(dict.fromkeys(m for sim in r.simulations.values()
                                      for m in sim.levels["measure"]))
        color = {m: PALETTE[i % len(PALETTE)] for i, m in enumerate(measures)}
        taus = np.concatenate([sim.levels["kendall_tau"].to_numpy(float)
                               for sim in r.simulations.values()])
        low = float(np.nanmin(taus)) if np.isfinite(taus).any() else 0.0
        plots = []
        for i, (strat, sim) in enumerate(r.simulations.items()):
            series = tuple(Line(g["judged"].to_numpy(float), g["kendall_tau"].to_numpy(float),
                                Style(color[m], 1.5, marker="o", marker_size=3), m)
                           for m, g in sim.levels.groupby("measure", sort=False))
            plots.append(Plot(f"{strat} ({sim.levels['level'].nunique()} levels)",
                              Axis("documents judged per topic"),
                              Axis(f"Kendall's tau vs the full qrels' {r.settings.measure} "
                                   "ranking" if i == 0 else "",
                                   (min(low, 0.9) - 0.02, 1.0)),
                              series, legend=i == len(r.simulations) - 1))
        return FigureSpec(title, tuple(plots), columns=max(1, len(plots)),
                          name="pool_simulation", size=(4.0 * max(1, len(plots)) + 1.5, 4.2))
    return FigureSpec(title, (plot,), name=f"pool_{key}", size=size)
