"""Views of the topic explorer: the lesson (ranked list, curve, slider), what-if results
and tie sensitivity.

They show a :class:`yardstick.analysis.explain.topic_lesson.TopicLesson`,
:class:`yardstick.analysis.explain.what_if.WhatIfSession` results and a
:class:`yardstick.analysis.explain.tie_sensitivity.TieSensitivity`; nothing is computed here.
"""

from __future__ import annotations

import html

import pandas as pd
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QSlider, QSpinBox, QSplitter, QVBoxLayout, QWidget

from yardstick.gui.charts.lesson_charts import LessonCurveChart, TieSpreadChart
from yardstick.gui.flow_bar import FlowBar
from yardstick.gui.table_view import FrameTableView, try_add_plot_export
from yardstick.presentation.export.cells import is_count_name

COLORS = {"relevant": "#d8f0d8", "unjudged": "#e4e4e4", "pooled, unjudged": "#fff2cc"}
TIE_COLORS = ("#cfe2ff", "#9ec5fe")
EDITED = "#ffc078"
#: the ranked list's columns: the lesson first (each document's grade, and what it adds to
#: precision, recall and AP), the run file's score and rank and the tie groups after them
#: (QA at 1280x800: from "status" on the columns were off-screen)
SHOWN = ["rank", "docno", "rel", "status", "precision", "recall", "ap_term", "rel_so_far",
         "score", "file_rank", "tie_group", "tie_size", "tie_pos"]
ANSWERS = ("rank", "docno", "rel", "status", "precision", "recall", "ap_term")
#: below this width (pixels) the lesson's parts go above one another (a narrow dock)
NARROW_LESSON = 800
NARROW_WHAT_IF = 420


