"""A read-only Qt table model over a pandas DataFrame (its view: :mod:`yardstick.gui.table_view`).

Numbers show with trec_eval's 4 decimals and sort as numbers (``Qt.UserRole``
holds the raw value; the proxy sorts on it); headers carry the measure
registry's descriptions as tooltips; cells can be coloured by a callback.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np
import pandas as pd
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor

from yardstick.inputs.io.text_source import shown
from yardstick.inputs.topic_order import natural_key
from yardstick.presentation.export.cells import format_p, is_count_name, is_p_column

#: the invalid index Qt passes as the parent of a flat table's rows
_ROOT = QModelIndex()
SORT_ROLE = Qt.ItemDataRole.UserRole
_R = Qt.ItemDataRole
#: the roles :meth:`DataFrameModel.data` answers
_ROLES = frozenset((_R.DisplayRole, SORT_ROLE, _R.TextAlignmentRole, _R.BackgroundRole,
                    _R.ToolTipRole))
_DISPLAY, _ALIGN, _BACKGROUND = (int(_R.DisplayRole.value), int(_R.TextAlignmentRole.value),
                                 int(_R.BackgroundRole.value))
_NUMBERS = (int, float, np.integer, np.floating)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
#: Cells sampled in all to size a table's columns (at least 8 rows per column).
FIT_CELLS = 1500
#: Widest a column is made by fitting (pixels); the user may widen it.
MAX_FIT_WIDTH = 400
#: Narrowest a column of words (run names) is made to keep the others in view: pixels,
#: and characters of text (a docno or topic id that short is never elided)
TEXT_FLOOR = 90
TEXT_FLOOR_CHARS = 16


def shrink_to_fit(widths: list[int], floors: list[int], room: int,
                  first: list[bool] | None = None) -> list[int]:
    """``widths`` narrowed so that they add up to ``room`` if they can: the widest columns
    first (one cap for all, as water levels), none below its floor.  With ``first``, the
    columns it marks are narrowed first; the others only if that brings every column in
    view (a table too wide anyway keeps its numbers' headers whole)."""
    if first is not None and any(first) and not all(first):
        keep = [w if not f else fl for w, fl, f in zip(widths, floors, first, strict=True)]
        step = shrink_to_fit(widths, keep, room)
        if sum(step) <= room or sum(max(f, min(w, fl)) for w, fl, f in
                                    zip(step, floors, [True] * len(step), strict=True)) > room:
            return step
        widths = step
    total = sum(widths)
    if total <= room:
        return list(widths)
    lo, hi = 0, max(widths)
    while lo < hi:                                   # the largest cap that fits
        cap = (lo + hi + 1) // 2
        if sum(max(f, min(w, cap)) for w, f in zip(widths, floors, strict=True)) <= room:
            lo = cap
        else:
            hi = cap - 1
    return [max(f, min(w, lo)) for w, f in zip(widths, floors, strict=True)]


def sample_rows(n: int, k: int) -> np.ndarray:
    """Up to ``k`` row numbers of ``n``: the first rows, then evenly spread ones."""
    if n <= k:
        return np.arange(n)
    head = np.arange(min(k // 2, n))
    spread = np.linspace(0, n - 1, k - len(head)).astype(int)
    return np.unique(np.concatenate([head, spread]))
ColorFn = Callable[[int, int, object], str | None]


def format_value(v, decimals: int = 4) -> str:
    """``0.12345`` -> ``"0.1235"``; integers as integers; NaN -> ``""``."""
    if v is None or v is pd.NA or v is pd.NaT:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        if math.isnan(v):
            return ""
        if float(v).is_integer() and abs(v) >= 1e4:
            return str(int(v))
        return f"{v:.{decimals}f}"
    return shown(str(v))  # a docno's non-UTF-8 bytes as U+FFFD (Qt would drop them)


def _column_values(col: pd.Series) -> np.ndarray:
    """Values for display: nullable integers stay integers (missing -> None)."""
    if isinstance(col.dtype, pd.api.extensions.ExtensionDtype) and col.dtype.kind in "iub":
        return col.to_numpy(dtype=object, na_value=None)
    return col.to_numpy()


def _whole(values: np.ndarray) -> bool:
    """Every finite value whole (a count column as the files tell one: 2.5 keeps it not)."""
    if values.dtype.kind != "f":
        return values.dtype.kind in "iu"
    v = values[np.isfinite(values)]
    return bool(np.all(v == np.round(v)))


_BRUSHES: dict[str, QBrush] = {}


def _brush(color: str) -> QBrush:
    b = _BRUSHES.get(color)
    if b is None:
        b = _BRUSHES[color] = QBrush(QColor(color))
    return b


@lru_cache(maxsize=4096)
def header_tooltip(column: str) -> str:
    """A column header's tooltip (kept per name: Compare's tables have 300 columns)."""
    # the measure reference (definition, formula, source), else the catalogue's line
    from yardstick.analysis.explain.reference import tooltip
    from yardstick.evaluation.measure_catalog import describe

    tip = tooltip(str(column))
    if tip != str(column):
        return tip
    return describe(str(column))


class DataFrameModel(QAbstractTableModel):
    """Shows a DataFrame; the index becomes the first column when ``index_as_column``."""

    def __init__(self, frame: pd.DataFrame | None = None, index_as_column: bool = True,
                 decimals: int = 4, parent=None):
        super().__init__(parent)
        self.decimals = decimals
        self.index_as_column = index_as_column
        self.color_fn: ColorFn | None = None
        self.row_colors: list[str | None] | None = None  # one background per row (fast path)
        self.tooltip_fn: Callable[[int, int], str | None] | None = None
        self._frame = pd.DataFrame()
        self._values: list[np.ndarray] = []
        self._headers: list[str] = []
        self._tips: dict[int, str] = {}
        self._pcol: list[bool] = []
        self._prow: np.ndarray = np.zeros(0, bool)  # rows of p-values (a transposed table)
        self._count: list[bool] = []               # columns, and rows, of counts (num_ret):
        self._crow: np.ndarray = np.zeros(0, bool)  # whole values as integers, as trec_eval
        self._shown: dict[tuple[int, int], str] = {}  # texts shown so far (display_text)
        self._shown_decimals = decimals
        self.set_frame(frame if frame is not None else pd.DataFrame())

    # ------------------------------------------------------------ data
    def set_frame(self, frame: pd.DataFrame) -> None:
        self.beginResetModel()
        self._frame = frame
        self._nrows = len(frame)
        if len(frame.columns) and all(isinstance(t, np.dtype) and t.kind == "f"
                                      for t in frame.dtypes):
            block = frame.to_numpy(dtype=float)   # 300 float columns: one copy, not 300
            cols = [block[:, i] for i in range(block.shape[1])]
        else:
            cols = [_column_values(frame.iloc[:, i]) for i in range(frame.shape[1])]
        headers = [str(c) for c in frame.columns]
        if self.index_as_column:
            cols.insert(0, _column_values(frame.index.to_series()))
            headers.insert(0, str(frame.index.name or ""))
        self._values = cols
        self._headers = headers
        self._tips = {}                                    # worked out when asked
        self._shown = {}
        self._pcol = [is_p_column(h) for h in headers]
        self._prow = np.array([isinstance(k, str) and is_p_column(k) for k in frame.index]
                              if len(frame) <= 200 else [], bool)
        self._count = [is_count_name(h) and _whole(v) for h, v in zip(headers, cols, strict=True)]
        self._crow = np.array([isinstance(k, str) and is_count_name(k) for k in frame.index]
                              if len(frame) <= 200 else [], bool)
        self.endResetModel()

    def append_rows(self, frame: pd.DataFrame) -> bool:
        """Show ``frame`` when it is the current frame with rows added at the end (a load's
        new runs) and the rows shown are unchanged: only the new rows are inserted
        (``beginInsertRows``), so the view and its sort proxy keep what they have and
        place the new rows alone, instead of a model reset that re-sorts and re-lays out
        every row.  Returns False (nothing done) when ``frame`` is not such a frame."""
        old, n = self._frame, self._nrows
        if not (0 < n < len(frame)) or list(frame.columns) != list(old.columns) \
                or not frame.index[:n].equals(old.index):
            return False
        head = frame.iloc[:n]
        if not head.equals(old):                   # a shown row changed: not an append
            return False
        tail = frame.iloc[n:]
        cols = [_column_values(tail.iloc[:, i]) for i in range(tail.shape[1])]
        if self.index_as_column:
            cols.insert(0, _column_values(tail.index.to_series()))
        if len(cols) != len(self._values):
            return False
        # a count column stays one while the new rows are whole too: a fraction among
        # them shows the rows before it with decimals as well (a flag only turns off)
        count = [f and _whole(b) for f, b in zip(self._count, cols, strict=True)]
        lost = [c for c, (was, now) in enumerate(zip(self._count, count)) if was and not now]
        self.beginInsertRows(_ROOT, n, len(frame) - 1)
        self._values = [np.concatenate([a, b]) if a.dtype == b.dtype or a.dtype != object
                        and b.dtype != object else np.concatenate([a.astype(object), b])
                        for a, b in zip(self._values, cols, strict=True)]
        self._frame = frame
        self._nrows = len(frame)
        self._count = count
        if lost:
            self._shown = {k: t for k, t in self._shown.items() if k[1] not in lost}
        self.endInsertRows()
        for c in lost:                              # the rows shown so far, now with decimals
            self.dataChanged.emit(self.index(0, c), self.index(n - 1, c), [_R.DisplayRole])
        return True

    def frame(self) -> pd.DataFrame:
        return self._frame

    def column_name(self, col: int) -> str:
        return self._headers[col]

    def row_key(self, row: int):
        """The frame's index value for a (source) row."""
        return self._frame.index[row]

    def raw(self, row: int, col: int):
        return self._values[col][row]

    def text_width(self, col: int, rows, fm, header_fm, arrow: int = 20) -> int:
        """Pixels column ``col`` needs: its header (with ``arrow`` pixels for the sort
        arrow) or the widest of its ``rows`` as shown, plus the cell's margins."""
        return max(self.header_width(col, header_fm, arrow),
                   self.values_width(col, rows, fm))

    def header_width(self, col: int, header_fm, arrow: int = 20) -> int:
        return min(header_fm.horizontalAdvance(self._headers[col]) + arrow, MAX_FIT_WIDTH)

    def display_text(self, r: int, c: int) -> str:
        """Cell (r, c) as shown: p-values never as a false 0.0000 (:func:`format_p`), the
        rest by :func:`format_value`.  Column widths are measured from the same text.
        Each text is made once per frame shown (a paint asks for every cell in view, and
        a load repaints the table many times)."""
        if self._shown_decimals != self.decimals:
            self._shown, self._shown_decimals = {}, self.decimals
        text = self._shown.get((r, c))
        if text is None:
            text = self._shown[r, c] = self._format(r, c)
        return text

    def _format(self, r: int, c: int) -> str:
        v = self._values[c][r]
        if isinstance(v, (float, np.floating)) and (
                self._pcol[c] or (r < len(self._prow) and self._prow[r])):
            return format_p(v, self.decimals)
        if isinstance(v, (float, np.floating)) and float(v).is_integer() and (
                self._count[c] or (r < len(self._crow) and self._crow[r])):
            return str(int(v))                     # a count: 1000, not 1000.0000
        return format_value(v, self.decimals)

    def values_width(self, col: int, rows, fm) -> int:
        """Pixels the widest of the column's ``rows`` takes as shown (with margins)."""
        texts = sorted({self.display_text(r, col) for r in rows}, key=len)[-3:]
        return min(max([0] + [fm.horizontalAdvance(t) + 12 for t in texts]), MAX_FIT_WIDTH)

    def is_text(self, col: int) -> bool:
        """True for a column of words (run names, teams), which may be elided with a
        tooltip; numbers never are."""
        values = self._values[col]
        return len(values) > 0 and values.dtype == object and any(
            isinstance(v, str) for v in values[:50])

    # ------------------------------------------------------------ Qt
    def rowCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else self._nrows

    def columnCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else len(self._headers)

    def index(self, row: int, column: int, parent=_ROOT) -> QModelIndex:
        """QAbstractTableModel.index in one Python call (its ``hasIndex`` makes two more,
        ``rowCount`` and ``columnCount``: the sort proxy asks for an index for every role
        of every cell a paint draws)."""
        if 0 <= row < self._nrows and 0 <= column < len(self._headers) \
                and not parent.isValid():
            return self.createIndex(row, column)
        return QModelIndex()

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if role not in _ROLES or not index.isValid():   # a paint asks ~10 roles a cell:
            return None                                  # the others answered first
        return self.cell_data(index.row(), index.column(), role)

    def cell_data(self, r: int, c: int, role):
        """What :meth:`data` answers for cell (r, c) and ``role`` (one of ``_ROLES``)."""
        v = self._values[c][r]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display_text(r, c)
        if role == SORT_ROLE:
            if v is None or v is pd.NA or (isinstance(v, (float, np.floating)) and math.isnan(v)):
                return -math.inf
            if isinstance(v, (np.integer, np.floating, np.bool_)):
                return v.item()
            if isinstance(v, str):
                return natural_key(v)
            return v if isinstance(v, (int, float)) else str(v)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role == Qt.ItemDataRole.BackgroundRole:
            if self.row_colors is not None:
                color = self.row_colors[r] if r < len(self.row_colors) else None
            elif self.color_fn is not None:
                color = self.color_fn(r, c, v)
            else:
                return None
            return _brush(color) if color else None
        if role == Qt.ItemDataRole.ToolTipRole:
            if self.tooltip_fn is not None:
                tip = self.tooltip_fn(r, c)
                if tip:
                    return tip
            if isinstance(v, str) and len(v) > 6:  # the whole text of a cell a column
                return shown(v)                     # narrower than it elides
        return None

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal:
            if section >= len(self._headers):
                return None
            if role == Qt.ItemDataRole.DisplayRole:
                return self._headers[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                tip = self._tips.get(section)
                if tip is None:
                    tip = self._tips[section] = header_tooltip(self._headers[section])
                return tip
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return str(section + 1)
        return None

    # ------------------------------------------------------------ text
    def to_tsv(self, rows: list[int] | None = None, cols: list[int] | None = None) -> str:
        """Tab-separated text (headers first) of some or all source rows/columns."""
        rows = list(range(self.rowCount())) if rows is None else rows
        cols = list(range(self.columnCount())) if cols is None else cols
        lines = ["\t".join(self._headers[c] for c in cols)]
        for r in rows:
            lines.append("\t".join(format_value(self._values[c][r], self.decimals) for c in cols))
        return "\n".join(lines) + "\n"


class SortProxy(QSortFilterProxyModel):
    """The sort proxy of a :class:`DataFrameModel`, answering all the roles a cell's paint
    asks for in one Python call (``multiData``).  Qt's delegate asks a cell's seven roles
    at once, but QSortFilterProxyModel answers each by a ``data()`` of its own, which maps
    the index to the source (a Python ``index()``) and calls the source's Python
    ``data()``: 15 calls into Python a cell, ~3,300 a paint of the Measures table, each
    taking the GIL back from the load's readers."""

    def multiData(self, index, span) -> None:  # noqa: N802 - Qt name
        source = self.sourceModel()
        if not isinstance(source, DataFrameModel):
            super().multiData(index, span)
            return
        src = self.mapToSource(index)
        if not src.isValid():
            for item in span:
                item.clearData()
            return
        r, c = src.row(), src.column()
        coloured = source.color_fn is not None or source.row_colors is not None
        for item in span:                      # the delegate's 7 roles; 3 have answers
            role = item.role()
            if role == _DISPLAY:               # (the commonest first, without a call each)
                item.setData(source.display_text(r, c))
            elif role == _ALIGN:
                v = source._values[c][r]
                if isinstance(v, _NUMBERS) and not isinstance(v, bool):
                    item.setData(_RIGHT)
                else:
                    item.clearData()
            elif role in _ROLES and (role != _BACKGROUND or coloured):
                value = source.cell_data(r, c, role)
                if value is None:
                    item.clearData()
                else:
                    item.setData(value)
            else:
                item.clearData()               # (the delegate's span keeps the last cell's)
