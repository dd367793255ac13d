"""After a crash: offer to restore the autosaved session (see :mod:`yardstick.session.autosave`).

:func:`begin` runs at start (marks this process as running, finds the
session a killed or crashed Yardstick left), :func:`offer` asks the user — or
takes the answer from ``--restore`` / ``--no-restore`` or the environment
variable ``YARDSTICK_RESTORE`` (``yes``/``no``), so scripts and tests never
block on a dialog — and :func:`end` runs after a normal exit.
"""

from __future__ import annotations

import os

from PySide6.QtWidgets import QMessageBox

from yardstick.gui import settings as st
from yardstick.session.autosave import Recovery
from yardstick.session.autosave import begin as _begin
from yardstick.session.autosave import end as _end

#: Environment variable answering the restore question (``yes`` or ``no``).
ENV = "YARDSTICK_RESTORE"


def begin() -> Recovery | None:
    return _begin(st.data_dir())


def end() -> None:
    _end(st.data_dir())


def answer_from(restore: bool = False, no_restore: bool = False) -> bool | None:
    """The non-interactive answer, if one was given (flags first, then the environment)."""
    if restore:
        return True
    if no_restore:
        return False
    env = os.environ.get(ENV, "").strip().lower()
    if env in ("1", "yes", "y", "true"):
        return True
    if env in ("0", "no", "n", "false"):
        return False
    return None


def offer(win, recovery: Recovery, answer: bool | None = None,
          then: list[tuple[str, str | None]] | None = None) -> bool:
    """Ask whether to restore ``recovery``; if yes open it, then load ``then``; returns the answer.

    Declined or not, the recovered file stays where it is, so the work can
    still be opened later with File ▸ Open session.
    """
    if answer is None:
        box = QMessageBox(QMessageBox.Icon.Question, "Restore your work?",
                          recovery.describe() + "\n\nRestore it now?",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, win)
        box.setInformativeText(f"Either way it is kept in {recovery.path} "
                               "(File ▸ Open session).")
        box.setDefaultButton(QMessageBox.StandardButton.Yes)
        answer = box.exec() == QMessageBox.StandardButton.Yes
    if not answer:
        win.statusBar().showMessage(f"The unsaved work of the last run is in {recovery.path}",
                                    30000)
        return False
    if then:
        def load_rest(_res) -> None:
            win.loaded.disconnect(load_rest)
            win.open_items(then)

        win.loaded.connect(load_rest)
    win.open_session(recovery.path)
    return True
