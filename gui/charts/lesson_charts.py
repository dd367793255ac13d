"""Charts of the teaching mode: the recall-precision curve of one topic as it builds up
rank by rank, and the spread of a measure under random orders of tied documents.

They draw :class:`yardstick.analysis.explain.topic_lesson.TopicLesson` and
:class:`yardstick.analysis.explain.tie_sensitivity.TieSensitivity` through the figures defined
in :mod:`yardstick.presentation.charts.lesson_specs`; nothing is computed or styled here.
"""

from __future__ import annotations

from dataclasses import replace

from yardstick.analysis.explain.tie_sensitivity import TieSensitivity
from yardstick.analysis.explain.topic_lesson import TopicLesson
from yardstick.gui.charts.base import ChartWidget
from yardstick.presentation.charts.lesson_specs import lesson_curve_figure, tie_spread_figure

#: characters of a run name in the curve's title (elided in the middle beyond)
RUN_IN_TITLE = 20


class LessonCurveChart(ChartWidget):
    """Precision at each relevant document and the interpolated curve, up to a rank."""

    export_name = "recall_precision_lesson"

    def set_lesson(self, lesson: TopicLesson, upto: int | None = None) -> None:
        spec = lesson_curve_figure(lesson, upto)
        name = lesson.run_name
        if len(name) > RUN_IN_TITLE:   # a long run name (named in full beside the chart)
            half = RUN_IN_TITLE // 2   # wrapped the title onto 3 lines over a 30-px plot
            spec = replace(spec, title=spec.title.replace(name, f"{name[:half]}…"
                                                                f"{name[-half:]}", 1))
        self.show_figure(spec)


class TieSpreadChart(ChartWidget):
    """Per topic: how far random tie orders move a measure from trec_eval's value."""

    export_name = "tie_sensitivity"

    def set_result(self, res: TieSensitivity, measure: str) -> None:
        self.show_figure(tie_spread_figure(res, measure))
