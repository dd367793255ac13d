"""The Help menu (guide, measure glossary, keyboard shortcuts, About) and the window-wide
shortcuts for the common actions: switch panel, export the panel's table or chart, run
the panel's analysis.

:func:`install` builds the Help menu and adds the shortcut actions to the File, Edit and
View menus; :func:`shortcut_list` reads every shortcut back from the menus, so the list
the Help window shows is the one the window answers to.  The glossary is computed in
core (:mod:`yardstick.analysis.explain.glossary`).
"""

from __future__ import annotations

import platform
import sys
from importlib import metadata

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QLineEdit,
    QMenu,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from yardstick.gui.panels import SKIPPED

__all__ = ["install", "add_panel_actions", "shortcut_list", "front_panel", "versions",
           "HelpWindow", "EXTRA_SHORTCUTS"]

#: shortcuts that are not menu actions (they belong to a kind of widget)
EXTRA_SHORTCUTS = [("Tables", "Copy the selected cells (tab-separated)", "Ctrl+C"),
                   ("Charts", "Untick a legend entry to hide it; click a run to highlight it",
                    "")]
#: libraries whose versions About lists
LIBRARIES = ("PySide6", "pyqtgraph", "numpy", "pandas", "pyarrow", "scipy", "statsmodels",
             "matplotlib", "openpyxl", "dask")


def versions() -> list[tuple[str, str]]:
    """``[(name, version)]``: Yardstick, Python, Qt and the libraries it is built on."""
    import PySide6
    from PySide6.QtCore import qVersion

    from yardstick.version import __version__

    out = [("Yardstick", __version__),
           ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
           ("Qt", qVersion())]
    for lib in LIBRARIES:
        if lib == "PySide6":
            out.append((lib, PySide6.__version__))
            continue
        try:
            out.append((lib, metadata.version(lib)))
        except metadata.PackageNotFoundError:
            out.append((lib, "not installed"))
    out.append(("Platform", f"{platform.system()} {platform.release()} ({sys.platform})"))
    return out


# ---------------------------------------------------------------- the panel in front

def front_panel(win) -> str | None:
    """The key of the panel the user is looking at: the one holding the keyboard focus,
    else the tab in front of the main dock area (Collection, beside it, only if alone)."""
    from PySide6.QtWidgets import QApplication

    focus = QApplication.focusWidget()
    for key, dock in win.docks.items():
        if focus is not None and dock.isAncestorOf(focus):
            return key
    shown = [k for k, d in win.docks.items()
             if d.isVisible() and not d.visibleRegion().isEmpty()]
    return next((k for k in shown if k != "collection"), shown[0] if shown else None)


def _export_button(panel: QWidget, title: str) -> QToolButton | None:
    """The panel's visible "Export table" / "Export chart" button (the first one in view)."""
    buttons = [b for b in panel.findChildren(QToolButton)
               if b.menu() is not None and b.menu().title() == title]
    seen = [b for b in buttons if b.isVisible() and not b.visibleRegion().isEmpty()]
    return (seen or buttons or [None])[0]


def export_from_front(win, title: str) -> bool:
    """Open the export menu (``title``) of the panel in front; False if it has none."""
    key = front_panel(win)
    panel = win.panels.get(key) if key else None
    button = _export_button(panel, title) if panel is not None else None
    if button is None:
        win.statusBar().showMessage(f"{title}: the panel in front has nothing to export", 8000)
        return False
    if button.isVisible():
        button.showMenu()
    else:
        button.menu().popup(win.mapToGlobal(win.rect().center()))
    return True


def run_front_analysis(win) -> bool:
    """Press the Run button of the panel in front (Stability, Pool); False if it has none."""
    key = front_panel(win)
    panel = win.panels.get(key) if key else None
    button = getattr(panel, "run_button", None)
    if button is None or not button.isEnabled():
        win.statusBar().showMessage("Run: the panel in front has no analysis to run", 8000)
        return False
    button.click()
    return True


def step_panel(win, delta: int) -> None:
    """Bring the next (``delta`` = 1) or previous panel's tab to the front."""
    keys = list(win.docks)
    cur = front_panel(win)
    i = keys.index(cur) if cur in keys else 0
    win.raise_panel(keys[(i + delta) % len(keys)])


# ---------------------------------------------------------------- menus

def _action(parent, text: str, slot, shortcut=None) -> QAction:
    a = QAction(text, parent)
    if shortcut:
        a.setShortcut(QKeySequence(shortcut))
        a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    a.triggered.connect(slot)
    return a


def add_panel_actions(win, menu: QMenu) -> None:
    """"Go to panel" entries (Ctrl+1 … Ctrl+9) and next / previous panel in ``menu``."""
    old = getattr(win, "_go_menu", None)
    if old is not None and shiboken6.isValid(old):  # the View menu is refilled when a panel
        old.deleteLater()        # comes or goes: no second set of the same shortcuts
    go = win._go_menu = menu.addMenu("&Go to panel")
    for i, (key, dock) in enumerate(win.docks.items()):
        go.addAction(_action(go, dock.windowTitle(), lambda _=False, k=key: win.raise_panel(k),
                             f"Ctrl+{i + 1}" if i < 9 else None))
    go.addSeparator()
    go.addAction(_action(go, "Next panel", lambda: step_panel(win, 1), "Ctrl+PgDown"))
    go.addAction(_action(go, "Previous panel", lambda: step_panel(win, -1), "Ctrl+PgUp"))


