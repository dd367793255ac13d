"""Refresh a panel only when it can be seen.

A panel behind another tab need not recompute on every change: :class:`LazyPanel`
records that it is out of date and catches up when it is shown.  While the
window itself is not shown (tests, ``--screenshot`` before showing) panels
refresh at once, so their state can always be read.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


class LazyPanel(QWidget):
    """Base for panels: call ``self.refresh_later()`` instead of ``self.refresh()``."""

    _stale = False

    def refresh(self) -> None:  # overridden
        pass

    def refresh_later(self) -> None:
        win = self.window()
        if win is not None and win is not self and win.isVisible() and not self.is_seen():
            self._stale = True
            return
        self._stale = False
        self.refresh()

    def is_seen(self) -> bool:
        """Shown and not behind another tab (a dock behind a tab stays "visible", parked
        outside the window with nothing of it on screen)."""
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def catch_up(self) -> None:
        """Refresh now if a change was left for later (its dock came to the front)."""
        if self._stale:
            self._stale = False
            self.refresh()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt name
        super().showEvent(event)
        self.catch_up()
