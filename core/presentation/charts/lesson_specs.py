"""The teaching mode's charts, defined once (figure specs): one topic's recall-precision
curve building up rank by rank, and the spread of a measure under random orders of
tied documents.  Drawn by the window and by every export from these definitions."""

from __future__ import annotations

import numpy as np

from yardstick.analysis.explain.topic_lesson import LEVELS
from yardstick.presentation.charts.figure_spec import (
    Axis,
    Bars,
    FigureSpec,
    Line,
    Plot,
    RefLine,
    Style,
)
from yardstick.presentation.charts.specs import topic_axis

__all__ = ["lesson_curve_figure", "tie_spread_figure"]

ACTUAL, INTERP, GHOST = "#1f77b4", "#d62728", "#c8c8c8"


def lesson_curve_figure(lesson, upto: int | None = None) -> FigureSpec:
    """Precision at each relevant document and the interpolated curve, up to a rank; the
    finished curve faint behind, so the student sees where it is going."""
    upto = lesson.num_ret if upto is None else int(upto)
    gx, gy = lesson.interpolated_curve()
    pts = lesson.points_up_to(upto)
    x, y = pts["recall"].to_numpy(), pts["precision"].to_numpy()
    series = [Line(gx, gy, Style(GHOST, 0.8, "dash")),
              Line(x, y, Style(ACTUAL, 1.5, marker="o", marker_size=7, marker_fill=False),
                   "precision at each relevant document",
                   hover=tuple(f"relevant #{i + 1} at rank {int(k)}\nrecall {r:.4f}, "
                               f"precision {p:.4f}" for i, (k, r, p) in
                               enumerate(zip(pts["rank"], x, y))))]
    sx, sy = lesson.interpolated_curve(upto)
    series.append(Line(sx, sy, Style(INTERP, 1.5, "dash"),
                       "interpolated (max precision at recall ≥ r)"))
    lv = np.asarray(LEVELS)
    iv = lesson.interpolated_at(LEVELS, upto)
    series.append(Line(lv, iv, Style(INTERP, 0, marker="x", marker_size=7),
                       hover=tuple(f"recall level {a:.1f}\ninterpolated precision {b:.4f}"
                                   for a, b in zip(lv, iv))))
    row = lesson.ranked.iloc[upto - 1] if 0 < upto <= lesson.num_ret else None
    if row is not None:
        series.append(Line([row["recall"]], [row["precision"]],
                           Style("#2ca02c", 0, marker="s", marker_size=6), f"now: rank {upto}",
                           hover=(f"after rank {upto} ({row['docno']})\nrecall "
                                  f"{row['recall']:.4f}, precision {row['precision']:.4f}",)))
    plot = Plot(x=Axis("Recall", (-0.02, 1.02)), y=Axis("Precision", (-0.02, 1.04)),
                series=tuple(series))
    return FigureSpec(f"Topic {lesson.topic} — {lesson.run_name}: after rank {upto} "
                      f"(R = {lesson.R})", (plot,), name="recall_precision_lesson")


def tie_spread_figure(res, measure: str) -> FigureSpec:
    """Per topic, bars from ``min − trec_eval`` to ``max − trec_eval`` over random tie
    orders, dots at the mean; zero is trec_eval's value (ties by docno, descending)."""
    f = res.topic_frame(measure)
    topics = tuple(map(str, f.index))
    x = np.arange(len(topics), dtype=float)
    det = f["trec_eval"].to_numpy(float)
    lo, hi, mean = (f["min"].to_numpy(float) - det, f["max"].to_numpy(float) - det,
                    f["mean"].to_numpy(float) - det)
    texts = tuple(f"topic {t}: trec_eval {d:.4f}\nrandom orders: {a:.4f} to {b:.4f} "
                  f"(mean {m:.4f})\n{c:.0%} of the orders give another value"
                  for t, d, a, b, m, c in zip(topics, det, f["min"], f["max"], f["mean"],
                                              f["changed"]))
    series = (Bars(x, hi - lo, lo, 0.7, ("#9ecae1",), "#3182bd"),
              RefLine(0.0, True, Style("#d62728", 1.0)),
              Line(x, mean, Style("#08519c", 0, marker="o", marker_size=4),
                   "mean over random orders", hover=texts, topics=topics))
    plot = Plot(x=topic_axis(topics), y=Axis(f"{measure} − trec_eval"), series=series)
    return FigureSpec(f"{measure}: change from trec_eval's value under {res.n_orders} random "
                      "tie orders", (plot,), name="tie_sensitivity")
