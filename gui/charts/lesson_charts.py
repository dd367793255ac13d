"""Charts of the teaching mode: the recall-precision curve of one topic as it builds up
rank by rank, and the spread of a measure under random orders of tied documents.

They draw :class:`yardstick.analysis.explain.topic_lesson.TopicLesson` and
:class:`yardstick.analysis.explain.tie_sensitivity.TieSensitivity` through the figures defined
in :mod:`yardstick.presentation.charts.lesson_specs`; nothing is computed or styled here.
"""

from __future__ import annotations

from yardstick.analysis.explain.tie_sensitivity import TieSensitivity
from yardstick.analysis.explain.topic_lesson import TopicLesson
from yardstick.gui.charts.base import ChartWidget
from yardstick.presentation.charts.lesson_specs import lesson_curve_figure, tie_spread_figure


class LessonCurveChart(ChartWidget):
    """Precision at each relevant document and the interpolated curve, up to a rank."""

    export_name = "recall_precision_lesson"

    def set_lesson(self, lesson: TopicLesson, upto: int | None = None) -> None:
        self.show_figure(lesson_curve_figure(lesson, upto))


class TieSpreadChart(ChartWidget):
    """Per topic: how far random tie orders move a measure from trec_eval's value."""

    export_name = "tie_sensitivity"

    def set_result(self, res: TieSensitivity, measure: str) -> None:
        self.show_figure(tie_spread_figure(res, measure))
