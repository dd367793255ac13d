"""Topic groups in the GUI: the range dialog, the list of groups, and the table hook.

Groups live in ``Workspace.topic_groups`` (saved in sessions) and change only
through ``AppState.set_topic_group``, so every panel that offers a group
(stability, charts) sees a new one at once through ``state.changed("topic_groups")``.
Parsing and checking are in :mod:`yardstick.analysis.topic_group_spec`.

* :class:`TopicRangeDialog` -- a name and ``"301-350, 601-650"``, with a live preview;
* :class:`TopicGroupsWidget` -- the groups (new from ranges / file, rename, delete,
  members), shown in the Collection panel;
* :func:`install_topic_group_menu` -- one call gives any ``QTableView`` that shows
  topics a context-menu action "Make topic group from selection".
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from yardstick.analysis.topic_group_spec import (
    GroupSpec,
    check_group_name,
    groups_frame,
    parse_group_text,
    read_group_file,
    topics_in_rows,
    unique_group_name,
)
from yardstick.common.errors import FormatError
from yardstick.gui.flow_bar import FlowBar
from yardstick.gui.table_view import FrameTableView

MENU_TEXT = "Make topic group from selection"


def ask_name(parent: QWidget | None, title: str, default: str) -> str | None:
    """Ask for a group name (tests replace this function); None when cancelled."""
    text, ok = QInputDialog.getText(parent, title, "Name of the topic group:", text=default)
    return text.strip() if ok and text.strip() else None


def known_topics(state) -> list[str]:
    """The collection's topics (qrels, topics file, runs); empty when nothing is loaded."""
    ws = state.workspace
    return ws.topic_ids() if hasattr(ws, "topic_ids") else []


def make_group(state, topics: list[str], base_name: str, parent: QWidget | None = None,
               ask: bool = True) -> str | None:
    """Save ``topics`` as a new topic group; returns its name (None if cancelled/empty).

    The name is ``base_name`` made unique; with ``ask`` the user may change it.
    """
    topics = list(dict.fromkeys(str(t) for t in topics))
    if not topics:
        return None
    existing = state.workspace.topic_groups
    name = unique_group_name(base_name, existing)
    if ask:
        answer = ask_name(parent, "New topic group", name)
        if answer is None:
            return None
        name = unique_group_name(answer, existing)
    state.set_topic_group(name, topics)
    return name


# ---------------------------------------------------------------- tables
def selected_topics(view: QTableView) -> list[str]:
    """Topics of the rows selected in ``view`` (in the order shown)."""
    sm = view.selectionModel()
    if sm is None:
        return []
    proxy_rows = sorted({i.row() for i in sm.selectedIndexes()})
    if isinstance(view, FrameTableView):
        rows = [view.proxy.mapToSource(view.proxy.index(r, 0)).row() for r in proxy_rows]
        return topics_in_rows(view.source.frame(), rows)
    model = view.model()
    col = next((c for c in range(model.columnCount())
                if str(model.headerData(c, Qt.Orientation.Horizontal)).lower() == "topic"), None)
    if col is None:
        return []
    return list(dict.fromkeys(str(model.index(r, col).data()) for r in proxy_rows))


class TableTopicGroups:
    """The context menu of one table view (made by :func:`install_topic_group_menu`)."""

    def __init__(self, view: QTableView, state, base_name: str,
                 extra: Callable[[QMenu], None] | None = None):
        self.view, self.state, self.base_name, self.extra = view, state, base_name, extra
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._show_menu)

    def selected_topics(self) -> list[str]:
        return selected_topics(self.view)

    def build_menu(self) -> QMenu:
        """The context menu for the current selection (tests trigger its actions)."""
        m = QMenu(self.view)
        topics = self.selected_topics()
        a = m.addAction(f"{MENU_TEXT} ({len(topics)} topic{'s' if len(topics) != 1 else ''})"
                        if topics else MENU_TEXT)
        a.setEnabled(bool(topics))
        a.triggered.connect(lambda _=False, t=topics: self.make_group(t))
        if isinstance(self.view, FrameTableView):
            m.addAction("Copy", self.view.copy_selection)
        if self.extra is not None:
            self.extra(m)
        return m

    def make_group(self, topics: list[str] | None = None, ask: bool = True) -> str | None:
        topics = self.selected_topics() if topics is None else topics
        name = make_group(self.state, topics, f"{self.base_name} ({len(topics)} topics)",
                          self.view, ask)
        if name is not None and hasattr(self.state, "status"):
            self.state.status.emit(f"{len(topics)} topics saved as the topic group '{name}'.")
        return name

    def _show_menu(self, pos) -> None:
        self.build_menu().exec(self.view.viewport().mapToGlobal(pos))


def install_topic_group_menu(view: QTableView, state, base_name: str = "selection",
                             extra: Callable[[QMenu], None] | None = None
                             ) -> TableTopicGroups:
    """Give ``view`` a context menu with "Make topic group from selection" (and ``extra``).

    Rows may be picked with Ctrl/Shift-click; the topics are the rows' index
    (when named ``topic``) or ``topic`` column.  Keep the returned object alive
    (it is stored on the view as ``view.topic_group_menu``).
    """
    if view.selectionMode() == QAbstractItemView.SelectionMode.SingleSelection:
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    hook = TableTopicGroups(view, state, base_name, extra)
    view.topic_group_menu = hook
    return hook


