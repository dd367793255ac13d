"""Cancelling a Dask future stops its task, not only its place in the queue.

``Client.cancel`` makes the scheduler forget a future, but a task already running on a
worker runs on to its end: the worker's thread stays busy (a cancelled B = 30,000
bootstrap on 150 runs held the only worker thread of a scheduler for 40 s, and the next
job waited behind it).  :func:`stoppable` runs a task under a stop event
(:func:`yardstick.common.progress.stop_event`) that a watcher sets once the worker no
longer wants the task (its state ``cancelled``, ``released`` or gone), so the task's
:func:`~yardstick.common.progress.run_sync` stops at its next progress point, as an
in-process thread's does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from yardstick.common.progress import stop_event

__all__ = ["stoppable", "POLL_S"]

#: seconds between two looks at the task's state on its worker
POLL_S = 0.2

_UNWANTED = ("cancelled", "released", "forgotten")


def stoppable(fn: Callable, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``, stopped (``Cancelled``) at its next progress point once
    its Dask worker no longer wants it; outside a worker, simply the call."""
    try:
        from distributed import get_worker

        worker = get_worker()
        key = worker.get_current_task()
    except (ImportError, ValueError):
        return fn(*args, **kwargs)
    stop, done = threading.Event(), threading.Event()

    def watch() -> None:
        while not done.wait(POLL_S):
            ts = worker.state.tasks.get(key)
            if ts is None or ts.state in _UNWANTED:
                stop.set()
                return

    threading.Thread(target=watch, daemon=True, name=f"yardstick-stop-{key}").start()
    try:
        with stop_event(stop):
            return fn(*args, **kwargs)
    finally:
        done.set()
