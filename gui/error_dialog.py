"""Errors shown to the user: a message, details to copy, and the app keeps running.

:func:`install_excepthook` routes uncaught exceptions (``sys.excepthook``, which
PySide6 calls for exceptions escaping slots) to a non-modal dialog instead of
killing the process, as glue's Qt layer overrides its core error hook.
"""

from __future__ import annotations

import logging
import sys
import traceback

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from yardstick.inputs.io.atomic import describe_write_error, is_write_error

log = logging.getLogger(__name__)


class ErrorDialog(QDialog):
    """Non-modal: a message, and a read-only details box with a Copy button."""

    def __init__(self, title: str, message: str, details: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setModal(False)
        self.message = message
        self.details = details
        lay = QVBoxLayout(self)
        label = QLabel(message)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(label)
        if details:
            box = QPlainTextEdit(details)
            box.setReadOnly(True)
            box.setMinimumSize(560, 180)
            lay.addWidget(box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = QPushButton("Copy details")
        copy.clicked.connect(self.copy)
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        lay.addWidget(buttons)

    def copy(self) -> str:
        text = self.message + ("\n\n" + self.details if self.details else "")
        cb = QGuiApplication.clipboard()
        if cb is not None:
            cb.setText(text)
        return text


_window = None


def install_excepthook(window) -> None:
    """Show uncaught exceptions in ``window.show_error`` (the app keeps running)."""
    global _window
    _window = window
    previous = sys.excepthook

    def hook(exc_type, exc, tb):
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        log.error("uncaught exception\n%s", details)
        w = _window
        if w is None:
            previous(exc_type, exc, tb)
            return
        try:
            if is_write_error(exc):  # a full disk is not a bug: say what happened
                w.show_error("Could not write a file", describe_write_error(exc), details)
                return
            msg = getattr(exc, "message", None) or f"{exc_type.__name__}: {exc}"
            w.show_error("Unexpected error", f"Something went wrong: {msg}\n"
                         "Your work is still loaded; please report the details.", details)
        except Exception:  # noqa: BLE001 - never raise from the hook
            previous(exc_type, exc, tb)

    sys.excepthook = hook
