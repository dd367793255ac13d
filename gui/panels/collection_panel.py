"""Collection: the runs (editable), every topic with its judgments, and the topic's text."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QColorDialog,
    QHeaderView,
    QLabel,
    QMenu,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from yardstick.gui.app_state import AppState
from yardstick.gui.jobs import JobRunner
from yardstick.gui.qrels_sets_widget import QrelsSetsWidget
from yardstick.gui.runs_model import COLUMNS, RunsModel
from yardstick.gui.table_view import FrameTableView
from yardstick.gui.topic_groups import TopicGroupsWidget, install_topic_group_menu
from yardstick.inputs.collection_stats import qrels_topic_stats

#: a table cell's width beyond its text (the style's focus-frame margins), in pixels
CELL_MARGIN = 8
#: the runs table's columns kept in view (the rest scroll; COLUMNS has them first); the
#: tag is hidden while every run's name holds its tag
ANSWERS = ("shown", "colour", "name", "tag", "group", "pooled", "topics", "lines")
#: the narrowest the columns of words are made to keep the others in view (pixels); the
#: tag and group are narrowed before the name (what every other panel calls the run)
WORD_FLOORS = {"name": 60, "tag": 40, "group": 50}     # (the "group" header whole)
NARROWED_FIRST = ("tag", "group")


class CollectionPanel(QWidget):
    TITLE = "Collection"

    def __init__(self, state: AppState, jobs: JobRunner, parent=None):
        super().__init__(parent)
        self.state = state
        self.jobs = jobs
        self._runs_fitted = False
        self.summary = QLabel("No qrels loaded.")
        self.summary.setWordWrap(True)
        self.runs_model = RunsModel(state, self)
        self.runs_view = QTableView()
        self.runs_view.setModel(self.runs_model)
        self.runs_view.verticalHeader().setVisible(False)
        self.runs_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.runs_view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.runs_view.horizontalHeader().setResizeContentsPrecision(40)  # rows sampled
        self.runs_view.setWordWrap(False)                   # one line a run, elided in the
        self.runs_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # middle; tooltips: the whole
        self.runs_view.viewport().installEventFilter(self)                # name and group
        self.runs_view.doubleClicked.connect(self._double_clicked)
        self.runs_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.runs_view.customContextMenuRequested.connect(self._runs_menu)
        self.topics_view = FrameTableView()
        self.topics_view.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # natural topic order
        self.topics_view.clicked.connect(self._topic_clicked)
        self.topics_view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._topic_clicked(cur))
        install_topic_group_menu(self.topics_view, state, "judged topics selection")
        self.topic_groups = TopicGroupsWidget(state)
        self.topic_text = QTextBrowser()
        split = QSplitter(Qt.Orientation.Vertical)
        runs_box = QWidget()
        rl = QVBoxLayout(runs_box)
        rl.setContentsMargins(0, 0, 0, 0)
        hint = QLabel("<b>Runs</b> (double-click a name or group to edit, a colour to change it)")
        hint.setWordWrap(True)  # the dock beside the tabs is narrow on a 1280-pixel screen
        rl.addWidget(hint)
        rl.addWidget(self.runs_view)
        topics_box = QWidget()
        tl = QVBoxLayout(topics_box)
        tl.setContentsMargins(0, 0, 0, 0)
        self.qrels_sets = QrelsSetsWidget(state, jobs)      # several judgment sets, named
        tl.addWidget(self.qrels_sets)
        tl.addWidget(self.summary)
        tl.addWidget(self.topics_view)
        split.addWidget(runs_box)
        split.addWidget(topics_box)
        split.addWidget(self.topic_groups)
        split.addWidget(self.topic_text)
        # the runs first: at 1280x800 the runs table showed 3 of 150 runs
        split.setSizes([340, 260, 100, 100])
        for i, stretch in enumerate((3, 2, 0, 0)):
            split.setStretchFactor(i, stretch)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(split)
        state.changed.connect(self._changed)
        state.topic_requested.connect(self.show_topic_text)
        self.refresh_topics()

    # ---------------------------------------------------------------- updates
    def _changed(self, what: str) -> None:
        if what in ("qrels", "topics", "workspace", "options"):
            self.refresh_topics()
        if what in ("runs", "workspace") and not self._runs_fitted:
            # once, when the first runs arrive: refitting on each batch of a 150-run load
            # measured every row again (the user widens a column as they like)
            self._runs_fitted = self.runs_model.rowCount() > 0
            self._natural_run_widths = self._measure_run_columns()
            self.fit_runs_columns()
        elif what in ("runs", "workspace") and (self._widen_for_groups() or
                                                self.runs_model.tags_tell_more() != self._tags):
            self.fit_runs_columns()

    def _measure_run_columns(self) -> list[int]:
        """Each runs column's natural width: its header's, or its widest text among the
        first rows (as many as Qt's resize samples) and the cell's margins.

        Measured from the texts rather than by ``resizeColumnsToContents``, whose item
        delegate asks the model for every role of every sampled cell (one Python call
        each, each taking the GIL back from the load's jobs): 37-57 ms of the GUI
        thread's CPU in the turn where a track's first runs arrived (issue 28).
        """
        view, model = self.runs_view, self.runs_model
        header = view.horizontalHeader()
        fm = view.fontMetrics()
        entries = list(self.state.workspace.runs.values())[:header.resizeContentsPrecision()]
        widths = []
        for c, col in enumerate(COLUMNS):
            texts = [model.display_text(e, col) for e in entries]
            widest = max((fm.horizontalAdvance(t) for t in texts if t), default=0)
            widths.append(max(header.sectionSizeHint(c), widest + CELL_MARGIN if widest else 0))
        return widths

    def _widen_for_groups(self) -> bool:
        """Groups arrive after the first runs (guessed when a load settles, or from a
        groups file): widen the group column's natural width to its widest group, so a
        team name is not elided to 't…1' while the dock has room."""
        natural = getattr(self, "_natural_run_widths", None)
        if not natural:
            return False
        c = COLUMNS.index("group")
        groups = {e.group for e in self.state.workspace.runs.values() if e.group}
        fm = self.runs_view.fontMetrics()
        need = max((fm.horizontalAdvance(g) + 16 for g in groups), default=0)
        if need <= natural[c]:
            return False
        natural[c] = need
        return True

    _tags = False

    def fit_runs_columns(self) -> None:
        """The colour swatch narrow; name, tag and group (elided in the middle, whole in
        their tooltips; the tag and group narrowed before the name) share what is left
        so that shown, colour, name, tag, group, pooled, topics and lines are all in view
        in the narrow dock of a 1280-pixel screen; the file scrolls.

        The tag column stands beside the name only where it says more than the name
        (some name does not hold its tag: ``run3.txt`` and ``BM25-rm3``, not
        ``input.team01a`` and ``team01a``) and there is room for both whole: elided to
        "t…a" it said nothing and took the name's room.  Else the name's tooltip gives
        the tag and the file."""
        natural = getattr(self, "_natural_run_widths", None)
        if not natural:
            return
        from yardstick.gui.table_model import shrink_to_fit

        view = self.runs_view
        room = view.viewport().width() - 2
        self._tags = self.runs_model.tags_tell_more()

        def plan(with_tag: bool):
            shown = [c for c in ANSWERS if c != "tag" or with_tag]
            widths = [min(natural[COLUMNS.index(c)], 24) if c == "colour"
                      else natural[COLUMNS.index(c)] for c in shown]
            floors = [min(w, WORD_FLOORS.get(c, w)) for c, w in zip(shown, widths, strict=True)]
            fitted = shrink_to_fit(widths, floors, room, [c in NARROWED_FIRST for c in shown])
            return shown, widths, fitted

        shown, widths, fitted = plan(self._tags)
        whole = {c for c, w, f in zip(shown, widths, fitted, strict=True) if f >= w}
        if self._tags and not {"name", "tag"} <= whole:
            shown, widths, fitted = plan(False)      # no room for both: the name whole
        view.setColumnHidden(COLUMNS.index("tag"), "tag" not in shown)
        for c, w in zip(shown, fitted, strict=True):
            view.setColumnWidth(COLUMNS.index(c), w)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt name
        if obj is self.runs_view.viewport() and event.type() == event.Type.Resize:
            self.fit_runs_columns()
        return super().eventFilter(obj, event)

    def refresh_topics(self) -> None:
        ws = self.state.workspace
        if ws.qrels is None:
            self.summary.setText("No qrels loaded (File ▸ Open qrels).")
            frame = ws.topics.set_index("topic")[["title"]] if ws.topics is not None else None
            if frame is not None:
                self.topics_view.set_frame(frame)
            return
        q, level, topics = ws.qrels, ws.options.relevance_level, ws.topics
        if self.window() is not None and self.window().isVisible():
            # in a job: counting 465,000 judgments on the GUI thread while the runs are
            # being read held the event loop for 0.3 s
            self.summary.setText(f"<b>{html.escape(q.name)}</b>: counting judgments …")
            self.jobs.submit("collection-topics", lambda: _topic_stats(q, level, topics),
                             on_result=lambda stats: self._show_topic_stats(q, level, stats))
        else:
            self._show_topic_stats(q, level, _topic_stats(q, level, topics))

    def _show_topic_stats(self, q, level: int, stats) -> None:
        ws = self.state.workspace
        if q is not ws.qrels:
            return                                  # other qrels were loaded meanwhile
        self.summary.setText(
            f"<b>{html.escape(q.name)}</b>: {len(stats)} judged topics, {len(q)} judgments, "
            f"{int(stats['relevant'].sum())} relevant (rel ≥ {level})"
            + ("" if ws.topics is not None else " — no topics file loaded"))
        self.topics_view.set_frame(stats)
        if len(stats):
            self.show_topic_text(self.state.current_topic or str(stats.index[0]))

    def _topic_clicked(self, index) -> None:
        if not index.isValid():
            return
        row, _ = self.topics_view.source_cell(index)
        topic = str(self.topics_view.source.row_key(row))
        if topic != self.state.current_topic:
            self.state.show_topic(topic)

    def show_topic_text(self, topic: str) -> None:
        t = self.state.workspace.topic_text(topic)
        parts = [f"<h3>Topic {html.escape(topic)}: {html.escape(t['title'])}</h3>"]
        if t["desc"]:
            parts.append(f"<p><i>Description.</i> {html.escape(t['desc'])}</p>")
        if t["narr"]:
            parts.append(f"<p><i>Narrative.</i> {html.escape(t['narr'])}</p>")
        if not any(t.values()):
            parts.append("<p>(no topic text: load a topics file)</p>")
        self.topic_text.setHtml("".join(parts))

    # ---------------------------------------------------------------- run editing
    def _double_clicked(self, index) -> None:
        if COLUMNS[index.column()] == "colour":
            name = self.runs_model.names()[index.row()]
            self.choose_color(name)

    def choose_color(self, name: str) -> None:
        from PySide6.QtGui import QColor

        entry = self.state.workspace.runs[name]
        color = QColorDialog.getColor(QColor(entry.color), self, f"Colour of {name}")
        if color.isValid():
            self.state.update_run(name, color=color.name())

    def selected_runs(self) -> list[str]:
        names = self.runs_model.names()
        rows = sorted({i.row() for i in self.runs_view.selectionModel().selectedRows()})
        return [names[r] for r in rows if r < len(names)]

    def _runs_menu(self, pos) -> None:
        sel = self.selected_runs()
        if not sel:
            return
        m = QMenu(self)
        m.addAction(f"Remove {len(sel)} run(s)", lambda: self.state.remove_runs(sel))
        m.addAction("Show only these", lambda: self._show_only(sel))
        m.addAction("Show all", lambda: self._show_only(list(self.state.workspace.runs)))
        if len(sel) == 1:
            m.addAction("Colour…", lambda: self.choose_color(sel[0]))
        m.exec(self.runs_view.viewport().mapToGlobal(pos))

    def _show_only(self, names: list[str]) -> None:
        for n in list(self.state.workspace.runs):
            if self.state.workspace.runs[n].visible != (n in names):
                self.state.update_run(n, visible=n in names)


def _topic_stats(qrels, level: int, topics):
    """The per-topic judgment counts, the long titles last (plain data: a job calls it)."""
    stats = qrels_topic_stats(qrels, level, topics)
    if "title" in stats:  # long text last, so the counts stay in view
        stats = stats[[c for c in stats.columns if c != "title"] + ["title"]]
    return stats
