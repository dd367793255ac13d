"""The Collection panel's judgment sets: every qrels set the session holds, named.

One line a set (the primary one, which every number uses, in bold and marked);
double-click a name to change it; Add reads another set (a second assessor, a model, a
crowd) in a job; Make primary and Remove act on the selected set.  The sets other than
the primary one are kept in the session file (:mod:`yardstick.session.qrels_sets`) and
read back when it is opened.  The Judgments panel compares them.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from yardstick.session.qrels_sets import missing_sets, read_sets, record_sets

JOB_KEY = "qrels-sets"


class QrelsSetsWidget(QWidget):
    def __init__(self, state, jobs, parent=None):
        super().__init__(parent)
        self.state = state
        self.jobs = jobs
        self.list = QListWidget()
        self.list.setMaximumHeight(62)
        self.list.setToolTip("Judgment sets: the primary one (bold) is used by every number; "
                             "the Judgments panel compares them. Double-click a name to "
                             "change it.")
        self.add_button = QPushButton("Add…")
        self.primary_button = QPushButton("Make primary")
        self.remove_button = QPushButton("Remove")
        for b in (self.add_button, self.primary_button, self.remove_button):
            b.setAutoDefault(False)
        buttons = QHBoxLayout()            # under the list: the dock is narrow at 1280x800
        buttons.setContentsMargins(0, 0, 0, 0)
        for b in (self.add_button, self.primary_button, self.remove_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(QLabel("<b>Judgment sets</b> (primary in bold)"))
        lay.addWidget(self.list)
        lay.addLayout(buttons)
        self.add_button.clicked.connect(self._choose)
        self.primary_button.clicked.connect(lambda: self._act(self.state.session.use_qrels))
        self.remove_button.clicked.connect(lambda: self._act(self.state.session.remove_qrels))
        self.list.itemChanged.connect(self._renamed)
        state.changed.connect(self._changed)
        self.refresh()

    # ---------------------------------------------------------------- API (tests use it)
    def names(self) -> list[str]:
        return list(self.state.session.qrels_sets)

    def add_path(self, path: str, name: str | None = None) -> str:
        """Read ``path`` in a job and add it as a non-primary set; returns the job key."""
        return self._read([{"name": name or _stem(path), "path": str(path)}])

    def refresh(self) -> None:
        s = self.state.session
        self.list.blockSignals(True)
        self.list.clear()
        for name, q in s.qrels_sets.items():
            primary = name == s.primary_qrels
            item = QListWidgetItem(f"{name}" + ("  (primary)" if primary else ""))
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setToolTip(f"{q.path or '(in memory)'}: {len(q)} judgments")
            if primary:
                f = QFont(item.font())
                f.setBold(True)
                item.setFont(f)
            else:
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            self.list.addItem(item)
        self.list.blockSignals(False)
        self.primary_button.setEnabled(len(s.qrels_sets) > 1)
        self.remove_button.setEnabled(bool(s.qrels_sets))

    # ---------------------------------------------------------------- updates
    def _changed(self, what: str) -> None:
        if what == "qrels":
            record_sets(self.state.session)
            self.refresh()
        elif what == "workspace":
            self.refresh()
            todo = missing_sets(self.state.session)
            if todo:
                self._read(todo)

    def _read(self, sets: list[dict]) -> str:
        def added(result) -> None:
            for name, qrels, error in result:
                if qrels is not None:
                    self.state.add_qrels(qrels, name)
                else:
                    self.state.status.emit(f"Judgment set {name} not read: {error}")

        self.jobs.submit(JOB_KEY, lambda: read_sets(sets), on_result=added)
        return JOB_KEY

    def _selected(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def _act(self, method) -> None:
        name = self._selected()
        if name is not None:
            method(name)

    def _renamed(self, item: QListWidgetItem) -> None:
        old = item.data(Qt.ItemDataRole.UserRole)
        new = item.text().strip()
        if old is not None and new and new != old:
            self.state.session.rename_qrels(old, new)

    def _choose(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(self, "Another judgment set (qrels)")
        if path:
            self.add_path(path)


def _stem(path: str) -> str:
    name = os.path.basename(path)
    for suffix in (".gz", ".xz", ".bz2", ".txt", ".qrels"):
        name = name.removesuffix(suffix) or name
    return name
