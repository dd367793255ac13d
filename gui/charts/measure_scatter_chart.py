"""Two measures over runs, drawn from
:func:`yardstick.presentation.charts.specs.measure_scatter_figure`."""

from __future__ import annotations

from yardstick.gui.charts.base import ChartWidget
from yardstick.presentation.charts.measure_scatter import MeasureScatter
from yardstick.presentation.charts.specs import measure_scatter_figure


class MeasureScatterChart(ChartWidget):
    export_name = "measure_scatter"

    def set_data(self, sc: MeasureScatter, colors: dict[str, str] | None = None,
                 caption: str = "") -> None:
        self.show_figure(measure_scatter_figure(sc, colors, caption))
