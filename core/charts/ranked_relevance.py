"""The ranked judgments of a run, per topic: the input of per-topic curves and reports.

Charts and reports that look *inside* a ranking (the one-topic recall-precision
curve of the TREC appendix Figure 1, the rank of the first relevant document
for known-item and QA reports, set counts for filtering) need, for every
evaluated topic, the judgment of each retrieved document in trec_eval's order.

:func:`ranked_relevance` takes it from :func:`yardstick.judged.build_judged_ranking`
(the engine's single pass over a run) when that exists, and otherwise computes
it here with :func:`yardstick.ranking.trec_order` and a qrels lookup.  Either way the
result is the same flat CSR layout: ``rel[start[i]:start[i+1]]`` are topic
``topics[i]``'s judgments, best-ranked first, ``-1`` for unjudged documents and
``-2`` for negative judgments.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.options import EvalOptions
from yardstick.qrels import Qrels
from yardstick.ranking import trec_order
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
    """The judged ranking of ``run``: from the engine if present, else computed here."""
    options = options or EvalOptions()
    try:
        from yardstick.judged import build_judged_ranking
    except ImportError:
        return _ranked_relevance_fallback(run, qrels, options)
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


def _ranked_relevance_fallback(run: Run, qrels: Qrels, options: EvalOptions) -> RankedRelevance:
    """trec_eval's ordering and qrels lookup, written plainly (no engine needed)."""
    qf = qrels.frame
    q_topics = np.asarray(sorted(set(qf["topic"].astype(str))), dtype=object)
    if options.complete:
        topics = q_topics
    else:
        topics = np.asarray(sorted(set(map(str, run.topics)) & set(q_topics)), dtype=object)
    order = trec_order(run.topic_code, run.score, run.doc_code, options.compat)
    line_topic = np.asarray(run.topics, dtype=object)[run.topic_code[order]].astype(str)
    line_doc = np.asarray(run.docnos, dtype=object)[run.doc_code[order]].astype(str)
    judged = pd.Series(qf["rel"].to_numpy(np.int64),
                       index=pd.MultiIndex.from_arrays([qf["topic"].astype(str),
                                                        qf["docno"].astype(str)]))
    judged = judged[~judged.index.duplicated(keep="last")]
    at = judged.index.get_indexer(pd.MultiIndex.from_arrays([line_topic, line_doc]))
    rel = np.where(at >= 0, judged.to_numpy()[np.maximum(at, 0)], UNJUDGED)
    rel = np.where((at >= 0) & (rel < 0), NEGATIVE, rel)
    keep = np.isin(line_topic, topics)
    if options.judged_only:
        keep &= rel != UNJUDGED
    line_topic, rel = line_topic[keep], rel[keep]
    t_index = {t: i for i, t in enumerate(topics)}
    seg = np.fromiter((t_index[t] for t in line_topic), dtype=np.int64, count=len(line_topic))
    if options.max_docs is not None:
        counts = np.bincount(seg, minlength=len(topics))
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        pos = np.arange(len(seg)) - starts[seg]
        ok = pos < options.max_docs
        seg, rel = seg[ok], rel[ok]
    counts = np.bincount(seg, minlength=len(topics))
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    rel_q = qf[qf["rel"] >= options.relevance_level]
    num_rel = (rel_q.groupby(rel_q["topic"].astype(str)).size()
               .reindex(topics, fill_value=0).to_numpy(np.int64))
    return RankedRelevance(run.name, topics, start, rel.astype(np.int64), num_rel,
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
