"""Charts of judgment set against judgment set and of systems of runs.

* :func:`qrels_scatter_figure` — every run's score under one qrels against another,
  one point a run, the diagonal where they would agree; the title carries Kendall's
  tau-b, tau_AP and the overlap of the relevant sets, so Voorhees's finding ("Variations
  in relevance judgments and the measurement of retrieval effectiveness", IP&M 36(5),
  2000: rankings stable although overlap is low) reads off one picture;
* :func:`overlap_figure` — the per-topic overlap (and kappa) of two sets, sorted, with
  the mean (Voorhees 2000, Table 1's per-topic figures);
* :func:`voorhees_figure` — both side by side;
* :func:`systems_figure` — each system's runs (one dot a run, their range) beside the
  topic-based 95% interval of the system mean (:mod:`yardstick.analysis.systems`).
"""

from __future__ import annotations

import numpy as np

from yardstick.inputs.io.text_source import shown
from yardstick.presentation.charts.figure_spec import (
    Axis,
    ErrorBars,
    FigureSpec,
    Line,
    Plot,
    RefLine,
    Style,
    Text,
)

__all__ = ["qrels_scatter_plot", "qrels_scatter_figure", "overlap_plot", "overlap_figure",
           "voorhees_figure", "systems_figure", "ranking_vs_overlap_figure"]

#: at most this many runs are named on the scatter (the largest rank changes)
NAMED = 4


def _range(*vals) -> tuple[float, float]:
    v = np.concatenate([np.asarray(x, float).ravel() for x in vals])
    v = v[np.isfinite(v)]
    if not len(v):
        return 0.0, 1.0
    lo, hi = float(v.min()), float(v.max())
    pad = 0.06 * (hi - lo) if hi > lo else 0.05
    return lo - pad, hi + pad


def _row(cmp, a: str, b: str):
    corr = cmp.correlations()
    return corr[(corr["a"] == a) & (corr["b"] == b)].iloc[0]


def qrels_scatter_plot(cmp, a: str, b: str) -> Plot:
    """The scatter of :func:`qrels_scatter_figure` as one plot."""
    m = cmp.means()
    changes = cmp.rank_changes(a, b).set_index("run")
    named = set(changes.index[:NAMED][changes["rank_change"].iloc[:NAMED] != 0])
    x, y = m[a].to_numpy(float), m[b].to_numpy(float)
    lo, hi = _range(x, y)
    series = [Line([lo, hi], [lo, hi], Style("#888888", 1.0, "dash"), "same score")]
    hover = tuple(f"{r}\n{a}: {xa:.4f} (#{int(changes.loc[r, 'rank_a'])})\n"
                  f"{b}: {xb:.4f} (#{int(changes.loc[r, 'rank_b'])})"
                  for r, xa, xb in zip(m.index, x, y))
    series.append(Line(x, y, Style("#1f77b4", 0, marker="o",
                                   marker_size=4 if len(x) > 60 else 6), "run",
                       hover=hover))
    for r in m.index:
        if r in named:
            up = -int(changes.loc[r, "rank_change"])     # places gained under b
            series.append(Text(float(m.loc[r, a]), float(m.loc[r, b]),
                               f" {shown(str(r))} {'↑' if up > 0 else '↓'}{abs(up)} ",
                               "#d62728", size=7, run=str(r), va="top" if up < 0 else "bottom",
                               ha="right" if m.loc[r, a] > (lo + hi) / 2 else "left"))
    return Plot(title=f"{cmp.measure}, a point a run",
                x=Axis(f"{cmp.measure} under {a}", (lo, hi)),
                y=Axis(f"{cmp.measure} under {b}", (lo, hi)), series=tuple(series),
                legend=False)


