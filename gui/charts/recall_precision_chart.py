"""Recall-precision graphs (TREC appendix Figure 1): averaged 11-point curves of
several runs, or one topic's actual points and interpolated curve — drawn from
:func:`yardstick.presentation.charts.specs.recall_precision_figure` and
:func:`~yardstick.presentation.charts.specs.topic_recall_precision_figure`."""

from __future__ import annotations

from yardstick.gui.charts.base import ChartWidget
from yardstick.presentation.charts.recall_precision import (
    RecallPrecisionCurves,
    TopicRecallPrecision,
)
from yardstick.presentation.charts.specs import (
    recall_precision_figure,
    topic_recall_precision_figure,
)


class RecallPrecisionChart(ChartWidget):
    export_name = "recall_precision"

    def set_curves(self, curves: RecallPrecisionCurves, colors: dict[str, str] | None = None,
                   caption: str = "") -> None:
        self.show_figure(recall_precision_figure(curves, colors, caption))

    def set_topic(self, trp: TopicRecallPrecision) -> None:
        self.show_figure(topic_recall_precision_figure(trp))
