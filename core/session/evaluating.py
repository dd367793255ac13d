"""How a session evaluates a run: one function every front end reaches.

:func:`measure` is the session's evaluation function: the window (through
:class:`~yardstick.session.model.Session`), ``yardstick eval`` and the Python API
(``ys.evaluate``, ``ys.evaluations``) all compute their numbers by calling it, so the
answer a user gets cannot depend on the front end that asked.  :class:`Evaluator`
adds what a session shows beside the chosen measures (trec_eval's ``official`` set,
computed on the same judged ranking); :func:`evaluate_runs` evaluates many runs
(in this process or as batches on a Dask executor); :func:`evaluate_runs_job` is the
progress generator a session runs in the background.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from yardstick.common.options import EvalOptions
from yardstick.common.progress import Progress
from yardstick.evaluation.results import merge_evaluations  # noqa: F401 (the one join)

if TYPE_CHECKING:  # numpy, pandas and the engine load after the window's first paint
    from yardstick.common.executor import Executor
    from yardstick.evaluation.results import Evaluation
    from yardstick.inputs.qrels import Qrels
    from yardstick.inputs.run import Run

__all__ = ["BASE_MEASURES", "measure", "evaluate_run", "evaluate_runs", "evaluate_files",
           "evaluate_batch",
           "Evaluator", "evaluate_runs_job", "merge_evaluations", "renamed", "has_all_measures"]

#: Always evaluated in the window besides the chosen measures (charts and reports need them).
BASE_MEASURES = ("official",)


def measure(run: Run, qrels: Qrels, measures, options: EvalOptions,
            zscores: Mapping | None = None, keep_join_index: bool = True):
    """``(judged ranking, columns, summary)`` of ``run`` for ``measures`` under ``options``.

    The one entry point of every front end into the engine
    (:func:`yardstick.evaluation.engine.measure_run`, trec_eval's computation); a
    test patches it to show that the window, the CLI and the API all come here.
    """
    from yardstick.evaluation.engine import measure_run

    return measure_run(run, qrels, measures, options, zscores,
                       keep_join_index=keep_join_index)


def evaluate_run(run: Run, qrels: Qrels, measures, options: EvalOptions,
                 zscores: Mapping | None = None) -> Evaluation:
    """The :class:`~yardstick.evaluation.results.Evaluation` of :func:`measure`'s answer."""
    from yardstick.evaluation.engine import evaluation

    jr, cols, summary = measure(run, qrels, measures, options, zscores)
    return evaluation(run, jr, cols, summary, options)


class Evaluator:
    """Evaluate runs one at a time with the ``official`` set and the chosen measures.

    Both come from one judged ranking of the run (the chosen measures are computed on
    the official set's judged ranking, unless one has options of its own) and are
    merged: asking for ``P.10`` together with ``official`` would replace official's P
    cutoffs.  A chosen measure the engine rejects is dropped, with a message in
    ``error``, rather than failing the evaluation.  Made on the owner's thread, called
    in a job (plain data only).
    """

    def __init__(self, measures: Sequence[str], options: EvalOptions,
                 base: Sequence[str] = BASE_MEASURES):
        self.base = [m for m in measures if m in base]
        self.chosen = [m for m in measures if m not in base]
        self.options = options
        self.error: str | None = None

    def __call__(self, run: Run, qrels: Qrels) -> Evaluation:
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
        """One table of the base set and ``chosen``, computed on one judged ranking
        (a measure with options of its own gets its own)."""
        from yardstick.evaluation.engine import (
            compute_columns,
            evaluation,
            plan_measures,
            summarise,
        )

        if not self.base:
            return evaluate_run(run, qrels, chosen, self.options)
        groups = plan_measures(chosen, self.options)
        if len(groups) != 1 or groups[0].options != self.options or groups[0].rename:
            return merge_evaluations(evaluate_run(run, qrels, self.base, self.options),
                                     evaluate_run(run, qrels, chosen, self.options))
        jr, cols, summary = measure(run, qrels, self.base, self.options)
        more = compute_columns(jr, groups[0].requests)
        more_summary = summarise(jr, more, self.options)
        names = {c.name for c in cols}
        cols += [c for c in more if c.name not in names]
        summary.update({k: v for k, v in more_summary.items() if k not in summary})
        return evaluation(run, jr, cols, summary, self.options)


def evaluate_runs(runs: Sequence[Run], qrels: Qrels, measures=("official",),
                  options: EvalOptions | None = None, executor: Executor | None = None):
    """Progress generator: ``{run name: Evaluation}`` of :func:`evaluate_run` for every
    run, in the runs' order — the one way many runs are evaluated (``yardstick report``,
    ``stability``, ``compare-systems``, ``archive``, ``ys.evaluate``); drive it with
    :func:`~yardstick.common.progress.run_sync`.

    ``executor``: a Dask executor (:mod:`yardstick.common.executor`) evaluates batches
    of runs as tasks (:func:`~yardstick.evaluation.runs_on_executor.run_batches`), the
    qrels and each batch's runs scattered to the workers once (a task carries their
    handles, never the data); each task comes back here, to :func:`evaluate_run`,
    on its worker, so the numbers are the same.  The evaluations that come back have
    no judged ranking (``judged=None``: it stays on the worker).
    """
    runs = list(runs)
    options = options or EvalOptions()
    if executor is not None and not executor.local:
        return (yield from _on_executor(executor, runs, qrels, measures, options))
    out: dict[str, Evaluation] = {}
    for i, run in enumerate(runs):
        yield Progress(i, len(runs), f"evaluating {run.name}")
        out[run.name] = evaluate_run(run, qrels, measures, options)
    yield Progress(len(runs), len(runs), "done")
    return out


def evaluate_files(paths: Sequence[str], qrels: Qrels, measures=("official",),
                   options: EvalOptions | None = None):
    """Progress generator: ``(runs, {run name: Evaluation}, notes)`` of the run files
    ``paths``, each read and evaluated before the next is read — one run's lines in
    memory at a time, as ``yardstick eval`` goes (``yardstick stability`` on 110 runs of
    250,000 lines: 1.9 GB -> a few hundred MB at its peak).

    The runs come back as :meth:`Run.scores_only <yardstick.inputs.run.Run.scores_only>`
    copies without scores (name, tag, topics: what provenance and topic coverage read),
    the evaluations without their judged rankings (the per-topic tables and summaries
    :func:`evaluate_runs` gives).  Two files with one name are told apart as
    :func:`~yardstick.inputs.run_names.unique_names` does; ``notes`` says how.
    """
    from yardstick.evaluation.engine import evaluation
    from yardstick.evaluation.runs_on_executor import returnable
    from yardstick.inputs.io.run_file import read_run
    from yardstick.inputs.run_names import unique_names

    options = options or EvalOptions()
    runs, evals = [], []
    for i, path in enumerate(paths):
        yield Progress(i, len(paths), f"reading and evaluating {path}")
        run = read_run(path, ranks=False, order=options.compat, scores=False)
        jr, cols, summary = measure(run, qrels, measures, options, keep_join_index=False)
        evals.append(returnable(evaluation(run, jr, cols, summary, options)))
        runs.append(run.scores_only())
        del run, jr
    runs, notes = unique_names(runs)
    yield Progress(len(paths), len(paths), "done")
    return runs, {r.name: renamed(ev, r.name) for r, ev in zip(runs, evals)}, notes


def evaluate_batch(runs: Sequence[Run], qrels: Qrels, measures, options: EvalOptions
                   ) -> list[Evaluation]:
    """One executor task of :func:`evaluate_runs`: the runs' evaluations, as they can be
    sent back (:func:`~yardstick.evaluation.runs_on_executor.returnable`)."""
    from yardstick.evaluation.runs_on_executor import returnable

    return [returnable(evaluate_run(r, qrels, measures, options)) for r in runs]


def _on_executor(executor: Executor, runs: list[Run], qrels: Qrels, measures,
                 options: EvalOptions):
    from yardstick.evaluation.runs_on_executor import run_batches, travelling

    batches = run_batches([len(r) for r in runs], executor.workers)
    q = executor.scatter(travelling(qrels))
    measures = list(measures) if not isinstance(measures, str) else measures
    # each batch's runs go to the workers as scattered data, not inside the task graph
    futures = [executor.submit(evaluate_batch, executor.scatter([travelling(runs[i])
                                                                 for i in b]),
                               q, measures, options) for b in batches]
    done: list[list | None] = [None] * len(batches)
    finished = 0
    yield Progress(0, len(runs), f"evaluating {len(runs)} runs in {len(batches)} tasks")
    try:
        for pos, value, error in executor.results(futures):
            if error is not None:
                raise error
            done[pos] = value
            finished += len(batches[pos])
            yield Progress(finished, len(runs), f"evaluated {finished} of {len(runs)} runs")
    finally:
        executor.cancel(futures)
    return {r.name: ev for r, ev in zip(runs, (ev for part in done for ev in part))}


def evaluate_runs_job(runs: Sequence[Run], qrels: Qrels, evaluator: Evaluator):
    """Progress generator: ``({name: Evaluation}, error message or None)``."""
    out: dict[str, Evaluation] = {}
    for i, run in enumerate(runs):
        yield Progress(i, len(runs), f"evaluating {run.name}")
        out[run.name] = evaluator(run, qrels)
    yield Progress(len(runs), len(runs), "evaluated")
    return out, evaluator.error


def renamed(ev: Evaluation, name: str) -> Evaluation:
    """``ev`` under the run name ``name`` (a run renamed in the session keeps its numbers)."""
    return ev if ev.run_name == name else replace(ev, run_name=name)


def has_all_measures(ev: Evaluation, measures: Sequence[str],
                     checked: dict | None = None) -> bool:
    """Whether ``ev`` has a column for every measure (``checked``: answers kept per column set)."""
    from yardstick.evaluation.evaluation_tables import measure_columns

    key = (tuple(ev.per_topic.columns), tuple(ev.summary.index))
    if checked is not None and key in checked:
        return checked[key]
    cols = list(key[0]) + list(key[1])
    ok = all(m == "official" or m == "all_trec" or measure_columns(m, cols) for m in measures)
    if checked is not None:
        checked[key] = ok
    return ok
