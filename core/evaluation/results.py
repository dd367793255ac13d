"""The result of evaluating one run: :class:`Evaluation` and the topics × runs matrix.

Kept apart from the evaluation service (:mod:`yardstick.evaluation.evaluation_service`) and the loop
(:mod:`yardstick.evaluation.engine`) so that both can import it without importing each other,
and without pandas at import time (``yardstick eval`` never builds a DataFrame).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from yardstick.common.options import EvalOptions

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Evaluation", "score_matrix"]


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
    #: printed columns in trec_eval order (yardstick.evaluation.engine.Column), for the trec_eval
    #: text output
    columns: tuple = field(default=(), repr=False, compare=False)

    @property
    def measures(self) -> list[str]:
        return list(self.summary.index)

    @property
    def topics(self) -> list[str]:
        return list(self.per_topic.index)

    def to_frame(self) -> pd.DataFrame:
        """Long form: columns ``run``, ``measure``, ``topic`` (``all`` for the summary),
        ``value``."""
        import pandas as pd

        long = self.per_topic.reset_index(names="topic").melt(
            id_vars="topic", var_name="measure", value_name="value")
        summ = pd.DataFrame({"topic": "all", "measure": self.summary.index,
                             "value": self.summary.to_numpy()})
        out = pd.concat([long, summ], ignore_index=True)
        out.insert(0, "run", self.run_name)
        return out


def score_matrix(evaluations: Mapping[str, Evaluation], measure: str,
                 topics: Sequence[str] | None = None) -> pd.DataFrame:
    """Topics × runs matrix of one per-topic measure (the input of every diagnostic).

    Topics missing from a run's evaluation are NaN unless the evaluations were
    made with ``complete=True`` (trec_eval ``-c``), where they score 0.
    """
    import numpy as np
    import pandas as pd

    cols = {name: ev.per_topic[measure] for name, ev in evaluations.items()}
    # the topics of every run, kept as object (a topic may hold bytes that are not UTF-8,
    # which pandas' string dtype refuses); ordered as pandas aligns them
    index, same = None, True
    for c in cols.values():
        ci = pd.Index(c.index, dtype=object)
        if index is None:
            index = ci
        elif not index.equals(ci):
            index, same = index.union(ci), False
    from yardstick.inputs.io.text_source import text_index

    index = pd.Index([] if index is None else index, dtype=object)
    if same and cols:   # every run has the same topics (the usual case): no reindex per run
        values = np.column_stack([c.to_numpy(dtype=float) for c in cols.values()])
    else:               # (150 runs x 7 measures of pandas reindex held the GIL ~0.1 s)
        values = {name: c.astype(float).reindex(index).to_numpy() for name, c in cols.items()}
    mat = pd.DataFrame(values, index=text_index(index), columns=list(cols))
    if topics is not None:
        mat = mat.reindex([str(t) for t in topics])
    mat.index.name = "topic"
    mat.columns.name = "run"
    return mat
