"""Compare: a baseline and runs, per topic, with significance (all numbers from
yardstick.analysis.significance).  The baseline defaults to the best run by the chosen
measure (said on the result); a run picked under Baseline is kept in the session."""

from __future__ import annotations

import threading

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QStackedWidget,
    QTabWidget,
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
from yardstick.gui.flow_bar import FlowBar
from yardstick.gui.gil_sharing import after_paints, next_turn, until_set
from yardstick.gui.jobs import JobRunner
from yardstick.gui.lazy import LazyPanel
from yardstick.gui.name_combo import NameCombo
from yardstick.gui.panels.compare_choices import BEST, CORR_LABELS, TEST_LABELS, CompareChoices
from yardstick.gui.panels.compare_paper_table import export_paper_table, paper_table_button
from yardstick.gui.results_area import boxed, split
from yardstick.gui.table_view import FrameTableView, try_add_plot_export, try_add_table_export
from yardstick.gui.topic_groups import install_topic_group_menu
from yardstick.presentation.charts.compare_specs import differences_figure
from yardstick.presentation.export.file_names import file_stem

__all__ = ["ComparePanel", "CORRECTIONS", "CORR_LABELS", "TEST_LABELS", "BEST"]

GAIN, LOSS = "#d8f0d8", "#f6d6d6"
#: after the comparison's paints, time for the layouts they cause (and their paints), ms
SETTLE_MS = 30
#: while a load is under way, how often the caption looks whether it has ended, ms
LOAD_WATCH_MS = 250


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
        # ---- controls (yardstick.gui.panels.compare_choices)
        self.choices = controls = CompareChoices()
        self.baseline, self.measure = controls.baseline, controls.measure
        self.test, self.correction = controls.test, controls.correction
        self.alpha, self.seed, self.n_perm = controls.alpha, controls.seed, controls.n_perm
        self.all_tests, self.runs_list = controls.all_tests, controls.runs_list
        self.chart_run = NameCombo()
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
        ctb = FlowBar()
        ctb.addWidget(QLabel(" Run: "))
        ctb.addWidget(self.chart_run)
        try_add_plot_export(self.chart, ctb)
        chart_box = boxed(ctb, self.chart)
        self.tabs = QTabWidget()
        # short titles: at 1280x800 with a widened Collection dock "Differences chart" hid
        # behind the tab bar's arrows (the tooltips say what each tab holds)
        for page, title, tip in (
                (self.summary_table, "Significance", "Each run against the baseline: "
                 "difference, corrected p, significance"),
                (self.experiment_table, "All measures", "Experiment table: every measure, "
                 "marked against the baseline"),
                (self.topic_table, "Per topic", "Each run minus the baseline, topic by topic"),
                (chart_box, "Chart", "Differences chart: per-topic differences of one run")):
            self.tabs.setTabToolTip(self.tabs.addTab(page, title), tip)
        tb = FlowBar()
        tb.addAction("Copy", lambda: self._current_table().copy_selection())
        try_add_table_export(lambda: self._current_table().visible_frame(), tb,
                             self.export_stem)
        paper_table_button(self, tb)
        right = boxed(tb, self.status, self.tabs)
        panes = split(controls, right, sizes=[240, 800])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        # "by run" (this panel) or "by system" (compare_systems_view, built when first shown)
        self.mode = QComboBox()
        self.mode.addItem("by run", "run")
        self.mode.addItem("by system (several runs each)", "system")
        self.systems_view = None
        self._modes = QStackedWidget()
        self._modes.addWidget(panes)
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
        return self.choices.compared_runs()

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
            self.choices.fill(list(self.state.evaluations()), self.state.measure_columns())
        finally:
            self._updating = False

    def _fill_runs(self, checked: set[str] | None = None) -> None:
        self.choices.fill_runs(list(self.state.evaluations()), checked)

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
        """Write the paper-ready comparison table of the baseline and the ticked runs as
        ``fmt`` (:func:`yardstick.gui.panels.compare_paper_table.export_paper_table`);
        returns the job key ("" when there is nothing to do)."""
        return export_paper_table(self, fmt, path)

    _drawn: threading.Event | None = None

    def _show(self, cmp: Comparison) -> None:
        self.comparison = cmp
        self.status.setText(self._caption(cmp))
        self.summary_table.set_frame(self._answers_first(cmp))
        # one table per turn of the event loop: 150 runs' three tables and the chart
        # at once held it ~100 ms
        next_turn(self, lambda: self._show_topics(cmp))

    def _caption(self, cmp: Comparison) -> str:
        """The comparison in words; while a load is under way the correction's count is
        the runs loaded so far, and says so (then :meth:`_watch_load` words it again)."""
        chosen = ("the best run by " + cmp.measure + " (the default; pick another under "
                  "Baseline)") if self.baseline.currentText() == BEST else "chosen"
        progress = self.state.session.load_progress()
        so_far = (f" so far (loading runs: {progress[0]} of {progress[1]} added)"
                  if progress is not None else "")
        if progress is not None and not self._watching:
            self._watching = True
            QTimer.singleShot(LOAD_WATCH_MS, self._watch_load)
        return (f"Baseline: {cmp.baseline}, {chosen}. "
                f"{TEST_LABELS[cmp.test]}, {CORR_LABELS[cmp.correction]} correction over "
                f"{len(cmp.pairs)} comparison(s){so_far}, α = {cmp.alpha:g}"
                + (f"; permutation test seed {cmp.seed}, {cmp.n_permutations} resamples"
                   if "permutation" in cmp.tests else "") + "."
                + (" " + "; ".join(cmp.notes) if cmp.notes else ""))

    _watching = False

    def _watch_load(self) -> None:
        """Once the load that was under way has ended: word the caption again if the
        comparison shown holds every ticked run, else compare again (after the
        comparison under way, whose result may bring the caption)."""
        cmp = self.comparison
        if cmp is None or "so far" not in self.status.text():
            self._watching = False                 # a newer caption, or "Computing…"
            return
        lst = self.runs_list
        unticked = {lst.item(i).text() for i in range(lst.count())
                    if lst.item(i).checkState() != Qt.CheckState.Checked}
        missing = set(self.state.evaluations()) - unticked - {cmp.baseline} \
            - {p.run for p in cmp.pairs}
        if self.state.session.loads_under_way() or (missing
                                                     and self.jobs.is_running("compare")):
            QTimer.singleShot(LOAD_WATCH_MS, self._watch_load)
            return
        self._watching = False
        if missing:
            self.refresh_later()
        else:
            self.status.setText(self._caption(cmp))

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
    def _answers_first(self, cmp: Comparison):
        """The significance table for the screen: after the run, the answer — the
        difference, the corrected p and whether it is significant — then the means, the
        uncorrected p, the baseline and the rest (QA at 1280×800: with the Collection dock
        widened the table was 341 px wide and the corrected p and "significant" needed
        scrolling).  Never narrowed below their text; the values are the core's."""
        frame = cmp.to_frame()
        answers = [c for c in ("diff", f"p {cmp.test} ({cmp.correction})", "significant")
                   if c in frame.columns]
        self.summary_table.whole_columns = frozenset(answers)
        return frame[answers + [c for c in frame.columns if c not in answers]]

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
