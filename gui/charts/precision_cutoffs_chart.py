"""Precision at document cutoffs P@5 … P@1000 (TREC appendix Table 3), log-scaled cutoffs."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from yardstick.charts.precision_cutoffs import PrecisionAtCutoffs
from yardstick.gui.charts.base import ChartWidget, run_color


class PrecisionCutoffsChart(ChartWidget):
    export_name = "precision_at_cutoffs"

    def set_data(self, pc: PrecisionAtCutoffs, colors: dict[str, str] | None = None) -> None:
        self.reset("Precision at document cutoffs", "Documents retrieved (log scale)",
                   "Precision")
        lx = np.log10(pc.cutoffs.astype(float))
        for i, run in enumerate(pc.runs):
            c = run_color(run, i, colors)
            item = self.plot_item.plot(lx, pc.precision[i], pen=pg.mkPen(c, width=2),
                                       symbol="o", symbolSize=6, symbolBrush=c, symbolPen=c,
                                       name=run)
            self.add_target(lx, pc.precision[i], [f"{run}\nP@{k} = {v:.4f}" for k, v in
                                                 zip(pc.cutoffs, pc.precision[i])], item)
        self.plot_item.getAxis("bottom").setTicks([[(v, str(k)) for v, k in
                                                    zip(lx, pc.cutoffs)], []])
