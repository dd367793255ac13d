"""Stability: can this topic set tell these runs apart? (numbers: yardstick.analysis.stability)

The panel collects the choices (analysis, measures, topic group and a group to
compare with, seed, B, bins, fuzziness, α, β ...), runs
:func:`yardstick.analysis.stability.report.run_stability` through the job runner (progress,
cancel) and shows its tables and charts: the grid of swap-rate-vs-n plots per
difference bin with the fitted ``A1·exp(−A2·n)`` curves ("Measuring the
measure"), the ASL curves of the paired bootstrap test, the Kendall τ / τ_AP
heat map between measures, and bars for error rates and Tukey groups.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QWidget,
)

from yardstick.analysis.stability.analyses import REGISTRY
from yardstick.analysis.stability.report import (
    ANALYSES,
    ANALYSIS_TITLES,
    ANSWER_COLUMNS,
    StabilityReport,
    StabilitySettings,
    run_stability,
    score_matrices,
)
from yardstick.gui.app_state import AppState
from yardstick.gui.charts.render_pg import draw_figure
from yardstick.gui.gil_sharing import next_turn
from yardstick.gui.jobs import JobRunner
from yardstick.gui.panels.analysis_panel_base import AnalysisPanel, column, form
from yardstick.presentation.charts import stability_specs as specs
from yardstick.presentation.charts.run_filter import EXTRAS_KEY, RunFilter

ALL_TOPICS = "All topics"
NONE = "—"
#: made from per-topic map (yardstick.analysis.stability.aggregates)
EXTRA_MEASURES = ("area", "map_worst")
#: plots of a figure built per turn of the event loop (15-35 ms each, with its relayout)
PLOTS_PER_TURN = 1


class StabilityPanel(AnalysisPanel):
    TITLE = "Stability"
    JOB_KEY = "stability"
    ELSEWHERE = True
    ANSWER_COLUMNS = ("measure", *ANSWER_COLUMNS)
    #: choices kept in the session (yardstick.gui.panel_choices)
    CHOICES = ("analysis", "measures", "group", "versus", "seed", "samples", "bin_width",
               "fuzziness", "subset", "confidence", "alpha", "beta", "min_diffs")

    def __init__(self, state: AppState, jobs: JobRunner, parent=None):
        super().__init__(state, jobs, parent)
        self.report: StabilityReport | None = None
        self.analysis = QComboBox()
        for a in ANALYSES:
            self.analysis.addItem(ANALYSIS_TITLES[a], a)
            self.analysis.setItemData(self.analysis.count() - 1, ANALYSIS_TITLES[a],
                                      Qt.ItemDataRole.ToolTipRole)
        self.analysis.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.analysis.view().setMinimumWidth(self.analysis.view().sizeHintForColumn(0) + 24)
        self.measures = QListWidget()
        self.group = QComboBox()
        self.versus = QComboBox()
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        self.samples = QSpinBox(minimum=10, maximum=100_000, singleStep=100, value=1000)
        self.bin_width = QDoubleSpinBox(decimals=3, minimum=0.001, maximum=1.0, singleStep=0.005,
                                        value=0.01)
        self.fuzziness = QDoubleSpinBox(decimals=3, minimum=0.0, maximum=0.5, singleStep=0.01,
                                        value=0.05)
        self.subset = QSpinBox(minimum=0, maximum=100_000, value=0, specialValueText="N/2")
        self.confidence = QDoubleSpinBox(decimals=3, minimum=0.5, maximum=0.999,
                                         singleStep=0.01, value=0.95)
        self.alpha = QDoubleSpinBox(decimals=3, minimum=0.001, maximum=0.5, singleStep=0.01,
                                    value=0.05)
        self.beta = QDoubleSpinBox(decimals=3, minimum=0.01, maximum=0.9, singleStep=0.05,
                                   value=0.20)
        self.min_diffs = QLineEdit("0.02, 0.05, 0.1")
        rows = form((("Topics", self.group), ("Compare with", self.versus), ("Seed", self.seed),
                     ("Samples (B)", self.samples), ("Bin width", self.bin_width),
                     ("Fuzziness", self.fuzziness), ("Subset size", self.subset),
                     ("Confidence", self.confidence), ("α", self.alpha), ("β", self.beta),
                     ("Min. differences", self.min_diffs)))
        # the analysis on a row of its own: its names ("Swap rates (Voorhees–Buckley)") were
        # cut to "Swap rates (Voorhees–Buckl" beside a label at 1280x800
        controls = column("Analysis", self.analysis, "Measures", (self.measures, 1), rows)
        self.install_results(controls, "Choose an analysis and press Run.", charts_first=False,
                             controls_width=220)
        state.changed.connect(self._changed)
        self._changed("runs")

    # ---------------------------------------------------------------- API (tests use it)
    def configure(self, analysis: str | None = None, measures: list[str] | None = None,
                  group: str | None = None, versus: str | None = None, seed: int | None = None,
                  samples: int | None = None) -> None:
        if analysis is not None:
            self.analysis.setCurrentIndex(ANALYSES.index(analysis))
        if measures is not None:
            for i in range(self.measures.count()):
                it = self.measures.item(i)
                it.setCheckState(Qt.CheckState.Checked if it.text() in measures
                                 else Qt.CheckState.Unchecked)
        if group is not None:
            self.group.setCurrentText(group)
        if versus is not None:
            self.versus.setCurrentText(versus)
        if seed is not None:
            self.seed.setValue(seed)
        if samples is not None:
            self.samples.setValue(samples)

    def chosen_measures(self) -> list[str]:
        return [self.measures.item(i).text() for i in range(self.measures.count())
                if self.measures.item(i).checkState() == Qt.CheckState.Checked]

    def settings(self) -> StabilitySettings:
        try:
            diffs = tuple(float(x) for x in self.min_diffs.text().replace(",", " ").split())
        except ValueError:
            diffs = (0.02, 0.05, 0.1)
        return StabilitySettings(
            samples=self.samples.value(), seed=self.seed.value(),
            bin_width=self.bin_width.value(), subset_size=self.subset.value() or None,
            fuzziness=self.fuzziness.value(), confidence=self.confidence.value(),
            alpha=self.alpha.value(), beta=self.beta.value(), min_diffs=diffs or (0.05,))

    def run(self) -> str:
        """Submit the chosen analysis; returns the job key ("" when nothing can run)."""
        evals = self.state.evaluations()
        measures = self.chosen_measures()
        if len(evals) < 2 or not measures:
            self.status.setText(self.state.evaluation_error or
                                "Load qrels and at least two runs, and tick a measure.")
            return ""
        analysis = self.analysis.currentData()
        self._used = tuple(evals)                 # said beside the result (runs_note)
        groups = self.state.workspace.topic_groups
        g, v = self.group.currentText(), self.versus.currentText()
        settings = self.settings()

        def job(executor=None):
            matrices, tie = score_matrices(evals, measures)
            topics = list(next(iter(matrices.values())).index)
            sets = {"all": topics} if g == ALL_TOPICS or g not in groups else {g: groups[g]}
            if v in groups and v not in sets:
                sets[v] = groups[v]
            return (yield from run_stability(matrices, [analysis], sets, settings, tie,
                                             executor))

        loading = (f" on the {len(evals)} runs evaluated so far (still loading)"
                   if self.loading_runs() else "")
        return self.start_job(job, self._show,
                              f"Computing {ANALYSIS_TITLES[analysis]} (seed {settings.seed}, "
                              f"B = {settings.samples}){loading}…")

    # ---------------------------------------------------------------- updates
    def _changed(self, what: str) -> None:
        if what == "extras" and self.report is not None and "tukey" in self.report.results:
            self._draw_chart()                  # the run filter may have changed
        if what in ("runs", "evaluations") and self.report is not None:
            self.status.setText(self._result_status())
        if what in ("runs", "evaluations", "measures", "workspace", "qrels"):
            cols = self.state.measure_columns()
            if "map" in cols:
                cols = cols + [m for m in EXTRA_MEASURES if m not in cols]
            checked = set(self.chosen_measures()) or set(cols[:2])
            self.measures.clear()
            for c in cols:
                it = QListWidgetItem(c)
                it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                it.setCheckState(Qt.CheckState.Checked if c in checked
                                 else Qt.CheckState.Unchecked)
                self.measures.addItem(it)
        if what in ("topic_groups", "workspace", "runs"):
            names = list(self.state.workspace.topic_groups)
            for combo, first in ((self.group, ALL_TOPICS), (self.versus, NONE)):
                cur = combo.currentText()
                combo.clear()
                combo.addItems([first, *names])
                if cur in names:
                    combo.setCurrentText(cur)

    def _show(self, report: StabilityReport) -> None:
        self._finished()
        self.report = report
        self.status.setText(self._result_status())
        self.fill_tables({t.name: t for t in report.tables},
                         {t.name: t.title for t in report.tables})
        charts = []
        for analysis, results in report.results.items():
            if REGISTRY[analysis].chart_of_all and results:   # e.g. all ASL curves at once
                charts.insert(0, (f"{ANALYSIS_TITLES[analysis]}: all", (analysis, None)))
            charts += [(f"{ANALYSIS_TITLES[analysis]}: {key[0]}, {key[1]}", (analysis, key))
                       for key in results]
        self.fill_charts(charts, draw=False)
        next_turn(self, self._draw_chart)       # the figure a turn after the tables

    def _result_status(self) -> str:
        s = self.report.settings
        note = self.runs_note(self._used)
        a = self.report.assumptions
        if a is None:
            return " ".join(x for x in (note, f"{len(self._used)} runs. Seed {s.seed}, "
                                              f"B = {s.samples}.", *self.report.notes) if x)
        # the assumptions once (a note true of every measure is said once, in core)
        said = "; ".join(f"{k}: {v}" for k, v in a.items() if k != "note")
        return "\n".join(x for x in (note, f"Assumptions: {said}.", *self.report.notes) if x)

    def table_frame(self, key: str):
        t = self._tables[key]
        return t.frame.reset_index() if t.index else t.frame

    # ---------------------------------------------------------------- charts
    def chart_figure(self):
        """The figure spec of the chart chosen
        (:mod:`yardstick.presentation.charts.stability_specs`)."""
        data = self.chart_choice.currentData()
        if self.report is None or data is None:
            return None
        ws = self.state.workspace
        flt = RunFilter.from_dict(ws.extras.get(EXTRAS_KEY))      # the Charts panel's filter
        teams = {n: (e.group or n) for n, e in ws.runs.items()}
        return specs.stability_figure(self.report, *data, run_filter=flt, teams=teams)

    def _draw_chart(self) -> None:
        # in a shown window (on the Chart tab or behind the Tables one), a few plots per turn
        # of the event loop: a swap-rate grid has 20
        draw_figure(self.chart, self.chart_figure(),
                    per_turn=PLOTS_PER_TURN if self.window().isVisible() else None)

    def screenshot_items(self) -> dict[str, QWidget]:
        return {"table": self.table, "chart": self.chart}

