"""Heat map of Kendall's tau between the run rankings of measures (robust overview §2)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF

from yardstick.charts.rank_correlation import RankCorrelation
from yardstick.gui.charts.base import ChartWidget


class RankCorrelationChart(ChartWidget):
    export_name = "rank_correlation"

    def set_data(self, rc: RankCorrelation) -> None:
        k = len(rc.measures)
        self.reset(f"Kendall's τ between run rankings ({len(rc.means)} runs)", "", "")
        img = pg.ImageItem(rc.tau.T)            # ImageItem: first axis is x
        cmap = pg.colormap.get("CET-D1")
        img.setLookupTable(cmap.getLookupTable(0.0, 1.0, 256))
        img.setLevels((-1, 1))
        img.setRect(QRectF(-0.5, -0.5, k, k))
        self.plot_item.addItem(img)
        xs, ys, texts = [], [], []
        for i in range(k):
            for j in range(k):
                t = pg.TextItem(f"{rc.tau[i, j]:.2f}", color="k", anchor=(0.5, 0.5))
                t.setPos(j, i)
                self.plot_item.addItem(t)
                xs.append(j)
                ys.append(i)
                texts.append(f"{rc.measures[i]} vs {rc.measures[j]}\n"
                             f"τ = {rc.tau[i, j]:.4f} (p = {rc.p_value[i, j]:.3g})")
        self.add_target(np.asarray(xs, float), np.asarray(ys, float), texts, img, mode="cell")
        ticks = [[(i, m) for i, m in enumerate(rc.measures)], []]
        self.plot_item.getAxis("bottom").setTicks(ticks)
        self.plot_item.getAxis("left").setTicks(ticks)
        self.plot_item.invertY(True)
        self.plot_item.setAspectLocked(True)
        self.plot_item.setRange(xRange=(-0.5, k - 0.5), yRange=(-0.5, k - 0.5), padding=0)
