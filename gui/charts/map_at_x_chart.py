"""MAP(X) vs X (robust overview Figure 4), drawn from
:func:`yardstick.presentation.charts.specs.map_at_x_figure`."""

from __future__ import annotations

from yardstick.gui.charts.base import ChartWidget
from yardstick.presentation.charts.map_at_x import MapAtX
from yardstick.presentation.charts.specs import map_at_x_figure


class MapAtXChart(ChartWidget):
    export_name = "map_at_x"

    def set_data(self, mx: MapAtX, colors: dict[str, str] | None = None,
                 worst_quarter_only: bool = False, caption: str = "") -> None:
        self.show_figure(map_at_x_figure(mx, colors, worst_quarter_only, caption))
