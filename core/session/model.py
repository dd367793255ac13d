"""The session: one Qt-free object that owns what is loaded and what was computed from it.

napari's ``ViewerModel`` is the pattern (STYLE.md): a :class:`Session` holds the
:class:`~yardstick.session.workspace.Workspace` (runs, topics, documents, groups,
measures, options, notes), the named qrels sets (one of them the primary, which the
numbers use), the evaluations per (run, qrels, options)
(:mod:`yardstick.session.session_evaluations`) and, as ``run_cache``, the cache of what is
derived from each run (:mod:`yardstick.inputs.run_cache`).  Every
change goes through a method here and is announced by :attr:`Session.events`
(plain callbacks, :class:`~yardstick.common.events.Event`); evaluations follow the
changes by themselves, on the session's :class:`~yardstick.session.changes.Executor`
(the window's job runner) or, without one, at once on the calling thread.

The window's ``AppState`` only turns these events into Qt signals; tests and
scripts set the state directly and read the evaluations (glue's habit).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from yardstick.common.events import Event
from yardstick.common.options import EvalOptions
from yardstick.inputs.run_cache import RUN_CACHE
from yardstick.session.changes import WHATS, Change, Executor
from yardstick.session.evaluating import BASE_MEASURES, Evaluator, renamed
from yardstick.session.session_evaluations import (
    EVAL_BATCH,
    EVAL_KEY,
    EVALUATE_AFTER,
    SessionEvaluations,
    _Kept,
)
from yardstick.session.workspace import RunEntry, Workspace

if TYPE_CHECKING:
    import pandas as pd

    from yardstick.evaluation.results import Evaluation
    from yardstick.inputs.qrels import Qrels
    from yardstick.inputs.run import Run
    from yardstick.session.session_load import SessionLoad

__all__ = ["Session", "SessionEvents", "Change", "WHATS", "EVAL_KEY", "EVAL_BATCH"]



class SessionEvents:
    """The events of a :class:`Session`.

    Attributes
    ----------
    changed : Event
        ``changed(what)`` with ``what`` a :class:`Change`, after the change is made.
    status : Event
        ``status(message)``: something to tell the user (a measure left out, topics the
        runs and qrels do not share, an evaluation that failed).
    """

    def __init__(self) -> None:
        self.changed = Event("changed")
        self.status = Event("status")


class Session(SessionEvaluations):
    """What the user has loaded and the numbers computed from it (see module docstring).

    Parameters
    ----------
    workspace : Workspace, optional
    executor : Executor, optional
        Runs evaluations in the background; None evaluates on the calling thread.
    base_measures : sequence of str
        Evaluated besides the chosen measures (the window's charts need ``official``).
    """

    def __init__(self, workspace: Workspace | None = None, executor: Executor | None = None,
                 base_measures: Sequence[str] = BASE_MEASURES):
        self.events = SessionEvents()
        self.executor = executor
        self.base_measures = tuple(base_measures)
        self.workspace = workspace or Workspace()
        #: What is derived from each run (orders, judgments joined), shared by threads
        self.run_cache = RUN_CACHE
        self._qrels_sets: dict[str, Qrels] = {}
        self._primary: str | None = None
        self._adopt_qrels(self.workspace.qrels)
        self._evals: dict[str, _Kept] = {}
        self.evaluation_error: str | None = None
        self.topic_notes: list[str] = []   # topics dropped / zero-filled, in words
        self._loads: dict[str, SessionLoad] = {}
        self._announcing: deque[Change] = deque()   # changes waiting to be announced

    # ------------------------------------------------------------ reading
    @property
    def qrels(self) -> Qrels | None:
        """The primary qrels: the judgments every evaluation of the session uses."""
        return self.workspace.qrels

    @property
    def qrels_sets(self) -> dict[str, Qrels]:
        """Every qrels set loaded, by name (the primary one included), in loading order."""
        return dict(self._qrels_sets)

    @property
    def primary_qrels(self) -> str | None:
        """The name of the primary qrels set."""
        return self._primary

    @property
    def runs(self) -> dict[str, RunEntry]:
        return self.workspace.runs

    @property
    def options(self) -> EvalOptions:
        return self.workspace.options

    def entry(self, name: str) -> RunEntry | None:
        return self.workspace.runs.get(name)

    def wanted_measures(self) -> list[str]:
        """The base measures and the chosen ones: what each run is evaluated for."""
        return list(dict.fromkeys([*self.base_measures, *self.workspace.measures]))

    # ------------------------------------------------------------ qrels
    def set_qrels(self, qrels: Qrels | None, name: str | None = None) -> None:
        """Make ``qrels`` the primary set (kept under ``name``; None: no judgments)."""
        if qrels is not None:
            name = self._qrels_name(qrels, name)
            self._qrels_sets[name] = qrels
        self._primary = name if qrels is not None else None
        self.workspace.qrels = qrels
        self._evals.clear()
        self.changed(Change.QRELS)

    def add_qrels(self, qrels: Qrels, name: str | None = None, primary: bool = False) -> str:
        """Keep another qrels set under ``name`` (made unique); returns the name.  The first
        set, or one added with ``primary``, becomes the primary set."""
        name = self._qrels_name(qrels, name)
        if primary or self.qrels is None:
            self.set_qrels(qrels, name)
        else:
            self._qrels_sets[name] = qrels
            self.changed(Change.QRELS)
        return name

    def use_qrels(self, name: str) -> None:
        """Make the set called ``name`` the primary one."""
        self.set_qrels(self._qrels_sets[name], name)

    def remove_qrels(self, name: str) -> None:
        """Forget the set ``name`` (the primary one too: then the session has no judgments)."""
        qrels = self._qrels_sets.pop(name)
        if qrels is self.qrels:
            self.set_qrels(None)
        else:
            self.changed(Change.QRELS)

    def rename_qrels(self, old: str, new: str) -> str:
        """Call the set ``old`` ``new`` (made unique), keeping its place; returns the name."""
        new = new.strip()
        if not new or new == old:
            return old
        if old not in self._qrels_sets:
            raise KeyError(old)
        base, name, k = new, new, 1
        while name in self._qrels_sets:
            k += 1
            name = f"{base}#{k}"
        self._qrels_sets = {(name if n == old else n): q for n, q in self._qrels_sets.items()}
        if self._primary == old:
            self._primary = name
        self.changed(Change.QRELS)
        return name

    def _qrels_name(self, qrels: Qrels, name: str | None) -> str:
        for known, q in self._qrels_sets.items():
            if q is qrels and name in (None, known):
                return known
        base = name or (os.path.basename(qrels.path) if qrels.path else None) or qrels.name
        name, k = base, 1
        while name in self._qrels_sets:
            k += 1
            name = f"{base}#{k}"
        return name

    def _adopt_qrels(self, qrels: Qrels | None) -> None:
        self._qrels_sets.clear()
        self._primary = None
        if qrels is not None:
            self._primary = self._qrels_name(qrels, None)
            self._qrels_sets[self._primary] = qrels

    # ------------------------------------------------------------ runs
    def add_runs(self, runs: Iterable[Run], groups: Mapping[str, str] | None = None) -> list[str]:
        """Add runs; returns their names in the session."""
        names = []
        with self._evaluations_kept():
            for run in runs:
                names.append(self.workspace.add_run(run).name)
            if groups:
                self.workspace.apply_groups(groups)
            self.workspace.guess_missing_groups()
        self.changed(Change.RUNS)
        return names

    def add_evaluated_runs(self, pieces: Iterable[tuple[Run, Evaluation | None]],
                           qrels: Qrels | None, options: EvalOptions) -> list[str]:
        """Add runs a load read and evaluated with ``qrels`` and ``options``.

        An evaluation is kept when it was made with the primary qrels and the current
        options; a run without one is evaluated as usual.  One ``RUNS`` and one
        ``EVALUATIONS`` change are announced for all of them.  Groups are guessed
        once the load ends (:meth:`settle_groups`).
        """
        ws = self.workspace
        keep = qrels is not None and qrels is ws.qrels and options == ws.options
        names = []
        for run, ev in pieces:
            e = ws.add_run(run)
            names.append(e.name)
            if ev is not None and keep:
                self._evals[e.name] = _Kept(e.run, qrels, options, renamed(ev, e.name))
        self.changed(Change.RUNS)
        self.changed(Change.EVALUATIONS)
        return names

    def settle_groups(self, groups: Mapping[str, str] | None = None) -> None:
        """Give the runs the groups of ``groups`` and guess the missing ones (their
        evaluations stay: only the group changed)."""
        with self._evaluations_kept():
            if groups:
                self.workspace.apply_groups(groups)
            self.workspace.guess_missing_groups()
        self.changed(Change.RUNS)

    def apply_groups(self, groups: Mapping[str, str]) -> int:
        """Give the loaded runs their teams from a groups file; returns how many changed."""
        with self._evaluations_kept():
            n = self.workspace.apply_groups(groups)
        self.changed(Change.RUNS)
        return n

    def remove_runs(self, names: Iterable[str]) -> None:
        for n in list(names):
            if n in self.workspace.runs:
                self.run_cache.forget(self.workspace.runs[n].run)
                self.workspace.remove_run(n)
                self._evals.pop(n, None)
        self.changed(Change.RUNS)

    def update_run(self, name: str, /, **changes: Any) -> str:
        """Change a run's name/group/color/visible/pooled; returns its (new) name."""
        new = self._update_run(name, **changes)
        self.changed(Change.RUNS)
        return new

    def pool_listed_runs(self, path: str) -> tuple[int, list[str]]:
        """Pool the runs a list file names (a track's ``pooled.txt``) and no others;
        returns (runs pooled, names that match no loaded run)."""
        from yardstick.inputs.run_names import listed_runs

        entries = list(self.workspace.runs.values())
        listed, missing = listed_runs(path, [e.run for e in entries], "pooled-runs file")
        chosen = {id(r) for r in listed}
        for e in entries:
            if bool(e.pooled) != (id(e.run) in chosen):
                self._update_run(e.name, pooled=id(e.run) in chosen)
        self.changed(Change.RUNS)        # once, not once per run
        return len(listed), missing

    def _update_run(self, name: str, /, **changes: Any) -> str:
        old = self.workspace.runs[name].run
        entry = self.workspace.update_run(name, **changes)
        kept = self._evals.pop(name, None)
        if kept is not None:
            if kept.run is old and entry.run.score is old.score:
                kept = _Kept(entry.run, kept.qrels, kept.options,
                             renamed(kept.evaluation, entry.name))
            self._evals[entry.name] = kept
        return entry.name

    @contextmanager
    def _evaluations_kept(self):
        """Re-made Run objects (a new group) keep their evaluations."""
        before = {n: e.run for n, e in self.workspace.runs.items()}
        yield
        for n, e in self.workspace.runs.items():
            old, kept = before.get(n), self._evals.get(n)
            if (old is not None and e.run is not old and kept is not None
                    and kept.run is old and e.run.score is old.score):
                self._evals[n] = _Kept(e.run, kept.qrels, kept.options, kept.evaluation)

    # ------------------------------------------------------------ everything else
    def set_workspace(self, ws: Workspace) -> None:
        """Replace everything (an opened session file)."""
        self.workspace = ws
        self._adopt_qrels(ws.qrels)
        self._evals.clear()
        self.changed(Change.WORKSPACE)

    def set_topics(self, topics: pd.DataFrame | None, path: str | None = None) -> None:
        self.workspace.topics = topics
        self.workspace.topics_path = path
        self.changed(Change.TOPICS)

    def set_documents(self, documents: Mapping[str, str] | None, path: str | None = None) -> None:
        self.workspace.documents = documents
        self.workspace.documents_path = path
        self.changed(Change.DOCUMENTS)

    def set_measures(self, measures: Iterable[str]) -> None:
        self.workspace.measures = list(dict.fromkeys(measures))
        self.changed(Change.MEASURES)

    def set_options(self, options: EvalOptions) -> None:
        self.workspace.options = options
        self._evals.clear()
        self.changed(Change.OPTIONS)

    def set_topic_group(self, name: str, topics: Iterable[str] | None) -> None:
        """Create or replace a topic group (``topics=None`` deletes it)."""
        if topics is None:
            self.workspace.topic_groups.pop(name, None)
        else:
            self.workspace.topic_groups[name] = [str(t) for t in topics]
        self.changed(Change.TOPIC_GROUPS)

    def set_notes(self, notes: str) -> None:
        self.workspace.notes = notes
        self.changed(Change.NOTES)

    def set_extra(self, key: str, value: Any) -> None:
        """Keep a panel's JSON-serialisable state in the session (``workspace.extras[key]``)."""
        self.workspace.extras[key] = value
        self.changed(Change.EXTRAS)

    def changed(self, what: Change) -> None:
        """Announce ``what`` (a :class:`Change`; nothing else can be announced).

        The session first evaluates what the change made stale (at once without an
        executor, else by submitting the job: listeners then find the evaluations, or
        ``is_evaluating()`` true); a change made while another is announced (by a
        listener, or the evaluations) is announced after it, so every listener sees the
        changes in the order they were made.
        """
        queue = self._announcing
        queue.append(Change(what))
        if len(queue) > 1:
            return                      # announced by the loop below, after the current one
        try:
            while queue:
                what = queue[0]
                if what in EVALUATE_AFTER:
                    self.schedule_evaluation()
                self.events.changed.emit(what)
                queue.popleft()
        finally:
            queue.clear()

    # ------------------------------------------------------------ loading
    def start_load(self, items: Sequence[tuple[str, str | None]], key: str) -> SessionLoad:
        """A load of ``[(path, kind or None)]`` that streams into this session
        (:class:`~yardstick.session.session_load.SessionLoad`: run its ``job`` anywhere,
        give its pieces to ``receive`` and its result to ``finish`` on this thread)."""
        from yardstick.session.session_load import SessionLoad

        load = SessionLoad(self, key, list(items), Evaluator(self.wanted_measures(), self.options,
                                                             self.base_measures))
        self._loads[key] = load
        return load

    def flush_loads(self) -> None:
        """Add the runs every load under way has read so far."""
        for load in list(self._loads.values()):
            load.flush()

    def loads_under_way(self) -> bool:
        return bool(self._loads)

    def load_progress(self) -> tuple[int, int] | None:
        """(runs added, runs expected) by the loads under way; None when there are none."""
        if not self._loads:
            return None
        loads = list(self._loads.values())
        return sum(x.runs_added for x in loads), sum(x.runs_expected for x in loads)

    def load(self, paths: Iterable[str | os.PathLike]):
        """Read files and folders into the session on this thread (scripts, tests): the
        same streamed load as the window's; returns its
        :class:`~yardstick.session.loading.LoadResult`."""
        from yardstick.session.loading import expand

        return self.start_load(expand(paths), key=f"load-{len(self._loads)}").run_here()