# ---------------------------------------------------------------- range dialog
class TopicRangeDialog(QDialog):
    """A name and a spec such as ``301-350, 601-650``; the preview says what it selects."""

    def __init__(self, state, parent: QWidget | None = None, spec: str = ""):
        super().__init__(parent)
        self.setWindowTitle("New topic group from ranges")
        self.state = state
        self.known = known_topics(state)
        self.spec_edit = QLineEdit(spec)
        self.spec_edit.setPlaceholderText("e.g. 301-350, 601-650 or 303 307 320")
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("(default: the ranges)")
        self.preview = QLabel("")
        self.preview.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Topics", self.spec_edit)
        form.addRow("Name", self.name_edit)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.preview)
        lay.addWidget(self.buttons)
        self.spec_edit.textChanged.connect(lambda _t: self._update())
        self.name_edit.textChanged.connect(lambda _t: self._update())
        self._update()

    def parsed(self) -> GroupSpec | None:
        try:
            return parse_group_text(self.spec_edit.text(), self.known or None)
        except ValueError:
            return None

    def topics(self) -> list[str]:
        g = self.parsed()
        return list(g.topics) if g is not None else []

    def group_name(self) -> str:
        return self.name_edit.text().strip() or self.spec_edit.text().strip()

    def error(self) -> str:
        """Why OK is disabled ("" when the dialog can be accepted)."""
        if not self.spec_edit.text().strip():
            return "Type topic ids or ranges."
        try:
            parse_group_text(self.spec_edit.text(), self.known or None)
            check_group_name(self.group_name(), self.state.workspace.topic_groups)
        except ValueError as e:
            return str(e)
        return ""

    def _update(self) -> None:
        err = self.error()
        g = self.parsed()
        self.preview.setText(err if g is None else g.describe() + (f" — {err}" if err else ""))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not err)

    def accept(self) -> None:
        if self.error():
            return
        self.state.set_topic_group(self.group_name(), self.topics())
        super().accept()


# ---------------------------------------------------------------- list of groups
class TopicGroupsWidget(QWidget):
    """The workspace's topic groups: new (ranges, file), rename, delete; members below."""

    def __init__(self, state, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.table = FrameTableView()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.doubleClicked.connect(lambda _i: self.rename_selected())
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._show_members())
        self.members = QLabel("")
        self.members.setWordWrap(True)
        self.members.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        tb = FlowBar()
        tb.addWidget(QLabel("<b>Topic groups</b> "))
        tb.addAction("Ranges…", self.new_from_ranges).setToolTip(
            "New group from topic ids and ranges, e.g. 301-350, 601-650")
        tb.addAction("File…", self.ask_file).setToolTip(
            "New group(s) from a file: one topic per line, or 'name: ranges' lines")
        self.rename_action = tb.addAction("Rename…", self.rename_selected)
        self.delete_action = tb.addAction("Delete", self.delete_selected)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(tb)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.members)
        state.changed.connect(self._changed)
        self.refresh()

    # ------------------------------------------------------------ API
    def names(self) -> list[str]:
        return list(self.state.workspace.topic_groups)

    def selected_name(self) -> str | None:
        sel = self.table.selectionModel().selectedRows()
        if not sel:
            return None
        row, _ = self.table.source_cell(sel[0])
        return str(self.table.source.row_key(row))

    def select(self, name: str) -> None:
        frame = self.table.frame()
        if name in frame.index:
            src = self.table.source.index(list(frame.index).index(name), 0)
            self.table.selectRow(self.table.proxy.mapFromSource(src).row())

    def new_from_ranges(self) -> TopicRangeDialog:
        dlg = TopicRangeDialog(self.state, self)
        dlg.accepted.connect(lambda: self.select(dlg.group_name()))
        dlg.open()
        return dlg

    def load_file(self, path: str) -> list[str]:
        """Add the groups of a file (one topic per line, or ``name: spec`` lines)."""
        groups = read_group_file(path, known_topics(self.state) or None)
        names = []
        for name, topics in groups.items():
            name = unique_group_name(name, self.state.workspace.topic_groups)
            self.state.set_topic_group(name, topics)
            names.append(name)
        return names

    def ask_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Topic group file (one topic per line)")
        if not path:
            return
        try:
            self.load_file(path)
        except FormatError as e:
            self.members.setText(f"Not loaded: {e.message}")

    def rename(self, old: str, new: str) -> str:
        """Rename a group in place (its position in the list is kept)."""
        groups = self.state.workspace.topic_groups
        new = check_group_name(new, groups, old)
        if new == old:
            return old
        items = [(new if k == old else k, v) for k, v in groups.items()]
        groups.clear()
        groups.update(items)
        self.state.set_topic_group(new, groups[new])   # announces the change
        return new

    def rename_selected(self) -> None:
        old = self.selected_name()
        if old is None:
            return
        new = ask_name(self, "Rename topic group", old)
        if new:
            try:
                self.select(self.rename(old, new))
            except ValueError as e:
                self.members.setText(str(e))

    def delete_selected(self) -> None:
        name = self.selected_name()
        if name is not None:
            self.state.set_topic_group(name, None)

    # ------------------------------------------------------------ updates
    def _changed(self, what: str) -> None:
        if what in ("topic_groups", "workspace", "qrels", "topics"):
            self.refresh()

    def refresh(self) -> None:
        cur = self.selected_name()
        groups = self.state.workspace.topic_groups
        known = known_topics(self.state)
        self.table.set_frame(groups_frame(groups, known or None))
        if cur in groups:
            self.select(cur)
        has = bool(groups)
        self.rename_action.setEnabled(has)
        self.delete_action.setEnabled(has)
        self.table.setToolTip("" if has else "No topic groups yet: make one from ranges, a "
                              "file, or a selection in any table of topics (right-click).")
        self._show_members()

    def _show_members(self) -> None:
        name = self.selected_name()
        topics = self.state.workspace.topic_groups.get(name) if name else None
        self.members.setText(f"<b>{html.escape(name)}</b> ({len(topics)}): "
                             + html.escape(", ".join(topics)) if topics else "")
