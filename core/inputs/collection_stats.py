"""Per-topic facts about a collection and a run's size.

What the Collection panel shows, computed here so the CLI and tests see the same
numbers (a run's ranked list for one topic, with its judgments, is
:func:`yardstick.analysis.explain.topic_data.topic_documents`: the judged ranking's).
"Relevant" means ``rel >= relevance_level`` (trec_eval ``-l``); negative judgments are "in the pool,
not assessed" and count as
neither relevant nor judged non-relevant (trec_eval ``get_qrels``; the TREC
appendix, TREC proceedings appendix, counts only assessed documents as judged).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run

__all__ = ["qrels_topic_stats", "run_summary"]


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
