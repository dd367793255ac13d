"""The main window: panels in docks, File menu, status bar with progress and Cancel.

Every menu action calls a public method (``open_qrels``, ``open_runs``,
``open_folder``, ``save_session`` ...) that tests call directly.  Files are read
by :func:`yardstick.session.loading.load_files` in a background job; whatever fails is
reported (file, line, reason) and nothing loaded before is dropped.
"""

from __future__ import annotations

import json
import logging
import os
import time
import traceback
from dataclasses import dataclass, field

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QWidget,
)

from yardstick.common.errors import FormatError
from yardstick.gui import heap
from yardstick.gui import settings as st
from yardstick.gui.app_state import AppState, Evaluator
from yardstick.gui.error_dialog import ErrorDialog
from yardstick.gui.gil_sharing import share_the_gil
from yardstick.gui.jobs import JobError, JobRunner
from yardstick.gui.lazy import defer_while_hidden
from yardstick.gui.menus import MenuActions
from yardstick.gui.panels import (
    PANEL_TITLES,
    SKIPPED,
    load_panel_classes,
    panel_key,
    panel_module_names,
)
from yardstick.gui.sample_files import sample_items
from yardstick.inputs.io.atomic import describe_write_error, is_write_error
from yardstick.session.autosave import AutosaveSchedule
from yardstick.session.loading import LoadResult, expand, load_files

log = logging.getLogger(__name__)
#: Imported on a worker thread after the first paint, before the panels are built on the
#: GUI thread (together ~1 s of imports that would otherwise hold the event loop).
PRELOAD = ("numpy", "pandas", "pyarrow", "pyqtgraph", "scipy.stats", "yardstick.evaluation.engine",
           "yardstick.evaluation.evaluation_tables", "yardstick.session.loading", "yardstick.gui.table_model")
LAYOUT_VERSION = 1
#: The window's size when the screen has room for it (else the available area).
PREFERRED_SIZE = (1400, 900)
#: Room left for the window manager's frame and title bar.
FRAME_MARGIN = 40
#: Widest the status bar's progress message gets (pixels; longer ones are elided).
PROGRESS_LABEL_WIDTH = 360
#: Runs read by a load reach the workspace this long after the first of them (milliseconds),
#: then at most every LOAD_FLUSH_MS[1]: each addition refreshes every panel in view.
LOAD_FLUSH_MS = (250, 1000)


@dataclass
class _StreamedLoad:
    """A load under way: what its evaluations were made with, and the runs not yet added."""

    key: str
    qrels: object
    options: object
    evaluate: Evaluator
    pending: list = field(default_factory=list)


