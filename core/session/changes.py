"""What a session announces: the kinds of change, and the jobs interface it runs work on.

:class:`Change` is the payload of :attr:`Session.events.changed
<yardstick.session.model.SessionEvents.changed>` (and, in the window, of
``AppState.changed``); :class:`Executor` is what a session needs to evaluate in the
background — the window gives it one backed by ``yardstick.gui.jobs.JobRunner``,
scripts and the CLI give none and the session evaluates on the calling thread.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, Protocol

__all__ = ["Change", "WHATS", "Executor"]


class Change(StrEnum):
    """What changed in a session.

    A ``StrEnum``, so a listener may test ``what is Change.RUNS`` or compare with the
    name's text; an unknown kind of change cannot be emitted by mistake.
    """

    QRELS = "qrels"
    RUNS = "runs"
    TOPICS = "topics"
    DOCUMENTS = "documents"
    MEASURES = "measures"
    TOPIC_GROUPS = "topic_groups"
    EVALUATIONS = "evaluations"
    NOTES = "notes"
    OPTIONS = "options"
    WORKSPACE = "workspace"
    EXTRAS = "extras"


WHATS = tuple(Change)


class Executor(Protocol):
    """Runs a session's progress generators in the background, one current job per key.

    ``submit(key, make_job, on_result, on_error)``: ``make_job()`` returns a generator
    yielding :class:`~yardstick.common.progress.Progress` and returning the result;
    ``on_result(value)`` / ``on_error(message)`` are called back on the session's
    thread; a new job with the same key supersedes the old one.
    """

    def submit(self, key: str, make_job: Callable[[], Any],
               on_result: Callable[[Any], None],
               on_error: Callable[[str], None]) -> None: ...

    def is_running(self, key: str) -> bool: ...
