"""Recall-precision graphs (TREC appendix "Common Evaluation Measures", §1 and §2.2-I).

Two charts:

* :func:`recall_precision_curves` — the averaged 11-point graph of several runs
  (appendix Figure 1 and Table 2): at each standard recall level
  λ ∈ {0.0, 0.1, …, 1.0} the interpolated precision summed over topics and
  divided by the number of topics, ``Σ P_λ / NUM``.  These are exactly the
  means of trec_eval's ``iprec_at_recall_λ`` values, taken from the evaluations.
* :func:`topic_recall_precision` — one topic of one run: the actual
  (recall, precision) point after each relevant document (the circles joined by
  a solid line in Figure 1) and the interpolated curve (dashed), where the
  interpolated precision at recall level λ is "the maximum precision obtained
  for the topic for any actual recall level greater than or equal to λ"
  (appendix §1).

Interpolation rules
-------------------
The appendix's rule compares true recall ``i/R >= λ``; for its worked example
(four relevant documents at ranks 1, 2, 4 and 15) it gives 1.0 up to recall 0.5,
0.75 at 0.6-0.7 and 4/15 ≈ 0.27 from 0.8.  trec_eval turns λ into a number of
relevant documents first: 9.0.8 as ``(long)(λ·R + 0.9)`` (the same here),
10.0 as ``lround(λ·R)`` (``m_iprec_at_recall.c``), which for this example gives
1.0 at 0.6 and 0.75 at 0.8-0.9.  ``rule="appendix"`` (default for one topic)
follows the paper; ``rule="trec_eval"`` follows ``compat`` so the curve equals
the engine's ``iprec_at_recall`` values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.common.options import EvalOptions
from yardstick.evaluation.evaluation_service import Evaluation
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.presentation.charts.ranked_relevance import ranked_relevance
from yardstick.presentation.charts.scores import run_means

__all__ = ["RECALL_LEVELS", "iprec_column", "RecallPrecisionCurves", "recall_precision_curves",
           "TopicRecallPrecision", "topic_recall_precision", "topic_recall_precision_of_run",
           "interpolation_cutoffs"]

#: the 11 standard recall levels of the appendix
RECALL_LEVELS = np.round(np.arange(11) / 10, 2)


def iprec_column(level: float) -> str:
    """trec_eval's column name for interpolated precision at ``level``."""
    return f"iprec_at_recall_{level:.2f}"


@dataclass(frozen=True, eq=False)
class RecallPrecisionCurves:
    """11-point interpolated precision averaged over topics, one curve per run.

    Attributes
    ----------
    runs : tuple of str
    levels : numpy.ndarray
        Recall levels (0.0 … 1.0).
    precision : numpy.ndarray
        ``(len(runs), len(levels))`` mean interpolated precision.
    map : numpy.ndarray or None
        Non-interpolated MAP per run when evaluated (Table 2's last line).
    """

    runs: tuple[str, ...]
    levels: np.ndarray
    precision: np.ndarray
    map: np.ndarray | None = None

    def to_frame(self) -> pd.DataFrame:
        """Recall levels × runs (the appendix's Table 2, one column per run)."""
        f = pd.DataFrame(self.precision.T, index=pd.Index(self.levels, name="recall"),
                         columns=pd.Index(self.runs, name="run"))
        return f


def recall_precision_curves(evaluations: Mapping[str, Evaluation],
                            runs: Sequence[str] | None = None,
                            topics: Sequence[str] | None = None) -> RecallPrecisionCurves:
    """Averaged 11-point recall-precision curves of several runs (appendix §2.1-II A).

    The evaluations must hold the ``iprec_at_recall`` measure.
    """
    cols = [iprec_column(lv) for lv in RECALL_LEVELS]
    names = list(runs) if runs is not None else list(evaluations)
    first = evaluations[names[0]] if names else None
    if first is not None and cols[0] not in first.per_topic.columns:
        raise KeyError("the evaluations lack iprec_at_recall; evaluate with 'iprec_at_recall'")
    want = cols + (["map"] if first is not None and "map" in first.per_topic.columns else [])
    means = run_means(evaluations, want, names, topics)
    prec = means[cols].to_numpy(float) if names else np.zeros((0, len(cols)))
    mp = means["map"].to_numpy(float) if "map" in want else None
    return RecallPrecisionCurves(tuple(names), RECALL_LEVELS.copy(), prec, mp)


