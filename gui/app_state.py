"""The workspace as the GUI sees it: one object, changes announced by a signal.

Panels read ``state.workspace`` and listen to ``state.changed(what)`` with
``what`` a :class:`Change`; they change things only through the methods here, so
every change is announced.  Evaluations of the loaded runs for the chosen
measures (plus trec_eval's ``official`` set, which charts need) are computed in
the background through the :class:`~gui.jobs.JobRunner` and cached per run;
``evaluations()`` returns what is ready (possibly empty while computing).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from yardstick.common.options import EvalOptions
from yardstick.common.progress import Progress
from yardstick.gui import heap
from yardstick.session.workspace import RunEntry, Workspace

if TYPE_CHECKING:  # numpy, pandas and the engine load after the window's first paint
    import pandas as pd

    from yardstick.evaluation.evaluation_service import Evaluation
    from yardstick.inputs.qrels import Qrels
    from yardstick.inputs.run import Run

class Change(StrEnum):
    """What changed in the workspace: the payload of :attr:`AppState.changed`.

    A ``StrEnum``, so a listener may test ``what is Change.RUNS`` or compare with
    the name's text; an unknown kind of change cannot be emitted by mistake.
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

#: Always evaluated besides the chosen measures (charts and reports need them).
BASE_MEASURES = ("official",)

EVAL_KEY = "evaluate"
#: Runs evaluated per background step; each step's results are shown when it ends.
EVAL_BATCH = 32


