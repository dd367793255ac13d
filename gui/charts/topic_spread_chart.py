"""Per-topic spread over runs (robust overview Figure 2): median (filled) and maximum
(hollow) per topic, or box plots ordered by median; difficult topics highlighted."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pyqtgraph as pg

from yardstick.charts.topic_spread import TopicSpread
from yardstick.gui.charts.base import ChartWidget


class TopicSpreadChart(ChartWidget):
    export_name = "topic_spread"

    def set_data(self, spread: TopicSpread, boxes: bool = False,
                 highlight: Iterable[str] = ()) -> None:
        kind = "Box plots" if boxes else "Median and maximum"
        self.reset(f"{kind} of {spread.measure} over {spread.scores.shape[1]} runs",
                   "Topic (by decreasing median)", spread.measure)
        n = len(spread.topics)
        x = np.arange(n, dtype=float)
        out = spread.high_outliers.to_numpy()
        texts = []
        for i, t in enumerate(spread.topics):
            hi = [r for r, o in zip(spread.scores.columns, out[i]) if o]
            texts.append(f"topic {t}\nmedian {spread.median[i]:.4f}  max {spread.maximum[i]:.4f}"
                         f"\nq1 {spread.q1[i]:.4f}  q3 {spread.q3[i]:.4f}"
                         + (f"\nhigh outliers: {', '.join(hi)}" if hi else ""))
        hl = set(map(str, highlight))
        if hl:
            idx = [i for i, t in enumerate(spread.topics) if t in hl]
            band = pg.BarGraphItem(x=np.asarray(idx, float), height=np.full(len(idx), 1.0),
                                   y0=0, width=0.9, brush=pg.mkBrush(255, 200, 0, 70), pen=None)
            self.plot_item.addItem(band)
            self.legend.addItem(band, "difficult")
        if boxes:
            box = pg.BarGraphItem(x=x, y0=spread.q1, height=spread.q3 - spread.q1, width=0.6,
                                  brush=pg.mkBrush("#aec7e8"), pen=pg.mkPen("#1f77b4"))
            self.plot_item.addItem(box)
            self.legend.addItem(box, "box (q1–q3)")
            wx = np.repeat(x, 4)
            wy = np.column_stack([spread.whisker_low, spread.q1, spread.q3,
                                  spread.whisker_high]).ravel()
            self.plot_item.plot(wx, wy, pen=pg.mkPen("#1f77b4"), connect="pairs")
            mx = np.column_stack([x - 0.3, x + 0.3]).ravel()
            my = np.repeat(spread.median, 2)
            self.plot_item.plot(mx, my, pen=pg.mkPen("#d62728", width=2), connect="pairs",
                                name="median")
            pts = spread.outlier_points()
            pos = {t: i for i, t in enumerate(spread.topics)}
            ox = pts["topic"].map(pos).to_numpy(float)
            oy = pts["value"].to_numpy(float)
            oi = self.plot_item.plot(ox, oy, pen=None, symbol="o", symbolSize=6,
                                     symbolBrush=None, symbolPen="k", name="outliers")
            self.add_target(ox, oy, [f"topic {t}\n{r}: {v:.4f} ({s} outlier)" for t, r, v, s
                                     in pts[["topic", "run", "value", "side"]].itertuples(
                                         index=False)], oi, list(pts["topic"]))
            self.add_target(x, spread.median, texts, box, spread.topics, mode="x")
        else:
            med = self.plot_item.plot(x, spread.median, pen=None, symbol="o", symbolSize=7,
                                      symbolBrush="#1f77b4", symbolPen="#1f77b4", name="median")
            mx_ = self.plot_item.plot(x, spread.maximum, pen=None, symbol="t1", symbolSize=8,
                                      symbolBrush=None, symbolPen=pg.mkPen("#d62728", width=1.5),
                                      name="maximum")
            self.add_target(x, spread.median, texts, med, spread.topics)
            self.add_target(x, spread.maximum, texts, mx_, spread.topics)
        self.set_topic_ticks(spread.topics)
        self.plot_item.setRange(xRange=(-1, n), yRange=(0, 1), padding=0.02)
