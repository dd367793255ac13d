"""Topic: one topic's text, every run's scores on it, and one run's ranked list with judgments."""

from __future__ import annotations

import html

import numpy as np
import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QLabel, QSpinBox, QSplitter, QTextBrowser, QToolBar,
                               QVBoxLayout, QWidget)

from yardstick.explain.topic_data import topic_documents
from yardstick.gui.app_state import AppState
from yardstick.gui.jobs import JobRunner
from yardstick.gui.lazy import LazyPanel
from yardstick.gui.table_model import FrameTableView, try_add_table_export
from yardstick.topic_order import natural_sorted

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
        self.run = QComboBox()
        self.depth = QSpinBox(minimum=10, maximum=100000, value=1000, singleStep=100)
        self.text = QTextBrowser()
        self.scores = FrameTableView()
        self.scores.doubleClicked.connect(self._score_double_clicked)
        self.ranking = FrameTableView()
        self.facts = QLabel("")
        self.facts.setWordWrap(True)
        tb = QToolBar()
        tb.addWidget(QLabel(" Topic: "))
        tb.addWidget(self.topic)
        tb.addAction("◀", lambda: self.step(-1))
        tb.addAction("▶", lambda: self.step(1))
        tb.addSeparator()
        tb.addWidget(QLabel(" Ranked list of: "))
        tb.addWidget(self.run)
        tb.addWidget(QLabel(" depth "))
        tb.addWidget(self.depth)
        try_add_table_export(self.ranking.visible_frame, tb)
        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(self.text)
        top.addWidget(self.scores)
        top.setSizes([450, 550])
        bottom = QWidget()
        bl = QVBoxLayout(bottom)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(self.facts)
        bl.addWidget(self.ranking, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(bottom)
        split.setSizes([260, 520])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(tb)
        lay.addWidget(split, 1)
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
        self.scores.set_frame(self.scores_frame(topic))
        self._refresh_ranking()

    def scores_frame(self, topic: str) -> pd.DataFrame:
        """Runs x chosen measures on one topic (from the evaluations)."""
        cols = self.state.measure_columns()
        rows = {}
        for name, ev in self.state.evaluations().items():
            if topic in ev.per_topic.index:
                rows[name] = pd.to_numeric(ev.per_topic.loc[topic, cols], errors="coerce")
            else:
                rows[name] = pd.Series(np.nan, index=cols)
        frame = pd.DataFrame(rows).T if rows else pd.DataFrame(columns=cols)
        frame.index.name = "run"
        return frame.astype(float)

    def _refresh_ranking(self) -> None:
        ws = self.state.workspace
        topic, name = self.topic.currentText(), self.run.currentText()
        entry = ws.runs.get(name)
        if entry is None or not topic:
            self.ranking.set_frame(pd.DataFrame())
            self.facts.setText("")
            return
        level = ws.options.relevance_level
        # the judged ranking the evaluation built (the topic explorer reads the same one)
        ev = self.state.evaluation(name)
        jr = ev.judged if (ev is not None and ev.options == ws.options and ws.qrels is not None
                           and getattr(ev.judged, "qrels", None) is ws.qrels) else None
        full = topic_documents(entry.run, ws.qrels, topic, ws.options, jr)
        frame = full.head(self.depth.value()).rename(columns={"file_rank": "file rank"})
        colors = np.where(frame["relevant"].to_numpy(bool), RELEVANT,
                          np.where(frame["judged"].to_numpy(bool), "", UNJUDGED)).tolist()
        self.ranking.set_frame(frame.set_index("rank"), row_colors=[c or None for c in colors])
        if ws.qrels is None:
            self.facts.setText(f"{name}: {len(full)} documents retrieved (no qrels loaded).")
            return
        q = ws.qrels.frame
        qt = q[q["topic"] == topic]
        n_rel = int((qt["rel"] >= level).sum())
        judged = int(full["judged"].sum())
        rel_ret = int(full["relevant"].sum())
        self.facts.setText(
            f"<b>{html.escape(name)}</b> on topic {html.escape(topic)}: {len(full)} retrieved, "
            f"{judged} judged ({len(full) - judged} unjudged), {rel_ret} of {n_rel} relevant "
            f"retrieved. Green: relevant (rel ≥ {level}); grey: unjudged (rel −1: not in the "
            "qrels, −2: pooled but not assessed), as in the topic explorer.")

    def _score_double_clicked(self, index) -> None:
        row, col = self.scores.source_cell(index)
        run = str(self.scores.source.row_key(row))
        if col == 0:
            self.show_run(run)
            return
        self.state.show_explanation(run, self.topic.currentText(),
                                    self.scores.source.column_name(col))
