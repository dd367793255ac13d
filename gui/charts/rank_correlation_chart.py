"""Heat map of Kendall's tau between the run rankings of measures (robust overview §2),
drawn from :func:`yardstick.presentation.charts.specs.rank_correlation_figure` (cells and a colour
scale made of filled rectangles: exports stay vector)."""

from __future__ import annotations

from yardstick.gui.charts.base import ChartWidget
from yardstick.presentation.charts.rank_correlation import RankCorrelation
from yardstick.presentation.charts.specs import rank_correlation_figure


class RankCorrelationChart(ChartWidget):
    export_name = "rank_correlation"

    def set_data(self, rc: RankCorrelation) -> None:
        self.show_figure(rank_correlation_figure(rc))
