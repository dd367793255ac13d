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
    import numpy as np
    import pandas as pd

__all__ = ["Evaluation", "merge_evaluations", "score_matrix", "mean_over_topics"]


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

    def to_frame(self, per_topic: bool = True, summary: bool = True,
                 numeric: bool = False) -> pd.DataFrame:
        """The tidy (long) table: columns ``run``, ``topic`` (``all`` for the summary),
        ``measure``, ``value``; the one tidy-table builder (:func:`yardstick.api.evaluate`
        stacks these).

        ``per_topic`` / ``summary`` choose the rows; ``numeric`` leaves out the text
        column (``relstring``) so that ``value`` is float.
        """
        import pandas as pd

        parts = []
        if per_topic:
            pt = self.per_topic
            if numeric:
                pt = pt[[c for c in pt.columns if c != "relstring"]]
            parts.append(pt.reset_index(names="topic").melt(
                id_vars="topic", var_name="measure", value_name="value"))
        if summary:
            parts.append(pd.DataFrame({"topic": "all", "measure": self.summary.index,
                                       "value": self.summary.to_numpy(dtype=float)}))
        out = (pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0] if parts
               else pd.DataFrame(columns=["topic", "measure", "value"]))
        out.insert(0, "run", self.run_name)
        return out


def merge_evaluations(a: Evaluation | None, b: Evaluation | None) -> Evaluation | None:
    """``a`` with the per-topic columns and averages of ``b`` it does not have (``a``'s
    win); either may be None.  With :func:`yardstick.evaluation.engine.evaluation`, the only
    place an :class:`Evaluation` is made (the window evaluates measures added later on their
    own and joins them here)."""
    import pandas as pd

    if a is None or b is None:
        return a if b is None else b
    new_cols = [c for c in b.per_topic.columns if c not in a.per_topic.columns]
    per_topic = a.per_topic.join(b.per_topic[new_cols], how="left") if new_cols else a.per_topic
    new_sum = [m for m in b.summary.index if m not in a.summary.index]
    summary = pd.concat([a.summary, b.summary[new_sum]]) if new_sum else a.summary
    return Evaluation(run_name=a.run_name, runid=a.runid, per_topic=per_topic, summary=summary,
                      options=a.options)


def mean_over_topics(values, present, axis: int = 0) -> np.ndarray:
    """Each run's mean over the topics it has values for: trec_eval's average without
    ``-c`` (a topic a run did not retrieve for is left out), NaN for a run with none.

    The one ``run_means`` arithmetic: the charts' runs x measures table
    (:func:`yardstick.presentation.charts.scores.run_means`) and the pool diagnostics'
    re-scored runs (simulation, leave-out-uniques) call it.  ``present`` marks the values
    that count; ``axis`` is the topics axis.
    """
    import numpy as np

    values = np.asarray(values, dtype=float)
    present = np.asarray(present, dtype=bool)
    n = present.sum(axis=axis)
    total = np.where(present, values, 0.0).sum(axis=axis)
    return np.divide(total, n, out=np.full(np.shape(n), np.nan), where=n > 0)


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
