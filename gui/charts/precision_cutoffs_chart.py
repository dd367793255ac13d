"""Precision at document cutoffs P@5 … P@1000 (TREC appendix Table 3), drawn from
:func:`yardstick.presentation.charts.specs.precision_cutoffs_figure`."""

from __future__ import annotations

from yardstick.gui.charts.base import ChartWidget
from yardstick.presentation.charts.precision_cutoffs import PrecisionAtCutoffs
from yardstick.presentation.charts.specs import precision_cutoffs_figure


class PrecisionCutoffsChart(ChartWidget):
    export_name = "precision_at_cutoffs"

    def set_data(self, pc: PrecisionAtCutoffs, colors: dict[str, str] | None = None,
                 caption: str = "") -> None:
        self.show_figure(precision_cutoffs_figure(pc, colors, caption))
