"""The window's menus and the dialogs they open (file pickers only: every action ends in a
public ``MainWindow`` method that tests call directly)."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog

from yardstick.gui import help_menu
from yardstick.gui import settings as st
from yardstick.gui.error_dialog import ErrorDialog
from yardstick.gui.panels import SKIPPED


class MenuActions:
    """Mixed into :class:`yardstick.gui.main_window.MainWindow`."""

    def _build_menus(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu("&File")

        def act(menu, text, slot, shortcut=None):
            a = QAction(text, self)
            if shortcut:
                a.setShortcut(QKeySequence(shortcut))
            a.triggered.connect(slot)
            menu.addAction(a)
            return a

        act(f, "Open &qrels…", lambda: self._ask_open("qrels", "Open qrels"), "Ctrl+Shift+Q")
        act(f, "Open &runs…", self._ask_open_runs, QKeySequence.StandardKey.Open)
        act(f, "Open &topics…", lambda: self._ask_open("topics", "Open topics"))
        act(f, "Open &documents…", lambda: self._ask_open("documents", "Open documents"))
        act(f, "Open run &groups…", lambda: self._ask_open("groups", "Open run<TAB>group file"))
        act(f, "Open &folder…", self._ask_open_folder, "Ctrl+Shift+O")
        self.recent_menu = f.addMenu("Recent &files")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        f.addSeparator()
        act(f, "Open &session…", self._ask_open_session)
        act(f, "&Save session", self._save_session_default, QKeySequence.StandardKey.Save)
        act(f, "Save session &as…", self._ask_save_session, QKeySequence.StandardKey.SaveAs)
        f.addSeparator()
        act(f, "Open sample collection", self.open_sample)
        act(f, "Remove all runs", lambda: self.state.remove_runs(list(self.state.workspace.runs)))
        f.addSeparator()
        act(f, "&Quit", self.close, "Ctrl+Q")  # (the generic theme binds Quit to no key)
        e = mb.addMenu("&Edit")
        act(e, "Evaluation &options…", self._ask_options, "Ctrl+,")
        act(e, "Choose &measures…", lambda: self.raise_panel("measures"), "Ctrl+M")
        self.view_menu = mb.addMenu("&View")
        self._fill_view_menu()
        help_menu.install(self, f, e)
        self._session_path: str | None = None

    def _fill_view_menu(self) -> None:
        v = self.view_menu
        v.clear()
        for dock in self.docks.values():
            v.addAction(dock.toggleViewAction())
        v.addSeparator()
        v.addAction("Reset layout", self.reset_layout)
        v.addSeparator()
        help_menu.add_panel_actions(self, v)

    # ----------------------------------------------------------------- dialogs (menus only)
    def _ask_open(self, kind: str, title: str) -> None:
        path, _ = QFileDialog.getOpenFileName(self, title, st.last_dir(kind))
        if path:
            st.remember_dir(kind, path)
            self.open_items([(path, kind)])

    def _ask_open_runs(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Open runs", st.last_dir("run"))
        if paths:
            st.remember_dir("run", paths[0])
            self.open_runs(paths)

    def _ask_open_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Open folder", st.last_dir("folder"))
        if path:
            st.remember_dir("folder", path)
            self.open_folder(path)

    def _ask_open_session(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open session", st.last_dir("session"),
                                              "Yardstick sessions (*.json);;All files (*)")
        if path:
            st.remember_dir("session", path)
            self.open_session(path)

    def _save_session_default(self) -> None:
        if self._session_path and self._session_path != str(st.last_session_path()):
            self.save_session(self._session_path)
        else:
            self._ask_save_session()

    def _ask_save_session(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save session", st.last_dir("session"),
                                              "Yardstick sessions (*.json)")
        if path:
            if not path.endswith(".json"):
                path += ".json"
            st.remember_dir("session", path)
            self.save_session(path)

    def _ask_options(self) -> None:
        from yardstick.gui.options_dialog import OptionsDialog

        dlg = OptionsDialog(self.state.workspace.options, self, jobs=self.jobs)
        if dlg.exec():
            self.state.set_options(dlg.options())

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        items = st.recent_files()
        for kind, path in items:
            a = self.recent_menu.addAction(f"{kind}: {path}")
            if kind == "session":
                a.triggered.connect(lambda _=False, p=path: self.open_session(p))
            elif kind == "folder":
                a.triggered.connect(lambda _=False, p=path: self.open_folder(p))
            else:
                a.triggered.connect(lambda _=False, p=path, k=kind: self.open_items([(p, k)]))
        if not items:
            self.recent_menu.addAction("(none)").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear", st.clear_recent)

    def _show_skipped(self) -> None:
        text = "\n".join(f"{m}: {why}" for m, why in SKIPPED.items()) or "All panels loaded."
        ErrorDialog("Panels", text, parent=self).show()
