"""The main window: panels in docks, File menu, status bar with progress and Cancel.

Every menu action calls a public method (``open_qrels``, ``open_runs``,
``open_folder``, ``save_session`` ...) that tests call directly.  The state is the
session's (:class:`yardstick.session.model.Session`, wrapped in ``AppState``); the
window adds the panels (:mod:`~yardstick.gui.panel_docks`), opening files
(:mod:`~yardstick.gui.load_actions`) and session files (:mod:`~yardstick.gui.session_actions`).
"""

from __future__ import annotations

import logging
import time
import traceback

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QProgressBar, QPushButton, QWidget

from yardstick.common.errors import FormatError
from yardstick.gui import heap
from yardstick.gui import settings as st
from yardstick.gui.app_state import AppState
from yardstick.gui.error_dialog import ErrorDialog
from yardstick.gui.gil_sharing import share_the_gil
from yardstick.gui.jobs import JobError, JobRunner
from yardstick.gui.load_actions import LOAD_FLUSH_MS, LoadActions, loaded_message
from yardstick.gui.menus import MenuActions
from yardstick.gui.panel_docks import LAYOUT_VERSION, PRELOAD, PanelDocks, PanelsByKey
from yardstick.gui.sample_files import sample_items
from yardstick.gui.session_actions import SessionActions
from yardstick.inputs.io.atomic import describe_write_error, is_write_error
from yardstick.session.autosave import AutosaveSchedule

__all__ = ["MainWindow", "on_a_screen", "loaded_message", "sample_items", "PRELOAD",
           "LOAD_FLUSH_MS", "PREFERRED_SIZE", "FRAME_MARGIN"]

log = logging.getLogger(__name__)
#: The window's size when the screen has room for it (else the available area).
PREFERRED_SIZE = (1400, 900)
#: Room left for the window manager's frame and title bar.
FRAME_MARGIN = 40
#: Progress is shown at most this often (seconds).
PROGRESS_EVERY = 0.25
#: Widest the status bar's progress message gets (pixels; longer ones are elided).
PROGRESS_LABEL_WIDTH = 360

def on_a_screen(rect) -> bool:
    """True if ``rect`` (a QRect) lies inside the available area of one of the screens."""
    from PySide6.QtGui import QGuiApplication

    return any(s.availableGeometry().adjusted(-8, -8, 8, 8).contains(rect)
               for s in QGuiApplication.screens())



class MainWindow(MenuActions, PanelDocks, LoadActions, SessionActions, QMainWindow):
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
        self._build_loading()
        self._choices_left: dict[str, dict] = {}  # saved panel choices not yet settable
        self.panels = PanelsByKey()     # (a panel taken by key has heard every change)
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
        if not deferred_panels:
            # built at once (tests, scripts): the libraries' and panels' objects kept out
            # of the collector's walks as the deferred build's release() keeps them; else
            # the GUI thread's first collection walked all ~250,000 of them (0.1 s)
            heap.freeze()

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
        self._progress_shown = 0.0      # when the progress was last shown (time.monotonic)
        self._progress_due = False      # a later look is planned (a message came too soon)
        self.jobs.progress.connect(self._on_progress)
        # a job starting or ending changes what the bar says (not the last job's words)
        for signal in (self.jobs.started, self.jobs.finished, self.jobs.cancelled):
            signal.connect(self._show_progress)
        self.jobs.busy_changed.connect(self._on_busy)


    def _build_teaching_extras(self) -> None:
        """"Explain this number" from any panel (not only the topic explorer), and Help ▸
        Worked examples (each example of yardstick.inputs.examples, in the topic explorer)."""
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
        # QProgressBar.setValue repaints at once when its text changes (~10 ms on the GUI
        # thread); a load's several jobs report every 50 ms each: shown at most 4 times a second
        now = time.monotonic()
        if now - self._progress_shown < PROGRESS_EVERY:
            if not self._progress_due:      # the last word is shown, late, not dropped
                self._progress_due = True
                QTimer.singleShot(int(1000 * PROGRESS_EVERY), self._show_progress)
            return
        self._show_progress()

    def _show_progress(self, *_) -> None:
        """The current jobs' mean progress and newest message (a job that has said
        nothing yet: its name), in the status bar."""
        self._progress_shown, self._progress_due = time.monotonic(), False
        frac, msg = self.jobs.overall_progress()
        set_value_later(self.progress_bar, int(1000 * frac))
        fm = self.progress_label.fontMetrics()
        self.progress_label.setText(fm.elidedText(msg, Qt.TextElideMode.ElideMiddle,
                                                  PROGRESS_LABEL_WIDTH))
        self.progress_label.setToolTip(msg)

    def _on_busy(self, busy: bool) -> None:
        for w in (self.progress_label, self.progress_bar, self.cancel_button):
            w.setVisible(busy)
        if busy:
            set_value_later(self.progress_bar, 0)

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
        heap.thaw()                    # what the window held may now be collected
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


def set_value_later(bar, value: int) -> None:
    """``bar.setValue(value)`` painted with the window's next paint: QProgressBar.setValue
    repaints at once (``repaint()``), which paints every region of the window waiting for
    its paint too (a Measures table of 150 runs: 30-40 ms in the slot's turn)."""
    bar.setUpdatesEnabled(False)            # repaint() does nothing; update() follows
    try:
        bar.setValue(value)
    finally:
        bar.setUpdatesEnabled(True)