class AppState(QObject):
    """A :class:`~core.workspace.Workspace` plus cached evaluations (see module docstring).

    Signals
    -------
    changed(Change what)
    topic_requested(str topic)
    explain_requested(str run, str topic, str measure)
    status(str message)
        Something to tell the user (evaluation impossible, files skipped ...).
    """

    changed = Signal(object)   # a Change
    topic_requested = Signal(str)
    explain_requested = Signal(str, str, str)
    status = Signal(str)

    def __init__(self, workspace: Workspace | None = None, jobs=None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.workspace = workspace or Workspace()
        self.jobs = jobs
        self._evals: dict[str, Evaluation] = {}
        self._eval_runs: dict[str, Run] = {}  # name -> the Run object that was evaluated
        self.evaluation_error: str | None = None
        self.topic_notes: list[str] = []  # topics dropped / zero-filled, in words
        self.current_topic: str | None = None
        self.changed.connect(self._on_changed)

    # ------------------------------------------------------------ reading
    def evaluations(self, visible_only: bool = True) -> dict[str, Evaluation]:
        """``{run name: Evaluation}`` for the (visible) runs that are evaluated, loading order."""
        entries = self.workspace.runs.values()
        return {e.name: self._evals[e.name] for e in entries
                if (e.visible or not visible_only) and e.name in self._evals
                and self._eval_runs.get(e.name) is e.run}

    def evaluation(self, run_name: str) -> Evaluation | None:
        return self.evaluations(visible_only=False).get(run_name)

    def is_evaluating(self) -> bool:
        return self.jobs is not None and self.jobs.is_running(EVAL_KEY)

    def measure_columns(self) -> list[str]:
        """Per-topic columns of the chosen measures as they appear in ``Evaluation.per_topic``."""
        evs = self.evaluations(visible_only=False)
        if not evs:
            return []
        from yardstick.evaluation.evaluation_tables import columns_for

        cols = list(next(iter(evs.values())).per_topic.columns)
        return columns_for(self.workspace.measures, cols)

    def entry(self, name: str) -> RunEntry | None:
        return self.workspace.runs.get(name)

    # ------------------------------------------------------------ changing
    def set_workspace(self, ws: Workspace) -> None:
        self.workspace = ws
        self._evals.clear()
        self._eval_runs.clear()
        heap.thaw()                    # what the old workspace held may now be collected
        self.changed.emit(Change.WORKSPACE)

    def set_qrels(self, qrels: Qrels | None) -> None:
        self.workspace.qrels = qrels
        self._evals.clear()
        self._eval_runs.clear()
        self.changed.emit(Change.QRELS)

    def add_runs(self, runs: Iterable[Run], groups: Mapping[str, str] | None = None) -> list[str]:
        """Add runs; returns their names in the workspace."""
        names = []
        with self._evaluations_kept():
            for run in runs:
                e = self.workspace.add_run(run)
                names.append(e.name)
            if groups:
                self.workspace.apply_groups(groups)
            self.workspace.guess_missing_groups()
        self.changed.emit(Change.RUNS)
        return names

    def add_evaluated_runs(self, pieces: Iterable[tuple[Run, Evaluation | None]],
                           qrels: Qrels | None, options: EvalOptions) -> list[str]:
        """Add runs a load read and evaluated (:func:`yardstick.session.loading.load_files` streamed).

        An evaluation is kept when it was made with the workspace's current qrels and
        options; a run without one is evaluated as usual.  One ``RUNS`` and one
        ``EVALUATIONS`` change are announced for the whole piece.  Groups are guessed
        once the load ends (:meth:`settle_groups`).
        """
        ws = self.workspace
        keep = qrels is not None and qrels is ws.qrels and options == ws.options
        names = []
        for run, ev in pieces:
            e = ws.add_run(run)
            names.append(e.name)
            if ev is not None and keep:
                self._evals[e.name] = ev if ev.run_name == e.name else _renamed(ev, e.name)
                self._eval_runs[e.name] = e.run
        self.changed.emit(Change.RUNS)
        self.changed.emit(Change.EVALUATIONS)
        return names

    def settle_groups(self, groups: Mapping[str, str] | None = None) -> None:
        """Give the runs the groups of ``groups`` and guess the missing ones (their
        evaluations stay: only the group changed)."""
        with self._evaluations_kept():
            if groups:
                self.workspace.apply_groups(groups)
            self.workspace.guess_missing_groups()
        self.changed.emit(Change.RUNS)

    def _evaluations_kept(self):
        """A context in which re-made Run objects (a new group) keep their evaluations."""
        from contextlib import contextmanager

        @contextmanager
        def kept():
            before = {n: e.run for n, e in self.workspace.runs.items()}
            yield
            for n, e in self.workspace.runs.items():
                old = before.get(n)
                if old is not None and e.run is not old and self._eval_runs.get(n) is old \
                        and e.run.score is old.score:
                    self._eval_runs[n] = e.run
        return kept()

    def remove_runs(self, names: Iterable[str]) -> None:
        for n in list(names):
            if n in self.workspace.runs:
                self.workspace.remove_run(n)
                self._evals.pop(n, None)
                self._eval_runs.pop(n, None)
        heap.thaw()
        self.changed.emit(Change.RUNS)

    def update_run(self, name: str, /, **changes: Any) -> str:
        """Change a run's name/group/color/visible/pooled; returns its (new) name."""
        new = self._update_run(name, **changes)
        self.changed.emit(Change.RUNS)
        return new

    def pool_listed_runs(self, path: str) -> tuple[int, list[str]]:
        """Pool the runs a list file names (a track's ``pooled.txt``: a run name, tag or file
        a line) and no others; returns (runs pooled, names that match no loaded run)."""
        from yardstick.inputs.run_names import listed_runs

        entries = list(self.workspace.runs.values())
        listed, missing = listed_runs(path, [e.run for e in entries], "pooled-runs file")
        chosen = {id(r) for r in listed}
        for e in entries:
            if bool(e.pooled) != (id(e.run) in chosen):
                self._update_run(e.name, pooled=id(e.run) in chosen)
        self.changed.emit(Change.RUNS)        # once, not once per run
        return len(listed), missing

    def _update_run(self, name: str, /, **changes: Any) -> str:
        entry = self.workspace.update_run(name, **changes)
        if entry.name != name and name in self._evals:
            ev = self._evals.pop(name)
            self._eval_runs.pop(name, None)
            self._evals[entry.name] = _renamed(ev, entry.name)
            self._eval_runs[entry.name] = entry.run
        elif name in self._eval_runs:
            self._eval_runs[name] = entry.run
        return entry.name

    def set_topics(self, topics: pd.DataFrame | None, path: str | None = None) -> None:
        self.workspace.topics = topics
        self.workspace.topics_path = path
        self.changed.emit(Change.TOPICS)

    def set_documents(self, documents: Mapping[str, str] | None, path: str | None = None) -> None:
        self.workspace.documents = documents
        self.workspace.documents_path = path
        self.changed.emit(Change.DOCUMENTS)

    def apply_groups(self, groups: Mapping[str, str]) -> int:
        """Give the loaded runs their teams from a groups file; returns how many changed."""
        n = self.workspace.apply_groups(groups)
        self.changed.emit(Change.RUNS)
        return n

    def set_measures(self, measures: Iterable[str]) -> None:
        self.workspace.measures = list(dict.fromkeys(measures))
        self.changed.emit(Change.MEASURES)

    def set_options(self, options: EvalOptions) -> None:
        self.workspace.options = options
        self._evals.clear()
        self._eval_runs.clear()
        self.changed.emit(Change.OPTIONS)

    def set_topic_group(self, name: str, topics: Iterable[str] | None) -> None:
        """Create or replace a topic group (``topics=None`` deletes it)."""
        if topics is None:
            self.workspace.topic_groups.pop(name, None)
        else:
            self.workspace.topic_groups[name] = [str(t) for t in topics]
        self.changed.emit(Change.TOPIC_GROUPS)

    def set_notes(self, notes: str) -> None:
        self.workspace.notes = notes
        self.changed.emit(Change.NOTES)

    def set_extra(self, key: str, value: Any) -> None:
        """Keep a panel's JSON-serialisable state in the session (``workspace.extras[key]``)."""
        self.workspace.extras[key] = value
        self.changed.emit(Change.EXTRAS)

    def show_topic(self, topic: str) -> None:
        self.current_topic = str(topic)
        self.topic_requested.emit(str(topic))

    def show_explanation(self, run: str, topic: str, measure: str) -> None:
        self.explain_requested.emit(run, str(topic), measure)

    # ------------------------------------------------------------ evaluation
    def _on_changed(self, what: str) -> None:
        if what in ("qrels", "runs", "measures", "options", "workspace"):
            self.schedule_evaluation()

    def wanted_measures(self) -> list[str]:
        return list(dict.fromkeys([*BASE_MEASURES, *self.workspace.measures]))

    def schedule_evaluation(self) -> None:
        """Evaluate, in the background, every run without a current evaluation."""
        ws = self.workspace
        if ws.qrels is None or not ws.runs:
            return
        measures = self.wanted_measures()
        checked: dict[tuple, bool] = {}            # 150 evaluations share a few column sets
        if any(ev is not None and not _has_all(ev, measures, checked)
               for ev in self._evals.values()):
            self._evals.clear()
            self._eval_runs.clear()
        todo = [e.run for e in ws.runs.values()
                if self._eval_runs.get(e.name) is not e.run]
        if not todo:
            return
        if self.jobs is None:  # no runner (scripts): evaluate here
            from yardstick.common.progress import run_sync

            self._store(run_sync(_evaluate_job(todo, ws.qrels, measures, ws.options)), todo)
            self._announce_coverage(ws.qrels, ws.options)
            return
        self._evaluate_in_batches(todo, ws.qrels, measures, ws.options, 0, len(todo))

    def _evaluate_in_batches(self, todo: list[Run], qrels: Qrels, measures: list[str],
                             options: EvalOptions, done: int, total: int) -> None:
        """Evaluate ``todo`` a batch at a time, storing (and announcing) each batch as it
        arrives, so the tables fill while the rest is computed.  The data is captured here,
        on the GUI thread; a newer evaluation (same job key) cancels the rest of the chain."""
        batch, rest = todo[:EVAL_BATCH], todo[EVAL_BATCH:]

        from yardstick.inputs.io.read_progress import scaled

        def job():
            n = len(batch)  # the batch is runs done .. done + n of total
            return (yield from scaled(_evaluate_job(batch, qrels, measures, options),
                                      done / n, total / n))

        def stored(res) -> None:
            self._store(res, batch)
            if rest:
                self._evaluate_in_batches(rest, qrels, measures, options,
                                          done + len(batch), total)
            else:
                self._announce_coverage(qrels, options)

        self.jobs.submit(EVAL_KEY, job, on_result=stored, on_error=self._eval_failed)

    def _store(self, result: tuple[dict[str, Evaluation], str | None], runs: list[Run]) -> None:
        evals, error = result
        current = {e.name: e.run for e in self.workspace.runs.values()}
        for run in runs:
            if run.name in evals and current.get(run.name) is run:
                self._evals[run.name] = evals[run.name]
                self._eval_runs[run.name] = run
        self.evaluation_error = error
        if error:
            self.status.emit(error)
        self.changed.emit(Change.EVALUATIONS)

    def evaluations_arrived(self) -> None:
        """A load that evaluated its runs has ended: say what went wrong, if anything, and
        which topics the runs and qrels do not share."""
        if self.evaluation_error:
            self.status.emit(self.evaluation_error)
        ws = self.workspace
        if ws.qrels is not None and ws.runs and not self.is_evaluating():
            self._announce_coverage(ws.qrels, ws.options)
        self.changed.emit(Change.EVALUATIONS)

    def _announce_coverage(self, qrels: Qrels, options: EvalOptions) -> None:
        """Say which topics the loaded runs and the qrels do not share, and what the
        numbers do with them (:mod:`yardstick.inputs.topic_coverage`)."""
        from yardstick.inputs.topic_coverage import topic_coverage

        runs = [e.run for e in self.workspace.runs.values()]
        self.topic_notes = topic_coverage(qrels.topics.tolist(), runs,
                                          options.complete).messages(limit=5)
        if self.topic_notes:
            self.status.emit("Note: " + " ".join(self.topic_notes))

    def _eval_failed(self, err) -> None:
        self.evaluation_error = err.message
        self.status.emit(f"Evaluation failed: {err.message}")
        self.changed.emit(Change.EVALUATIONS)


class Evaluator:
    """Evaluate runs one at a time with trec_eval's ``official`` set and the chosen measures.

    Both come from one judged ranking of the run (the chosen measures are computed on
    the official set's :class:`~core.judged.JudgedRanking`, unless one has options of
    its own) and are merged: asking for ``P.10`` together with ``official`` would
    replace official's P cutoffs.  A chosen measure the engine rejects is dropped,
    with a message in ``error``, rather than failing the evaluation.  Made on the GUI
    thread, called in a job (plain data only).
    """

    def __init__(self, measures: list[str], options: EvalOptions):
        self.base = [m for m in measures if m in BASE_MEASURES]
        self.chosen = [m for m in measures if m not in BASE_MEASURES]
        self.options = options
        self.error: str | None = None

    def __call__(self, run: Run, qrels: Qrels) -> Evaluation:
        from dataclasses import replace

        from yardstick.evaluation.engine import evaluate_run

        if self.chosen:
            try:
                ev = self._together(run, qrels, self.chosen)
            except (KeyError, ValueError) as e:
                good = []
                for m in self.chosen:
                    try:
                        self._together(run, qrels, [m])
                        good.append(m)
                    except (KeyError, ValueError) as e2:
                        self.error = f"Measure {m!r} was left out: {e2}"
                self.chosen = good
                self.error = self.error or str(e)
                return self(run, qrels)
        else:
            ev = evaluate_run(run, qrels, self.base, self.options)
        return replace(ev, judged=None, columns=())  # a track's judged rankings: 100s of MB

    def _together(self, run: Run, qrels: Qrels, chosen: list[str]) -> Evaluation:
        """One table of the official set and ``chosen``, computed on one judged ranking
        (a measure with options of its own gets its own)."""
        from yardstick.evaluation.engine import (
            compute_columns,
            evaluate_run,
            evaluation,
            measure_run,
            plan_measures,
            summarise,
        )

        if not self.base:
            return evaluate_run(run, qrels, chosen, self.options)
        groups = plan_measures(chosen, self.options)
        if len(groups) != 1 or groups[0].options != self.options or groups[0].rename:
            return _merge(evaluate_run(run, qrels, self.base, self.options),
                          evaluate_run(run, qrels, chosen, self.options))
        jr, cols, summary = measure_run(run, qrels, self.base, self.options)
        more = compute_columns(jr, groups[0].requests)
        more_summary = summarise(jr, more, self.options)
        names = {c.name for c in cols}
        cols += [c for c in more if c.name not in names]
        summary.update({k: v for k, v in more_summary.items() if k not in summary})
        return evaluation(run, jr, cols, summary, self.options)


def _evaluate_job(runs: list[Run], qrels: Qrels, measures: list[str], options: EvalOptions):
    """Progress generator: ``({name: Evaluation}, error message or None)`` (:class:`Evaluator`)."""
    evaluate = Evaluator(measures, options)
    out: dict[str, Evaluation] = {}
    for i, run in enumerate(runs):
        yield Progress(i, len(runs), f"evaluating {run.name}")
        out[run.name] = evaluate(run, qrels)
    yield Progress(len(runs), len(runs), "evaluated")
    return out, evaluate.error


def _renamed(ev: Evaluation, name: str) -> Evaluation:
    from dataclasses import replace

    return replace(ev, run_name=name)


def _merge(a: Evaluation | None, b: Evaluation | None) -> Evaluation:
    import pandas as pd

    from yardstick.evaluation.results import Evaluation

    if a is None or b is None:
        return a if b is None else b
    new_cols = [c for c in b.per_topic.columns if c not in a.per_topic.columns]
    per_topic = a.per_topic.join(b.per_topic[new_cols], how="left") if new_cols else a.per_topic
    new_sum = [m for m in b.summary.index if m not in a.summary.index]
    summary = pd.concat([a.summary, b.summary[new_sum]]) if new_sum else a.summary
    return Evaluation(run_name=a.run_name, runid=a.runid, per_topic=per_topic, summary=summary,
                      options=a.options)


def _has_all(ev: Evaluation, measures: list[str], checked: dict | None = None) -> bool:
    """Whether ``ev`` has a column for every measure (``checked``: answers kept per column set)."""
    from yardstick.evaluation.evaluation_tables import measure_columns as _columns_for

    key = (tuple(ev.per_topic.columns), tuple(ev.summary.index))
    if checked is not None and key in checked:
        return checked[key]
    cols = list(key[0]) + list(key[1])
    ok = all(m == "official" or m == "all_trec" or _columns_for(m, cols) for m in measures)
    if checked is not None:
        checked[key] = ok
    return ok