def install(win, file_menu: QMenu | None = None, edit_menu: QMenu | None = None) -> QMenu:
    """Add the common actions' shortcuts to ``file_menu`` and ``edit_menu`` and build the
    Help menu."""
    if file_menu is not None:
        quit_action = file_menu.actions()[-1]
        for a in (_action(win, "&Export the panel's table…",
                          lambda: export_from_front(win, "Export table"), "Ctrl+E"),
                  _action(win, "Export the panel's &chart…",
                          lambda: export_from_front(win, "Export chart"), "Ctrl+Shift+E")):
            file_menu.insertAction(quit_action, a)
        file_menu.insertSeparator(quit_action)
    if edit_menu is not None:
        edit_menu.addSeparator()
        edit_menu.addAction(_action(win, "&Run the panel's analysis", lambda:
                                    run_front_analysis(win), "F5"))
    h = win.menuBar().addMenu("&Help")
    h.addAction(_action(h, "&Guide to the panels", lambda: show_help(win, "guide"), "F1"))
    h.addAction(_action(h, "Measure &glossary", lambda: show_help(win, "glossary"),
                        "Shift+F1"))
    h.addAction(_action(h, "&Keyboard shortcuts", lambda: show_help(win, "shortcuts"),
                        "Ctrl+/"))
    h.addSeparator()
    # only when a panel failed to import (a broken install): otherwise the entry only puzzles
    failed = _action(h, "Panels that failed to load…", win._show_skipped)
    h.addAction(failed)
    failed.setVisible(bool(SKIPPED))
    h.aboutToShow.connect(lambda: failed.setVisible(bool(SKIPPED)))
    h.addAction(_action(h, "&About Yardstick", lambda: show_about(win)))
    return h


def shortcut_list(win) -> list[tuple[str, str, str]]:
    """``[(menu, action, shortcut)]`` of every menu action with a shortcut, then the
    shortcuts of kinds of widgets (:data:`EXTRA_SHORTCUTS`)."""
    out: list[tuple[str, str, str]] = []

    def walk(menu: QMenu, path: str) -> None:
        for a in menu.actions():
            if a.menu() is not None:
                walk(a.menu(), f"{path} ▸ {a.text().replace('&', '')}")
            elif not a.shortcut().isEmpty():
                out.append((path, a.text().replace("&", ""),
                            a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)))
    for a in win.menuBar().actions():
        if a.menu() is not None:
            walk(a.menu(), a.text().replace("&", ""))
    return out + [e for e in EXTRA_SHORTCUTS if e[2]]


# ---------------------------------------------------------------- windows

class HelpWindow(QDialog):
    """The guide, the glossary (searchable) and the shortcuts, one tab each."""

    TABS = ("guide", "glossary", "shortcuts")

    def __init__(self, win):
        super().__init__(win)
        from yardstick.gui.help_text import guide_html

        self.setWindowTitle("Yardstick help")
        self.resize(760, 600)
        self.tabs = QTabWidget()
        self.guide = QTextBrowser()
        self.guide.setHtml(guide_html())
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search measures (name, description, formula, paper)…")
        self.search.setClearButtonEnabled(True)
        self.glossary = QTextBrowser()
        g = QWidget()
        gl = QVBoxLayout(g)
        gl.setContentsMargins(0, 0, 0, 0)
        gl.addWidget(self.search)
        gl.addWidget(self.glossary, 1)
        self.shortcuts = QTableWidget(0, 3)
        self.shortcuts.setHorizontalHeaderLabels(["Shortcut", "Action", "Menu"])
        self.shortcuts.verticalHeader().setVisible(False)
        self.shortcuts.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.shortcuts.horizontalHeader().setStretchLastSection(True)
        for w, title in ((self.guide, "Guide"), (g, "Measure glossary"),
                         (self.shortcuts, "Keyboard shortcuts")):
            self.tabs.addTab(w, title)
        lay = QVBoxLayout(self)
        lay.addWidget(self.tabs)
        self.search.textChanged.connect(self._fill_glossary)
        self._fill_glossary()
        self.fill_shortcuts(win)

    def _fill_glossary(self) -> None:
        from yardstick.analysis.explain.glossary import glossary_html

        self.glossary.setHtml(glossary_html(self.search.text()))

    def fill_shortcuts(self, win) -> None:
        rows = shortcut_list(win)
        self.shortcuts.setRowCount(len(rows))
        for r, (menu, action, keys) in enumerate(rows):
            for c, text in enumerate((keys, action, menu)):
                self.shortcuts.setItem(r, c, QTableWidgetItem(text))
        self.shortcuts.resizeColumnsToContents()

    def show_tab(self, name: str, anchor: str | None = None) -> None:
        self.tabs.setCurrentIndex(self.TABS.index(name))
        if anchor:
            self.glossary.scrollToAnchor(anchor)
        self.show()
        self.raise_()
        self.activateWindow()


def show_help(win, tab: str, anchor: str | None = None) -> HelpWindow:
    """Open (or bring back) the window's Help window at ``tab``."""
    help_window = getattr(win, "_help_window", None)
    if help_window is None:
        help_window = win._help_window = HelpWindow(win)
    else:
        help_window.fill_shortcuts(win)
    help_window.show_tab(tab, anchor)
    return help_window


def about_html() -> str:
    rows = "".join(f"<tr><td>{name}&nbsp;&nbsp;</td><td>{v}</td></tr>" for name, v in versions())
    return ("<h3>Yardstick</h3><p>A workbench for TREC-style information-retrieval "
            "evaluation: trec_eval's measures, exactly, with run comparison, topic-set "
            f"stability, pool diagnostics and reports.</p><table>{rows}</table>")


def show_about(win) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.NoIcon, "About Yardstick", about_html(),
                      QMessageBox.StandardButton.Ok, win)
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setModal(False)
    box.show()
    win._about_box = box
    return box
