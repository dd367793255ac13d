"""Charts of the teaching mode: the recall-precision curve of one topic as it builds up
rank by rank, and the spread of a measure under random orders of tied documents.

They draw :class:`core.explain.topic_lesson.TopicLesson` and
:class:`core.explain.tie_sensitivity.TieSensitivity`; nothing is computed here.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from core.explain.tie_sensitivity import TieSensitivity
from core.explain.topic_lesson import LEVELS, TopicLesson
from gui.charts.base import ChartWidget

ACTUAL, INTERP, GHOST = "#1f77b4", "#d62728", "#c8c8c8"


class LessonCurveChart(ChartWidget):
    """Precision at each relevant document and the interpolated curve, up to a rank."""

    export_name = "recall_precision_lesson"

    def set_lesson(self, lesson: TopicLesson, upto: int | None = None) -> None:
        upto = lesson.num_ret if upto is None else int(upto)
        self.reset(f"Topic {lesson.topic} — {lesson.run_name}: after rank {upto} "
                   f"(R = {lesson.R})", "Recall", "Precision")
        # the finished curve, faint, so the student sees where it is going
        gx, gy = lesson.interpolated_curve()
        self.plot_item.plot(gx, gy, pen=pg.mkPen(GHOST, width=1, style=Qt.PenStyle.DashLine))
        pts = lesson.points_up_to(upto)
        x, y = pts["recall"].to_numpy(), pts["precision"].to_numpy()
        actual = self.plot_item.plot(x, y, pen=pg.mkPen(ACTUAL, width=2), symbol="o",
                                     symbolSize=9, symbolBrush=None,
                                     symbolPen=pg.mkPen(ACTUAL, width=2),
                                     name="precision at each relevant document")
        self.add_target(x, y, [f"relevant #{i + 1} at rank {int(k)}\nrecall {r:.4f}, "
                               f"precision {p:.4f}" for i, (k, r, p) in
                               enumerate(zip(pts["rank"], x, y))], actual)
        sx, sy = lesson.interpolated_curve(upto)
        interp = self.plot_item.plot(sx, sy, pen=pg.mkPen(INTERP, width=2,
                                                          style=Qt.PenStyle.DashLine),
                                     name="interpolated (max precision at recall ≥ r)")
        lv = np.asarray(LEVELS)
        iv = lesson.interpolated_at(LEVELS, upto)
        marks = self.plot_item.plot(lv, iv, pen=None, symbol="x", symbolSize=9,
                                    symbolPen=INTERP, symbolBrush=INTERP)
        self.add_target(lv, iv, [f"recall level {a:.1f}\ninterpolated precision {b:.4f}"
                                 for a, b in zip(lv, iv)], marks)
        row = lesson.ranked.iloc[upto - 1] if 0 < upto <= lesson.num_ret else None
        if row is not None:
            here = self.plot_item.plot([row["recall"]], [row["precision"]], pen=None,
                                       symbol="s", symbolSize=8, symbolBrush="#2ca02c",
                                       symbolPen="#2ca02c", name=f"now: rank {upto}")
            self.add_target([row["recall"]], [row["precision"]],
                            [f"after rank {upto} ({row['docno']})\nrecall "
                             f"{row['recall']:.4f}, precision {row['precision']:.4f}"], here)
        self.plot_item.setRange(xRange=(0, 1), yRange=(0, 1.02), padding=0.02)


class TieSpreadChart(ChartWidget):
    """Per topic: the range of a measure over random tie orders, and trec_eval's value."""

    export_name = "tie_sensitivity"

    def set_result(self, res: TieSensitivity, measure: str) -> None:
        f = res.topic_frame(measure)
        topics = list(f.index)
        o = res.overall.loc[measure]
        self.reset(f"{res.run_name}: {measure} under {res.n_orders} random tie orders — "
                   f"mean {o['mean']:.4f} (range {o['min']:.4f}–{o['max']:.4f}), "
                   f"trec_eval {o['trec_eval']:.4f}", "Topic", measure)
        x = np.arange(len(topics), dtype=float)
        lo, hi = f["min"].to_numpy(), f["max"].to_numpy()
        bars = pg.BarGraphItem(x=x, y0=lo, height=np.maximum(hi - lo, 1e-9), width=0.6,
                               brush=pg.mkBrush("#9ecae1"), pen=pg.mkPen("#3182bd"))
        self.plot_item.addItem(bars)
        det = f["trec_eval"].to_numpy()
        dots = self.plot_item.plot(x, det, pen=None, symbol="o", symbolSize=6,
                                   symbolBrush="#d62728", symbolPen="#d62728",
                                   name="trec_eval (ties by docno, descending)")
        self.add_target(x, det, [f"topic {t}: trec_eval {d:.4f}\nrandom orders: "
                                 f"{a:.4f}–{b:.4f} (mean {m:.4f}); "
                                 f"{c:.0%} of orders differ"
                                 for t, d, a, b, m, c in zip(topics, det, lo, hi, f["mean"],
                                                             f["changed"])],
                        dots, topics=topics, mode="x")
        self.set_topic_ticks(topics)
