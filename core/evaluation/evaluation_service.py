"""Evaluate runs against qrels exactly as trec_eval does (public API).

>>> ev = evaluate_run(run, qrels, ["map", "P.5,10", "ndcg_cut.10"])
>>> ev.summary["map"], ev.per_topic.loc["301", "P_10"]

The per-(run, qrels) work — ordering the run trec_eval's way and looking up
every retrieved document's judgment — happens once in
:func:`yardstick.judging.judged.build_judged_ranking`; each measure is then a small
vectorised function of that :class:`~yardstick.judging.judged.JudgedRanking`
(``core/evaluation/measures/``), found by name in :mod:`yardstick.evaluation.measures.registry`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence

from yardstick.common.options import EvalOptions
from yardstick.common.progress import Progress
from yardstick.evaluation.engine import evaluate_run
from yardstick.evaluation.results import Evaluation, score_matrix
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run

__all__ = ["EvalOptions", "Evaluation", "evaluate_run", "evaluate_runs", "score_matrix"]


def evaluate_runs(runs: Iterable[Run], qrels: Qrels, measures: Sequence[str] | str = ("official",),
                  options: EvalOptions | None = None
                  ) -> Generator[Progress, None, dict[str, Evaluation]]:
    """Evaluate several runs, yielding progress; returns ``{run.name: Evaluation}``.

    Drive it with :func:`yardstick.common.progress.run_sync` or the GUI job runner.
    """
    runs = list(runs)
    out: dict[str, Evaluation] = {}
    for i, run in enumerate(runs):
        yield Progress(i, len(runs), f"evaluating {run.name}")
        out[run.name] = evaluate_run(run, qrels, measures, options)
    yield Progress(len(runs), len(runs), "done")
    return out
