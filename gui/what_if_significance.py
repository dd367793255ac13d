"""The topic explorer's what-if significance tab: the run shown vs a chosen baseline,
paired tests under the original and the edited judgments
(:func:`yardstick.analysis.explain.what_if_significance.what_if_significance_job`, run in the
background)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from yardstick.gui.flow_bar import FlowBar
from yardstick.gui.gil_sharing import after_paints
from yardstick.gui.name_combo import NameCombo
from yardstick.gui.table_view import FrameTableView, try_add_table_export

JOB_KEY = "explorer-whatif-significance"


class WhatIfSignificanceView(QWidget):
    """Baseline chooser, a verdict line and the original/now table of every test."""

    def __init__(self, jobs, parent=None):
        super().__init__(parent)
        self.jobs = jobs
        self.result = None
        self._args = None
        self.baseline = NameCombo(min_chars=12)
        self.baseline.activated.connect(lambda _i: self.recompute())
        self.verdict = QLabel("")
        self.verdict.setWordWrap(True)
        self.table = FrameTableView()
        tb = FlowBar()
        tb.addWidget(QLabel(" Baseline "))
        tb.addWidget(self.baseline)
        try_add_table_export(self.table.visible_frame, tb)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(tb)
        lay.addWidget(self.verdict)
        lay.addWidget(self.table, 1)

    def show_session(self, session, lesson, evals: dict, measure: str) -> str:
        """Test ``lesson.run_name`` against the baseline on ``measure`` (job key, or "")."""
        run = lesson.run_name
        others = [n for n in session.runs if n != run]
        cur = self.baseline.currentText()
        self.baseline.blockSignals(True)
        self.baseline.clear()
        self.baseline.addItems(others)
        if cur in others:
            self.baseline.setCurrentText(cur)
        self.baseline.blockSignals(False)
        cols = next(iter(evals.values())).per_topic.columns
        measure = measure if measure in cols else "map"
        self._args = (session, run, measure, evals)
        return self.recompute()

    def recompute(self) -> str:
        if self._args is None:
            return ""
        session, run, measure, evals = self._args
        baseline = self.baseline.currentText()
        if not baseline:
            self.result = None
            self.table.set_frame(self.table.frame().iloc[0:0])
            self.verdict.setText("Significance needs a second run as the baseline "
                                 "(load two or more runs in the workspace).")
            return ""
        original = session.original_evaluations()
        self.verdict.setText("testing …")

        def job():
            from yardstick.analysis.explain.what_if_significance import what_if_significance_job
            return what_if_significance_job(original, evals, run, baseline, measure)

        # started once the lesson shown with it is painted: its paired tests (scipy's Python
        # code) beside the painting of a 1000-row table kept the GUI thread waiting for the GIL
        after_paints(lambda: self.jobs.submit(
            JOB_KEY, job, on_result=self._ready,
            on_error=lambda e: self.verdict.setText(f"Cannot test: {e.message}")))
        return JOB_KEY

    def _ready(self, res) -> None:
        self.result = res
        self.table.set_frame(res.to_frame())
        self.verdict.setText(res.verdict("t") + "  Paired tests on the topics both runs "
                             "have (t-test, Wilcoxon, sign, randomisation with seed 0).")
