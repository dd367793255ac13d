"""Refresh a panel only when it can be seen, and at most once per turn of the event loop.

A panel behind another tab need not recompute on every change: :class:`LazyPanel`
records that it is out of date and catches up when it is shown.  A panel in
view refreshes on the next turn of the event loop, once for all the changes
announced in this one (a load announces runs and evaluations together).  While
the window itself is not shown (tests, ``--screenshot`` before showing) panels
refresh at once, so their state can always be read.

:func:`defer_while_hidden` gives a panel that is not a :class:`LazyPanel` the same
manners for its ``refresh`` method (the main window applies it to every panel).
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget


def _window_shown(panel: QWidget) -> bool:
    win = panel.window()
    return win is not None and win is not panel and win.isVisible()


def is_seen(panel: QWidget) -> bool:
    """Shown and not behind another tab (a dock behind a tab stays "visible", parked
    outside the window with nothing of it on screen)."""
    return panel.isVisible() and not panel.visibleRegion().isEmpty()


class LazyPanel(QWidget):
    """Base for panels: call ``self.refresh_later()`` instead of ``self.refresh()``."""

    _stale = False
    _queued = False

    def refresh(self) -> None:  # overridden
        pass

    def refresh_later(self) -> None:
        if not _window_shown(self):
            self._stale = False
            self.refresh()
            return
        self._stale = True
        if self.is_seen() and not self._queued:
            self._queued = True
            QTimer.singleShot(0, self._queued_refresh)

    def _queued_refresh(self) -> None:
        self._queued = False
        if self._stale and (self.is_seen() or not _window_shown(self)):
            self._stale = False
            self.refresh()

    def is_seen(self) -> bool:
        return is_seen(self)

    def catch_up(self) -> None:
        """Refresh now if a change was left for later (its dock came to the front)."""
        if self._stale:
            self._stale = False
            self.refresh()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt name
        super().showEvent(event)
        self.catch_up()


def defer_while_hidden(panel: QWidget) -> None:
    """Make ``panel.refresh()`` wait, as :class:`LazyPanel` does, while the panel is behind
    another tab; ``panel.catch_up()`` (called when its dock comes to the front) does it then.

    For panels written as plain widgets that refresh on every change (a chart panel
    redrawing 150 runs behind a tab on each batch of a load held the event loop for
    seconds).  Their own code is unchanged: the instance's ``refresh`` is wrapped.
    """
    original = getattr(panel, "refresh", None)
    if original is None or isinstance(panel, LazyPanel) or hasattr(panel, "catch_up"):
        return
    stale = [False]

    def refresh(*args, **kwargs):
        if _window_shown(panel) and not is_seen(panel):
            stale[0] = True
            return None
        stale[0] = False
        return original(*args, **kwargs)

    def catch_up() -> None:
        if stale[0]:
            stale[0] = False
            original()

    panel.refresh = refresh
    panel.catch_up = catch_up
