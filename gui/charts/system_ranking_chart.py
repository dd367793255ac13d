"""Every run's mean with its 95 % confidence interval, best at the top
(:mod:`yardstick.charts.system_ranking`); the baseline in red."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from yardstick.charts.system_ranking import SystemRanking
from yardstick.gui.charts.base import ChartWidget

#: run names written on the axis at most (every k-th beyond that; hover names them all)
MAX_LABELS = 40


class SystemRankingChart(ChartWidget):
    export_name = "system_ranking"

    def set_data(self, sr: SystemRanking, colors: dict[str, str] | None = None) -> None:
        pct = f"{sr.confidence:.0%}"
        self.reset(f"Runs by mean {sr.measure} with {pct} confidence intervals",
                   f"mean {sr.measure} over topics", "")
        k = len(sr.runs)
        y = np.arange(k, dtype=float)
        ok = np.isfinite(sr.low) & np.isfinite(sr.high)
        base = np.array([r == sr.baseline for r in sr.runs])
        if ok.any():
            err = pg.ErrorBarItem(x=sr.mean[ok], y=y[ok], left=(sr.mean - sr.low)[ok],
                                  right=(sr.high - sr.mean)[ok], beam=0.25,
                                  pen=pg.mkPen("#555", width=1.5))
            self.plot_item.addItem(err)
        brushes = [pg.mkBrush("#d62728" if b else "#1f77b4") for b in base]
        dots = pg.ScatterPlotItem(x=sr.mean, y=y, size=8, brush=brushes, pen=pg.mkPen(None))
        self.plot_item.addItem(dots)
        texts = [f"#{i + 1} {r}{' (baseline)' if b else ''}\nmean {m:.4f}\n{pct} CI "
                 f"[{lo:.4f}, {hi:.4f}] over {n} topics"
                 for i, (r, b, m, lo, hi, n) in enumerate(zip(sr.runs, base, sr.mean, sr.low,
                                                              sr.high, sr.topics))]
        self.add_target(sr.mean, y, texts, dots)
        step = max(1, int(np.ceil(k / MAX_LABELS)))
        labels = [(i, f"{r} ◀" if base[i] else r) for i, r in enumerate(sr.runs)
                  if i % step == 0 or base[i]]
        self.plot_item.getAxis("left").setTicks([labels, []])
        self.plot_item.invertY(True)
        self.plot_item.setYRange(-0.7, k - 0.3, padding=0)
