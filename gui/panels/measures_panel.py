"""Measures: runs x chosen measures (means), or topics x runs for one measure.

Double-clicking a mean opens that measure's per-topic values; double-clicking a
per-topic value asks for its explanation (``state.show_explanation``) and shows
the topic.  Numbers come from ``yardstick.evaluation.evaluation_tables``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from PySide6.QtWidgets import QComboBox, QLabel, QVBoxLayout

from yardstick.evaluation.evaluation_tables import columns_for, per_topic_table, summary_table
from yardstick.gui.app_state import AppState
from yardstick.gui.flow_bar import FlowBar
from yardstick.gui.jobs import JobRunner
from yardstick.gui.lazy import LazyPanel
from yardstick.gui.measure_picker import MeasurePicker
from yardstick.gui.name_combo import NameCombo
from yardstick.gui.results_area import boxed, split
from yardstick.gui.table_view import FrameTableView, try_add_table_export
from yardstick.gui.topic_groups import install_topic_group_menu
from yardstick.presentation.export.file_names import file_stem

MEAN, PER_TOPIC = "Mean over topics", "Per topic"


class MeasuresPanel(LazyPanel):
    TITLE = "Measures"
    #: choices kept in the session (yardstick.gui.panel_choices)
    CHOICES = ("view_mode", "measure_box")

    def __init__(self, state: AppState, jobs: JobRunner, parent=None):
        super().__init__(parent)
        self.state = state
        self.jobs = jobs
        self._rows: dict[str, tuple] = {}  # run -> (evaluation, columns, its summary row)
        self._positions: tuple | None = None  # (summary index, columns, their positions)
        self.view_mode = QComboBox()
        self.view_mode.addItems([MEAN, PER_TOPIC])
        self.measure_box = NameCombo(min_chars=14, max_chars=24)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        keep = self.status.sizePolicy()      # its line kept when it hides at a load's end:
        keep.setRetainSizeWhenHidden(True)   # the table is not resized (and its columns
        self.status.setSizePolicy(keep)      # re-fitted, 21-34 ms) in that turn
        self.table = FrameTableView()
        self.table.doubleClicked.connect(self._double_clicked)
        install_topic_group_menu(self.table, state, "measures selection")
        self.picker = MeasurePicker()
        self.picker.set_selected(state.workspace.measures)
        self.picker.chosen.connect(self.state.set_measures)
        tb = FlowBar()
        tb.addWidget(QLabel(" View: "))
        tb.addWidget(self.view_mode)
        tb.addWidget(QLabel("  Measure: "))
        tb.addWidget(self.measure_box)
        tb.addSeparator()
        tb.addAction("Copy", self.table.copy_selection)
        try_add_table_export(self.table.visible_frame, tb, lambda: file_stem(
            "measures", "means" if self.view_mode.currentText() == MEAN else
            self.measure_box.currentText() + "_per-topic"))
        left = boxed(tb, self.status, self.table)
        panes = split(left, self.picker, sizes=[800, 240])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(panes)
        self.view_mode.currentTextChanged.connect(lambda _: self.refresh())
        self.measure_box.currentTextChanged.connect(lambda _: self.refresh())
        state.changed.connect(self._changed)
        self.refresh()

    # ---------------------------------------------------------------- API (tests use it)
    def set_measures(self, measures: list[str]) -> None:
        self.state.set_measures(measures)

    def show_mean(self) -> None:
        self.view_mode.setCurrentText(MEAN)

    def show_per_topic(self, column: str) -> None:
        self._fill_measure_box()
        if self.measure_box.findText(column) < 0:
            self.measure_box.addItem(column)
        self.measure_box.setCurrentText(column)
        self.view_mode.setCurrentText(PER_TOPIC)
        self.refresh()

    def current_frame(self):
        return self.table.frame()

    # ---------------------------------------------------------------- updates
    def _changed(self, what: str) -> None:
        if what in ("measures", "workspace"):
            self.picker.set_selected(self.state.workspace.measures)
        if what in ("evaluations", "runs", "measures", "workspace", "qrels"):
            self.refresh_later()

    def _fill_measure_box(self) -> None:
        cols = self.state.measure_columns()
        current = self.measure_box.currentText()
        if [self.measure_box.itemText(i) for i in range(self.measure_box.count())] != cols:
            self.measure_box.blockSignals(True)
            self.measure_box.clear()
            self.measure_box.addItems(cols)
            if current in cols:
                self.measure_box.setCurrentText(current)
            self.measure_box.blockSignals(False)

    def refresh(self) -> None:
        s = self.state
        self._fill_measure_box()
        evals = s.evaluations()
        if s.workspace.qrels is None:
            self.status.setText("Load qrels and runs to see measures (File ▸ Open).")
        elif not s.workspace.runs:
            self.status.setText("Load runs to see measures (File ▸ Open runs).")
        elif s.evaluation_error and not evals:
            self.status.setText(s.evaluation_error)
        elif s.is_evaluating():
            self.status.setText("Evaluating…")
        elif s.evaluation_error:
            self.status.setText(s.evaluation_error)
        else:
            self.status.setText("")
        self.status.setVisible(bool(self.status.text()))
        per_topic = self.view_mode.currentText() == PER_TOPIC
        self.measure_box.setEnabled(per_topic)
        if per_topic and self.measure_box.currentText():
            frame = per_topic_table(evals, self.measure_box.currentText())
        else:
            frame = self._summary(evals, s.workspace.measures)
        self.table.set_frame(frame)

    def _summary(self, evals, measures) -> pd.DataFrame:
        """:func:`summary_table`, each run's row kept until its evaluation changes: a load
        refreshes the table after every few runs, and 150 reindexed Series took ~100 ms."""
        if not evals:
            return summary_table(evals, measures)
        first = next(iter(evals.values()))
        cols = tuple(columns_for(measures, list(first.summary.index)))
        rows = []
        for name, ev in evals.items():
            hit = self._rows.get(name)
            if hit is None or hit[0] is not ev or hit[1] != cols:
                hit = self._rows[name] = (ev, cols, self._summary_row(ev.summary, cols))
            rows.append(hit[2])
        for gone in set(self._rows) - set(evals):
            del self._rows[gone]
        return pd.DataFrame(np.vstack(rows), columns=list(cols),
                            index=pd.Index(list(evals), name="run"))

    def _summary_row(self, summary: pd.Series, cols: tuple) -> np.ndarray:
        """``summary``'s values of ``cols`` as floats (NaN where absent).  The runs of a
        track share one list of measures: the positions of ``cols`` in it are looked up
        once and reused, where a ``reindex`` a run took ~1 ms of the GUI thread (~10 ms a
        flush of a load's runs)."""
        idx = summary.index
        known = self._positions
        if known is None or known[1] != cols or not (known[0] is idx or known[0].equals(idx)):
            known = self._positions = (idx, cols, idx.get_indexer(list(cols)))
        pos = known[2]
        values = summary.to_numpy()
        if values.dtype.kind != "f":
            values = pd.to_numeric(summary, errors="coerce").to_numpy(dtype=float)
        row = values[pos].astype(float)
        row[pos < 0] = np.nan
        return row

    def _double_clicked(self, index) -> None:
        row, col = self.table.source_cell(index)
        if col == 0:
            return
        column = self.table.source.column_name(col)
        key = str(self.table.source.row_key(row))
        if self.view_mode.currentText() == MEAN:
            self.show_per_topic(column)
        else:
            measure = self.measure_box.currentText()
            self.state.show_topic(key)
            self.state.show_explanation(column, key, measure)
