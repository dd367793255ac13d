"""The main window: panels in docks, File menu, status bar with progress and Cancel.

Every menu action calls a public method (``open_qrels``, ``open_runs``,
``open_folder``, ``save_session`` ...) that tests call directly.  Files are read
by :func:`core.loading.load_files` in a background job; whatever fails is
reported (file, line, reason) and nothing loaded before is dropped.
"""

from __future__ import annotations

import json
import logging
import os
import traceback
from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QDockWidget, QFileDialog, QLabel, QMainWindow, QProgressBar,
                               QPushButton, QWidget)

from core.errors import FormatError
from core.loading import LoadResult, expand, load_files
from gui import settings as st
from gui.app_state import AppState
from gui.error_dialog import ErrorDialog
from gui.jobs import JobError, JobRunner
from gui.panels import SKIPPED, load_panel_classes

log = logging.getLogger(__name__)
RESOURCES = Path(__file__).resolve().parents[1] / "resources"
LAYOUT_VERSION = 1


class MainWindow(QMainWindow):
    """See module docstring.  ``loaded`` is emitted after each load batch is applied."""

    loaded = Signal(object)  # LoadResult
    error_shown = Signal(str, str)  # title, message

    def __init__(self, autosave: bool = True, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Yardstick")
        self.setAcceptDrops(True)
        self.setDockNestingEnabled(True)
        self.jobs = JobRunner(self)
        self.state = AppState(jobs=self.jobs, parent=self)
        self.autosave = autosave
        self.errors: list[str] = []  # every message shown (tests read it)
        self._dialogs: list[ErrorDialog] = []
        self._load_serial = 0
        self.panels: dict[str, QWidget] = {}
        self.docks: dict[str, QDockWidget] = {}
        self._build_status_bar()
        self._build_panels()
        self._build_menus()
        self.jobs.unhandled_error.connect(self._job_error)
        self.state.status.connect(lambda m: self.statusBar().showMessage(m, 15000))
        self._autosave_timer = QTimer(self, singleShot=True, interval=2000)
        self._autosave_timer.timeout.connect(self.save_last_session)
        self.state.changed.connect(self._on_state_changed)
        self._restore_layout()

    # ----------------------------------------------------------------- building
    def _build_status_bar(self) -> None:
        sb = self.statusBar()
        self.progress_label = QLabel("")
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setMaximumWidth(220)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.jobs.cancel_all)
        for w in (self.progress_label, self.progress_bar, self.cancel_button):
            sb.addPermanentWidget(w)
            w.setVisible(False)
        self.jobs.progress.connect(self._on_progress)
        self.jobs.busy_changed.connect(self._on_busy)

    def _build_panels(self) -> None:
        first_right = None
        for module, cls in load_panel_classes():
            key = module.rsplit(".", 1)[-1].removesuffix("_panel")
            try:
                panel = cls(self.state, self.jobs, self)
            except Exception as e:  # noqa: BLE001 - a broken panel must not stop the app
                SKIPPED[module] = f"failed to start: {type(e).__name__}: {e}"
                log.warning("panel %s failed to start", module, exc_info=True)
                continue
            dock = QDockWidget(cls.TITLE, self)
            dock.setObjectName(f"dock_{key}")
            dock.setWidget(panel)
            self.panels[key] = panel
            self.docks[key] = dock
            if key == "collection":
                self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
            else:
                self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
                if first_right is None:
                    first_right = dock
                else:
                    self.tabifyDockWidget(first_right, dock)
        if first_right is not None:
            first_right.raise_()
            if "collection" in self.docks:
                self.resizeDocks([self.docks["collection"], first_right], [420, 980],
                                 Qt.Orientation.Horizontal)
        self.resize(1400, 900)
        self._default_layout = self.saveState(LAYOUT_VERSION)

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
        act(f, "Open &folder…", self._ask_open_folder)
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
        act(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        v = mb.addMenu("&View")
        for dock in self.docks.values():
            v.addAction(dock.toggleViewAction())
        v.addSeparator()
        act(v, "Reset layout", self.reset_layout)
        h = mb.addMenu("&Help")
        act(h, "Panels not loaded…", self._show_skipped)
        self._session_path: str | None = None

    # ----------------------------------------------------------------- loading
    def open_items(self, items: list[tuple[str, str | None]], key: str | None = None) -> str:
        """Load ``[(path, kind or None)]`` in the background; returns the job key."""
        expanded: list[tuple[str, str | None]] = []
        for path, kind in items:
            if kind is None and os.path.isdir(path):
                expanded.extend(expand([path]))
            else:
                expanded.append((str(path), kind))
        self._load_serial += 1
        key = key or f"load-{self._load_serial}"
        for path, kind in expanded:
            if kind:
                st.add_recent(kind, path)
        self.jobs.submit(key, lambda: load_files(expanded), on_result=self.apply_load_result,
                         on_error=self._job_error)
        return key

    def open_qrels(self, path: str) -> str:
        return self.open_items([(path, "qrels")])

    def open_runs(self, paths: list[str]) -> str:
        return self.open_items([(p, "run") for p in paths])

    def open_topics(self, path: str) -> str:
        return self.open_items([(path, "topics")])

    def open_documents(self, path: str) -> str:
        return self.open_items([(path, "documents")])

    def open_groups(self, path: str) -> str:
        return self.open_items([(path, "groups")])

    def open_folder(self, path: str) -> str:
        st.add_recent("folder", path)
        return self.open_items(expand([path]))

    def open_files(self, paths: list[str]) -> str:
        """Files and folders, each classified by content (drag and drop, command line)."""
        return self.open_items([(p, None) for p in paths])

    def apply_load_result(self, res: LoadResult) -> None:
        """Put what a load job read into the workspace; report what failed."""
        s = self.state
        if res.qrels is not None:
            s.set_qrels(res.qrels)
        if res.topics is not None:
            s.set_topics(res.topics, res.topics_path)
        if res.documents is not None:
            s.set_documents(res.documents, res.documents_path)
        if res.runs:
            s.add_runs(res.runs, res.groups)
        elif res.groups:
            s.workspace.apply_groups(res.groups)
            s.changed.emit("runs")
        for path in res.sessions:
            self.open_session(path)
        if res.errors:
            self.show_error("Some files were not loaded",
                            "\n\n".join(e.message for e in res.errors),
                            "Everything loaded before is still loaded.")
        n = len(res.runs)
        self.statusBar().showMessage(
            f"Loaded {n} run{'s' if n != 1 else ''}" + (" and qrels" if res.qrels else "")
            + (f"; {len(res.errors)} file(s) failed" if res.errors else ""), 8000)
        self.loaded.emit(res)

    def open_sample(self) -> str:
        """The bundled sample (``core.sample``), or the fallback subset in ``resources/``."""
        items = sample_items()
        return self.open_items(items, key="load-sample")

    # ----------------------------------------------------------------- sessions
    def save_session(self, path: str) -> None:
        from core.session_file import write_session

        write_session(path, self.state.workspace.to_session())
        self._session_path = path
        st.add_recent("session", path)
        self.statusBar().showMessage(f"Session saved to {path}", 8000)

    def open_session(self, path: str, key: str = "session") -> str:
        """Replace the workspace with a saved session (read in the background)."""
        from core.session_file import read_session
        from core.workspace import load_session

        def job():
            data = read_session(path)
            return (yield from load_session(data))

        def done(result) -> None:
            ws, problems = result
            self.state.set_workspace(ws)
            self._session_path = path
            if problems:
                self.show_error("Session opened with problems",
                                "These files could not be loaded and were skipped:\n\n"
                                + "\n".join(problems))
            self.loaded.emit(LoadResult())

        st.add_recent("session", path)
        self.jobs.submit(key, job, on_result=done, on_error=self._job_error)
        return key

    def save_last_session(self) -> None:
        if not self.autosave:
            return
        try:
            self.save_session_quietly(str(st.last_session_path()))
        except (OSError, FormatError, ValueError, TypeError):
            log.warning("could not save the last session", exc_info=True)

    def save_session_quietly(self, path: str) -> None:
        from core.session_file import write_session

        write_session(path, self.state.workspace.to_session())

    def restore_last_session(self) -> bool:
        """Open the last session if there is one with files in it."""
        p = st.last_session_path()
        if not p.exists():
            return False
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if not data.get("runs") and not data.get("qrels"):
            return False
        self.open_session(str(p))
        return True

    # ----------------------------------------------------------------- errors
    def show_error(self, title: str, message: str, details: str = "") -> None:
        self.errors.append(message)
        self.error_shown.emit(title, message)
        log.info("%s: %s", title, message)
        dlg = ErrorDialog(title, message, details, self)
        self._dialogs = [d for d in self._dialogs if d.isVisible()] + [dlg]
        dlg.show()

    def _job_error(self, err: JobError) -> None:
        exc = err.exc
        if isinstance(exc, FormatError):
            self.show_error("Could not load a file", exc.message,
                            "Everything loaded before is still loaded.")
        else:
            self.show_error("A background job failed",
                            f"{err.key}: {err.message}", err.details)

    # ----------------------------------------------------------------- status
    def _on_progress(self, key: str, fraction: float, message: str) -> None:
        frac, msg = self.jobs.overall_progress()
        self.progress_bar.setValue(int(1000 * frac))
        self.progress_label.setText(msg)

    def _on_busy(self, busy: bool) -> None:
        for w in (self.progress_label, self.progress_bar, self.cancel_button):
            w.setVisible(busy)
        if busy:
            self.progress_bar.setValue(0)

    def _on_state_changed(self, what: str) -> None:
        if what != "evaluations" and self.autosave:
            self._autosave_timer.start()

    # ----------------------------------------------------------------- layout
    def _restore_layout(self) -> None:
        s = st.settings()
        geo = s.value("window/geometry")
        if isinstance(geo, QByteArray):
            self.restoreGeometry(geo)
        lay = s.value("window/state")
        if isinstance(lay, QByteArray):
            self.restoreState(lay, LAYOUT_VERSION)

    def reset_layout(self) -> None:
        self.restoreState(self._default_layout, LAYOUT_VERSION)
        for d in self.docks.values():
            d.setVisible(True)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt name
        try:
            s = st.settings()
            s.setValue("window/geometry", self.saveGeometry())
            s.setValue("window/state", self.saveState(LAYOUT_VERSION))
            self.save_last_session()
        except Exception:  # noqa: BLE001 - closing must always work
            log.warning("could not save settings: %s", traceback.format_exc())
        self.jobs.shutdown(2000)
        super().closeEvent(event)

    # ----------------------------------------------------------------- drag and drop
    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            self.open_files(paths)
            event.acceptProposedAction()

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


def sample_items() -> list[tuple[str, str | None]]:
    """Files of the bundled sample: ``core.sample.sample_paths()`` if present, else the fallback."""
    try:
        from core.sample import sample_paths

        paths = sample_paths()
    except Exception:  # noqa: BLE001 - sample not written yet: use the fallback
        paths = None
    if paths:
        if isinstance(paths, dict):
            return sample_items_from_dict(paths)
        if hasattr(paths, "__dict__") or hasattr(paths, "_asdict"):
            d = paths._asdict() if hasattr(paths, "_asdict") else vars(paths)
            return sample_items_from_dict(d)
        return [(str(p), None) for p in paths]
    fb = RESOURCES / "sample_fallback"
    items = [(str(fb / "robust03.qrels.gz"), "qrels"), (str(fb / "robust03.topics.txt"), "topics")]
    items += [(str(p), "run") for p in sorted(fb.glob("*.run.gz"))]
    return items


def sample_items_from_dict(d: dict) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for kind, v in d.items():
        kind = {"docs": "documents", "runs": "run"}.get(kind, kind)
        for p in (v if isinstance(v, (list, tuple)) else [v]):
            if p and os.path.exists(str(p)):
                out.append((str(p), kind if kind in ("qrels", "run", "topics", "documents",
                                                     "groups") else None))
    return out
