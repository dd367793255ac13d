"""Per-topic spread over runs (robust overview Figure 2): median and maximum per topic,
or box plots ordered by median; difficult topics highlighted — drawn from
:func:`yardstick.charts.specs.topic_spread_figure`."""

from __future__ import annotations

from collections.abc import Iterable

from yardstick.charts.specs import topic_spread_figure
from yardstick.charts.topic_spread import TopicSpread
from yardstick.gui.charts.base import ChartWidget


class TopicSpreadChart(ChartWidget):
    export_name = "topic_spread"

    def set_data(self, spread: TopicSpread, boxes: bool = False,
                 highlight: Iterable[str] = ()) -> None:
        self.show_figure(topic_spread_figure(spread, boxes, highlight))
