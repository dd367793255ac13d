"""Per-topic facts about a collection and one run's ranked list for one topic.

What the Collection and Topic panels show, computed here so the CLI and tests
see the same numbers.  "Relevant" means ``rel >= relevance_level`` (trec_eval
``-l``); negative judgments are "in the pool, not assessed" and count as
neither relevant nor judged non-relevant (trec_eval ``get_qrels``; the TREC
appendix, TREC proceedings appendix, counts only assessed documents as judged).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from yardstick.qrels import Qrels
from yardstick.ranking import trec_order
from yardstick.run import Run

__all__ = ["qrels_topic_stats", "run_summary", "ranked_list"]


def qrels_topic_stats(qrels: Qrels, relevance_level: int = 1,
                      topics: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per judged topic (index ``topic``, strcmp order).

    Columns: ``title`` (if ``topics`` given), ``judged`` (rel >= 0),
    ``relevant`` (rel >= relevance_level), ``rel=g`` for each grade g >= 0 in
    the qrels, and ``unassessed`` (rel < 0) when there are any.
    """
    f = qrels.frame
    counts = pd.crosstab(f["topic"], f["rel"])
    out = pd.DataFrame(index=pd.Index(sorted(counts.index), name="topic"))
    grades = sorted(int(g) for g in counts.columns)
    out["judged"] = counts[[g for g in grades if g >= 0]].sum(axis=1).reindex(out.index)
    out["relevant"] = counts[[g for g in grades if g >= relevance_level]].sum(axis=1) \
        .reindex(out.index) if any(g >= relevance_level for g in grades) else 0
    for g in grades:
        if g >= 0:
            out[f"rel={g}"] = counts[g].reindex(out.index)
    if any(g < 0 for g in grades):
        out["unassessed"] = counts[[g for g in grades if g < 0]].sum(axis=1).reindex(out.index)
    out = out.fillna(0).astype(np.int64)
    if topics is not None and len(topics):
        titles = topics.assign(topic=topics["topic"].astype(str)).drop_duplicates("topic") \
            .set_index("topic")["title"]
        out.insert(0, "title", titles.reindex(out.index).fillna("").astype(str))
    return out


def run_summary(run: Run, qrels: Qrels | None = None) -> dict[str, int]:
    """Lines, topics, and (with qrels) topics also in the qrels."""
    out = {"lines": len(run), "topics": run.num_topics}
    if qrels is not None:
        out["judged topics"] = int(np.isin(run.topics, qrels.topics).sum())
    return out


def ranked_list(run: Run, topic: str, qrels: Qrels | None = None, relevance_level: int = 1,
                max_rows: int | None = None) -> pd.DataFrame:
    """The run's documents for ``topic`` in trec_eval order.

    Columns: ``rank`` (1-based, trec_eval's order: score desc, docno desc),
    ``docno``, ``score``, ``file rank`` (the run file's rank column), ``rel``
    (judgment, <NA> when unjudged; nullable Int64), ``judged`` (bool), ``relevant`` (bool).
    """
    hits = np.flatnonzero(run.topics == str(topic))
    if not len(hits):
        return pd.DataFrame(columns=["rank", "docno", "score", "file rank", "rel", "judged",
                                     "relevant"])
    code = hits[0]
    lines = np.flatnonzero(run.topic_code == code)
    order = lines[trec_order(run.topic_code[lines], run.score[lines], run.docno_bytes[lines])]
    if max_rows is not None:
        order = order[:max_rows]
    docnos = np.array([b.decode("utf-8", "surrogateescape") for b in run.docno_bytes[order].tolist()],
                      dtype=object)
    out = pd.DataFrame({"rank": np.arange(1, len(order) + 1), "docno": docnos,
                        "score": run.score[order], "file rank": run.rank[order]})
    if qrels is not None:
        q = qrels.frame[qrels.frame["topic"] == str(topic)].set_index("docno")["rel"]
        rel = q.reindex(docnos).to_numpy(dtype=float)
        out["rel"] = pd.array(np.where(np.isnan(rel), 0, rel).astype(np.int64), dtype="Int64")
        out.loc[np.isnan(rel), "rel"] = pd.NA
        out["judged"] = ~np.isnan(rel) & (np.nan_to_num(rel, nan=-1) >= 0)
        out["relevant"] = np.nan_to_num(rel, nan=-1) >= relevance_level
    else:
        out["rel"] = pd.array([pd.NA] * len(out), dtype="Int64")
        out["judged"] = False
        out["relevant"] = False
    return out