def qrels_scatter_figure(cmp, a: str | None = None, b: str | None = None) -> FigureSpec:
    """Run scores under two qrels (default the first two), one point a run."""
    a, b = a or cmp.names[0], b or cmp.names[1]
    row = _row(cmp, a, b)
    title = (f"{cmp.measure} under {b} against {a}: τ = {row['tau']:.3f}, "
             f"τ_AP = {row['tau_ap']:.3f}, overlap {row['overlap']:.2f}")
    caption = (f"{int(row['n_runs'])} runs over {int(row['n_topics'])} topics; "
               f"{int(row['swaps'])} of {int(row['n_pairs'])} run pairs swap; named: the "
               f"largest rank changes (places moved under {b})")
    return FigureSpec(title, (qrels_scatter_plot(cmp, a, b),), caption, name="qrels_scatter",
                      size=(6.0, 5.6), runs=tuple(cmp.runs))


def overlap_plot(agreement, a: str, b: str, legend: bool = True) -> Plot:
    """Per-topic overlap (dots) and binary kappa (crosses), topics sorted by overlap;
    without ``legend`` the title says which is which (figures of several plots)."""
    t = agreement[(agreement["a"] == a) & (agreement["b"] == b)
                  & (agreement["topic"] != "all") & agreement["in_a"] & agreement["in_b"]]
    t = t.sort_values("overlap", kind="stable")
    k = len(t)
    xs = np.arange(k, dtype=float)
    mean = float(t["overlap"].mean()) if k else float("nan")
    hover = tuple(f"topic {tp}\noverlap {o:.3f} ({rb} of {ru} relevant in both)\n"
                  f"kappa {kp:.3f}" for tp, o, rb, ru, kp in
                  zip(t["topic"], t["overlap"], t["relevant_both"], t["relevant_union"],
                      t["kappa"]))
    series = (Line(xs, t["overlap"], Style("#1f77b4", 0, marker="o", marker_size=4),
                   "overlap", hover=hover, topics=tuple(map(str, t["topic"]))),
              Line(xs, t["kappa"], Style("#ff7f0e", 0, marker="x", marker_size=5), "kappa",
                   hover=hover, topics=tuple(map(str, t["topic"]))),
              RefLine(mean, label=f"mean overlap {mean:.2f}"))
    ticks = tuple((float(i), str(tp)) for i, tp in enumerate(t["topic"]))
    title = (f"Per topic: overlap of the relevant sets, kappa ({a} vs {b})" if legend else
             "Per topic: overlap •, kappa ×")
    return Plot(title=title, legend=legend,
                x=Axis("topic (sorted by overlap)", (-0.5, max(k, 1) - 0.5), ticks,
                       max_labels=25, rotate=True),
                y=Axis("overlap / kappa", (min(0.0, float(np.nanmin(t["kappa"])) - 0.05)
                                           if k else 0.0, 1.02)),
                series=series)


def overlap_figure(agreement, a: str, b: str) -> FigureSpec:
    """Per-topic overlap and kappa of two qrels (Voorhees 2000, Table 1's figures)."""
    return FigureSpec(f"Judgment agreement per topic: {a} vs {b}", (overlap_plot(agreement, a,
                                                                                  b),),
                      "overlap = |relevant in both| / |relevant in either|", name="overlap")


def voorhees_figure(cmp, a: str | None = None, b: str | None = None) -> FigureSpec:
    """Voorhees 2000's finding in one figure: low overlap (left), stable ranking (right)."""
    a, b = a or cmp.names[0], b or cmp.names[1]
    row = _row(cmp, a, b)
    return FigureSpec(f"Judgments differ, rankings hold: mean overlap {row['overlap']:.2f}, "
                      f"kappa {row['kappa']:.2f}, Kendall τ {row['tau']:.3f}",
                      (overlap_plot(cmp.agreement, a, b, legend=False),
                       qrels_scatter_plot(cmp, a, b)),
                      f"{a} vs {b}, {int(row['n_runs'])} runs, {cmp.measure}", columns=2,
                      name="voorhees", size=(11.0, 5.0), runs=tuple(cmp.runs))