class FlippingSplitter(QSplitter):
    """A splitter side by side while it is at least ``narrow`` pixels wide, above one
    another when narrower; ``inner`` (a splitter inside it) takes the other orientation.
    ``first_width`` gives the first widget's width when side by side (None: as is)."""

    def __init__(self, narrow: int, inner: QSplitter | None = None, first_width=None,
                 parent=None):
        super().__init__(Qt.Orientation.Horizontal, parent)
        self._narrow, self._inner, self._first_width = narrow, inner, first_width
        self._dragged = False           # sizes the user dragged stay (until it flips)
        self.splitterMoved.connect(self._moved)

    def _moved(self, *_) -> None:
        self._dragged = True

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt name
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.arrange()

    def arrange(self) -> None:
        w = self.width()
        wide = w >= self._narrow
        want = Qt.Orientation.Horizontal if wide else Qt.Orientation.Vertical
        if self.orientation() != want:
            self._dragged = False
            self.setOrientation(want)
            if self._inner is not None:
                self._inner.setOrientation(Qt.Orientation.Vertical if wide
                                           else Qt.Orientation.Horizontal)
        if self.count() != 2 or self._dragged:
            return
        if wide and self._first_width is not None:
            first = min(self._first_width(), w // 2 + 40)
            self.setSizes([first, max(1, w - first)])
        elif not wide:
            h = self.height()
            self.setSizes([h * 2 // 5, h - h * 2 // 5])


class LessonView(FlippingSplitter):
    """The ranked list (left) and the recall-precision curve with a rank slider (right);
    ``below`` goes under the curve.  ``edited`` holds the docnos whose grade what-if changed.
    Narrower than :data:`NARROW_LESSON`, the list goes on top and the curve beside
    ``below`` under it.
    """

    def __init__(self, below: QWidget | None = None, parent=None):
        super().__init__(NARROW_LESSON, parent=parent)
        self._right = self._inner = right = QSplitter(Qt.Orientation.Vertical)
        self._first_width = self._answers_width
        self.lesson = None
        self.edited: set[str] = set()
        self.table = FrameTableView()
        self.table.source.color_fn = self.cell_color
        self.table.clicked.connect(lambda i: self.slider.setValue(self.table.source_cell(i)[0]
                                                                  + 1))
        self.curve = LessonCurveChart()
        self.curve.setMinimumHeight(190)     # squashed to ~30 px of plot under its title
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setMinimum(1)
        self.slider.valueChanged.connect(self.show_rank)
        self.facts = QLabel("")
        self.facts.setWordWrap(True)
        self.facts.setTextFormat(Qt.TextFormat.RichText)
        self.facts.setMinimumHeight(64)
        self.facts.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.curve, 1)
        lay.addWidget(self.slider)
        right.addWidget(box)
        # the facts (AP's sum) under the ranked list they describe: beside the curve
        # they took half its height
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.table, 1)
        ll.addWidget(self.facts)
        if below is not None:
            right.addWidget(below)
        right.setSizes([420, 400])
        self.addWidget(left)
        self.addWidget(right)
        # side by side, the ranked list as wide as its answer columns (~400 px) and the
        # right column the rest, for the curve and the what-if tables
        self.setSizes([560, 640])

    def _answers_width(self) -> int:
        """The ranked list's width that shows its answer columns whole (and its scroll bar)."""
        t = self.table
        m = t.source
        need = sum(t.columnWidth(c) for c in range(m.columnCount())
                   if m.headerData(c, Qt.Orientation.Horizontal) in ANSWERS)
        return (need or 400) + t.verticalScrollBar().sizeHint().width() + 2 * t.frameWidth() + 4

    def show_lesson(self, lesson, edited: set[str] | None = None) -> None:
        self.lesson, self.edited = lesson, set(edited or ())
        L = lesson
        r = L.ranked                    # per-row columns for cell_color, read per cell
        self._rows = (r["status"].to_numpy(), r["tie_size"].to_numpy(),
                      r["tie_group"].to_numpy(), r["docno"].to_numpy())
        self.table.whole_columns = frozenset(ANSWERS)
        self.table.set_frame(L.ranked[SHOWN].set_index("rank"))
        # another ranked list, never rows added to the last one: every column fitted (a
        # worked example's 20 ranks, then a workspace topic's 1000, looked like a load
        # that grew and kept the example's docno column, "DOC0…")
        self.table.fit_columns()
        self.arrange()
        last_rel = int(L.ranked.loc[L.ranked["relevant"], "rank"].max()) if L.rel_ret else 1
        k = self.slider.value() if self.slider.value() > 1 else max(last_rel, min(L.num_ret, 20))
        self.slider.blockSignals(True)
        self.slider.setMaximum(max(L.num_ret, 1))
        self.slider.setValue(min(k, L.num_ret))
        self.slider.blockSignals(False)
        self.show_rank(self.slider.value())

    def show_rank(self, k: int) -> None:
        """The curve built from the first ``k`` documents, and the numbers after rank k."""
        L = self.lesson
        if L is None:
            return
        self.curve.set_lesson(L, k)
        row = L.ranked.iloc[k - 1]
        terms = " + ".join(f"{p:.4g}" for p in L.ranked["ap_term"].dropna()[:12])
        more = " + …" if L.rel_ret > 12 else ""
        self.facts.setText(
            f"<b>{html.escape(L.run_name)}</b>, topic {html.escape(L.topic)}: R = {L.R}, "
            f"{L.num_ret} retrieved, {L.rel_ret} relevant retrieved, "
            f"{len(L.missed)} relevant not retrieved; {L.num_ties} documents in ties "
            f"(ordered by docno, descending). After rank {k} ({html.escape(str(row['docno']))}): "
            f"P = {row['precision']:.4f}, R = {row['recall']:.4f}.<br>AP = ({terms}{more}) / "
            f"{L.R} = <b>{L.ap:.4f}</b>.  Green: relevant; grey: unjudged; yellow: pooled "
            f"but unjudged; orange grade: changed by what-if; blue: tie groups.")

    def cell_color(self, r: int, c: int, v) -> str | None:
        L = self.lesson
        if L is None or r >= L.num_ret:
            return None
        name = self.table.source.column_name(c)
        status, tie_size, tie_group, docno = self._rows
        if name in ("tie_group", "tie_size", "tie_pos") and tie_size[r] > 1:
            return TIE_COLORS[int(tie_group[r]) % 2]
        if name == "rel" and docno[r] in self.edited:
            return EDITED
        return COLORS.get(status[r])

    def selected_docno(self) -> str | None:
        idx = self.table.currentIndex()
        if self.lesson is None or not idx.isValid():
            return None
        return str(self.lesson.ranked.iloc[self.table.source_cell(idx)[0]]["docno"])

    def clear(self, message: str) -> None:
        self.lesson = None
        self.table.set_frame(pd.DataFrame())
        self.curve.reset(message)
        self.facts.setText(html.escape(message))


class WhatIfView(FlippingSplitter):
    """The run's measures on the topic and over all topics, now vs originally; the run
    ranking (beside it, or under it when narrower than :data:`NARROW_WHAT_IF`)."""

    def __init__(self, parent=None):
        super().__init__(NARROW_WHAT_IF, parent=parent)
        self.changes = FrameTableView()
        self.ranking = FrameTableView()
        for t in (self.changes, self.ranking):   # measure and run names elide sooner here
            t.text_floor_chars = 8
        # the answer's header whole: counts (1000, not 1000.0000) no longer widen its column
        self.changes.whole_columns = frozenset({"topic now"})
        self.addWidget(self.changes)
        self.addWidget(self.ranking)
        self.setStretchFactor(0, 1)           # each its answer: measure and value now;
        self.setStretchFactor(1, 1)           # run and value

    def show_session(self, session, lesson, evals: dict, measure: str) -> None:
        self.show_frames(what_if_frames(session, lesson, evals, measure))

    def show_frames(self, frames: tuple[pd.DataFrame, pd.DataFrame]) -> None:
        """Show the tables :func:`what_if_frames` worked out (perhaps in a job)."""
        changes, ranking = frames
        self.changes.set_frame(changes)
        self.ranking.set_frame(ranking)


def what_if_frames(session, lesson, evals: dict, measure: str
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The what-if tab's tables: the run's measures on the topic and over all topics,
    original vs now; every run ranked by ``measure`` now and originally (plain data,
    no widget: a job may call it)."""
    topic = session.topic_changes(lesson.run_name, lesson.topic, evals)
    mean = session.changes(lesson.run_name, evals)
    # the answer first, in short headers: at 1280x800 this table is a quarter of the panel
    # wide, and "topic 401 (original)" first left the values now out of view; "topic 401
    # now" still pushed its values past the edge (the topic is the one in the Topic box)
    changes = pd.DataFrame({
        "topic now": topic["now"],
        "topic was": topic["original"],
        "mean now": mean["now"].reindex(topic.index),
        "mean was": mean["original"].reindex(topic.index)})
    if measure not in next(iter(evals.values())).summary.index:
        measure = "map"
    # the measure asked about first, the counts last: at 1280x800 the table shows ~4 rows,
    # and num_ret, num_rel, num_rel_ret first left map half cut at its bottom edge
    rank = [0 if str(m) == measure else 2 if is_count_name(m) else 1 for m in changes.index]
    changes = changes.iloc[sorted(range(len(rank)), key=rank.__getitem__)]
    return changes, session.ranking(measure, evals)


class TiesView(QWidget):
    """Controls (random orders, seed) and the tie-spread chart.  ``rescore`` asks for a run;
    ``topicClicked`` forwards the chart's.  The chart is built when first needed (the tab
    shown, a result to draw): its plot was ~25 ms of the window's start."""

    rescore = Signal()
    topicClicked = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._chart: TieSpreadChart | None = None
        self.orders = QSpinBox(minimum=10, maximum=5000, value=200, singleStep=50)
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        tb = FlowBar()
        for label, w in ((" random orders ", self.orders), (" seed ", self.seed)):
            tb.addWidget(QLabel(label))
            tb.addWidget(w)
        tb.addAction("Re-score ties", self.rescore.emit)
        try_add_plot_export(self.built_chart, tb)
        self.label = QLabel("Re-score the run under random orders of its tied documents "
                            "to see how much the chosen measure depends on trec_eval's "
                            "tie-breaking (docno, descending).")
        self.label.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(tb)
        lay.addWidget(self.label)
        self.result = None

    def built_chart(self) -> TieSpreadChart:
        """The tie-spread chart (built now if it is not yet)."""
        if self._chart is None:
            self._chart = TieSpreadChart()
            self._chart.topicClicked.connect(self.topicClicked)
            self.layout().addWidget(self._chart, 1)
        return self._chart

    @property
    def chart(self) -> TieSpreadChart:
        return self.built_chart()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt name
        self.built_chart()
        super().showEvent(event)

    def show_result(self, res) -> None:
        self.result = res
        if not len(res.overall):
            return
        m = res.overall.index[0]
        o = res.overall.loc[m]
        self.chart.set_result(res, m)
        self.label.setText(
            f"{m} over all topics: trec_eval {o['trec_eval']:.6f}; random orders "
            f"{o['min']:.6f} to {o['max']:.6f} (mean {o['mean']:.6f}, {o['changed']:.0%} "
            f"differ); {int(res.ties['tied_docs'].sum())} of {int(res.ties['num_ret'].sum())} "
            f"documents are tied, in {int(res.ties['tie_groups'].sum())} groups.")
