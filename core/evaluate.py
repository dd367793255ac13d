"""Evaluate runs against qrels exactly as trec_eval does (public API).

>>> ev = evaluate(run, qrels, ["map", "P.5,10", "ndcg_cut.10"])
>>> ev.summary["map"], ev.per_topic.loc["301", "P_10"]

The per-(run, qrels) work — ordering the run trec_eval's way and looking up
every retrieved document's judgment — happens once in
:func:`yardstick.judged.build_judged_ranking`; each measure is then a small
vectorised function of that :class:`~core.judged.JudgedRanking`
(``core/measures/``), found by name in :mod:`yardstick.measures.registry`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from yardstick.options import EvalOptions
from yardstick.progress import Progress
from yardstick.qrels import Qrels
from yardstick.run import Run

__all__ = ["EvalOptions", "Evaluation", "evaluate", "evaluate_runs", "score_matrix"]


@dataclass(frozen=True, eq=False)
class Evaluation:
    """The result of evaluating one run: per-topic values and trec_eval's averages.

    Attributes
    ----------
    run_name : str
        The run's name in Yardstick (file name unless renamed).
    runid : str
        trec_eval's ``runid`` (the tag of the run file's last line).
    per_topic : pandas.DataFrame
        Index: topic ids (str) in trec_eval's order; columns: measure names as
        trec_eval prints them (``map``, ``P_10``, ``ndcg_cut_10`` ...).  Numeric
        columns are float64; ``relstring`` is text.
    summary : pandas.Series
        Measure name -> value over all topics, averaged as trec_eval does
        (arithmetic mean; geometric for gm_*; sums for num_*; with ``-c``
        over every qrels topic).
    options : EvalOptions
    """

    run_name: str
    runid: str
    per_topic: pd.DataFrame
    summary: pd.Series
    options: EvalOptions = field(default_factory=EvalOptions)
    #: the judged ranking behind the numbers (for charts, explanations, what-if)
    judged: object = field(default=None, repr=False, compare=False)
    #: printed columns in trec_eval order (yardstick.engine.Column), for the trec_eval text output
    columns: tuple = field(default=(), repr=False, compare=False)

    @property
    def measures(self) -> list[str]:
        return list(self.summary.index)

    @property
    def topics(self) -> list[str]:
        return list(self.per_topic.index)

    def to_frame(self) -> pd.DataFrame:
        """Long form: columns ``run``, ``measure``, ``topic`` (``all`` for the summary), ``value``."""
        long = self.per_topic.reset_index(names="topic").melt(
            id_vars="topic", var_name="measure", value_name="value")
        summ = pd.DataFrame({"topic": "all", "measure": self.summary.index,
                             "value": self.summary.to_numpy()})
        out = pd.concat([long, summ], ignore_index=True)
        out.insert(0, "run", self.run_name)
        return out


def evaluate(run: Run, qrels: Qrels, measures: Sequence[str] | str = ("official",),
             options: EvalOptions | None = None) -> Evaluation:
    """Evaluate one run; see the module docstring."""
    from yardstick.engine import evaluate_run

    return evaluate_run(run, qrels, measures, options or EvalOptions())


def evaluate_runs(runs: Iterable[Run], qrels: Qrels, measures: Sequence[str] | str = ("official",),
                  options: EvalOptions | None = None
                  ) -> Generator[Progress, None, dict[str, Evaluation]]:
    """Evaluate several runs, yielding progress; returns ``{run.name: Evaluation}``.

    Drive it with :func:`yardstick.progress.run_sync` or the GUI job runner.
    """
    runs = list(runs)
    out: dict[str, Evaluation] = {}
    for i, run in enumerate(runs):
        yield Progress(i, len(runs), f"evaluating {run.name}")
        out[run.name] = evaluate(run, qrels, measures, options)
    yield Progress(len(runs), len(runs), "done")
    return out


def score_matrix(evaluations: Mapping[str, Evaluation], measure: str,
                 topics: Sequence[str] | None = None) -> pd.DataFrame:
    """Topics × runs matrix of one per-topic measure (the input of every diagnostic).

    Topics missing from a run's evaluation are NaN unless the evaluations were
    made with ``complete=True`` (trec_eval ``-c``), where they score 0.
    """
    cols = {name: ev.per_topic[measure].astype(float) for name, ev in evaluations.items()}
    mat = pd.DataFrame(cols)
    if topics is not None:
        mat = mat.reindex([str(t) for t in topics])
    mat.index.name = "topic"
    mat.columns.name = "run"
    return mat