def systems_figure(sc) -> FigureSpec:
    """Systems best first: their runs (dots, grey range) and the topic-based 95% interval
    of the system mean (black), side by side on each system's row."""
    t = sc.systems_table().sort_values("mean", ascending=False, kind="stable")
    k = len(t)
    y = np.arange(k, dtype=float)
    series = [ErrorBars(t["mean"], y - 0.18, t["run_min"], t["run_max"], horizontal=True,
                        color="#9e9e9e", width=3.0, cap=0.0),
              ErrorBars(t["mean"], y + 0.18, t["ci_low"], t["ci_high"], horizontal=True,
                        color="#222222", width=1.2)]
    for i, rs in enumerate(sc.systems[s] for s in t["system"]):
        vals = sc.run_means.reindex(rs).to_numpy(float) if sc.run_means is not None else []
        series.append(Line(vals, np.full(len(vals), y[i] - 0.18),
                           Style("#1f77b4", 0, marker="o", marker_size=4), "run" if i == 0
                           else "", hover=tuple(f"{r}: {v:.4f}" for r, v in zip(rs, vals))))
    row = t.reset_index(drop=True)
    hover = tuple(f"{s}: mean {m:.4f} over {n} runs\nrun spread sd {sd:.4f} "
                  f"[{lo:.4f}, {hi:.4f}]\n95% CI over topics [{cl:.4f}, {ch:.4f}]"
                  for s, m, n, sd, lo, hi, cl, ch in
                  zip(row["system"], row["mean"], row["n_runs"], row["run_sd"], row["run_min"],
                      row["run_max"], row["ci_low"], row["ci_high"]))
    series.append(Line(t["mean"], y + 0.18, Style("#222222", 0, marker="d", marker_size=6),
                       "system mean", hover=hover))
    ticks = tuple((float(i), shown(str(s))) for i, s in enumerate(t["system"]))
    plot = Plot(x=Axis(f"mean {sc.measure}", _range(t["run_min"], t["run_max"], t["ci_low"],
                                                    t["ci_high"])),
                y=Axis("", (k - 0.5, -0.6), ticks), series=tuple(series), legend=True)
    return FigureSpec(f"Systems by mean {sc.measure}", (plot,),
                      f"{k} systems, {sum(len(v) for v in sc.systems.values())} runs: run "
                      "spread (grey, a dot a run), 95% interval over topics (black)",
                      name="systems", size=(6.4, max(3.0, min(10.0, 1.2 + 0.45 * k))),
                      runs=())


def ranking_vs_overlap_figure(correlations) -> FigureSpec:
    """One point per pair of qrels: the overlap of their relevant sets (x) against the
    agreement of the system rankings they give, Kendall's τ and τ_AP (y) — Voorhees
    2000's finding as a chart: τ stays near 0.9 while the overlap falls well below 1."""
    c = correlations
    labels = tuple(f"{a} vs {b}" for a, b in zip(c["a"], c["b"]))
    hover = tuple(f"{lb}\noverlap {o:.3f}, kappa {k:.3f}\nτ {t:.3f}, τ_AP {ta:.3f}, "
                  f"{s} swaps" for lb, o, k, t, ta, s in
                  zip(labels, c["overlap"], c["kappa"], c["tau"], c["tau_ap"], c["swaps"]))
    series = (Line(c["overlap"], c["tau"], Style("#1f77b4", 0, marker="o", marker_size=7),
                   "Kendall τ", hover=hover),
              Line(c["overlap"], c["tau_ap"], Style("#d62728", 0, marker="s", marker_size=6),
                   "τ_AP", hover=hover),
              RefLine(0.9, label="τ = 0.9"))
    lo = min(0.0, float(np.nanmin(c["overlap"])) - 0.05) if len(c) else 0.0
    ylo = min(0.5, float(np.nanmin(c[["tau", "tau_ap"]].to_numpy())) - 0.05) if len(c) else 0.5
    plot = Plot(x=Axis("overlap of the relevant sets (mean over topics)", (lo, 1.02)),
                y=Axis("agreement of the system rankings", (ylo, 1.01)), series=series)
    measure = str(c["measure"].iloc[0]) if len(c) else ""
    return FigureSpec(f"Rankings by {measure} against judgment overlap", (plot,),
                      f"{len(c)} pair{'' if len(c) == 1 else 's'} of qrels; a point per pair",
                      name="ranking_vs_overlap")
