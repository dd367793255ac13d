"""Charts of the teaching mode: the recall-precision curve of one topic as it builds up
rank by rank, and the spread of a measure under random orders of tied documents.

They draw :class:`yardstick.explain.topic_lesson.TopicLesson` and
:class:`yardstick.explain.tie_sensitivity.TieSensitivity`; nothing is computed here.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from yardstick.explain.tie_sensitivity import TieSensitivity
from yardstick.explain.topic_lesson import LEVELS, TopicLesson
from yardstick.gui.charts.base import ChartWidget

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
        self.plot_item.plot(sx, sy, pen=pg.mkPen(INTERP, width=2,
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
    """Per topic: how far random tie orders move a measure from trec_eval's value.

    Bars span ``min - trec_eval`` .. ``max - trec_eval``, dots mark the mean;
    the zero line is trec_eval's value (ties broken by docno, descending).
    """

    export_name = "tie_sensitivity"

    def set_result(self, res: TieSensitivity, measure: str) -> None:
        f = res.topic_frame(measure)
        topics = list(f.index)
        self.reset(f"{measure}: change from trec_eval's value under {res.n_orders} random "
                   "tie orders", "Topic", f"{measure} − trec_eval")
        x = np.arange(len(topics), dtype=float)
        det = f["trec_eval"].to_numpy()
        lo, hi, mean = (f["min"].to_numpy() - det, f["max"].to_numpy() - det,
                        f["mean"].to_numpy() - det)
        bars = pg.BarGraphItem(x=x, y0=lo, height=hi - lo, width=0.7,
                               brush=pg.mkBrush("#9ecae1"), pen=pg.mkPen("#3182bd"))
        self.plot_item.addItem(bars)
        self.plot_item.addItem(pg.InfiniteLine(pos=0, angle=0, pen=pg.mkPen("#d62728")))
        dots = self.plot_item.plot(x, mean, pen=None, symbol="o", symbolSize=5,
                                   symbolBrush="#08519c", symbolPen="#08519c",
                                   name="mean over random orders")
        self.add_target(x, mean, [f"topic {t}: trec_eval {d:.4f}\nrandom orders: "
                                  f"{a:.4f} to {b:.4f} (mean {m:.4f})\n"
                                  f"{c:.0%} of the orders give another value"
                                  for t, d, a, b, m, c in zip(topics, det, f["min"], f["max"],
                                                              f["mean"], f["changed"])],
                        dots, topics=topics, mode="x")
        self.set_topic_ticks(topics, max_labels=16)
