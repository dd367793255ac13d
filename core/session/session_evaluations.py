"""The evaluations a :class:`~yardstick.session.model.Session` keeps, and how it makes them.

One evaluation per run, kept with the (run, qrels, options) it was made with: a run
re-read, other qrels or other options make it stale, and it is evaluated again.
Evaluations follow the session's changes by themselves, a batch of runs at a time on
the session's executor (each batch announced as it ends), or at once without one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from yardstick.common.options import EvalOptions
from yardstick.session.changes import Change
from yardstick.session.evaluating import Evaluator, evaluate_runs_job, has_all_measures

if TYPE_CHECKING:
    from yardstick.evaluation.results import Evaluation
    from yardstick.inputs.qrels import Qrels
    from yardstick.inputs.run import Run

EVAL_KEY = "evaluate"
#: Runs evaluated per background step; each step's results are announced when it ends.
EVAL_BATCH = 32
#: Changes after which the session evaluates what is not evaluated yet.
EVALUATE_AFTER = {Change.QRELS, Change.RUNS, Change.MEASURES, Change.OPTIONS, Change.WORKSPACE}


@dataclass(frozen=True)
class _Kept:
    """An evaluation and the (run, qrels, options) it was made with."""

    run: Run
    qrels: Qrels
    options: EvalOptions
    evaluation: Evaluation


class SessionEvaluations:
    """The evaluation half of :class:`~yardstick.session.model.Session` (a mixin: it reads
    the session's ``workspace``, ``executor``, ``events`` and ``base_measures``)."""

    _evals: dict[str, _Kept]

    def evaluations(self, visible_only: bool = True) -> dict[str, Evaluation]:
        """``{run name: Evaluation}`` of the (visible) runs evaluated with the primary qrels
        and the current options, in loading order."""
        qrels, options = self.qrels, self.options
        out = {}
        for e in self.workspace.runs.values():
            kept = self._evals.get(e.name)
            if (kept is not None and (e.visible or not visible_only) and kept.run is e.run
                    and kept.qrels is qrels and kept.options == options):
                out[e.name] = kept.evaluation
        return out

    def evaluation(self, run_name: str) -> Evaluation | None:
        return self.evaluations(visible_only=False).get(run_name)

    def is_evaluating(self) -> bool:
        return self.executor is not None and self.executor.is_running(EVAL_KEY)

    def measure_columns(self) -> list[str]:
        """Per-topic columns of the chosen measures as they appear in ``Evaluation.per_topic``."""
        evs = self.evaluations(visible_only=False)
        if not evs:
            return []
        from yardstick.evaluation.evaluation_tables import columns_for

        cols = list(next(iter(evs.values())).per_topic.columns)
        return columns_for(self.workspace.measures, cols)

    # ------------------------------------------------------------ evaluation
    def schedule_evaluation(self) -> None:
        """Evaluate every run without a current evaluation (in the background with an executor)."""
        ws = self.workspace
        if ws.qrels is None or not ws.runs:
            return
        measures = self.wanted_measures()
        checked: dict[tuple, bool] = {}            # 150 evaluations share a few column sets
        if any(not has_all_measures(k.evaluation, measures, checked) for k in self._evals.values()):
            self._evals.clear()
        current = self.evaluations(visible_only=False)
        todo = [e.run for e in ws.runs.values() if e.name not in current]
        if not todo:
            return
        if self.executor is None:
            from yardstick.common.progress import run_sync

            evaluator = Evaluator(measures, ws.options, self.base_measures)
            self._store(run_sync(evaluate_runs_job(todo, ws.qrels, evaluator)), todo,
                        ws.qrels, ws.options)
            self._announce_coverage(ws.qrels, ws.options)
            return
        self._evaluate_in_batches(todo, ws.qrels, measures, ws.options, 0, len(todo))

    def _evaluate_in_batches(self, todo: list[Run], qrels: Qrels, measures: list[str],
                             options: EvalOptions, done: int, total: int) -> None:
        """Evaluate ``todo`` a batch at a time, storing (and announcing) each batch as it
        arrives; a newer evaluation (same job key) supersedes the rest of the chain."""
        from yardstick.inputs.io.read_progress import scaled

        batch, rest = todo[:EVAL_BATCH], todo[EVAL_BATCH:]
        evaluator = Evaluator(measures, options, self.base_measures)

        def job():
            n = len(batch)  # the batch is runs done .. done + n of total
            return (yield from scaled(evaluate_runs_job(batch, qrels, evaluator),
                                      done / n, total / n))

        def stored(res) -> None:
            self._store(res, batch, qrels, options)
            if rest:
                self._evaluate_in_batches(rest, qrels, measures, options,
                                          done + len(batch), total)
            else:
                self._announce_coverage(qrels, options)

        self.executor.submit(EVAL_KEY, job, on_result=stored, on_error=self._eval_failed)

    def _store(self, result: tuple[dict[str, Evaluation], str | None], runs: list[Run],
               qrels: Qrels, options: EvalOptions) -> None:
        evals, error = result
        current = {e.name: e.run for e in self.workspace.runs.values()}
        for run in runs:
            if run.name in evals and current.get(run.name) is run:
                self._evals[run.name] = _Kept(run, qrels, options, evals[run.name])
        self.evaluation_error = error
        if error:
            self.events.status.emit(error)
        self.changed(Change.EVALUATIONS)

    def evaluations_arrived(self, error: str | None = None) -> None:
        """A load that evaluated its runs has ended (``error``: what its evaluator said):
        say what went wrong, if anything, and which topics the runs and qrels do not share."""
        self.evaluation_error = error
        if error:
            self.events.status.emit(error)
        ws = self.workspace
        if ws.qrels is not None and ws.runs and not self.is_evaluating():
            self._announce_coverage(ws.qrels, ws.options)
        self.changed(Change.EVALUATIONS)

    def _announce_coverage(self, qrels: Qrels, options: EvalOptions) -> None:
        """Say which topics the runs and the qrels do not share, and what the numbers do
        with them (:mod:`yardstick.inputs.topic_coverage`)."""
        from yardstick.inputs.topic_coverage import topic_coverage

        runs = [e.run for e in self.workspace.runs.values()]
        self.topic_notes = topic_coverage(qrels.topics.tolist(), runs,
                                          options.complete).messages(limit=5)
        if self.topic_notes:
            self.events.status.emit("Note: " + " ".join(self.topic_notes))

    def _eval_failed(self, message: str) -> None:
        self.evaluation_error = message
        self.events.status.emit(f"Evaluation failed: {message}")
        self.changed(Change.EVALUATIONS)
