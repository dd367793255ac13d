"""The "Explain this number" panel: how one measure value of one run on one topic is made.

Opened through ``AppState.explain_requested(run, topic, measure)`` (any table
cell may call ``state.show_explanation``); :func:`install` connects the signal
once per state.  The text is :meth:`yardstick.analysis.explain.Explanation.to_markdown`,
computed in the background with :func:`yardstick.analysis.explain.explain_all`.
"""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from yardstick.gui.app_state import AppState
from yardstick.gui.jobs import JobRunner

JOB_KEY = "explain"


class ExplainDialog(QDialog):
    """Non-modal window with run / topic / measure pickers and the explanation."""

    def __init__(self, state: AppState, jobs: JobRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Explain this number")
        self.setModal(False)
        self.resize(760, 720)
        self.state = state
        self.jobs = jobs
        self.explanations: list = []
        self.run = QComboBox()
        self.topic = QComboBox()
        self.topic.setEditable(True)
        self.measure = QComboBox()
        self.measure.setEditable(True)
        self.measure.setMinimumContentsLength(14)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(False)
        self.status = QLabel("")
        copy = QPushButton("Copy text")
        copy.clicked.connect(self.copy_text)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        top = QHBoxLayout()
        for label, w in (("Run", self.run), ("Topic", self.topic), ("Measure", self.measure)):
            top.addWidget(QLabel(label))
            top.addWidget(w, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(copy)
        bottom.addWidget(close)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.browser, 1)
        lay.addLayout(bottom)
        for combo in (self.run, self.topic, self.measure):
            combo.activated.connect(lambda _=None: self.refresh())
        self.topic.lineEdit().returnPressed.connect(self.refresh)
        self.measure.lineEdit().returnPressed.connect(self.refresh)

    # ------------------------------------------------------------ API
    def explain(self, run: str, topic: str, measure: str) -> None:
        """Show the explanation of ``measure`` for ``run`` on ``topic``."""
        ws = self.state.workspace
        self._fill(self.run, list(ws.runs), run)
        self._fill(self.topic, ws.topic_ids() if hasattr(ws, "topic_ids") else [], topic)
        cols = self.state.measure_columns() or ["map", "P_10", "ndcg_cut_10", "recip_rank"]
        self._fill(self.measure, cols, measure)
        self.refresh()

    def refresh(self) -> None:
        ws = self.state.workspace
        run_name = self.run.currentText()
        topic, measure = self.topic.currentText().strip(), self.measure.currentText().strip()
        entry = ws.runs.get(run_name)
        if entry is None or ws.qrels is None or not topic or not measure:
            self.show_text("Load qrels and a run, then pick a run, a topic and a measure.")
            return
        qrels, options, run = ws.qrels, ws.options, entry.run
        self.status.setText("computing …")

        def job():
            from yardstick.analysis.explain import explain_all
            return explain_all(run, qrels, measure, topic, options)

        self.jobs.submit(JOB_KEY, job, on_result=self.show_explanations, on_error=self._failed)

    def show_text(self, text: str) -> None:
        self.explanations = []
        self.browser.setPlainText(text)
        self.status.setText("")

    def text(self) -> str:
        """The explanation(s) as plain text (what "Copy text" copies)."""
        if not self.explanations:
            return self.browser.toPlainText()
        return "\n".join(e.to_text() for e in self.explanations)

    def copy_text(self) -> None:
        cb = QGuiApplication.clipboard()
        if cb is not None:
            cb.setText(self.text())

    def show_explanations(self, exps, note: str = "") -> None:
        """Show explanations (from the job, or computed elsewhere such as the topic
        explorer under its what-if judgments: ``note`` says so)."""
        self.explanations = list(exps)
        if exps:
            e = exps[0]
            ws = self.state.workspace
            self._fill(self.run, list(ws.runs) or [e.run_name], e.run_name)
            self._fill(self.topic, ws.topic_ids() if hasattr(ws, "topic_ids") else [], e.topic)
            self._fill(self.measure, self.state.measure_columns(), e.spec)
        self.browser.setMarkdown("\n\n---\n\n".join(e.to_markdown() for e in exps))
        self.status.setText(f"{len(exps)} value{'s' if len(exps) != 1 else ''} explained"
                            + (f" — {note}" if note else ""))

    # ------------------------------------------------------------ internals
    def _failed(self, err) -> None:
        self.show_text(f"Cannot explain this: {err.message}")

    @staticmethod
    def _fill(combo: QComboBox, items: list[str], current: str) -> None:
        combo.blockSignals(True)
        combo.clear()
        combo.addItems([str(i) for i in items])
        if current and combo.findText(current) < 0:
            combo.addItem(current)
        combo.setCurrentText(current)
        combo.blockSignals(False)


def install(state: AppState, jobs: JobRunner, parent: QWidget | None = None) -> ExplainDialog:
    """Open the dialog whenever ``state.explain_requested`` fires (once per state)."""
    dlg = getattr(state, "_explain_dialog", None)
    if dlg is not None:
        return dlg
    dlg = ExplainDialog(state, jobs, parent.window() if parent is not None else None)
    state._explain_dialog = dlg

    def open_it(run: str, topic: str, measure: str) -> None:
        dlg.explain(run, topic, measure)
        dlg.show()
        dlg.raise_()

    state.explain_requested.connect(open_it)
    return dlg
