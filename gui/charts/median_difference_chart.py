"""Per-topic difference from the median (TREC appendix Figure 2): one bar per topic,
optional markers for the best run on each topic; clicking a bar opens the topic."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from yardstick.charts.median_difference import MedianDifference
from yardstick.gui.charts.base import ChartWidget


class MedianDifferenceChart(ChartWidget):
    export_name = "median_difference"

    def set_data(self, md: MedianDifference, show_max: bool = True) -> None:
        self.reset(f"{md.measure}: {md.run} − median of {md.source or f'{md.n_runs} runs'}",
                   "Topic", f"{md.measure} − median")
        x = np.arange(len(md.topics), dtype=float)
        d = md.difference
        brushes = [pg.mkBrush("#2ca02c" if v >= 0 else "#d62728") for v in d]
        bars = pg.BarGraphItem(x=x, height=d, width=0.8, brushes=brushes, pen=None,
                               name=f"{md.run} − median")
        self.plot_item.addItem(bars)            # the name puts it in the legend
        texts = [f"topic {t}\n{md.run}: {v:.4f}\nmedian: {m:.4f}\ndifference: {dd:+.4f}\n"
                 f"best: {b:.4f}" for t, v, m, dd, b in zip(md.topics, md.value, md.median, d,
                                                            md.maximum)]
        self.add_target(x, d, texts, bars, md.topics, mode="x")
        if show_max:
            marks = self.plot_item.plot(x, md.max_difference, pen=None, symbol="t1",
                                        symbolSize=7, symbolBrush="k", symbolPen="k",
                                        name="best − median")
            self.add_target(x, md.max_difference, texts, marks, md.topics)
        self.plot_item.addItem(pg.InfiniteLine(pos=0, angle=0, pen=pg.mkPen("k", width=1)))
        self.set_topic_ticks(md.topics)
        lim = max(1.0, float(np.nanmax(np.abs(np.r_[d, md.max_difference, 0]))))
        self.plot_item.setRange(xRange=(-1, len(x)), yRange=(-lim, lim), padding=0.02)
