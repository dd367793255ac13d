"""The ranked judgments of a run, per topic: the input of per-topic curves and reports.

Charts and reports that look *inside* a ranking (the one-topic recall-precision
curve of the TREC appendix Figure 1, the rank of the first relevant document
for known-item and QA reports, set counts for filtering) need, for every
evaluated topic, the judgment of each retrieved document in trec_eval's order.

:func:`ranked_relevance` takes it from :func:`yardstick.judged.build_judged_ranking`
(the engine's single pass over a run), in the same flat CSR layout: ``rel[start[i]:start[i+1]]`` are topic
``topics[i]``'s judgments, best-ranked first, ``-1`` for unjudged documents and
``-2`` for negative judgments.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.judged import build_judged_ranking
from yardstick.options import EvalOptions
from yardstick.qrels import Qrels
from yardstick.run import Run

__all__ = ["RankedRelevance", "ranked_relevance", "relevant_counts"]

UNJUDGED = -1
NEGATIVE = -2


@dataclass(frozen=True, eq=False)
class RankedRelevance:
    """Judgments of one run's ranked documents, topic by topic (CSR arrays).

    Attributes
    ----------
    run_name : str
    topics : numpy.ndarray of str
        Evaluated topics (run ∩ qrels; every qrels topic with ``complete``).
    start : numpy.ndarray of int64
        Offsets into ``rel``, length ``len(topics) + 1``.
    rel : numpy.ndarray of int64
        Judgment per ranked document (``-1`` unjudged, ``-2`` negative).
    num_rel : numpy.ndarray of int64
        Per topic, qrels documents with ``rel >= relevance_level``.
    relevance_level : int
    """

    run_name: str
    topics: np.ndarray
    start: np.ndarray
    rel: np.ndarray
    num_rel: np.ndarray
    relevance_level: int = 1

    @property
    def num_ret(self) -> np.ndarray:
        return np.diff(self.start)

    def topic_rel(self, topic: str) -> np.ndarray:
        """Judgments of one topic's ranked documents (best first)."""
        hit = np.flatnonzero(self.topics == str(topic))
        if hit.size == 0:
            raise KeyError(f"topic {topic!r} is not evaluated for run {self.run_name!r}")
        i = int(hit[0])
        return self.rel[self.start[i]:self.start[i + 1]]

    def topic_num_rel(self, topic: str) -> int:
        return int(self.num_rel[np.flatnonzero(self.topics == str(topic))[0]])

    def positions(self) -> np.ndarray:
        """1-based rank of every entry of ``rel`` within its topic."""
        seg = np.repeat(np.arange(len(self.topics)), self.num_ret)
        return np.arange(len(self.rel)) - self.start[seg] + 1

    def first_relevant_rank(self, level: int | None = None,
                            depth: int | None = None) -> np.ndarray:
        """Per topic, the rank of the first document with ``rel >= level``; ``inf`` if none.

        ``depth`` only looks at the first ``depth`` documents (e.g. 5 for the
        TREC QA main task, appendix §3.1).
        """
        level = self.relevance_level if level is None else level
        pos = self.positions()
        ok = self.rel >= level
        if depth is not None:
            ok &= pos <= depth
        seg = np.repeat(np.arange(len(self.topics)), self.num_ret)
        out = np.full(len(self.topics), np.inf)
        # rel is ordered by rank inside each topic: minimum.at keeps the first hit
        np.minimum.at(out, seg[ok], pos[ok].astype(float))
        return out

    def relevant_retrieved(self, level: int | None = None) -> np.ndarray:
        """Per topic, retrieved documents with ``rel >= level`` (R+ of the appendix §4)."""
        level = self.relevance_level if level is None else level
        seg = np.repeat(np.arange(len(self.topics)), self.num_ret)
        return np.bincount(seg[self.rel >= level], minlength=len(self.topics)).astype(np.int64)


def ranked_relevance(run: Run, qrels: Qrels, options: EvalOptions | None = None
                     ) -> RankedRelevance:
    """The judged ranking of ``run`` (:func:`yardstick.judged.build_judged_ranking`) without
    trec_eval 10's ``-c`` stand-in documents."""
    options = options or EvalOptions()
    jr = build_judged_ranking(run, qrels, options)
    start = np.asarray(jr.start, dtype=np.int64)
    rel = np.asarray(jr.rel, dtype=np.int64)
    line = getattr(jr, "line", None)
    if line is not None and np.any(np.asarray(line) < 0):
        # trec_eval 10 -c evaluates a topic the run lacks on one unjudged stand-in
        # document; for charts and reports the topic simply retrieved nothing
        real = np.asarray(line) >= 0
        seg = np.repeat(np.arange(len(start) - 1), np.diff(start))
        counts = np.bincount(seg[real], minlength=len(start) - 1)
        start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        rel = rel[real]
    return RankedRelevance(run.name, np.asarray(jr.topics, dtype=object).astype(str).astype(object),
                           start, rel, np.asarray(jr.num_rel, dtype=np.int64),
                           options.relevance_level)


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
