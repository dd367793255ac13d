"""Topic explorer (teaching mode): one run's ranked list for one topic, taken apart.

The ranked list with grades, judged/unjudged and tie groups coloured, precision
and recall after each document and the terms AP averages; the recall-precision
curve building up as a slider moves over the ranks; what-if edits of the
judgments (on a copy of the qrels, with undo) updating every measure and the run
ranking; the spread of a measure under random orders of tied documents.  The
TREC appendix's worked examples load with one click ("Worked examples").  All
numbers come from :mod:`yardstick.analysis.explain`.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMenu,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
)

from yardstick.analysis.explain.topic_lesson import TopicLesson
from yardstick.analysis.explain.what_if import WhatIfSession
from yardstick.gui import explain_dialog
from yardstick.gui.app_state import AppState
from yardstick.gui.flow_bar import FlowBar
from yardstick.gui.jobs import JobRunner
from yardstick.gui.lazy import LazyPanel
from yardstick.gui.name_combo import NameCombo
from yardstick.gui.panels.topic_explorer_edits import WhatIfEditing
from yardstick.gui.panels.topic_explorer_jobs import (
    example_session,
    examples_offered,
    lesson_and_tables,
    new_session,
)
from yardstick.gui.table_view import try_add_plot_export, try_add_table_export
from yardstick.gui.teaching_views import LessonView, TiesView, WhatIfView
from yardstick.gui.what_if_significance import WhatIfSignificanceView
from yardstick.inputs.topic_order import natural_sorted
from yardstick.presentation.export.file_names import file_stem
from yardstick.session import what_if_state

WORKSPACE = "Workspace"


class TopicExplorerPanel(WhatIfEditing, LazyPanel):
    TITLE = "Topic explorer"

    def __init__(self, state: AppState, jobs: JobRunner, parent=None):
        super().__init__(parent)
        self.state, self.jobs = state, jobs
        self.session: WhatIfSession | None = None
        self._previous: WhatIfSession | None = None
        self.lesson: TopicLesson | None = None
        self.evals: dict | None = None
        self.ties = None
        self.source = NameCombo(min_chars=10, max_chars=22)
        self.run = NameCombo()
        self.topic = NameCombo(min_chars=6, max_chars=12)
        self.measure = QComboBox()
        self.measure.setEditable(True)
        self.measure.addItems(["map", "P_10", "ndcg", "recip_rank", "bpref", "Rprec"])
        self.examples_button = QToolButton()
        self.examples_button.setText("Worked examples")
        self.examples_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.examples_button)
        for name, title in examples_offered():
            menu.addAction(title, lambda n=name: self.load_example(n))
        menu.addSeparator()
        menu.addAction("Open the current example in the workspace", self.example_to_workspace)
        self.examples_button.setMenu(menu)
        tb = FlowBar()
        for label, w in ((" Source ", self.source), (" Run ", self.run), (" Topic ", self.topic)):
            tb.addWidget(QLabel(label))
            tb.addWidget(w)
        tb.addAction("◀", lambda: self._step(-1))
        tb.addAction("▶", lambda: self._step(1))
        tb.addSeparator()
        tb.addWidget(self.examples_button)
        tb.addWidget(QLabel(" Measure "))
        tb.addWidget(self.measure)
        tb.addAction("Explain…", self.explain_current)
        edit = self._edit_bar()
        self.what_if = WhatIfView()
        self.ties_view = TiesView()
        self.ties_view.topicClicked.connect(self.show_topic)
        self.ties_view.rescore.connect(self.run_ties)
        self.tabs = QTabWidget()
        self.significance = WhatIfSignificanceView(jobs)
        # short titles, all in view beside the curve (the tooltips say the whole)
        for page, title, tip in (
                (self.what_if, "What-if", "What-if: the run's measures now and before the "
                 "edits, and the run ranking"),
                (self.significance, "Significance", "What-if: significance of the runs "
                 "against the baseline, now and before the edits"),
                (self.ties_view, "Ties", "Tie sensitivity: the measure under random orders "
                 "of tied documents")):
            self.tabs.setTabToolTip(self.tabs.addTab(page, title), tip)
        self.view = LessonView(self.tabs)
        self.table, self.curve = self.view.table, self.view.curve
        self.slider, self.facts = self.view.slider, self.view.facts
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.doubleClicked.connect(lambda _i: self.mark_selected("toggle"))
        try_add_table_export(self.table.visible_frame, edit, lambda: file_stem(
            "topic-explorer", self.topic.currentText(), self.run.currentText()))
        try_add_plot_export(self.curve, edit)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(tb)
        lay.addWidget(edit)
        lay.addWidget(self.view, 1)
        self._auto_source = True  # the source was picked by the panel, not the user
        self.source.activated.connect(lambda _i: self._source_changed(user=True))
        self.run.activated.connect(lambda _i: self.show_lesson())
        self.topic.activated.connect(lambda _i: self.show_lesson())
        self.measure.activated.connect(lambda _i: self._update_whatif())
        self.dialog = explain_dialog.install(state, jobs, self)
        state.changed.connect(self._changed)
        state.topic_requested.connect(self.show_topic)
        self._fill_sources()
        self.refresh_later()

    # ------------------------------------------------------------ sources
    def _context(self):
        """(qrels, runs, measures, options) of the workspace, or the name of the worked
        example shown (its files are read in the job: reading them here held the event
        loop ~0.3 s at start, while the libraries were still being imported)."""
        src = self.source.currentData()
        if src is None:
            ws = self.state.workspace
            runs = {n: e.run for n, e in ws.runs.items()}
            return ws.qrels, runs, self.state.wanted_measures(), ws.options
        return src

    def _fill_sources(self, select: str | None = None) -> None:
        self.source.blockSignals(True)
        self.source.clear()
        self.source.addItem(WORKSPACE, None)
        for name, title in examples_offered():
            self.source.addItem(f"Example: {title}", name)
        ws = self.state.workspace
        usable = ws.qrels is not None and bool(ws.runs)
        key = select if select is not None else (None if usable else "interpolation")
        self.source.setCurrentIndex(max(self.source.findData(key), 0))
        self.source.blockSignals(False)

    def load_example(self, name: str) -> None:
        """Show a worked example of the TREC appendix (resources/examples/)."""
        self._fill_sources(select=name)
        self._source_changed(user=True)

    def example_to_workspace(self) -> None:
        name = self.source.currentData() or "interpolation"
        from yardstick.inputs.examples import example

        try:
            ex = example(name)
        except KeyError:
            return
        win = self.window()
        if hasattr(win, "open_items"):
            win.open_items([(str(ex.qrels), "qrels")] + [(str(p), "run") for p in ex.runs])

    def _source_changed(self, user: bool = False) -> None:
        self._auto_source = self._auto_source and not user
        self.session, self.evals, self.ties = None, None, None
        self.refresh()

    def _changed(self, what: str) -> None:
        if what not in ("qrels", "runs", "workspace", "options", "measures"):
            return
        if self.source.currentData() is not None:      # showing an example
            if not self._auto_source:
                return
            self._fill_sources()                        # the workspace may be usable now
            if self.source.currentData() is not None:
                return
        if self.session is not None:
            self._previous = self.session   # its edits are replayed on the new session
        self.session, self.evals, self.ties = None, None, None
        self.refresh_later()

    # ------------------------------------------------------------ lesson
    def refresh(self) -> None:
        context = self._context()
        if not isinstance(context, str):
            qrels, runs, measures, options = context
            if qrels is None or not runs:
                self._clear("Load qrels and runs, or pick a worked example.")
                return
        if self.session is not None:
            self.show_lesson()
            return
        self.facts.setText("preparing …")
        prev, self._previous = self._previous, None
        if isinstance(context, str):                    # a worked example
            self.jobs.submit("explorer-session", lambda: example_session(context),
                             on_result=self._session_ready)
            return
        edits = list(prev.done) if prev is not None and prev.original is qrels else []
        if not edits:                                   # edits kept in the session
            edits = what_if_state.edits_for(self.state.workspace.extras, qrels.path)
        self.jobs.submit("explorer-session",
                         lambda: new_session(qrels, runs, measures, options, edits),
                         on_result=self._session_ready)

    def _session_ready(self, session: WhatIfSession) -> None:
        self.session = session
        self.evals = session.evaluations()
        cur_run, cur_topic = self.run.currentText(), self.topic.currentText()
        self._set_items(self.run, list(session.runs), cur_run)
        topics = set()
        for ev in self.evals.values():
            topics.update(str(t) for t in ev.per_topic.index)
        self._set_items(self.topic, natural_sorted(topics),
                        cur_topic or self.state.current_topic)
        self.show_lesson()                      # shows the what-if tables too
        self._keep_edits()

    def show_topic(self, topic: str) -> None:
        if self.topic.findText(topic) >= 0:
            self.topic.setCurrentText(topic)
            self.show_lesson()

    def show_lesson(self) -> None:
        """The lesson of the chosen run and topic, and the what-if tables: worked out in
        a job while the window is shown (a 1000-document lesson and 150 runs' ranking
        held the event loop), at once otherwise (tests, screenshots)."""
        s = self.session
        if s is None or self.run.currentText() not in s.runs:
            return
        run, topic, measure = self.run.currentText(), self.topic.currentText(), \
            self.measure.currentText()
        evals = self.evals
        job = lambda: lesson_and_tables(s, run, topic, evals, measure)  # noqa: E731
        if self.window() is not None and self.window().isVisible():
            self.jobs.submit("explorer-lesson", job, on_result=self._lesson_ready)
        else:
            self._lesson_ready(job())

    def _lesson_ready(self, result) -> None:
        lesson, frames, error = result
        s = self.session
        if error is not None or s is None:
            self._clear(error or "")
            return
        self.lesson = lesson
        self.view.show_lesson(lesson, {d for t, d in s.overrides if t == lesson.topic})
        self._update_edit_label()
        if frames is not None:
            self.what_if.show_frames(frames)
            self.significance.show_session(s, lesson, self.evals, self.measure.currentText())

    def _cell_color(self, r: int, c: int, v) -> str | None:
        return self.view.cell_color(r, c, v)

    def _clear(self, message: str) -> None:
        self.lesson = None
        self.view.clear(message)

    # ------------------------------------------------------------ ties and explain
    def run_ties(self) -> None:
        s, L = self.session, self.lesson
        if s is None or L is None:
            return
        from yardstick.analysis.explain import spec_for_column
        from yardstick.analysis.explain.tie_sensitivity import tie_sensitivity

        col = self.measure.currentText()
        try:
            spec = spec_for_column(col)
        except ValueError:
            spec = col
        run, qrels = s.runs[L.run_name], s.qrels
        n, seed = self.ties_view.orders.value(), self.ties_view.seed.value()
        self.jobs.submit("explorer-ties", lambda: tie_sensitivity(run, qrels, [spec], n, seed,
                                                                   s.options),
                         on_result=self._ties_ready)

    def _ties_ready(self, res) -> None:
        self.ties = res
        self.ties_view.show_result(res)
        self.tabs.setCurrentWidget(self.ties_view)

    def explain_current(self, measure: str | None = None) -> None:
        """Explain ``measure`` (default: the measure box) for the run and topic shown,
        under the current (possibly edited) judgments."""
        s, L = self.session, self.lesson
        if s is None or L is None:
            return
        from yardstick.analysis.explain import ExplainError, explain_judged
        try:
            exps = explain_judged(s.judged(L.run_name), measure or self.measure.currentText(),
                                  L.topic)
        except ExplainError as e:
            self.dialog.show_text(str(e))
        else:
            self.dialog.show_explanations(
                exps, "under the topic explorer's judgments" + (
                    f" ({len(s.overrides)} changed by what-if)" if s.overrides else ""))
        self.dialog.show()
        self.dialog.raise_()

    # ------------------------------------------------------------ helpers
    def _step(self, d: int) -> None:
        i = self.topic.currentIndex() + d
        if 0 <= i < self.topic.count():
            self.topic.setCurrentIndex(i)
            self.show_lesson()

    @staticmethod
    def _set_items(combo: QComboBox, items: list[str], current: str | None) -> None:
        combo.blockSignals(True)
        combo.clear()
        combo.addItems(items)
        if current and current in items:
            combo.setCurrentText(current)
        combo.blockSignals(False)