@dataclass(frozen=True, eq=False)
class TopicRecallPrecision:
    """One topic's recall-precision picture (appendix §1, Figure 1).

    Attributes
    ----------
    run, topic : str
    num_rel : int
        R, the topic's relevant documents in the qrels.
    num_ret : int
    relevant_ranks : numpy.ndarray
        Ranks (1-based) of the retrieved relevant documents.
    recall, precision : numpy.ndarray
        The actual point after each relevant document (the circles).
    levels, interpolated : numpy.ndarray
        Interpolated precision at the 11 standard recall levels (the dashed line).
    step_recall, step_precision : numpy.ndarray
        The interpolated precision as a step function of recall over [0, 1]
        (for drawing the dashed curve between levels).
    rule : str
    """

    run: str
    topic: str
    num_rel: int
    num_ret: int
    relevant_ranks: np.ndarray
    recall: np.ndarray
    precision: np.ndarray
    levels: np.ndarray
    interpolated: np.ndarray
    step_recall: np.ndarray
    step_precision: np.ndarray
    rule: str = "appendix"

    @property
    def average_precision(self) -> float:
        """Non-interpolated AP: mean precision at each relevant document (appendix §2.1-II B)."""
        return float(self.precision.sum() / self.num_rel) if self.num_rel else 0.0

    def to_frame(self) -> pd.DataFrame:
        """Long form: ``series`` (actual / interpolated), ``rank``, ``recall``, ``precision``."""
        actual = pd.DataFrame({"series": "actual", "rank": self.relevant_ranks,
                               "recall": self.recall, "precision": self.precision})
        interp = pd.DataFrame({"series": "interpolated", "rank": np.nan,
                               "recall": self.levels, "precision": self.interpolated})
        out = pd.concat([actual, interp], ignore_index=True)
        out.insert(0, "topic", self.topic)
        out.insert(0, "run", self.run)
        return out


def interpolation_cutoffs(num_rel: int, levels: np.ndarray, rule: str = "appendix",
                          compat: int = 10) -> np.ndarray:
    """Number of relevant documents that recall level λ requires, per rule (module docstring)."""
    x = np.asarray(levels, dtype=float) * num_rel
    if rule == "appendix":
        return np.ceil(x - 1e-9).astype(np.int64)
    if rule == "trec_eval":
        if compat == 9:
            return np.floor(x + 0.9).astype(np.int64)
        return np.floor(x + 0.5).astype(np.int64)        # lround for x >= 0
    raise ValueError(f"unknown interpolation rule {rule!r}")


def topic_recall_precision(relevant: np.ndarray, num_rel: int, run: str = "", topic: str = "",
                           rule: str = "appendix", compat: int = 10,
                           levels: np.ndarray = RECALL_LEVELS) -> TopicRecallPrecision:
    """Recall-precision points and interpolated curve of one ranked list.

    Parameters
    ----------
    relevant : array of bool
        Whether each retrieved document (best first) is relevant.
    num_rel : int
        R, relevant documents for the topic (retrieved or not).

    Examples
    --------
    The appendix's example: 20 documents, relevant at ranks 1, 2, 4 and 15.

    >>> rel = np.isin(np.arange(1, 21), [1, 2, 4, 15])
    >>> topic_recall_precision(rel, 4).interpolated.round(2).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.75, 0.75, 0.27, 0.27, 0.27]
    """
    relevant = np.asarray(relevant, dtype=bool)
    ranks = np.flatnonzero(relevant) + 1
    count = np.arange(1, len(ranks) + 1)
    precision = count / ranks if len(ranks) else np.zeros(0)
    recall = count / num_rel if num_rel else np.zeros(len(ranks))
    # best precision from the j-th relevant document on (suffix maximum)
    suffix = np.maximum.accumulate(precision[::-1])[::-1] if len(ranks) else np.zeros(0)
    cut = interpolation_cutoffs(num_rel, levels, rule, compat)
    interp = np.zeros(len(cut))
    if len(ranks) and num_rel:
        ok = cut <= len(ranks)                        # unreached recall levels stay 0
        interp[ok] = suffix[np.maximum(cut[ok], 1) - 1]   # 0 needed -> best overall
    step_r, step_p = _step(recall, suffix)
    return TopicRecallPrecision(run, str(topic), int(num_rel), int(len(relevant)), ranks,
                                recall, precision, np.asarray(levels, float), interp.astype(float),
                                step_r, step_p, rule)


def _step(recall: np.ndarray, suffix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Interpolated precision as a function of recall: S_j on (r_{j-1}, r_j], 0 beyond r_n."""
    if len(recall) == 0:
        return np.array([0.0, 1.0]), np.array([0.0, 0.0])
    left = np.concatenate([[0.0], recall[:-1]])
    xs = np.column_stack([left, recall]).ravel()
    ys = np.column_stack([suffix, suffix]).ravel()
    if recall[-1] < 1.0:
        xs = np.concatenate([xs, [recall[-1], 1.0]])
        ys = np.concatenate([ys, [0.0, 0.0]])
    return xs, ys


def topic_recall_precision_of_run(run: Run, qrels: Qrels, topic: str,
                                  options: EvalOptions | None = None,
                                  rule: str = "appendix") -> TopicRecallPrecision:
    """:func:`topic_recall_precision` for one topic of a loaded run and qrels."""
    options = options or EvalOptions()
    rr = ranked_relevance(run, qrels, options)
    rel = rr.topic_rel(topic) >= options.relevance_level
    return topic_recall_precision(rel, rr.topic_num_rel(topic), run.name, topic, rule,
                                  options.compat)
