"""Compare: a baseline and runs, per topic, with significance (all numbers from
yardstick.analysis.significance).  The baseline defaults to the best run by the chosen
measure (said on the result); a run picked under Baseline is kept in the session."""

from __future__ import annotations

import threading

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from yardstick.analysis.significance import (
    CORRECTIONS,
    TESTS,
    Comparison,
    best_run,
    compare_runs_job,
    experiment_table_job,
)
from yardstick.evaluation.evaluation_service import score_matrix
from yardstick.gui.app_state import AppState
from yardstick.gui.charts.base import ChartWidget
from yardstick.gui.flow_bar import FlowBar, show_whole_text
from yardstick.gui.gil_sharing import after_paints, next_turn, until_set
from yardstick.gui.jobs import JobRunner
from yardstick.gui.lazy import LazyPanel
from yardstick.gui.table_view import FrameTableView, try_add_plot_export, try_add_table_export
from yardstick.gui.topic_groups import install_topic_group_menu
from yardstick.presentation.charts.compare_specs import differences_figure
from yardstick.presentation.export.file_names import file_stem

TEST_LABELS = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank", "sign": "sign test",
               "permutation": "randomisation (permutation)"}
CORR_LABELS = {"none": "none", "bonferroni": "Bonferroni", "holm": "Holm",
               "bh": "Benjamini–Hochberg"}
GAIN, LOSS = "#d8f0d8", "#f6d6d6"
#: formats of the paper-ready comparison table, and the panel's tests it can use
PAPER_FORMATS = (("latex", "LaTeX…"), ("markdown", "Markdown…"), ("html", "HTML…"),
                 ("xlsx", "Excel (XLSX)…"), ("csv", "CSV…"))
PAPER_TEST = {"t": "t", "wilcoxon": "wilcoxon", "permutation": "randomisation"}


#: after the comparison's paints, time for the layouts they cause (and their paints), ms
SETTLE_MS = 30
#: the baseline list's first item: the best run by the chosen measure (the default)
BEST = "best run by the measure"


