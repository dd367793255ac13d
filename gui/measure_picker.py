"""Pick measures from the registry: a search box over names and descriptions, checkable list."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from yardstick.evaluation.measure_catalog import catalog


class MeasurePicker(QWidget):
    """Emits ``chosen(list[str])`` with trec_eval measure specs when the choice changes."""

    chosen = Signal(list)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search measures (name or description)…")
        self.search.setClearButtonEnabled(True)
        self.list = QListWidget()
        # a long spec cut at its end: the measure's name and first parameters stay readable
        # ("iprec_at_recall.0,0.1,…"), the whole spec and description in the tooltip
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.custom = QLineEdit()
        self.custom.setPlaceholderText("Add a measure, e.g. P.5,20 or ndcg_cut.5")
        add = QPushButton("Add")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel("<b>Measures</b>"))
        lay.addWidget(self.search)
        lay.addWidget(self.list, 1)
        row = QHBoxLayout()
        row.addWidget(self.custom, 1)
        row.addWidget(add)
        lay.addLayout(row)
        self._selected: list[str] = []
        self._filling = False
        self.search.textChanged.connect(self._fill)
        self.list.itemChanged.connect(self._item_changed)
        add.clicked.connect(self._add_custom)
        self.custom.returnPressed.connect(self._add_custom)

    def set_selected(self, measures: list[str]) -> None:
        self._selected = list(measures)
        self._fill()

    def selected(self) -> list[str]:
        return list(self._selected)

    def _fill(self) -> None:
        words = self.search.text().lower().split()
        self._filling = True
        self.list.clear()
        seen = set()
        base_selected = {m.split(".", 1)[0]: m for m in self._selected}
        for m in [*[_Custom(s) for s in self._selected], *catalog()]:
            spec = base_selected.get(m.name, m.spec) if not isinstance(m, _Custom) else m.spec
            if m.name in seen:
                continue
            hay = f"{m.name} {m.description}".lower()
            if words and not all(w in hay for w in words):
                continue
            seen.add(m.name)
            item = QListWidgetItem(spec if spec == m.name else f"{spec}")
            item.setData(Qt.ItemDataRole.UserRole, spec)
            item.setToolTip(f"{spec}: {m.description}" if m.description else spec)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if spec in self._selected
                               else Qt.CheckState.Unchecked)
            self.list.addItem(item)
        self._filling = False

    def _item_changed(self, item: QListWidgetItem) -> None:
        if self._filling:
            return
        spec = item.data(Qt.ItemDataRole.UserRole)
        if item.checkState() == Qt.CheckState.Checked and spec not in self._selected:
            self._selected.append(spec)
        elif item.checkState() != Qt.CheckState.Checked and spec in self._selected:
            self._selected.remove(spec)
        self.chosen.emit(self.selected())

    def _add_custom(self) -> None:
        spec = self.custom.text().strip()
        if spec and spec not in self._selected:
            self._selected.append(spec)
            self.custom.clear()
            self._fill()
            self.chosen.emit(self.selected())


class _Custom:
    """A chosen spec shown first (its base name's description comes from the catalog)."""

    def __init__(self, spec: str):
        self.spec = spec
        self.name = spec.split(".", 1)[0]
        desc = {m.name: m.description for m in catalog()}
        self.description = desc.get(self.name, "")
