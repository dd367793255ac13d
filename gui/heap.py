"""Keep Python's cycle collector off the long-lived heap (the event loop's longest pauses).

After the libraries are imported and runs are loaded, the process holds a couple of
hundred thousand long-lived objects (numpy, pandas, scipy and Qt wrappers, 150 runs'
evaluations).  CPython's full ("generation 2") cycle collection walks all of them:
100–140 ms measured on the 2-core machine, in whichever thread happened to allocate
and with the GIL held, so the window froze for that long even when the collection
ran in a background job.  :func:`freeze` moves everything alive now into the
permanent generation (``gc.freeze``, CPython 3.7+, meant for exactly this), so
later collections only walk what was made since.  Freed objects are still freed by
reference counting; only reference cycles among frozen objects wait until
:func:`thaw` (called when runs or the whole workspace are let go) hands them back to
the collector.
"""

from __future__ import annotations

import gc

__all__ = ["freeze", "thaw", "hold", "release", "collect_on_gui_thread"]

#: the GUI thread's collector (:func:`collect_on_gui_thread`), once started
_collector = None
#: between :func:`hold` and :func:`release`: no collection at all, not even the timer's
_held = False


def freeze() -> None:
    """Exclude every object alive now from future cycle collections."""
    gc.freeze()


def thaw() -> None:
    """Give frozen objects back to the collector (after data were let go), so reference
    cycles among them are reclaimed at its next full collection."""
    gc.unfreeze()


def hold() -> None:
    """No cycle collection for now (while the libraries are imported and the panels
    built at start: the imports' objects triggered full collections of 100+ ms);
    :func:`release` freezes what was made and lets the collector run again."""
    global _held
    _held = True
    gc.disable()


def release() -> None:
    global _held
    _held = False
    freeze()
    if _collector is None:          # else the GUI thread's timer collects (never a worker)
        gc.enable()


def collect_on_gui_thread(interval: float = 1.0) -> None:
    """Collect reference cycles only on the GUI thread, on a timer.

    Automatic collection runs in whichever thread allocates, and a collection in a job's
    thread that frees a cycle holding Qt objects (a replaced chart's items, a closed
    dialog) destroys them off the GUI thread: the test suite crashed once that way in a
    pool job (segfault).  The check is pyqtgraph's ``GarbageCollector``
    (``pyqtgraph.util.garbage_collector``: each generation collected when its count
    passes the collector's threshold), written here so that the first paint does not
    wait for pyqtgraph's import (0.2 s).
    """
    global _collector
    if _collector is not None:
        return
    from PySide6.QtCore import QTimer

    limits = gc.get_threshold()

    def check() -> None:
        if _held:
            return
        counts = gc.get_count()
        for generation in range(3):
            if counts[generation] <= limits[generation]:
                break
            gc.collect(generation)

    _collector = QTimer()
    _collector.timeout.connect(check)
    gc.disable()
    _collector.start(int(interval * 1000))
