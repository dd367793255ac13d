"""The editable list of loaded runs: shown, colour, name, group, pooled (and facts)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QColor

from yardstick.gui.app_state import AppState

#: the invalid index Qt passes as the parent of a flat table's rows
_ROOT = QModelIndex()
#: the run's tag beside its name (the Collection panel hides it where every name holds
#: its tag); the file last, its path whole in the name's tooltip
COLUMNS = ["shown", "colour", "name", "tag", "group", "pooled", "topics", "lines", "file"]
#: short headers where the column is narrow (the tooltip says what it is)
HEADERS = {"colour": ""}
CHECKS = {"shown": "visible", "pooled": "pooled"}
EDITABLE = {"name", "group"}
TIPS = {
    "shown": "Show this run in tables and charts",
    "colour": "Colour in charts (double-click to change)",
    "name": "Name (double-click to edit; file name by default)",
    "group": "Team / group (from a run<TAB>group file, guessed from the run tag, or edited)",
    "pooled": "Counts as a pooled (contributing) run in the pool diagnostics",
    "tag": "Run tag of the file (trec_eval runid)",
    "topics": "topics: how many topics the run has results for",
    "lines": "lines: result lines in the run file",
    "file": "file: where the run was read from",
}


#: what a column shows of a run entry
_SHOWN = {"name": lambda e: e.name, "group": lambda e: e.group, "tag": lambda e: e.run.tag,
          "topics": lambda e: e.run.num_topics, "lines": lambda e: len(e.run),
          "file": lambda e: e.path or ""}


def identity(e) -> str:
    """A run's name, tag and file in one tooltip (the tag and file columns may scroll)."""
    return "\n".join([e.name, f"run tag: {e.run.tag}"]
                      + ([f"file: {e.path}"] if e.path else []))


def _flags(col: str) -> Qt.ItemFlag:
    f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
    if col in CHECKS:
        f |= Qt.ItemFlag.ItemIsUserCheckable
    if col in EDITABLE:
        f |= Qt.ItemFlag.ItemIsEditable
    return f


#: each column's item flags (asked for every cell a paint draws)
_FLAGS = [_flags(c) for c in COLUMNS]


class RunsModel(QAbstractTableModel):
    """Rows are ``state.workspace.runs`` in loading order; edits go through ``state.update_run``."""

    def __init__(self, state: AppState, parent=None):
        super().__init__(parent)
        self.state = state
        self.last_error = ""
        self._names = list(state.workspace.runs)
        state.changed.connect(self._changed)

    def _changed(self, what: str) -> None:
        if what in ("runs", "workspace", "qrels"):
            self.beginResetModel()
            self._names = list(self.state.workspace.runs)
            self.endResetModel()

    def names(self) -> list[str]:
        """The runs' names as the table shows them: the workspace's when the model was last
        told of a change (a shown panel hears of a load's runs a turn later; a paint
        asked ~450 cells, each listing 150 runs)."""
        return self._names

    def _entry(self, index):
        """The run entry of ``index``'s row (None if it has gone meanwhile)."""
        if not index.isValid() or index.row() >= len(self._names):
            return None
        return self.state.workspace.runs.get(self._names[index.row()])

    def rowCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else len(self._names)

    def columnCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return HEADERS.get(COLUMNS[section], COLUMNS[section])
        if role == Qt.ItemDataRole.ToolTipRole:
            return TIPS.get(COLUMNS[section])
        return None

    def flags(self, index):
        return _FLAGS[index.column()]

    def multiData(self, index, span) -> None:  # noqa: N802 - Qt name
        """Every role a cell's paint asks for in one Python call (Qt's delegate asks
        seven at once; ``data()`` answered each in a call of its own)."""
        e = self._entry(index)
        col = COLUMNS[index.column()] if e is not None else ""
        for item in span:
            value = self._value(e, col, item.role())
            if value is None:
                item.clearData()               # (the delegate's span keeps the last cell's)
            else:
                item.setData(value)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        e = self._entry(index)
        return None if e is None else self._value(e, COLUMNS[index.column()], role)

    def _value(self, e, col: str, role):
        """What run entry ``e`` shows in column ``col`` for ``role``."""
        if e is None:
            return None
        if col in CHECKS:
            if role == Qt.ItemDataRole.CheckStateRole:
                on = getattr(e, CHECKS[col])
                return Qt.CheckState.Checked if on else Qt.CheckState.Unchecked
            return None
        if col == "colour":
            if role == Qt.ItemDataRole.BackgroundRole:
                return QColor(e.color)
            if role == Qt.ItemDataRole.ToolTipRole:
                return e.color
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self.display_value(e, col)
        if role == Qt.ItemDataRole.ToolTipRole:     # the whole text of an elided cell;
            if col == "name":                         # the name's: who the run is
                return identity(e)
            return {"group": e.group, "tag": e.run.tag, "file": e.path}.get(col)
        return None

    def tags_tell_more(self) -> bool:
        """True if some run's tag is not part of its name (``input.team01a`` holds its
        tag ``team01a``; ``run3.txt`` does not hold ``BM25-rm3``): else a tag column
        repeats what the names say."""
        runs = self.state.workspace.runs
        return any(runs[n].run.tag not in n for n in self._names if n in runs)

    @staticmethod
    def display_value(e, col: str):
        """What run entry ``e`` shows in column ``col`` (None: no text there)."""
        get = _SHOWN.get(col)
        return None if get is None else get(e)

    def display_text(self, e, col: str) -> str:
        value = self.display_value(e, col)
        return "" if value is None else str(value)

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        e = self._entry(index)
        if e is None:
            return False
        name = e.name
        col = COLUMNS[index.column()]
        try:
            if col in CHECKS and role == Qt.ItemDataRole.CheckStateRole:
                on = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value, 2, True)
                self.state.update_run(name, **{CHECKS[col]: on})
                return True
            if col in EDITABLE and role == Qt.ItemDataRole.EditRole:
                self.state.update_run(name, **{col: str(value).strip()})
                return True
        except ValueError as e:
            self.last_error = str(e)
            self.state.status.emit(str(e))
        return False
