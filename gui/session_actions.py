"""Saving and opening sessions from the window: the workspace as a JSON file of paths and
choices (:mod:`yardstick.session.session_file`), the panels' choices with it, and the
autosave that keeps the last session (a failure shown once per cause, retried later)."""

from __future__ import annotations

import json
import logging

from yardstick.common.errors import FormatError
from yardstick.gui import settings as st
from yardstick.inputs.io.atomic import describe_write_error
from yardstick.session.loading import LoadResult

log = logging.getLogger(__name__)


class SessionActions:
    """The session-file half of :class:`~yardstick.gui.main_window.MainWindow` (a mixin)."""

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
        for key in list(self.panels):
            panel = self.panels[key]             # (up to date, behind a tab or not)
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
        for key in list(self.panels):
            if key in states and (keys is None or key in keys):
                left = apply(self.panels[key], states[key])
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

