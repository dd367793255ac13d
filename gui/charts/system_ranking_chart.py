"""Every run's mean with its 95 % confidence interval, best at the top
(:mod:`yardstick.presentation.charts.system_ranking`), drawn from
:func:`yardstick.presentation.charts.specs.system_ranking_figure`; the baseline in red."""

from __future__ import annotations

from yardstick.gui.charts.base import ChartWidget
from yardstick.gui.charts.chart_kinds import SYSTEM_LABELS
from yardstick.presentation.charts.specs import system_ranking_figure
from yardstick.presentation.charts.system_ranking import SystemRanking

#: run names written on the axis at most (every k-th beyond that; hover names them all)
MAX_LABELS = SYSTEM_LABELS


class SystemRankingChart(ChartWidget):
    export_name = "system_ranking"

    def set_data(self, sr: SystemRanking, colors: dict[str, str] | None = None,
                 caption: str = "") -> None:
        self.show_figure(system_ranking_figure(sr, caption, MAX_LABELS))
