"""MAP(X) vs X (robust overview Figure 4), full range or the worst quarter; the
legend gives each run's area over the worst quarter."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt

from yardstick.charts.map_at_x import MapAtX
from yardstick.gui.charts.base import ChartWidget, run_color


class MapAtXChart(ChartWidget):
    export_name = "map_at_x"

    def set_data(self, mx: MapAtX, colors: dict[str, str] | None = None,
                 worst_quarter_only: bool = False) -> None:
        stop = mx.x_max if worst_quarter_only else len(mx.x)
        self.reset(f"{mx.measure}(X) vs X" + (" (worst quarter)" if worst_quarter_only else ""),
                   "X (worst topics)", f"{mx.measure}(X)")
        for i, run in enumerate(mx.runs):
            c = run_color(run, i, colors)
            x, y = mx.x[:stop], mx.values[i, :stop]
            item = self.plot_item.plot(x, y, pen=pg.mkPen(c, width=2),
                                       name=f"{run} (area {mx.area[i]:.4f})")
            self.add_target(x, y, [f"{run}\n{mx.measure}(X={k}) = {v:.4f}"
                                   for k, v in zip(x, y)], item)
        self.plot_item.addItem(pg.InfiniteLine(pos=mx.x_max, angle=90,
                                               pen=pg.mkPen("#888", style=Qt.PenStyle.DotLine)))
