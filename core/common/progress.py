"""Long work as generators: the protocol shared by core, the CLI and the GUI runner.

A long core routine is written as a generator that ``yield``\\ s :class:`Progress`
between steps and ``return``\\ s its result.  Whoever drives it decides what
cancellation means: the GUI job runner simply stops iterating and calls
``close()`` (the generator sees ``GeneratorExit`` at its current ``yield`` and
leaves no half-built state, because results are only returned at the end);
the CLI and tests call :func:`run_sync`.

This is the superqt "generator worker" pattern (``superqt/utils/_qthreading.py``)
and Orange's "plain function with a progress callback", in one: see STYLE.md.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Progress:
    """One progress report: ``done`` of ``total`` steps, with a short message."""

    done: float
    total: float
    message: str = ""

    @property
    def fraction(self) -> float:
        return 0.0 if self.total <= 0 else min(1.0, max(0.0, self.done / self.total))


Job = Generator[Progress, None, T]


class Cancelled(Exception):
    """Raised by :func:`run_sync` when its ``cancelled`` callback says stop."""


_LOCAL = threading.local()


@contextmanager
def stop_event(event: threading.Event) -> Iterator[None]:
    """While inside, :func:`run_sync` on this thread also stops (:class:`Cancelled`) when
    ``event`` is set: how an in-process executor's thread is asked to stop its task."""
    before = getattr(_LOCAL, "stop", None)
    _LOCAL.stop = event
    try:
        yield
    finally:
        _LOCAL.stop = before


def run_sync(
    job: Generator[Progress, None, Any],
    on_progress: Callable[[Progress], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Any:
    """Drive a progress generator to completion and return its result.

    It stops with :class:`Cancelled` when ``cancelled()`` says so, or when this thread's
    stop event (:func:`stop_event`) is set."""
    stop = getattr(_LOCAL, "stop", None)
    try:
        while True:
            p = next(job)
            if on_progress is not None:
                on_progress(p)
            if (cancelled is not None and cancelled()) or (stop is not None and stop.is_set()):
                job.close()
                raise Cancelled()
    except StopIteration as stop:
        return stop.value
