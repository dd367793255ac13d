"""The ranked judgments of a run, per topic: the input of per-topic curves and reports.

Charts and reports that look *inside* a ranking (the one-topic recall-precision
curve of the TREC appendix Figure 1, the rank of the first relevant document
for known-item and QA reports, set counts for filtering) read the judged ranking
(:func:`yardstick.judging.judged.build_judged_ranking`, the engine's single pass over a
run) through :class:`RankedRelevance`, a view of it: ``rel[start[i]:start[i+1]]``
are topic ``topics[i]``'s judgments, best-ranked first, with the judged ranking's
codes (:data:`~yardstick.judging.judged.NONPOOL` ``-1`` not in the qrels,
:data:`~yardstick.judging.judged.UNJUDGED` ``-2`` a negative judgment).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
import pandas as pd

from yardstick.common.options import EvalOptions
from yardstick.evaluation.measures.average_precision import first_relevant_rank
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.judged import NONPOOL, UNJUDGED, JudgedRanking, build_judged_ranking

__all__ = ["NONPOOL", "UNJUDGED", "RankedRelevance", "ranked_relevance", "relevant_counts"]


class RankedRelevance:
    """One run's judged ranking, topic by topic, without trec_eval 10's ``-c`` stand-ins.

    A view of a :class:`~yardstick.judging.judged.JudgedRanking` (``jr``): ``start`` and
    ``rel`` are the judged ranking's own arrays, except under ``-c`` with topics the
    run lacks, whose stand-in document is left out (the topic retrieved nothing).

    Attributes
    ----------
    run_name : str
    topics : numpy.ndarray of str
        Evaluated topics (run ∩ qrels; every qrels topic with ``complete``).
    start : numpy.ndarray of int64
        Offsets into ``rel``, length ``len(topics) + 1``.
    rel : numpy.ndarray of int
        Judgment code per ranked document.
    num_rel : numpy.ndarray of int64
        Per topic, qrels documents with ``rel >= relevance_level``.
    relevance_level : int
    """

    def __init__(self, jr: JudgedRanking, run_name: str = ""):
        self.jr = jr
        self.run_name = run_name
        self.relevance_level = jr.relevance_level

    @cached_property
    def topics(self) -> np.ndarray:
        return np.asarray([str(t) for t in self.jr.topics.tolist()], dtype=object)

    @property
    def num_rel(self) -> np.ndarray:
        return self.jr.num_rel

    @cached_property
    def _stand_in(self) -> np.ndarray | None:
        """Where the ``-c`` stand-in documents are (None when there are none)."""
        jr = self.jr
        return (jr.line < 0) if jr.missing.any() and jr.line is not None else None

    @property
    def start(self) -> np.ndarray:
        if self._stand_in is None:
            return self.jr.start
        return np.concatenate([[0], np.cumsum(self.num_ret)]).astype(np.int64)

    @property
    def rel(self) -> np.ndarray:
        return self.jr.rel if self._stand_in is None else self.jr.rel[~self._stand_in]

    @property
    def num_ret(self) -> np.ndarray:
        if self._stand_in is None:
            return self.jr.num_ret
        return self.jr.num_ret - self.jr.count(self._stand_in)

    def topic_rel(self, topic: str) -> np.ndarray:
        """Judgments of one topic's ranked documents (best first)."""
        hit = np.flatnonzero(self.topics == str(topic))
        if hit.size == 0:
            raise KeyError(f"topic {topic!r} is not evaluated for run {self.run_name!r}")
        i = int(hit[0])
        start = self.start
        return self.rel[start[i]:start[i + 1]]

    def topic_num_rel(self, topic: str) -> int:
        return int(self.num_rel[np.flatnonzero(self.topics == str(topic))[0]])

    def positions(self) -> np.ndarray:
        """1-based rank of every entry of ``rel`` within its topic."""
        seg = np.repeat(np.arange(len(self.topics)), self.num_ret)
        return np.arange(len(self.rel)) - self.start[seg] + 1

    def _at_level(self, level: int | None) -> JudgedRanking:
        """The judged ranking with another relevance threshold (same arrays)."""
        jr = self.jr
        if level is None or level == jr.relevance_level:
            return jr
        return JudgedRanking(jr.topics, jr.start, jr.rel, jr.line, jr.rel_levels, level,
                             jr.missing, jr.num_qrels_topics, jr.run, jr.qrels, jr.options)

    def first_relevant_rank(self, level: int | None = None,
                            depth: int | None = None) -> np.ndarray:
        """Per topic, the rank of the first document with ``rel >= level``; ``inf`` if none
        (the reciprocal-rank kernel's first relevant rank).

        ``depth`` only looks at the first ``depth`` documents (e.g. 5 for the
        TREC QA main task, appendix §3.1).
        """
        r = first_relevant_rank(self._at_level(level))
        found = (r > 0) if depth is None else (r > 0) & (r <= depth)
        return np.where(found, r.astype(float), np.inf)

    def relevant_retrieved(self, level: int | None = None) -> np.ndarray:
        """Per topic, retrieved documents with ``rel >= level`` (R+ of the appendix §4)."""
        return np.asarray(self._at_level(level).num_rel_ret, dtype=np.int64)


def ranked_relevance(run: Run, qrels: Qrels, options: EvalOptions | None = None
                     ) -> RankedRelevance:
    """The judged ranking of ``run`` (:func:`yardstick.judging.judged.build_judged_ranking`), as a
    :class:`RankedRelevance` view."""
    return RankedRelevance(build_judged_ranking(run, qrels, options or EvalOptions()), run.name)


def relevant_counts(qrels: Qrels, level: int = 1) -> pd.Series:
    """Per qrels topic (sorted as topic ids), documents judged ``rel >= level``."""
    qf = qrels.frame
    topics = qf["topic"].astype(str)
    out = (qf["rel"] >= level).groupby(topics).sum().astype(np.int64)
    return out.loc[sorted(out.index, key=_topic_key)]


def _topic_key(t: str) -> tuple:
    try:
        return (0, float(t), t)
    except ValueError:
        return (1, 0.0, t)
