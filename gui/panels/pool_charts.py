"""The Pool panel's charts, drawn from a :class:`yardstick.pool.report.PoolReport`.

Earliest ranks of relevant documents (Soboroff, "Measuring the measure"),
P(relevant) by rank (Buckley et al. 2007, Fig. 2), relevant documents by pool
depth with the fitted extrapolation, unique relevant documents per group, the
leave-out-uniques change per run with the 5% red flag, titlestat_rank with
P(relevant) and the pool depth (Fig. 3), and Kendall's tau of the simulated
judgment sets.  Everything plotted is a column of a report table.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from yardstick.pool.report import PoolReport

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
_DASH = pg.mkPen("#999", style=Qt.PenStyle.DashLine)
_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
_RED = pg.mkPen("#d62728", width=1.5, style=Qt.PenStyle.DashLine)


def draw_pool_chart(chart: pg.GraphicsLayoutWidget, r: PoolReport | None,
                    key: str | None) -> None:
    """Draw chart ``key`` of :data:`CHARTS` from report ``r`` into ``chart`` (cleared first)."""
    chart.clear()
    if r is None or key is None:
        return
    k = int(r.settings.depth) if isinstance(r.settings.depth, int) else 0
    p = chart.addPlot(title=CHARTS[key])
    p.showGrid(x=True, y=True, alpha=0.2)
    if key == "earliest":
        h = r.earliest.histogram(bin_width=10)
        p.addItem(pg.BarGraphItem(x0=h["bin_start"].to_numpy() - 0.5,
                                  x1=h["bin_end"].to_numpy() + 0.5,
                                  height=h["relevant"].to_numpy(), brush="#1f77b4"))
        p.setLabel("bottom", "earliest rank in a pooled run")
        p.setLabel("left", "relevant documents")
        _depth_line(p, k)
    elif key == "p_rel":
        f = r.p_rel
        p.plot(f.index.to_numpy(), f["p_rel"].to_numpy(), pen=pg.mkPen("#1f77b4", width=2))
        p.setLabel("bottom", "rank")
        p.setLabel("left", "P(relevant)")
        _depth_line(p, k)
    elif key == "depth":
        c = r.depth_curve.curve
        p.addLegend()
        p.plot(c.index.to_numpy(), c["relevant"].to_numpy(),
               pen=pg.mkPen("#1f77b4", width=2), name="known relevant in the pool")
        p.plot(c.index.to_numpy(), c["fitted"].to_numpy(), pen=_RED,
               name=f"fit {r.depth_curve.a:.3g}·d^{r.depth_curve.b:.3f}")
        p.setLabel("bottom", "pool depth")
        p.setLabel("left", "relevant documents")
        _depth_line(p, r.depth_curve.pool_depth)
    elif key == "uniques_groups":
        u = r.uniques_group.per_unit.sort_values("unique_relevant")
        _hbars(p, u.index, u["unique_relevant"].to_numpy(), ["#1f77b4"] * len(u))
        p.setLabel("bottom", "unique relevant documents (only this group contributed them)")
    elif key == "lou":
        res = r.uniques_group or r.uniques_run
        u = res.frame.sort_values("percent")
        colors = ["#d62728" if f else ("#aaaaaa" if poor else "#1f77b4")
                  for f, poor in zip(u["red_flag"], u["poor"])]
        _hbars(p, u.index, u["percent"].to_numpy(), colors)
        p.addItem(pg.InfiniteLine(5.0, angle=90, pen=_RED, label="5% red flag",
                                  labelOpts={"position": 0.05, "color": "#d62728"}))
        p.setLabel("bottom", f"{res.measure} change without the {res.unit}'s uniques, % "
                             "(grey: left out as poor)")
    elif key == "titlestat_rank":
        f = r.titlestat_rank.frame
        p.addLegend()
        p.plot(f.index.to_numpy(), f["titlestat"].to_numpy(),
               pen=pg.mkPen("#1f77b4", width=2), name="titlestat_rank")
        p.plot(f.index.to_numpy(), f["p_rel"].to_numpy(),
               pen=pg.mkPen("#ff7f0e", width=2), name="P(relevant)")
        p.setLabel("bottom", "rank")
        _depth_line(p, r.titlestat_rank.pool_depth)
    elif key == "titlestat_compare":
        c = r.titlestat_compare
        f = c.per_topic
        p.plot(f["num_rel_a"].to_numpy(float), f["diff"].to_numpy(float), pen=None,
               symbol="o", symbolSize=6, symbolBrush="#1f77b4", symbolPen=None)
        for t, x, y in zip(f.index, f["num_rel_a"], f["diff"]):
            label = pg.TextItem(str(t), color="#444", anchor=(0, 1))
            label.setPos(float(x), float(y))
            p.addItem(label)
        p.addItem(pg.InfiniteLine(0.0, angle=0, pen=_DASH))
        p.setTitle(f"titlestat_rel {c.names[0]} − {c.names[1]}: {c.a_higher} of {c.topics} "
                   f"topics higher, paired t = {c.t_statistic:.2f}, p = {c.p_value:.2g}")
        p.setLabel("bottom", f"relevant documents in {c.names[0]}")
        p.setLabel("left", "difference in titlestat_rel")
    elif key == "simulation":
        chart.removeItem(p)
        measures = list(dict.fromkeys(m for sim in r.simulations.values()
                                      for m in sim.levels["measure"]))
        color = {m: _PALETTE[i % len(_PALETTE)] for i, m in enumerate(measures)}
        first = None
        for col, (strat, sim) in enumerate(r.simulations.items()):
            n_levels = sim.levels["level"].nunique()
            q = chart.addPlot(row=0, col=col, title=f"{strat} ({n_levels} levels)")
            q.getAxis("left").enableAutoSIPrefix(False)
            q.showGrid(x=True, y=True, alpha=0.2)
            if first is None:
                first = q
                q.addLegend(offset=(-10, -10))
            else:
                q.setYLink(first)
            for m, g in sim.levels.groupby("measure", sort=False):
                q.plot(g["judged"].to_numpy(), g["kendall_tau"].to_numpy(),
                       pen=pg.mkPen(color[m], width=2), symbol="o", symbolSize=5,
                       symbolBrush=color[m], symbolPen=None, name=m)
            q.setLabel("bottom", "documents judged per topic")
        if first is not None:
            taus = np.concatenate([sim.levels["kendall_tau"].to_numpy(float)
                                   for sim in r.simulations.values()])
            low = float(np.nanmin(taus)) if np.isfinite(taus).any() else 0.0
            first.setYRange(min(low, 0.9) - 0.02, 1.0, padding=0)
            first.setLabel("left", f"Kendall's tau vs the full qrels' {r.settings.measure} "
                                   "ranking")


def chart_available(r: PoolReport, key: str) -> bool:
    return {"earliest": r.earliest is not None, "p_rel": r.p_rel is not None,
            "depth": r.depth_curve is not None, "uniques_groups": r.uniques_group is not None,
            "lou": r.uniques_group is not None or r.uniques_run is not None,
            "titlestat_rank": r.titlestat_rank is not None,
            "titlestat_compare": r.titlestat_compare is not None,
            "simulation": bool(r.simulations)}[key]


def _hbars(plot, names, values: np.ndarray, colors: list[str]) -> None:
    """Horizontal bars (long run names read on the left axis), largest on top."""
    y = np.arange(len(values))
    values = np.nan_to_num(np.asarray(values, float))
    plot.addItem(pg.BarGraphItem(x0=np.minimum(values, 0), x1=np.maximum(values, 0), y=y,
                                 height=0.7, brushes=colors, pens=[pg.mkPen(None)] * len(y)))
    plot.getAxis("left").setTicks([list(zip(y, [str(n) for n in names]))])
    plot.showGrid(x=True, y=False, alpha=0.2)


def _depth_line(plot, depth: int) -> None:
    if depth and depth > 0:
        line = pg.InfiniteLine(depth, angle=90, pen=_DASH, label=f"pool depth {depth}",
                               labelOpts={"position": 0.9, "color": "#666"})
        plot.addItem(line)
