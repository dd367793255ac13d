"""Recall-precision graphs (TREC appendix Figure 1): averaged 11-point curves of
several runs, or one topic's actual points (circles, solid line) and interpolated
curve (dashed)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt

from yardstick.charts.recall_precision import RecallPrecisionCurves, TopicRecallPrecision
from yardstick.gui.charts.base import ChartWidget, run_color


class RecallPrecisionChart(ChartWidget):
    export_name = "recall_precision"

    def set_curves(self, curves: RecallPrecisionCurves, colors: dict[str, str] | None = None
                   ) -> None:
        self.reset("Recall-Precision Curve", "Recall", "Precision")
        for i, run in enumerate(curves.runs):
            c = run_color(run, i, colors)
            y = curves.precision[i]
            label = run if curves.map is None else f"{run} (MAP {curves.map[i]:.4f})"
            item = self.plot_item.plot(curves.levels, y, pen=pg.mkPen(c, width=2), symbol="o",
                                       symbolSize=6, symbolBrush=c, symbolPen=c, name=label)
            self.add_target(curves.levels, y, [f"{run}\nrecall {lv:.2f}: precision {p:.4f}"
                                               for lv, p in zip(curves.levels, y)], item)
        self.plot_item.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.02)

    def set_topic(self, trp: TopicRecallPrecision) -> None:
        self.reset(f"Topic {trp.topic}" + (f" — {trp.run}" if trp.run else "")
                   + f" (R = {trp.num_rel}, AP {trp.average_precision:.4f})",
                   "Recall", "Precision")
        actual = self.plot_item.plot(trp.recall, trp.precision, pen=pg.mkPen("#1f77b4", width=2),
                                     symbol="o", symbolSize=9, symbolBrush=None,
                                     symbolPen=pg.mkPen("#1f77b4", width=2), name="actual")
        self.add_target(trp.recall, trp.precision,
                        [f"relevant #{j + 1} at rank {k}\nrecall {r:.4f}, precision {p:.4f}"
                         for j, (k, r, p) in enumerate(zip(trp.relevant_ranks, trp.recall,
                                                           trp.precision))], actual)
        interp = self.plot_item.plot(trp.step_recall, trp.step_precision,
                                     pen=pg.mkPen("#d62728", width=2,
                                                  style=Qt.PenStyle.DashLine),
                                     name="interpolated")
        levels = self.plot_item.plot(trp.levels, trp.interpolated, pen=None, symbol="x",
                                     symbolSize=8, symbolPen="#d62728", symbolBrush="#d62728")
        self.add_target(trp.levels, trp.interpolated,
                        [f"recall level {lv:.2f}\ninterpolated precision {p:.4f}"
                         for lv, p in zip(trp.levels, trp.interpolated)], interp)
        levels.setVisible(True)
        self.plot_item.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.03)
