"""Stability: can this topic set tell these runs apart? (all numbers from
yardstick.analysis.stability)

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
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from yardstick.analysis.stability.analyses import REGISTRY
from yardstick.analysis.stability.report import (
    ANALYSES,
    ANALYSIS_TITLES,
    StabilityReport,
    StabilitySettings,
    run_stability,
    score_matrices,
)
from yardstick.gui.app_state import AppState
from yardstick.gui.charts.render_pg import draw_figure
from yardstick.gui.gil_sharing import next_turn
from yardstick.gui.jobs import JobRunner
from yardstick.gui.results_area import (
    cancel_panel_job,
    install_results_area,
    loading_runs,
    runs_note,
    start_panel_job,
)
from yardstick.presentation.charts import stability_specs as specs
from yardstick.presentation.charts.run_filter import EXTRAS_KEY, RunFilter

ALL_TOPICS = "All topics"
NONE = "—"
JOB_KEY = "stability"
#: made from per-topic map (:mod:`yardstick.analysis.stability.aggregates`)
EXTRA_MEASURES = ("area", "map_worst")
#: plots of a figure built per turn of the event loop (15-35 ms each, with its relayout)
PLOTS_PER_TURN = 1


class StabilityPanel(QWidget):
    TITLE = "Stability"
    #: choices kept in the session (yardstick.gui.panel_choices)
    CHOICES = ("analysis", "measures", "group", "versus", "seed", "samples", "bin_width",
               "fuzziness", "subset", "confidence", "alpha", "beta", "min_diffs")

    def __init__(self, state: AppState, jobs: JobRunner, parent=None):
        super().__init__(parent)
        self.state = state
        self.jobs = jobs
        self.report: StabilityReport | None = None
        self._used_runs: tuple[str, ...] = ()
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
        self.run_button = QPushButton("Run")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        form = QFormLayout()
        for label, w in (("Topics", self.group),
                         ("Compare with", self.versus), ("Seed", self.seed),
                         ("Samples (B)", self.samples), ("Bin width", self.bin_width),
                         ("Fuzziness", self.fuzziness), ("Subset size", self.subset),
                         ("Confidence", self.confidence), ("α", self.alpha), ("β", self.beta),
                         ("Min. differences", self.min_diffs)):
            form.addRow(label, w)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        controls = QWidget()
        cl = QVBoxLayout(controls)
        cl.setContentsMargins(0, 0, 0, 0)
        # the analysis on a row of its own: its names ("Swap rates (Voorhees–Buckley)") were
        # cut to "Swap rates (Voorhees–Buckl" beside a label at 1280x800
        cl.addWidget(QLabel("Analysis"))
        cl.addWidget(self.analysis)
        cl.addWidget(QLabel("Measures"))
        cl.addWidget(self.measures, 1)
        cl.addLayout(form)
        footer = QWidget()                  # Run, Cancel and progress stay in view
        fl = QVBoxLayout(footer)
        fl.setContentsMargins(0, 2, 0, 0)
        fl.addLayout(buttons)
        fl.addWidget(self.progress)
        # ---- results
        install_results_area(self, controls, "Choose an analysis and press Run.", footer=footer,
                             charts_first=False,
                             chart_tab="Chart", controls_width=220)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.table_choice.currentIndexChanged.connect(lambda _: self._show_table())
        self.chart_choice.currentIndexChanged.connect(lambda _: self._draw_chart())
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
        self._used_runs = tuple(evals)            # said beside the result (runs_note)
        groups = self.state.workspace.topic_groups
        g, v = self.group.currentText(), self.versus.currentText()
        settings = self.settings()

        def job():
            matrices, tie = score_matrices(evals, measures)
            topics = list(next(iter(matrices.values())).index)
            sets = {"all": topics} if g == ALL_TOPICS or g not in groups else {g: groups[g]}
            if v in groups and v not in sets:
                sets[v] = groups[v]
            return (yield from run_stability(matrices, [analysis], sets, settings, tie))

        loading = (f" on the {len(evals)} runs evaluated so far (still loading)"
                   if loading_runs(self) else "")
        return start_panel_job(self, JOB_KEY, job, self._show,
                               f"Computing {ANALYSIS_TITLES[analysis]} (seed {settings.seed}, "
                               f"B = {settings.samples}){loading}…")

    def cancel(self) -> None:
        cancel_panel_job(self, JOB_KEY)

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

    def _idle(self) -> None:
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _failed(self, err) -> None:
        self._idle()
        self.status.setText(f"Failed: {err.message}")

    def _show(self, report: StabilityReport) -> None:
        self._idle()
        self.progress.setValue(1000)
        self.report = report
        self.status.setText(self._result_status())
        self.table_choice.blockSignals(True)
        self.table_choice.clear()
        for t in report.tables:
            self.table_choice.addItem(t.title, t.name)
        self.table_choice.blockSignals(False)
        self._show_table()
        self.chart_choice.blockSignals(True)
        self.chart_choice.clear()
        for analysis, results in report.results.items():
            for key in results:
                self.chart_choice.addItem(f"{ANALYSIS_TITLES[analysis]}: {key[0]}, {key[1]}",
                                          (analysis, key))
            if REGISTRY[analysis].chart_of_all and results:   # e.g. all ASL curves at once
                self.chart_choice.insertItem(0, f"{ANALYSIS_TITLES[analysis]}: all",
                                             (analysis, None))
        self.chart_choice.setCurrentIndex(0)
        self.chart_choice.blockSignals(False)
        next_turn(self, self._draw_chart)       # the figure a turn after the tables

    def _result_status(self) -> str:
        s = self.report.settings
        note = runs_note(self, self._used_runs)
        return " ".join(x for x in (note, f"{len(self._used_runs)} runs. Seed {s.seed}, "
                                          f"B = {s.samples}.", *self.report.notes) if x)

    def _show_table(self) -> None:
        if self.report is None or self.table_choice.currentIndex() < 0:
            return
        t = self.report.tables[self.table_choice.currentIndex()]
        self.table.set_frame(t.frame.reset_index() if t.index else t.frame)

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

