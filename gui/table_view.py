"""The sortable table view over a :class:`~yardstick.gui.table_model.DataFrameModel`: column
fitting to the room there is, copying the selection as TSV, and the export menus a panel's
toolbar adds for its table or chart.
"""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from yardstick.gui.table_model import (
    FIT_CELLS,
    SORT_ROLE,
    TEXT_FLOOR,
    TEXT_FLOOR_CHARS,
    DataFrameModel,
    SortProxy,
    sample_rows,
    shrink_to_fit,
)
from yardstick.inputs.topic_order import in_natural_order


class FrameTableView(QTableView):
    """A sortable table over a :class:`DataFrameModel` (through a sort proxy)."""

    def __init__(self, parent=None, index_as_column: bool = True):
        super().__init__(parent)
        self.source = DataFrameModel(index_as_column=index_as_column, parent=self)
        self.proxy = SortProxy(self)           # a cell's roles in one call (table_model)
        self.proxy.setSourceModel(self.source)
        self.proxy.setSortRole(SORT_ROLE)
        self.setModel(self.proxy)
        self.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.setSortingEnabled(True)
        self.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.proxy.sort(-1)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.setAlternatingRowColors(True)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setStretchLastSection(False)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(22)
        self.horizontalHeader().setResizeContentsPrecision(60)  # rows sampled when sizing
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # run names differ at the end
        self.setWordWrap(False)                               # one line a row, elided
        self.horizontalHeader().setTextElideMode(Qt.TextElideMode.ElideRight)
        self.horizontalHeader().setMinimumSectionSize(20)     # row numbers 0..9: narrow
        self._fitting = False
        self._user_sized = False
        #: headers of columns never narrowed below their natural width (an analysis
        #: panel's answer columns: yardstick.gui.panels.analysis_panel_base)
        self.whole_columns: frozenset[str] = frozenset()
        #: characters of a word column never elided (a table of measure names beside
        #: another in a narrow pane may allow fewer)
        self.text_floor_chars = TEXT_FLOOR_CHARS
        self.horizontalHeader().sectionResized.connect(self._section_resized)

    def set_frame(self, frame: pd.DataFrame, row_colors: list[str | None] | None = None) -> None:
        """Show ``frame``; ``row_colors`` gives each (source) row a background."""
        self.source.row_colors = row_colors
        old = self.source.frame()
        grew = (0 < len(old) < len(frame) and list(frame.columns) == list(old.columns)
                and frame.index[:len(old)].equals(old.index))  # rows added (a load)
        sort_col = self.horizontalHeader().sortIndicatorSection()
        order = self.horizontalHeader().sortIndicatorOrder()
        if frame.index.name == "topic" and row_colors is None:  # as people count: 2 < 100
            frame = in_natural_order(frame)
        if grew and row_colors is None and self.source.row_colors is None \
                and self.source.append_rows(frame):
            pass                                   # the proxy sorts the new rows in itself
        else:
            self.source.set_frame(frame)
            if 0 <= sort_col < self.source.columnCount():
                self.proxy.sort(sort_col, order)
            else:
                self.proxy.sort(-1)
        if grew and self.source.index_as_column:  # rows added: only the names may widen
            rows = sample_rows(self.source.rowCount(), FIT_CELLS)
            fm, hfm = self.fontMetrics(), self.horizontalHeader().fontMetrics()
            need = self.source.text_width(0, rows, fm, hfm)
            natural = getattr(self, "_natural", None)
            if natural and len(natural) == self.source.columnCount() and not self._user_sized:
                natural[0] = (max(natural[0][0], need), *natural[0][1:])
                self.fit_to_view()
            else:
                self.setColumnWidth(0, max(self.columnWidth(0), need))
        else:
            self.fit_columns()

    def fit_columns(self) -> None:
        """Each column as wide as its header and its widest text among sampled rows.

        Measured here from the formatted values rather than by Qt's
        ``resizeColumnsToContents``, which asks the model for half a dozen roles of
        every sampled cell through the sort proxy: on Compare's tables of 150 runs
        that held the event loop for 0.2–0.6 s.
        """
        n = self.source.columnCount()
        if n == 0:
            return
        fm = self.fontMetrics()
        hfm = self.horizontalHeader().fontMetrics()
        rows = sample_rows(self.source.rowCount(), max(8, FIT_CELLS // n))
        sorted_col = self.horizontalHeader().sortIndicatorSection()
        # ids (docnos, topics) keep their width; only longer words (run names) are elided
        text_floor = fm.horizontalAdvance("x" * self.text_floor_chars) + 12
        if self.text_floor_chars >= TEXT_FLOOR_CHARS:
            text_floor = max(TEXT_FLOOR, text_floor)
        # (natural width, narrowest allowed): headers elide (their tooltip names them),
        # words elide with a tooltip down to TEXT_FLOOR, numbers never
        self._natural = []
        for c in range(n):
            values = self.source.values_width(c, rows, fm)
            header = self.source.header_width(c, hfm, 20 if c == sorted_col else 10)
            floor = max(values, min(header, 44)) if not self.source.is_text(c) else \
                min(max(values, header), text_floor)
            least = self.horizontalHeader().minimumSectionSize()
            if self.source.headerData(c, Qt.Orientation.Horizontal) in self.whole_columns:
                floor = max(values, header)
            self._natural.append((max(values, header, least), max(floor, least),
                                  self.source.is_text(c)))
        self._user_sized = False
        self.fit_to_view()

    def fit_to_view(self) -> None:
        """Columns at their natural widths, or, when they are wider than the table,
        word columns (then long headers) narrowed, widest first, until every column is
        in view — or each is at its narrowest (the rest scrolls)."""
        natural = getattr(self, "_natural", None)
        if not natural or len(natural) != self.source.columnCount() or self._user_sized:
            return
        widths = shrink_to_fit([w for w, _, _ in natural], [f for _, f, _ in natural],
                               self.viewport().width() - 2, [t for _, _, t in natural])
        self._fitting = True
        self.setUpdatesEnabled(False)
        try:
            for c, w in enumerate(widths):
                self.setColumnWidth(c, w)
        finally:
            self.setUpdatesEnabled(True)
            self._fitting = False

    def _section_resized(self, *_):
        from PySide6.QtWidgets import QApplication

        if not getattr(self, "_fitting", False) and \
                QApplication.mouseButtons() != Qt.MouseButton.NoButton:
            self._user_sized = True            # widths the user dragged stay

    def viewportEvent(self, event) -> bool:  # noqa: N802 - Qt name
        if event.type() == event.Type.Resize and \
                event.oldSize().width() != event.size().width():
            self.fit_to_view()                 # (a scroll bar coming also narrows it)
        return super().viewportEvent(event)

    def frame(self) -> pd.DataFrame:
        return self.source.frame()

    def source_cell(self, proxy_index) -> tuple[int, int]:
        s = self.proxy.mapToSource(proxy_index)
        return s.row(), s.column()

    def visible_frame(self) -> pd.DataFrame:
        """The frame in the order shown (sorted as the user sorted it)."""
        rows = [self.proxy.mapToSource(self.proxy.index(r, 0)).row()
                for r in range(self.proxy.rowCount())]
        return self.source.frame().iloc[rows]

    def copy_selection(self) -> str:
        """Copy the selected cells (or everything) as tab-separated text; returns it."""
        sel = self.selectionModel().selectedIndexes() if self.selectionModel() else []
        if len(sel) <= 1:
            rows = [self.proxy.mapToSource(self.proxy.index(r, 0)).row()
                    for r in range(self.proxy.rowCount())]
            text = self.source.to_tsv(rows)
        else:
            src = [self.proxy.mapToSource(i) for i in sel]
            prow = sorted({i.row() for i in sel})
            rows = [self.proxy.mapToSource(self.proxy.index(r, 0)).row() for r in prow]
            cols = sorted({i.column() for i in src})
            text = self.source.to_tsv(rows, cols)
        cb = QGuiApplication.clipboard()
        if cb is not None:
            cb.setText(text)
        return text

    def keyPressEvent(self, event):
        from PySide6.QtGui import QKeySequence

        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_selection()
            return
        super().keyPressEvent(event)


def try_add_table_export(getter, toolbar, name=None) -> bool:
    """Add the table export menu (:func:`yardstick.gui.export_actions.add_table_export`)."""
    from yardstick.gui.export_actions import add_table_export

    add_table_export(getter, toolbar, name)
    return True


def try_add_plot_export(plot, toolbar) -> bool:
    """Add the chart export menu (:func:`yardstick.gui.export_actions.add_plot_export`)."""
    from yardstick.gui.export_actions import add_plot_export

    add_plot_export(plot, toolbar)
    return True
