"""Topic: one topic's text, every run's scores on it, and one run's ranked list with judgments."""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np
import pandas as pd
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
)

from yardstick.analysis.explain.topic_data import topic_documents
from yardstick.common.options import EvalOptions
from yardstick.evaluation.evaluation_tables import topic_scores
from yardstick.gui.app_state import AppState
from yardstick.gui.flow_bar import FlowBar
from yardstick.gui.jobs import JobRunner
from yardstick.gui.lazy import LazyPanel
from yardstick.gui.name_combo import NameCombo
from yardstick.gui.results_area import boxed, split
from yardstick.gui.table_view import FrameTableView, try_add_table_export
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.inputs.topic_order import natural_sorted
from yardstick.presentation.export.file_names import file_stem

RELEVANT, UNJUDGED = "#d8f0d8", "#e4e4e4"


class TopicPanel(LazyPanel):
    TITLE = "Topic"

    def __init__(self, state: AppState, jobs: JobRunner, parent=None):
        super().__init__(parent)
        self.state = state
        self.jobs = jobs
        self.topic = QComboBox()
        self.topic.setEditable(True)
        self.topic.setMinimumContentsLength(8)
        self.run = NameCombo()
        self.depth = QSpinBox(minimum=10, maximum=100000, value=1000, singleStep=100)
        self.text = QTextBrowser()
        self.scores = FrameTableView()
        self.scores.doubleClicked.connect(self._score_double_clicked)
        self.ranking = FrameTableView()
        self.facts = QLabel("")
        self.facts.setWordWrap(True)
        tb = FlowBar()
        tb.addWidget(QLabel(" Topic: "))
        tb.addWidget(self.topic)
        tb.addAction("◀", lambda: self.step(-1))
        tb.addAction("▶", lambda: self.step(1))
        tb.addSeparator()
        tb.addWidget(QLabel(" Ranked list of: "))
        tb.addWidget(self.run)
        tb.addWidget(QLabel(" depth "))
        tb.addWidget(self.depth)
        try_add_table_export(self.ranking.visible_frame, tb, lambda: file_stem(
            "topic", self.topic.currentText(), self.run.currentText(), "ranking"))
        # the scores of every run on the topic are the answer: most of the width (QA at
        # 1280x800, Collection widened: Rprec, recip_rank and bpref were off-screen); the
        # topic's text beside them wraps (the splitter gives it more)
        top = split(self.text, self.scores, sizes=[200, 800])
        top.setStretchFactor(0, 1)
        top.setStretchFactor(1, 4)
        panes = split(top, boxed(self.facts, self.ranking), sizes=[260, 520], vertical=True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(tb)
        lay.addWidget(panes, 1)
        self.topic.currentTextChanged.connect(lambda _: self.refresh())
        self.run.currentTextChanged.connect(lambda _: self._refresh_ranking())
        self.depth.editingFinished.connect(self._refresh_ranking)
        state.changed.connect(self._changed)
        state.topic_requested.connect(self.show_topic)
        self._changed("workspace")

    # ---------------------------------------------------------------- API
    def show_topic(self, topic: str) -> None:
        if self.topic.findText(topic) < 0:
            self.topic.addItem(topic)
        self.topic.setCurrentText(topic)

    def show_run(self, name: str) -> None:
        self.run.setCurrentText(name)

    def step(self, delta: int) -> None:
        i = self.topic.currentIndex() + delta
        if 0 <= i < self.topic.count():
            self.topic.setCurrentIndex(i)

    # ---------------------------------------------------------------- updates
    def _changed(self, what: str) -> None:
        ws = self.state.workspace
        if what in ("qrels", "topics", "runs", "workspace"):
            cur = self.topic.currentText()
            ids = natural_sorted(ws.topic_ids())
            self.topic.blockSignals(True)
            self.topic.clear()
            self.topic.addItems(ids)
            if cur in ids:
                self.topic.setCurrentText(cur)
            self.topic.blockSignals(False)
            cur_run = self.run.currentText()
            self.run.blockSignals(True)
            self.run.clear()
            self.run.addItems(list(ws.runs))
            if cur_run in ws.runs:
                self.run.setCurrentText(cur_run)
            self.run.blockSignals(False)
        if what in ("qrels", "topics", "runs", "workspace", "evaluations", "measures",
                    "options"):
            self.refresh_later()

    def refresh(self) -> None:
        topic = self.topic.currentText()
        ws = self.state.workspace
        t = ws.topic_text(topic) if topic else {"title": "", "desc": "", "narr": ""}
        parts = [f"<h3>Topic {html.escape(topic)}: {html.escape(t['title'])}</h3>"]
        for key, label in (("desc", "Description"), ("narr", "Narrative")):
            if t[key]:
                parts.append(f"<p><i>{label}.</i> {html.escape(t[key])}</p>")
        if topic and ws.topics is None:
            parts.append("<p>(load a topics file to see the topic's text)</p>")
        self.text.setHtml("".join(parts) if topic else "")
        self._compute()

    def scores_frame(self, topic: str) -> pd.DataFrame:
        """Runs x chosen measures on one topic (from the evaluations)."""
        return topic_scores(self.state.evaluations(), topic, self.state.measure_columns())

    def _refresh_ranking(self) -> None:
        self._compute()

    def _compute(self) -> None:
        """Work out the scores table and the ranked list from plain data captured here, in
        a job while the window is shown (150 runs' scores and a 1000-document list would
        hold the event loop), at once otherwise (tests, screenshots)."""
        ws = self.state.workspace
        topic, name = self.topic.currentText(), self.run.currentText()
        entry = ws.runs.get(name)
        ev = self.state.evaluation(name)
        # the judged ranking the evaluation built (the topic explorer reads the same one)
        jr = ev.judged if (ev is not None and ev.options == ws.options and ws.qrels is not None
                           and getattr(ev.judged, "qrels", None) is ws.qrels) else None
        inputs = _TopicInputs(
            topic=topic, run_name=name, run=None if entry is None else entry.run,
            qrels=ws.qrels, options=ws.options, judged=jr, depth=self.depth.value(),
            evaluations=self.state.evaluations(), columns=self.state.measure_columns())
        if self.window() is not None and self.window().isVisible():
            self.jobs.submit("topic-panel", lambda: _topic_tables(inputs), self._show)
        else:
            self._show(_topic_tables(inputs))

    def _show(self, tables: "_TopicTables") -> None:
        self.scores.whole_columns = frozenset(map(str, tables.scores.columns))  # measures
        self.scores.set_frame(tables.scores)
        self.ranking.set_frame(tables.ranking, row_colors=tables.colors)
        self.facts.setText(tables.facts)

    def _score_double_clicked(self, index) -> None:
        row, col = self.scores.source_cell(index)
        run = str(self.scores.source.row_key(row))
        if col == 0:
            self.show_run(run)
            return
        self.state.show_explanation(run, self.topic.currentText(),
                                    self.scores.source.column_name(col))


@dataclass(frozen=True)
class _TopicInputs:
    """What the Topic panel's job reads: plain data captured on the GUI thread."""

    topic: str
    run_name: str
    run: Run | None
    qrels: Qrels | None
    options: EvalOptions
    judged: object
    depth: int
    evaluations: dict
    columns: tuple | list


@dataclass(frozen=True)
class _TopicTables:
    scores: pd.DataFrame
    ranking: pd.DataFrame
    colors: list | None
    facts: str


def _topic_tables(inp: _TopicInputs) -> _TopicTables:
    """The scores of every run on the topic and one run's ranked list with judgments."""
    scores = topic_scores(inp.evaluations, inp.topic, inp.columns)
    topic, name = inp.topic, inp.run_name
    if inp.run is None or not topic:
        return _TopicTables(scores, pd.DataFrame(), None, "")
    level = inp.options.relevance_level
    full = topic_documents(inp.run, inp.qrels, topic, inp.options, inp.judged)
    frame = full.head(inp.depth).rename(columns={"file_rank": "file rank"})
    colors = np.where(frame["relevant"].to_numpy(bool), RELEVANT,
                      np.where(frame["judged"].to_numpy(bool), "", UNJUDGED)).tolist()
    ranking = frame.set_index("rank")
    colors = [c or None for c in colors]
    if inp.qrels is None:
        return _TopicTables(scores, ranking, colors,
                            f"{name}: {len(full)} documents retrieved (no qrels loaded).")
    q = inp.qrels.frame
    n_rel = int((q["rel"].to_numpy()[(q["topic"] == topic).to_numpy()] >= level).sum())
    judged = int(full["judged"].sum())
    rel_ret = int(full["relevant"].sum())
    return _TopicTables(scores, ranking, colors, (
        f"<b>{html.escape(name)}</b> on topic {html.escape(topic)}: {len(full)} retrieved, "
        f"{judged} judged ({len(full) - judged} unjudged), {rel_ret} of {n_rel} relevant "
        f"retrieved. Green: relevant (rel ≥ {level}); grey: unjudged (rel −1: not in the "
        "qrels, −2: pooled but not assessed), as in the topic explorer."))
