"""Per-topic spread over runs (robust overview Figure 2): median and maximum per topic,
or box plots ordered by median; difficult topics highlighted — drawn from
:func:`yardstick.presentation.charts.specs.topic_spread_figure`."""

from __future__ import annotations

from collections.abc import Iterable

from yardstick.gui.charts.base import ChartWidget
from yardstick.presentation.charts.specs import topic_spread_figure
from yardstick.presentation.charts.topic_spread import TopicSpread


class TopicSpreadChart(ChartWidget):
    export_name = "topic_spread"

    def set_data(self, spread: TopicSpread, boxes: bool = False,
                 highlight: Iterable[str] = ()) -> None:
        self.show_figure(topic_spread_figure(spread, boxes, highlight))
