"""Sharing the GIL between the window's thread and its jobs (issue 15: the event loop
blocked at most 100 ms).

The event loop runs with the GIL released and takes it back for every Python callback Qt
makes while it handles an event — a table cell's ``data()`` in a paint, a slot, a paint
method.  While a job's thread runs Python, each of those waits for it; a paint makes
hundreds.  Here: the switch interval the window sets at its start (:func:`share_the_gil`),
a call made once the paints asked for are done (:func:`after_paints`), and a job's wait for
the GUI thread with cancellation points (:func:`until_set`).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt

from yardstick.common.progress import Progress

__all__ = ["GIL_SWITCH_INTERVAL", "share_the_gil", "after_paints", "next_turn", "paced",
           "pacing", "until_set"]

#: How long (seconds) a thread running Python holds the GIL before another thread waiting
#: for it gets it (``sys.setswitchinterval``; CPython's default is 5 ms), set by
#: :func:`share_the_gil` when the window starts.
GIL_SWITCH_INTERVAL = 0.0005


def share_the_gil(interval: float = GIL_SWITCH_INTERVAL) -> None:
    """Let the GUI thread get the GIL back from a job within ``interval`` seconds.

    The event loop runs with the GIL released, and every Python callback Qt makes while it
    handles an event (a table cell's ``data()`` in a paint, a slot, a paint method) takes
    the GIL back: while a job's thread runs Python, each time waits until that thread
    reaches the switch interval (the "convoy effect": David Beazley, "Understanding the
    Python GIL", PyCon 2010; CPython's ``Python/ceval_gil.c``).  A paint makes hundreds of
    such callbacks, so with the default 5 ms a table paint of 30 ms of work took 92-1408 ms
    beside a busy job, 63-91 ms at 0.5 ms (docs/ARCHITECTURE.md).  Called once by the main
    window before its job runner starts; the jobs switch more often, the window answers
    sooner.
    """
    import sys

    sys.setswitchinterval(interval)


class _Later(QObject):
    """Calls ``fn`` when its posted event arrives (see :func:`after_paints`)."""

    def __init__(self, fn: Callable[[], None]):
        super().__init__()
        self.fn = fn

    def event(self, ev) -> bool:  # noqa: D102 - Qt override
        if ev.type() == QEvent.Type.User:
            _later.discard(self)
            self.fn()
            return True
        return super().event(ev)


_later: set[_Later] = set()


def after_paints(fn: Callable[[], None]) -> None:
    """Call ``fn`` on the GUI thread once the paints requested so far are done.

    Qt posts a widget's repaint as a low-priority ``UpdateRequest`` event (QWidget's
    repaint manager); an event posted after it at the same priority is delivered after it.
    A job that waits for this (Compare's experiment table, the topic explorer's what-if
    tests) does not compete for the GIL with the paint, whose every cell is a Python
    ``data()`` call.  (A window's very first paint comes with its expose event, which may
    be later.)
    """
    later = _Later(fn)
    _later.add(later)
    QCoreApplication.postEvent(later, QEvent(QEvent.Type.User),
                               Qt.EventPriority.LowEventPriority.value)


#: Pause (ms) between two steps of :func:`paced` work, after the paints the first asked
#: for: longer than the latency test's 10 ms tick, so that input and timers run between.
PACE_MS = 15

_paced: deque[Callable[[], None]] = deque()


def paced(fn: Callable[[], None]) -> None:
    """Call ``fn`` on the GUI thread after the :func:`paced` calls queued before it, each
    once the paints the previous one asked for are done and :data:`PACE_MS` later.

    A load's end and the shown panels' answers to what it added (issue 28: nothing on
    the GUI thread longer than 50 ms at a time) are such steps: the window repaints all
    it was asked to in one turn, so the Measures and Collection tables refreshed and
    painted in one turn with the groups' guess came to 26-43 ms on a busy machine;
    one at a time, each with its paint, they take 5-20 ms.
    """
    _paced.append(fn)
    if len(_paced) == 1:
        _pace_next()


def pacing() -> bool:
    """Whether :func:`paced` steps are waiting."""
    return bool(_paced)


def _pace_next() -> None:
    from PySide6.QtCore import QTimer

    after_paints(lambda: QTimer.singleShot(PACE_MS, _run_paced))


def _run_paced() -> None:
    try:
        _paced[0]()                     # (still queued: what it paces waits behind it)
    finally:
        _paced.popleft()
        if _paced:
            _pace_next()


#: longest a job waits for the GUI thread (:func:`until_set`) before going on (seconds)
WAIT_AT_MOST = 5.0


def next_turn(widget, fn: Callable[[], None]) -> None:
    """Call ``fn`` in the next turn of the event loop if ``widget``'s window is shown (a
    1 ms timer: a zero-time one could run before a timer already due, in the same turn),
    else at once (a window not shown paints nothing; tests)."""
    from PySide6.QtCore import QTimer

    window = widget.window()
    if window is not None and window.isVisible():
        QTimer.singleShot(1, fn)
    else:
        fn()


def until_set(event: threading.Event, message: str, timeout: float = WAIT_AT_MOST):
    """In a job: wait until the GUI thread sets ``event`` (at most ``timeout`` seconds),
    yielding progress every 50 ms (cancellation points).  Compare's experiment table (150
    runs x 7 measures of tests) computed while the GUI thread filled the comparison's tables
    kept it waiting for the GIL: its 20-30 ms of drawing became blocks of 80-160 ms."""
    end = time.monotonic() + timeout
    while not event.wait(0.05) and time.monotonic() < end:
        yield Progress(0, 1, message)
