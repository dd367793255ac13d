"""Two measures over runs: one point per run, labelled; the title gives Pearson's r
and Kendall's tau."""

from __future__ import annotations

import pyqtgraph as pg

from yardstick.charts.measure_scatter import MeasureScatter
from yardstick.gui.charts.base import ChartWidget, run_color


class MeasureScatterChart(ChartWidget):
    export_name = "measure_scatter"

    def set_data(self, sc: MeasureScatter, colors: dict[str, str] | None = None) -> None:
        self.reset(f"{sc.y_measure} vs {sc.x_measure}: Pearson r = {sc.pearson:.3f}, "
                   f"Kendall τ = {sc.kendall:.3f}", sc.x_measure, sc.y_measure)
        for i, run in enumerate(sc.runs):
            c = run_color(run, i, colors)
            item = self.plot_item.plot([sc.x[i]], [sc.y[i]], pen=None, symbol="o",
                                       symbolSize=10, symbolBrush=c, symbolPen="k", name=run)
            label = pg.TextItem(run, color=c, anchor=(0, 1))
            label.setPos(sc.x[i], sc.y[i])
            self.plot_item.addItem(label)
            item.visibleChanged.connect(lambda it=item, lb=label: lb.setVisible(it.isVisible()))
            self.add_target([sc.x[i]], [sc.y[i]],
                            [f"{run}\n{sc.x_measure} = {sc.x[i]:.4f}\n"
                             f"{sc.y_measure} = {sc.y[i]:.4f}"], item)
        if len(sc.runs):
            self.plot_item.setRange(xRange=(sc.x.min(), sc.x.max()),
                                    yRange=(sc.y.min(), sc.y.max()), padding=0.15)
