"""A load that streams into a session: files read (and runs evaluated) anywhere, applied here.

:meth:`Session.start_load <yardstick.session.model.Session.start_load>` makes a
:class:`SessionLoad`.  Its :meth:`~SessionLoad.job` is a progress generator of plain
data (:func:`yardstick.session.loading.load_files` streamed, each run evaluated as
soon as it is read with the session's qrels, measures and options captured when the
load started) — the window runs it on a worker thread, a script on its own.  The
pieces it yields go to :meth:`~SessionLoad.receive` on the session's thread: small
files are applied at once, runs wait in ``pending`` until :meth:`~SessionLoad.flush`
(the window flushes on a timer, so 150 runs are not 150 announcements);
:meth:`~SessionLoad.finish` adds the rest, settles the groups and says what went wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from yardstick.session.loading import LoadResult, load_files

if TYPE_CHECKING:
    from yardstick.session.evaluating import Evaluator

#: A :class:`yardstick.session.model.Session` (not imported: the session imports this module).
Session = Any

__all__ = ["SessionLoad", "apply_files"]


class SessionLoad:
    """One load under way (see module docstring).

    Attributes
    ----------
    key : str
        The load's job key.
    qrels, options
        What its evaluations are made with (the load's own qrels once it has read them).
    evaluator : Evaluator
    pending : list of (Run, Evaluation or None)
        Runs read and not yet added to the session.
    """

    def __init__(self, session: Session, key: str, items: list[tuple[str, str | None]],
                 evaluator: Evaluator):
        self.session = session
        self.key = key
        self.items = items
        self.qrels = session.qrels
        self.options = session.options
        self.evaluator = evaluator
        self.pending: list[tuple[Any, Any]] = []
        # runs to come (a file of no stated kind counts until it is read as something else)
        self._unknown = sum(kind is None for _, kind in items)
        self.runs_expected = sum(kind == "run" for _, kind in items) + self._unknown
        self.runs_added = 0

    def job(self):
        """The progress generator (plain data only: runs on any thread)."""
        return load_files(self.items, stream=True, qrels=self.qrels, evaluate=self.evaluator)

    def receive(self, piece: LoadResult) -> bool:
        """A piece of the load: small files applied now, runs kept for :meth:`flush`;
        returns True when runs are waiting."""
        if not piece.runs:
            others = min(self._unknown, sum(x is not None for x in (
                piece.qrels, piece.topics, piece.documents)) + bool(piece.groups))
            self._unknown -= others
            self.runs_expected -= others
            apply_files(self.session, piece)
            if piece.qrels is not None:
                self.qrels = piece.qrels
            return bool(self.pending)
        for run in piece.runs:
            self.pending.append((run, piece.evaluations.get(run.name)))
        return True

    def flush(self) -> None:
        """Add the runs read so far to the session (one announcement for all of them)."""
        if self.pending:
            pending, self.pending = self.pending, []
            self.runs_added += len(pending)
            self.session.add_evaluated_runs(pending, self.qrels, self.options)

    def finish(self, res: LoadResult) -> None:
        """The load has ended with ``res``: add what is pending, settle the groups, say
        what its evaluations could not do."""
        for step in self.finishing(res):
            step()

    def finishing(self, res: LoadResult) -> list[Callable[[], None]]:
        """:meth:`finish` as steps to call in order (the window calls each in its own
        turn of the event loop: adding the last runs and guessing 150 runs' groups took
        40-70 ms together).  The load is under way until the last step (the window's
        panels hear of each step's change in a turn of their own while one is)."""
        def settle() -> None:
            if res.runs or res.groups:
                self.session.settle_groups(res.groups)

        def report() -> None:
            if res.runs:
                self.session.evaluations_arrived(self.evaluator.error)

        def ended() -> None:
            self.session._loads.pop(self.key, None)

        return [self.flush, settle, report, ended]

    def cancel(self) -> None:
        """Forget the load (its job failed or was cancelled): nothing more is added."""
        self.pending = []
        self.session._loads.pop(self.key, None)

    def run_here(self) -> LoadResult:
        """Run the whole load on this thread (scripts, tests)."""
        from yardstick.common.progress import run_sync

        def piece(p) -> None:
            if isinstance(p, LoadResult):
                self.receive(p)

        res = run_sync(self.job(), on_progress=piece)
        self.finish(res)
        return res


def apply_files(session: Session, res: LoadResult) -> None:
    """Put the qrels, topics and documents of ``res`` into ``session``."""
    if res.qrels is not None:
        session.set_qrels(res.qrels)
    if res.topics is not None:
        session.set_topics(res.topics, res.topics_path)
    if res.documents is not None:
        session.set_documents(res.documents, res.documents_path)


def apply_load_result(session: Session, res: LoadResult) -> None:
    """Put what a (not streamed) load read into ``session``."""
    apply_files(session, res)
    if res.runs:
        session.add_runs(res.runs, res.groups)
    elif res.groups:
        session.apply_groups(res.groups)