def _scrolling(panel: QWidget) -> QScrollArea:
    """``panel`` in a scroll area: a panel taller or wider than the screen scrolls instead of
    pushing the window (and its tab and status bars) off a small screen."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(panel)
    return area


def on_a_screen(rect) -> bool:
    """True if ``rect`` (a QRect) lies inside the available area of one of the screens."""
    from PySide6.QtGui import QGuiApplication

    return any(s.availableGeometry().adjusted(-8, -8, 8, 8).contains(rect)
               for s in QGuiApplication.screens())


class MainWindow(MenuActions, QMainWindow):
    """See module docstring.  ``loaded`` is emitted after each load batch is applied."""

    loaded = Signal(object)  # LoadResult
    error_shown = Signal(str, str)  # title, message
    panels_ready = Signal()

    def __init__(self, autosave: bool = True, deferred_panels: bool = False,
                 parent: QWidget | None = None):
        super().__init__(parent)
        heap.collect_on_gui_thread()   # cycles holding Qt objects die on this thread only
        share_the_gil()                # before any job: the GUI thread waits <= 0.5 ms for the GIL
        self.setWindowTitle("Yardstick")
        self.setAcceptDrops(True)
        self.setDockNestingEnabled(True)
        self.jobs = JobRunner(self)
        self.state = AppState(jobs=self.jobs, parent=self)
        self.autosave = autosave
        self.errors: list[str] = []  # every message shown (tests read it)
        self._dialogs: list[ErrorDialog] = []
        self._load_serial = 0
        self._loads: dict[str, _StreamedLoad] = {}  # job key -> a load under way
        # runs read by a load reach the workspace a few at a time, not one signal each
        self._flush_timer = QTimer(self, singleShot=True, interval=LOAD_FLUSH_MS[0])
        self._flush_timer.timeout.connect(self._flush_loaded_runs)
        self._choices_left: dict[str, dict] = {}  # saved panel choices not yet settable
        self.panels: dict[str, QWidget] = {}
        self.docks: dict[str, QDockWidget] = {}
        self._build_status_bar()
        self._build_panels(deferred_panels)
        self._build_menus()
        self._build_teaching_extras()
        self.jobs.unhandled_error.connect(self._job_error)
        # a choice whose list a panel fills from its job's result (Compare's chart run)
        self.jobs.finished.connect(lambda _key: self._choices_left and self._retry_panel_choices())
        self.state.status.connect(lambda m: self.statusBar().showMessage(m, 15000))
        self._autosave_schedule = AutosaveSchedule(quiet=2.0, at_most=30.0)
        self.autosave_problem: str | None = None  # why the last autosave failed, if it did
        self._autosave_timer = QTimer(self, singleShot=True, interval=2000)
        self._autosave_timer.timeout.connect(self.save_last_session)
        self.state.changed.connect(self._on_state_changed)
        self.state.topic_requested.connect(lambda _t: self.raise_panel("topic"))
        self._restore_layout()

    # ----------------------------------------------------------------- building
    def _build_status_bar(self) -> None:
        sb = self.statusBar()
        self.progress_label = QLabel("")
        # a long message ("parsing a-very-long-run-file-name…") is cut, never widens the window
        self.progress_label.setMaximumWidth(PROGRESS_LABEL_WIDTH)
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

    def _build_panels(self, deferred: bool) -> None:
        """A dock for every panel; the panels themselves now, or with ``deferred`` after the
        first paint (:meth:`build_panels_in_turns`): the window shows its tabs at once."""
        self._pending: list[str] = []
        self._building = False  # build_panels_in_turns has started
        if deferred:
            SKIPPED.clear()
            for module in panel_module_names():
                key = panel_key(module)
                self._add_dock(key, PANEL_TITLES.get(key, key.replace("_", " ").capitalize()))
                self._pending.append(module)
        else:
            for module, cls in load_panel_classes():
                self._add_panel(module, cls)
            QTimer.singleShot(0, self._report_broken_panels)
        self.fit_to_screen()
        self._default_layout = self.saveState(LAYOUT_VERSION)

    def build_panels_in_turns(self) -> None:
        """After the first paint: import the heavy libraries off the GUI thread, then build
        the panels one per turn of the event loop, those in view first.  A panel whose
        tab is brought to the front before its turn is built at once."""
        if self._pending and not self._building:
            self._building = True
            heap.hold()                # no collection while the libraries load and panels build
            self.jobs.preload(PRELOAD, then=self._after_preload)

    def _after_preload(self) -> None:
        heap.freeze()                  # the libraries' objects: never walked by the collector
        self._build_next_panel()

    def _build_next_panel(self) -> None:
        if not self._pending:
            return
        seen = [m for m in self._pending if self._dock_in_view(panel_key(m))]
        self._build_panel((seen or self._pending)[0])
        if self._pending:   # 1 ms, not 0: a zero-time call could come before a timer already due
            QTimer.singleShot(1, self._build_next_panel)

    def _dock_in_view(self, key: str) -> bool:
        dock = self.docks.get(key)
        return dock is not None and dock.isVisible() and not dock.visibleRegion().isEmpty()

    def build_remaining_panels(self) -> None:
        """Build every panel not built yet, now (tests, scripts, a worked example)."""
        while self._pending:
            self._build_panel(self._pending[0])

    def _build_panel(self, module: str) -> None:
        """Import and create one pending panel (put in its dock); the last one reports
        the panels that failed and emits ``panels_ready``."""
        import importlib

        from yardstick.gui.panels import find_panel_class, record_skip

        if module not in self._pending:
            return
        self._pending.remove(module)
        key = panel_key(module)
        try:
            cls = find_panel_class(importlib.import_module(module))
        except Exception as e:  # noqa: BLE001 - skip a broken panel, say why
            record_skip(module, e)
            cls = None
        if cls is None:
            SKIPPED.setdefault(module, "no QWidget subclass with a TITLE")
            self._remove_dock(key)
        else:
            self._add_panel(module, cls)
            self.restore_panel_choices({key})
        if not self._pending:
            heap.release()             # freeze the panels' objects; collect again from now
            self._report_broken_panels()
            self.panels_ready.emit()

    def _report_broken_panels(self) -> None:
        """A panel that failed to import or start is an error the user sees (not a silent gap)."""
        if SKIPPED:
            self.show_error("A panel could not be opened",
                            "These panels failed and are missing from the window; the others "
                            "work. Please report the details.",
                            "\n".join(f"{m}: {why}" for m, why in SKIPPED.items()))

    def _add_dock(self, key: str, title: str) -> QDockWidget:
        """The dock of panel ``key`` (a placeholder inside until the panel is built)."""
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{key}")
        waiting = QLabel("Opening…")
        waiting.setAlignment(Qt.AlignmentFlag.AlignCenter)
        dock.setWidget(waiting)
        # a tab brought to the front builds its panel if it is not built yet
        dock.visibilityChanged.connect(lambda seen, k=key: seen and self._opened(k))
        self.docks[key] = dock
        if key == "collection":
            self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
            return dock
        first = next((d for k, d in self.docks.items() if k != "collection" and d is not dock),
                     None)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        if first is None:
            if "collection" in self.docks:
                self.resizeDocks([self.docks["collection"], dock], [420, 980],
                                 Qt.Orientation.Horizontal)
        else:
            self.tabifyDockWidget(first, dock)
            first.raise_()
        return dock

    def _opened(self, key: str) -> None:
        module = next((m for m in self._pending if panel_key(m) == key), None)
        if module is not None and self._building:  # (not while the window first shows)
            QTimer.singleShot(0, lambda: self._build_panel(module))

    def _remove_dock(self, key: str) -> None:
        dock = self.docks.pop(key, None)
        if dock is not None:
            self.removeDockWidget(dock)
            dock.deleteLater()
            if hasattr(self, "view_menu"):
                self._fill_view_menu()

    def _add_panel(self, module: str, cls: type) -> None:
        key = panel_key(module)
        try:
            panel = cls(self.state, self.jobs, self)
        except Exception as e:  # noqa: BLE001 - a broken panel must not stop the app
            SKIPPED[module] = f"failed to start: {type(e).__name__}: {e}"
            log.warning("panel %s failed to start", module, exc_info=True)
            self._remove_dock(key)
            return
        dock = self.docks.get(key) or self._add_dock(key, cls.TITLE)
        old = dock.widget()
        dock.setWidget(_scrolling(panel))
        if old is not None:
            old.deleteLater()
        self.panels[key] = panel
        defer_while_hidden(panel)  # a panel behind a tab does no work ...
        if hasattr(panel, "catch_up"):  # ... and catches up when its tab comes to the front
            dock.visibilityChanged.connect(lambda seen, p=panel: seen and p.catch_up())

    def _build_teaching_extras(self) -> None:
        """"Explain this number" from any panel (not only the topic explorer), and
        Help ▸ Worked examples (each example of yardstick.inputs.examples, in the topic explorer)."""
        from yardstick.gui import explain_dialog

        self.explain_dialog = explain_dialog.install(self.state, self.jobs, self)
        from PySide6.QtWidgets import QMenu

        help_menu = next((m for m in self.menuBar().findChildren(QMenu)
                          if m.title().replace("&", "") == "Help"), None)
        if help_menu is None:
            help_menu = self.menuBar().addMenu("&Help")
        self.examples_menu = help_menu.addMenu("Worked examples")
        from yardstick.inputs.examples import examples

        try:
            items = [(e.name, e.title) for e in examples()]
        except (OSError, ValueError):       # resources/examples unreadable: menu disabled
            items = []
        for name, title in items:
            self.examples_menu.addAction(title, lambda n=name: self.load_example(n))
        self.examples_menu.setEnabled(bool(items))

    def load_example(self, name: str) -> bool:
        """Show worked example ``name`` (yardstick.inputs.examples) in the topic explorer."""
        if "topic_explorer" not in self.panels and self._pending:
            self.build_remaining_panels()
        panel = self.panels.get("topic_explorer")
        if panel is None:
            return False
        self.raise_panel("topic_explorer")
        panel.load_example(name)
        return True

    # ----------------------------------------------------------------- loading
    def open_items(self, items: list[tuple[str, str | None]], key: str | None = None) -> str:
        """Load ``[(path, kind or None)]`` in the background; returns the job key.

        The job reads qrels, groups, topics and documents first, then each run, and
        evaluates each run as soon as it is read (plain data captured here: the
        workspace's qrels, the measures, the options); runs reach the window a few at
        a time (:meth:`_load_piece`), so the tables fill while the rest is read.
        """
        expanded: list[tuple[str, str | None]] = []
        for path, kind in items:
            if kind is None and os.path.isdir(path):
                expanded.extend(expand([path]))
            else:
                expanded.append((str(path), kind))
        self._load_serial += 1
        key = key or f"load-{self._load_serial}"
        st.add_recents([(kind, path) for path, kind in expanded if kind])
        ws = self.state.workspace
        qrels, options = ws.qrels, ws.options
        evaluate = Evaluator(self.state.wanted_measures(), options)
        load = _StreamedLoad(key, qrels, options, evaluate)
        self._loads[key] = load

        def job():
            return (yield from load_files(expanded, stream=True, qrels=qrels, evaluate=evaluate))

        self.jobs.submit(key, job, on_result=lambda res: self._load_done(load, res),
                         on_error=self._job_error, on_partial=lambda p: self._load_piece(load, p))
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
        """Put what a (not streamed) load read into the workspace; report what failed."""
        self._apply_files(res)
        if res.runs:
            self.state.add_runs(res.runs, res.groups)
        elif res.groups:
            self.state.apply_groups(res.groups)
        self._load_finished(res)

    def _apply_files(self, res: LoadResult) -> None:
        s = self.state
        if res.qrels is not None:
            s.set_qrels(res.qrels)
        if res.topics is not None:
            s.set_topics(res.topics, res.topics_path)
        if res.documents is not None:
            s.set_documents(res.documents, res.documents_path)

    def _load_piece(self, load: "_StreamedLoad", piece: LoadResult) -> None:
        """A piece of a streamed load: the small files at once, runs a few at a time."""
        if not piece.runs:
            self._apply_files(piece)
            if piece.qrels is not None:
                load.qrels = piece.qrels
            return
        for run in piece.runs:
            load.pending.append((run, piece.evaluations.get(run.name)))
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def _flush_loaded_runs(self) -> None:
        self._flush_timer.setInterval(LOAD_FLUSH_MS[1] if self._loads else LOAD_FLUSH_MS[0])
        for load in list(self._loads.values()):
            if load.pending:
                pending, load.pending = load.pending, []
                self.state.add_evaluated_runs(pending, load.qrels, load.options)
        heap.freeze()                  # runs and evaluations so far: kept, not walked again

    def _load_done(self, load: "_StreamedLoad", res: LoadResult) -> None:
        self._flush_loaded_runs()
        self._loads.pop(load.key, None)
        if not self._loads:
            self._flush_timer.stop()
            self._flush_timer.setInterval(LOAD_FLUSH_MS[0])
        if res.runs or res.groups:
            self.state.settle_groups(res.groups)
        if res.runs:
            self.state.evaluation_error = load.evaluate.error
            self.state.evaluations_arrived()
        heap.freeze()                  # the runs and evaluations just loaded
        self._load_finished(res)

    def _load_finished(self, res: LoadResult) -> None:
        for path in res.sessions:
            self.open_session(path)
        if res.errors:
            self.show_error("Some files were not loaded",
                            "\n\n".join(e.message for e in res.errors),
                            "Everything loaded before is still loaded.")
        self.statusBar().showMessage(loaded_message(res), 8000)
        self.loaded.emit(res)

    def open_sample(self) -> str:
        """The bundled sample (``yardstick.inputs.sample``), or the fallback subset in ``resources/``."""
        items = sample_items()
        return self.open_items(items, key="load-sample")

    # ----------------------------------------------------------------- sessions
    def save_session(self, path: str) -> None:
        from yardstick.session.session_file import write_session

        self.keep_panel_choices()
        write_session(path, self.state.workspace.to_session())
        self._session_path = path
        st.add_recent("session", path)
        self.statusBar().showMessage(f"Session saved to {path}", 8000)

    def open_session(self, path: str, key: str = "session") -> str:
        """Replace the workspace with a saved session (read in the background)."""
        from yardstick.session.session_file import read_session
        from yardstick.session.workspace import load_session

        def job():
            data = read_session(path)
            return (yield from load_session(data))

        def done(result) -> None:
            ws, problems = result
            self.state.set_workspace(ws)
            self.restore_panel_choices()
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
        """Autosave; a failure (a full disk …) is shown, once per cause, and retried later."""
        if not self.autosave:
            return
        path = st.last_session_path()
        try:
            self.save_session_quietly(str(path))
        except (OSError, FormatError, ValueError, TypeError) as e:
            log.warning("could not save the last session", exc_info=True)
            problem = ("Autosave failed. " + describe_write_error(e, path)
                       if isinstance(e, OSError) else f"Autosave failed: {e}")
            self.statusBar().showMessage(problem + " Your work is not saved yet.")
            if problem != self.autosave_problem:
                self.show_error("Autosave failed", problem + "\n\nYardstick keeps trying; "
                                "use File > Save session to save elsewhere.")
            self.autosave_problem = problem
            return
        self._autosave_schedule.saved()
        if self.autosave_problem is not None:
            self.autosave_problem = None
            self.statusBar().showMessage("Autosaved again.", 8000)

    def save_session_quietly(self, path: str) -> None:
        from yardstick.session.session_file import write_session

        self.keep_panel_choices()
        write_session(path, self.state.workspace.to_session())

    def keep_panel_choices(self) -> None:
        """Put every built panel's choices into the workspace (saved with the session);
        the saved choices of panels not built yet are kept as they were."""
        from yardstick.gui.panel_choices import capture
        from yardstick.session.workspace import panel_states, set_panel_states

        ws = self.state.workspace
        states = panel_states(ws)
        for key, panel in self.panels.items():
            if getattr(panel, "CHOICES", ()):
                states[key] = capture(panel)
        set_panel_states(ws, states)

    def restore_panel_choices(self, keys=None) -> None:
        """Set the panels' choices from the session (after opening it, or building a panel)."""
        from yardstick.gui.panel_choices import apply
        from yardstick.session.workspace import panel_states

        states = panel_states(self.state.workspace)
        if keys is None:
            self._choices_left = {}
        for key, panel in self.panels.items():
            if key in states and (keys is None or key in keys):
                left = apply(panel, states[key])
                if left:
                    self._choices_left[key] = left

    def _retry_panel_choices(self) -> None:
        """Set the saved choices that had to wait for their runs or measures to be listed."""
        from yardstick.gui.panel_choices import apply

        for key, choices in list(self._choices_left.items()):
            panel = self.panels.get(key)
            left = apply(panel, choices) if panel is not None else choices
            if left:
                self._choices_left[key] = left
            else:
                del self._choices_left[key]

    def restore_last_session(self) -> bool:
        """Open the last session if there is one with files in it."""
        p = st.last_session_path()
        if not p.exists():
            return False
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if not isinstance(data, dict) or not data.get("runs") and not data.get("qrels"):
            return False  # (an unreadable session is reported by open_session)
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
        elif is_write_error(exc):
            self.show_error("Could not write a file", describe_write_error(exc), err.details)
        else:
            self.show_error("A background job failed",
                            f"{err.key}: {err.message}", err.details)

    # ----------------------------------------------------------------- status
    def _on_progress(self, key: str, fraction: float, message: str) -> None:
        frac, msg = self.jobs.overall_progress()
        self.progress_bar.setValue(int(1000 * frac))
        fm = self.progress_label.fontMetrics()
        self.progress_label.setText(fm.elidedText(msg, Qt.TextElideMode.ElideMiddle,
                                                  PROGRESS_LABEL_WIDTH))
        self.progress_label.setToolTip(msg)

    def _on_busy(self, busy: bool) -> None:
        for w in (self.progress_label, self.progress_bar, self.cancel_button):
            w.setVisible(busy)
        if busy:
            self.progress_bar.setValue(0)

    def _on_state_changed(self, what: str) -> None:
        if self._choices_left and what in ("runs", "evaluations", "measures", "topic_groups"):
            self._retry_panel_choices()
        if what != "evaluations" and self.autosave:
            # debounced, but never later than 30 s after the first unsaved change
            delay = self._autosave_schedule.delay(time.monotonic())
            self._autosave_timer.start(int(1000 * delay))

    # ----------------------------------------------------------------- layout
    def fit_to_screen(self, preferred: tuple[int, int] = PREFERRED_SIZE) -> None:
        """Size the window to ``preferred`` or the screen's available area, whichever is smaller.

        The frame (title bar, borders) is added by the window manager, so a
        margin is left for it; the window is centred on the available area.
        """
        from PySide6.QtGui import QGuiApplication

        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            self.resize(*preferred)
            return
        avail = screen.availableGeometry()
        w = min(preferred[0], avail.width() - FRAME_MARGIN)
        h = min(preferred[1], avail.height() - FRAME_MARGIN)
        self.resize(w, h)
        self.move(avail.x() + (avail.width() - w) // 2, avail.y() + (avail.height() - h) // 2)

    def _restore_geometry(self) -> None:
        """Restore the saved size and position, but only if they lie on a visible screen."""
        geo = st.settings().value("window/geometry")
        if not isinstance(geo, QByteArray):
            return
        before = self.saveGeometry()
        self.restoreGeometry(geo)
        if not on_a_screen(self.frameGeometry()):
            self.restoreGeometry(before)
            self.fit_to_screen()

    def _restore_layout(self) -> None:
        self._restore_geometry()
        s = st.settings()
        lay = s.value("window/state")
        if isinstance(lay, QByteArray):
            self.restoreState(lay, LAYOUT_VERSION)

    def raise_panel(self, key: str) -> None:
        """Bring a panel's dock to the front (if that panel is loaded)."""
        dock = self.docks.get(key)
        if dock is not None:
            dock.show()
            dock.raise_()

    def reset_layout(self) -> None:
        self.restoreState(self._default_layout, LAYOUT_VERSION)
        for d in self.docks.values():
            d.setVisible(True)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt name
        if self._pending:
            heap.release()             # closed before every panel was built
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


def loaded_message(res: LoadResult) -> str:
    """The status bar's words for a load: what it read ("Loaded 150 runs and qrels",
    "Loaded run groups (150 runs)"; a groups file alone said "Loaded 0 runs")."""
    n = len(res.runs)
    parts = [f"{n} run{'s' if n != 1 else ''}"] if n or res.qrels is not None else []
    parts += ["qrels"] * (res.qrels is not None)
    if res.groups:
        k = len(res.groups)
        parts.append(f"run groups ({k} run{'s' if k != 1 else ''})")
    parts += ["topics"] * (res.topics is not None) + ["documents"] * (res.documents is not None)
    parts += ["a session"] * bool(res.sessions)
    said = "Loaded " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1
                        else parts[0] if parts else "nothing")
    return said + (f"; {len(res.errors)} file(s) failed" if res.errors else "")
