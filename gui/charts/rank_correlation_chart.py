"""Heat map of Kendall's tau between the run rankings of measures (robust overview §2)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from yardstick.charts.rank_correlation import RankCorrelation
from yardstick.gui.charts.base import ChartWidget


class RankCorrelationChart(ChartWidget):
    export_name = "rank_correlation"

    def set_data(self, rc: RankCorrelation) -> None:
        k = len(rc.measures)
        self.reset(f"Kendall's τ between run rankings ({len(rc.means)} runs)", "", "")
        cmap = pg.colormap.get("CET-D1")
        # one filled square per cell (not an image): exports stay vector in SVG and PDF
        jj, ii = np.meshgrid(np.arange(k), np.arange(k))
        tau = rc.tau[ii.ravel(), jj.ravel()]
        colors = cmap.map((np.clip(tau, -1, 1) + 1) / 2, mode="qcolor")
        img = pg.BarGraphItem(x=jj.ravel().astype(float), y0=ii.ravel() - 0.5, height=1.0,
                              width=1.0, brushes=colors, pens=[pg.mkPen(None)] * len(tau))
        self.plot_item.addItem(img)
        self._add_color_scale(cmap, k)
        xs, ys, texts = [], [], []
        for i in range(k):
            for j in range(k):
                dark = abs(rc.tau[i, j]) > 0.7    # white figures on the darkest cells
                t = pg.TextItem(f"{rc.tau[i, j]:.2f}", color="w" if dark else "k",
                                anchor=(0.5, 0.5))
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
        self.plot_item.showGrid(x=False, y=False)
        self.plot_item.invertY(True)
        self.plot_item.setAspectLocked(True)
        self.plot_item.setRange(xRange=(-0.5, k + 0.9), yRange=(-0.8, k - 0.5), padding=0)

    def _add_color_scale(self, cmap, k: int) -> None:
        """A colour scale for τ from 1 (top) to −1 beside the matrix, drawn as filled
        rectangles and text like the cells, so that exports stay vector."""
        steps = 21
        values = np.linspace(1.0, -1.0, steps)
        colors = cmap.map((values + 1) / 2, mode="qcolor")
        step = k / steps
        bar = pg.BarGraphItem(x=np.full(steps, k + 0.25), y0=-0.5 + step * np.arange(steps),
                              height=step, width=0.3, brushes=colors,
                              pens=[pg.mkPen(None)] * steps)
        self.plot_item.addItem(bar)
        for v, y in ((1.0, -0.5 + step / 2), (0.0, -0.5 + k / 2), (-1.0, k - 0.5 - step / 2)):
            t = pg.TextItem(f"{v:+.0f}" if v else "0", color="k", anchor=(0, 0.5))
            t.setPos(k + 0.45, y)
            self.plot_item.addItem(t)
        label = pg.TextItem("τ", color="k", anchor=(0.5, 1.0))
        label.setPos(k + 0.25, -0.55)
        self.plot_item.addItem(label)