class ComparePanel(LazyPanel):
    TITLE = "Compare"
    #: choices kept in the session (yardstick.gui.panel_choices)
    CHOICES = ("baseline", "measure", "test", "correction", "alpha", "seed", "n_perm",
               "all_tests", "runs_list", "chart_run")

    def __init__(self, state: AppState, jobs: JobRunner, parent=None):
        super().__init__(parent)
        self.state = state
        self.jobs = jobs
        self.comparison: Comparison | None = None
        self.experiment = None
        # ---- controls
        self.baseline = QComboBox()
        self.measure = QComboBox()
        self.test = QComboBox()
        for t in TESTS:
            self.test.addItem(TEST_LABELS[t], t)
        self.correction = QComboBox()
        for c in CORRECTIONS:
            self.correction.addItem(CORR_LABELS[c], c)
        self.correction.setCurrentIndex(CORRECTIONS.index("holm"))
        self.alpha = QDoubleSpinBox(decimals=3, minimum=0.001, maximum=0.5, singleStep=0.01,
                                    value=0.05)
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        self.n_perm = QSpinBox(minimum=100, maximum=1_000_000, singleStep=1000, value=10000)
        # the chosen test is computed (with the t-test and the sign test, which the table
        # always shows); the other tests only on demand: 10,000 permutations for each of
        # 149 runs are seconds of CPU
        self.all_tests = QCheckBox("p-values of every test")
        self.all_tests.setToolTip("Also compute the tests not chosen (Wilcoxon signed-rank, "
                                  "randomisation): seconds with many runs")
        self.runs_list = QListWidget()
        self.runs_list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.runs_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        show_whole_text(self.baseline)
        self.chart_run = QComboBox()
        form = QFormLayout()
        form.addRow("Baseline", self.baseline)
        form.addRow("Measure", self.measure)
        form.addRow("Test", self.test)
        form.addRow("Correction", self.correction)
        form.addRow("α", self.alpha)
        form.addRow("Seed", self.seed)
        form.addRow("Permutations", self.n_perm)
        form.addRow("", self.all_tests)
        controls = QWidget()
        cl = QVBoxLayout(controls)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addLayout(form)
        cl.addWidget(QLabel("Compared runs"))
        cl.addWidget(self.runs_list, 1)
        # ---- results
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.summary_table = FrameTableView()
        self.experiment_table = FrameTableView()
        self.topic_table = FrameTableView()
        self.topic_table.source.color_fn = self._diff_color
        self.topic_table.doubleClicked.connect(self._topic_double_clicked)
        install_topic_group_menu(self.topic_table, state, "compare selection")
        # the chart is defined once in core (yardstick.presentation.charts.compare_specs) and drawn
        # from that definition here and in every export
        self.chart = ChartWidget()
        self.chart.export_name = "compare_differences"
        self.chart.topicClicked.connect(self.state.show_topic)
        self.plot = self.chart.plot
        chart_box = QWidget()
        chl = QVBoxLayout(chart_box)
        chl.setContentsMargins(0, 0, 0, 0)
        ctb = FlowBar()
        ctb.addWidget(QLabel(" Run: "))
        ctb.addWidget(self.chart_run)
        try_add_plot_export(self.chart, ctb)
        chl.addWidget(ctb)
        chl.addWidget(self.chart, 1)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.summary_table, "Significance")
        self.tabs.addTab(self.experiment_table, "Experiment table")
        self.tabs.addTab(self.topic_table, "Per topic")
        self.tabs.addTab(chart_box, "Differences chart")
        tb = FlowBar()
        tb.addAction("Copy", lambda: self._current_table().copy_selection())
        try_add_table_export(lambda: self._current_table().visible_frame(), tb,
                             self.export_stem)
        paper = QMenu("Paper table", tb)
        for fmt, label in PAPER_FORMATS:
            paper.addAction(label, lambda f=fmt: self.export_paper_table(f))
        button = QToolButton(tb)
        button.setText("Paper table")
        button.setToolTip("Runs x measures, best value bold, superscripts naming the runs each "
                          "value is significantly better than (this panel's test, correction "
                          "and alpha), with a caption and provenance")
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        button.setMenu(paper)
        tb.addWidget(button)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(tb)
        rl.addWidget(self.status)
        rl.addWidget(self.tabs, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(controls)
        split.addWidget(right)
        split.setSizes([240, 800])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        # "by run" (this panel) or "by system" (compare_systems_view, built when first shown)
        self.mode = QComboBox()
        self.mode.addItem("by run", "run")
        self.mode.addItem("by system (several runs each)", "system")
        self.systems_view = None
        self._modes = QStackedWidget()
        self._modes.addWidget(split)
        mode_bar = QHBoxLayout()
        mode_bar.addWidget(QLabel("Compare"))
        mode_bar.addWidget(self.mode)
        mode_bar.addStretch(1)
        lay.addLayout(mode_bar)
        lay.addWidget(self._modes, 1)
        self.mode.currentIndexChanged.connect(lambda _: self.set_mode(self.mode.currentData()))
        for w in (self.baseline, self.measure, self.test, self.correction):
            w.currentIndexChanged.connect(lambda _: self.recompute())
        for w in (self.alpha, self.seed, self.n_perm):
            w.editingFinished.connect(self.recompute)
        self.runs_list.itemChanged.connect(lambda _: self.recompute())
        self.all_tests.toggled.connect(lambda _: self.recompute())
        self.chart_run.currentTextChanged.connect(lambda _: self._draw_chart())
        state.changed.connect(self._changed)
        self._changed("runs")

    # ---------------------------------------------------------------- API (tests use it)
    def set_mode(self, mode: str) -> None:
        """``"run"`` (runs against a baseline) or ``"system"`` (systems of runs)."""
        if mode == "system" and self.systems_view is None:
            from yardstick.gui.panels.compare_systems_view import SystemsView

            self.systems_view = SystemsView(self.state, self.jobs)
            self._modes.addWidget(self.systems_view)
        if self.mode.currentData() != mode:
            self.mode.setCurrentIndex(self.mode.findData(mode))
        self._modes.setCurrentWidget(self.systems_view if mode == "system"
                                     else self._modes.widget(0))
        if mode == "system":
            self.systems_view.refresh()

    def configure(self, baseline: str | None = None, runs: list[str] | None = None,
                  measure: str | None = None, test: str | None = None,
                  correction: str | None = None, alpha: float | None = None,
                  seed: int | None = None, n_permutations: int | None = None,
                  all_tests: bool | None = None) -> str:
        """Set the choices and start the computation; returns the job key."""
        if self._lists_stale:
            self._fill_lists()
        self._updating = True
        try:
            if baseline is not None:
                self.baseline.setCurrentText(baseline)
            if measure is not None:
                self.measure.setCurrentText(measure)
            if test is not None:
                self.test.setCurrentIndex(TESTS.index(test))
            if correction is not None:
                self.correction.setCurrentIndex(CORRECTIONS.index(correction))
            if alpha is not None:
                self.alpha.setValue(alpha)
            if seed is not None:
                self.seed.setValue(seed)
            if n_permutations is not None:
                self.n_perm.setValue(n_permutations)
            if all_tests is not None:
                self.all_tests.setChecked(all_tests)
            if runs is not None:
                self._fill_runs(checked=set(runs))
        finally:
            self._updating = False
        return self.recompute()

    def compared_runs(self) -> list[str]:
        return [self.runs_list.item(i).text() for i in range(self.runs_list.count())
                if self.runs_list.item(i).checkState() == Qt.CheckState.Checked]

    # ---------------------------------------------------------------- updates
    _updating = False

    _lists_stale = False

    def _changed(self, what: str) -> None:
        if what not in ("runs", "evaluations", "measures", "workspace", "qrels"):
            return
        self._lists_stale = True
        if self.isVisible() and not self.is_seen():  # behind a tab: lists filled when shown
            self.refresh_later()
            return
        self._fill_lists()
        self.refresh_later()

    def _fill_lists(self) -> None:
        """The baseline, measure and compared-runs lists from the evaluations."""
        self._lists_stale = False
        self._updating = True
        try:
            names = list(self.state.evaluations())
            cur = self.baseline.currentText()
            self.baseline.clear()
            self.baseline.addItems([BEST, *names])
            if cur in names:
                self.baseline.setCurrentText(cur)
            cols = self.state.measure_columns()
            cur_m = self.measure.currentText()
            self.measure.clear()
            self.measure.addItems(cols)
            if cur_m in cols:
                self.measure.setCurrentText(cur_m)
            self._fill_runs()
        finally:
            self._updating = False

    def _fill_runs(self, checked: set[str] | None = None) -> None:
        prev = {self.runs_list.item(i).text(): self.runs_list.item(i).checkState()
                for i in range(self.runs_list.count())}
        base = self.baseline.currentText()
        self.runs_list.blockSignals(True)
        self.runs_list.clear()
        for name in self.state.evaluations():
            if name == base:
                continue
            item = QListWidgetItem(name)
            item.setToolTip(name)                 # the whole name where the list elides it
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            on = (name in checked) if checked is not None else \
                prev.get(name, Qt.CheckState.Checked) == Qt.CheckState.Checked
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            self.runs_list.addItem(item)
        self.runs_list.blockSignals(False)

    def refresh(self) -> None:
        if self._lists_stale:
            self._fill_lists()
        self.recompute()

    def recompute(self) -> str:
        if self._updating:
            return ""
        self._fill_runs()
        evals = self.state.evaluations()
        base, measure = self.baseline.currentText(), self.measure.currentText()
        runs = self.compared_runs()
        best = base == BEST                     # resolved in the job, from the scores
        if not evals or not base or not measure or (best and len(evals) < 2):
            self.status.setText(self.state.evaluation_error
                                or "Load qrels and at least two runs to compare.")
            return ""
        if not runs or (best and len(runs) < 2):
            self.status.setText("Tick at least one run to compare with the baseline.")
            return ""
        test, corr = self.test.currentData(), self.correction.currentData()
        alpha, seed, n_perm = self.alpha.value(), self.seed.value(), self.n_perm.value()
        columns = self.state.measure_columns()
        all_tests = self.all_tests.isChecked()
        self.status.setText("Computing…")
        drawn = self._drawn = threading.Event()

        def job():  # the score matrices too: 150 runs x 6 measures took ~1 s on the GUI thread
            scores = score_matrix(evals, measure)
            b = best_run(scores[[r for r in runs if r in scores.columns]], measure) \
                if best else base
            others = [r for r in runs if r != b]
            cmp = yield from compare_runs_job(scores, b, others, measure, test, corr, alpha,
                                              seed, n_perm, all_tests=all_tests)
            yield cmp                       # shown, then the experiment table is worked out
            yield from until_set(drawn, "showing the comparison")
            matrices = {c: score_matrix(evals, c) for c in columns}
            return (yield from experiment_table_job(matrices, b, others, test, corr, alpha,
                                                    seed, n_perm))

        self.jobs.submit("compare", job, on_partial=self._show, on_result=self._show_experiment)
        return "compare"

    def export_paper_table(self, fmt: str, path: str | None = None) -> str:
        """Build the paper-ready comparison table
        (:func:`yardstick.presentation.reports.comparison_table.comparison_table_from_evaluations`)
        of the baseline and the ticked runs on the chosen measures, with this panel's test,
        correction, alpha and seed, in the background; then write it as ``fmt`` (asking for
        the file unless ``path``).  Returns the job key ("" when there is nothing to do)."""
        from yardstick.common.provenance import workspace_sources
        from yardstick.gui.export_actions import TABLE_FORMATS, _ask_path

        evals = self.state.evaluations()
        base = self.baseline.currentText()
        if base == BEST:      # the baseline the shown comparison resolved to
            base = self.comparison.baseline if self.comparison is not None else ""
        runs = [base, *(r for r in self.compared_runs() if r != base)] if base else []
        columns = self.state.measure_columns()
        if len(runs) < 2 or not columns:
            self.status.setText("The paper table needs a baseline, one ticked run and a measure.")
            return ""
        test = PAPER_TEST.get(self.test.currentData(), "t")
        options = dict(test=test, correction=self.correction.currentData(),
                       alpha=self.alpha.value(), seed=self.seed.value(),
                       n_resamples=self.n_perm.value(),
                       qrels_name=getattr(self.state.workspace.qrels, "name", "") or "")
        chosen = {r: evals[r] for r in runs if r in evals}
        if path is None:
            got = _ask_path(self, "table", TABLE_FORMATS, fmt, "comparison_table")
            if got is None:
                return ""
            path, fmt = got
        sources = workspace_sources(self.state.workspace, runs=runs)

        def job():  # plain data only: evaluations, names, options, file paths captured above
            from yardstick.common.provenance import Provenance
            from yardstick.presentation.reports.comparison_table import (
                comparison_table_from_evaluations,
            )

            table = comparison_table_from_evaluations(chosen, columns, **options)
            return table, Provenance.build(**sources)      # hashing the files here, not in the GUI

        def write(result) -> None:
            table, prov = result
            table.write(path, fmt, provenance=prov)
            self.status.setText(f"Paper table written to {path}"
                                + ("" if test == self.test.currentData() else
                                   f" ({test} test: the sign test has no pairwise table)"))

        self.jobs.submit("paper_table", job, on_result=write,
                         on_error=lambda e: self.status.setText(e.message))
        return "paper_table"

    _drawn: threading.Event | None = None

    def _show(self, cmp: Comparison) -> None:
        self.comparison = cmp
        chosen = ("the best run by " + cmp.measure + " (the default; pick another under "
                  "Baseline)") if self.baseline.currentText() == BEST else "chosen"
        self.status.setText(
            f"Baseline: {cmp.baseline}, {chosen}. "
            f"{TEST_LABELS[cmp.test]}, {CORR_LABELS[cmp.correction]} correction over "
            f"{len(cmp.pairs)} comparison(s), α = {cmp.alpha:g}"
            + (f"; permutation test seed {cmp.seed}, {cmp.n_permutations} resamples"
               if "permutation" in cmp.tests else "") + "."
            + (" " + "; ".join(cmp.notes) if cmp.notes else ""))
        self.summary_table.set_frame(cmp.to_frame())
        # one table per turn of the event loop: 150 runs' three tables and the chart
        # at once held it ~100 ms
        next_turn(self, lambda: self._show_topics(cmp))

    def _show_experiment(self, exp) -> None:
        self.experiment = exp
        self.experiment_table.set_frame(exp)

    def _show_topics(self, cmp) -> None:
        if cmp is not self.comparison:
            return                                  # a newer comparison arrived meanwhile
        self.topic_table.set_frame(cmp.per_topic)
        cur = self.chart_run.currentText()
        self.chart_run.blockSignals(True)
        self.chart_run.clear()
        self.chart_run.addItems([p.run for p in cmp.pairs])
        if cur in [p.run for p in cmp.pairs]:
            self.chart_run.setCurrentText(cur)
        self.chart_run.blockSignals(False)
        self._draw_chart()
        if self._drawn is not None:                 # the job goes on to the experiment table
            drawn = self._drawn                     # once this is painted and laid out: the
            # new status text, run list and chart lay the panel out again a few events later,
            # and the summary table's repaint that follows, beside the job, took ~100 ms
            after_paints(lambda: QTimer.singleShot(SETTLE_MS, lambda: after_paints(drawn.set)))

    def _draw_chart(self) -> None:
        cmp = self.comparison
        run = self.chart_run.currentText()
        if cmp is None or not run:
            self.chart.reset()
            return
        self.chart.show_figure(differences_figure(cmp.differences(run), cmp.measure, run,
                                                  cmp.baseline))

    # ---------------------------------------------------------------- helpers
    def export_stem(self) -> str:
        """``compare_map_vs_BM25`` (with the tab's table: ``…_per-topic``)."""
        tab = {self.experiment_table: "experiment", self.topic_table: "per-topic"}.get(
            self.tabs.currentWidget(), "")
        base = self.baseline.currentText()
        if base == BEST:      # the run the default resolved to, once compared
            base = self.comparison.baseline if self.comparison is not None else "best"
        return file_stem("compare", self.measure.currentText(), "vs", base, tab)

    def _current_table(self) -> FrameTableView:
        w = self.tabs.currentWidget()
        return w if isinstance(w, FrameTableView) else self.topic_table

    def _diff_color(self, row: int, col: int, value) -> str | None:
        name = self.topic_table.source.column_name(col)
        if " - " not in name or not isinstance(value, (float, np.floating)) or np.isnan(value):
            return None
        return GAIN if value > 0 else LOSS if value < 0 else None

    def _topic_double_clicked(self, index) -> None:
        row, _ = self.topic_table.source_cell(index)
        self.state.show_topic(str(self.topic_table.source.row_key(row)))

    def screenshot_items(self) -> dict[str, QWidget]:
        return {"significance": self.summary_table, "experiment": self.experiment_table,
                "per_topic": self.topic_table, "differences": self.chart}
