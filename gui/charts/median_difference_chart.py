"""Per-topic difference from the median (TREC appendix Figure 2), drawn from
:func:`yardstick.presentation.charts.specs.median_difference_figure`; clicking a bar opens the
topic."""

from __future__ import annotations

from yardstick.gui.charts.base import ChartWidget
from yardstick.presentation.charts.median_difference import MedianDifference
from yardstick.presentation.charts.specs import median_difference_figure


class MedianDifferenceChart(ChartWidget):
    export_name = "median_difference"

    def set_data(self, md: MedianDifference, show_max: bool = True) -> None:
        self.show_figure(median_difference_figure(md, show_max))
