"""The pool per topic, rebuilt from the pooled runs, and what it says about the qrels.

TREC pooling (Sparck Jones & van Rijsbergen 1975; Buckley et al. 2007, §1,
“Bias and the limits of pooling for large collections”, Information Retrieval 2007): for each topic,
the union of the top k documents of every
pooled run is judged; everything else is assumed non-relevant.  Rebuilding the
pool from the runs flagged as pooled and comparing it with the qrels shows how
complete the judgments are for these runs:

* pool size, share of the pool judged, share of the pool judged relevant;
* judged documents outside the rebuilt pool and pooled documents missing from
  the qrels (either reveals a wrong depth or run set, or, as for the Robust
  2003 old topics, judgments made with other runs; Voorhees 2003, §1,
  Voorhees 2003: "an average of 61.4% of the documents in the pools ... were judged");
* per run, unjudged documents in the top 10 and top 100 (Voorhees 2003, §1:
  "an average of 0.4 unjudged documents in the top 10 ... and 11.6 ... in the top 100").

Ranks are positions in trec_eval's order (:func:`yardstick.inputs.ranking.trec_order`).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.inputs.io.text_source import text_index
from yardstick.judging.judged_runs import JudgedRuns, unique_sorted

Depth = int | Mapping[str, int] | np.ndarray


@dataclass(frozen=True, eq=False)
class Pool:
    """The rebuilt pool: sorted unique keys and who contributed each.

    Attributes
    ----------
    depth : numpy.ndarray
        Pool depth per topic of the index.
    keys : numpy.ndarray of int64
        Sorted pool keys ``topic * n_docs + doc``.
    n_runs, n_groups : numpy.ndarray of int32
        Per key, how many pooled runs / groups have it within their depth.
    owner_run, owner_group : numpy.ndarray of int32
        Per key, the only run / group that contributed it, or -1.
    min_rank : numpy.ndarray of int32
        Per key, the best rank any pooled run gave it.
    contributing : numpy.ndarray of bool
        Per run of the index, whether it took part in this pool.
    """

    depth: np.ndarray
    keys: np.ndarray
    n_runs: np.ndarray
    n_groups: np.ndarray
    owner_run: np.ndarray
    owner_group: np.ndarray
    min_rank: np.ndarray
    contributing: np.ndarray

    def __len__(self) -> int:
        return len(self.keys)

    def contains(self, keys: np.ndarray) -> np.ndarray:
        pos = np.searchsorted(self.keys, keys)
        pos = np.minimum(pos, max(len(self.keys) - 1, 0))
        return (self.keys[pos] == keys) if len(self.keys) else np.zeros(len(keys), bool)

    def to_frame(self, index: JudgedRuns) -> pd.DataFrame:
        """One row per pooled document: topic, docno, rel (NaN if unjudged), contributors."""
        found, rel = index.lookup(self.keys)
        return pd.DataFrame({
            "topic": index.topic_names(index.key_topic(self.keys)),
            "docno": index.docnos(index.key_doc(self.keys)),
            "rel": np.where(found, rel, np.nan),
            "min_rank": self.min_rank,
            "n_runs": self.n_runs,
            "n_groups": self.n_groups,
        })


#: pool entries (run, topic, rank within the depth) handled at once: a pool is rebuilt a
#: block of topics at a time, so its temporaries stay near this many entries
POOL_BLOCK = 1 << 20


def pool_entries(index: JudgedRuns, depth: Depth, runs: np.ndarray | None = None) -> np.ndarray:
    """Index (sorted) of the entries within their topic's depth for a contributing run.

    ``runs`` is a bool mask over the index's runs (default: the pooled runs).
    """
    d = index.depth_array(depth)
    runs = index.pooled if runs is None else np.asarray(runs, bool)
    return index.prefix(index.run_limit(runs, d))


def pool_entry_blocks(index: JudgedRuns, depth: Depth, runs: np.ndarray | None = None):
    """:func:`pool_entries` a block of topics at a time (about :data:`POOL_BLOCK` entries
    each, topics in order): yields the index of each block's pool entries."""
    d = index.depth_array(depth)
    runs = index.pooled if runs is None else np.asarray(runs, bool)
    limit = np.minimum(index.run_limit(runs, d),
                       index.segment_counts().reshape(index.n_runs, index.n_topics))
    per_topic = limit.sum(axis=0)
    t0 = 0
    while t0 < index.n_topics:
        t1 = t0 + 1
        total = per_topic[t0]
        while t1 < index.n_topics and total + per_topic[t1] <= POOL_BLOCK:
            total += per_topic[t1]
            t1 += 1
        block = np.zeros_like(limit)
        block[:, t0:t1] = limit[:, t0:t1]
        yield index.prefix(block)
        t0 = t1


def reconstruct_pool(index: JudgedRuns, depth: Depth, runs: np.ndarray | None = None) -> Pool:
    """Rebuild the depth-k pool of every topic from the contributing runs.

    Parameters
    ----------
    index : JudgedRuns
    depth : int, {topic: depth} or array per topic
        Pool depth (topics missing from a mapping are not pooled).
    runs : bool array over the index's runs, optional
        Contributing runs; default ``index.pooled``.
    """
    contributing = index.pooled if runs is None else np.asarray(runs, bool)
    d = index.depth_array(depth)
    # the report, leave-out-uniques and the simulations ask for the same pool: built once
    # per index, depths and runs (the last few kept)
    known = _POOLS.setdefault(index, {})
    key = (d.tobytes(), contributing.tobytes())
    if key not in known:
        parts = [_pool_part(index, sel) for sel in pool_entry_blocks(index, d, contributing)]
        fields = ("keys", "n_runs", "n_groups", "owner_run", "owner_group", "min_rank")
        joined = {f: np.concatenate([p[f] for p in parts]) if parts else
                  np.zeros(0, np.int64 if f == "keys" else np.int32) for f in fields}
        while len(known) >= 4:
            known.pop(next(iter(known)))
        known[key] = Pool(depth=d, contributing=contributing.copy(), **joined)
    return known[key]


#: per judged runs, the pools rebuilt from them, by (depths, contributing runs)
_POOLS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def share_pool(index: JudgedRuns, pool: Pool) -> None:
    """Make ``pool`` (rebuilt elsewhere from judged runs with the same entries and sent
    along) the one :func:`reconstruct_pool` gives ``index`` for its depths and runs."""
    known = _POOLS.setdefault(index, {})
    known.setdefault((pool.depth.tobytes(), pool.contributing.tobytes()), pool)


def _pool_part(index: JudgedRuns, sel: np.ndarray) -> dict:
    """The pool's keys (sorted) and contributors of the pool entries ``sel`` (whole topics)."""
    seg = index.entry_segment(sel)
    k = (seg % index.n_topics) * index.n_docs + index.e_doc[sel]
    r = (seg // index.n_topics).astype(np.int32)
    rank = (sel - index.seg_start[seg] + 1).astype(np.int32)
    del seg
    g = index.run_group[r].astype(np.int64)
    # a run has each (topic, doc) once, so (key, run) pairs are unique already
    order = np.lexsort((rank, k))
    k, r, g, rank = k[order], r[order], g[order], rank[order]
    del order
    keys, first, n_runs = np.unique(k, return_index=True, return_counts=True)
    owner_run = np.where(n_runs == 1, r[first], -1).astype(np.int32)
    kg = unique_sorted(k * index.n_groups + g)
    gk, gfirst, n_groups = np.unique(kg // index.n_groups, return_index=True, return_counts=True)
    owner_group = np.where(n_groups == 1, kg[gfirst] % index.n_groups, -1).astype(np.int32)
    return {"keys": keys, "n_runs": n_runs.astype(np.int32),
            "n_groups": n_groups.astype(np.int32), "owner_run": owner_run,
            "owner_group": owner_group, "min_rank": rank[first].astype(np.int32)}


@dataclass(frozen=True, eq=False)
class PoolStatistics:
    """Pool completeness per topic, per run and overall.

    Attributes
    ----------
    per_topic : pandas.DataFrame
        Index topic; columns depth, pool_size, judged, relevant, share_judged,
        share_relevant (of the pool), qrels_judged, qrels_relevant,
        judged_outside_pool, relevant_outside_pool, pooled_not_in_qrels.
    per_run : pandas.DataFrame
        Index run; columns group, pooled, topics, unjudged_10, unjudged_100
        (mean per evaluated topic), judged_10, judged_100.
    outside : pandas.DataFrame
        Judged documents outside the rebuilt pool: topic, docno, rel.
    missing : pandas.DataFrame
        Pooled documents the qrels lack: topic, docno, min_rank, n_runs.
    summary : pandas.Series
    """

    per_topic: pd.DataFrame
    per_run: pd.DataFrame
    outside: pd.DataFrame
    missing: pd.DataFrame
    summary: pd.Series

    def to_frame(self) -> pd.DataFrame:
        return self.per_topic.reset_index()


def unjudged_at(index: JudgedRuns, cutoffs: Sequence[int] = (10, 100)) -> pd.DataFrame:
    """Per run, mean number of unjudged (and judged) documents in the top k.

    A document is unjudged when the qrels do not hold a judgment ``>= 0`` for
    it.  Means are over the topics trec_eval evaluates for the run (run and
    qrels both have the topic); a run with fewer than k documents counts only
    those (Voorhees 2003, §1).
    """
    ev = index.evaluated()
    n_ev = ev.sum(axis=1)
    everyone = np.ones(index.n_runs, bool)
    cols: dict[str, np.ndarray] = {}
    for k in cutoffs:
        top = index.prefix(index.run_limit(everyone, k))     # the top k of every segment
        seg, rel = index.entry_segment(top), index.e_rel[top]
        del top
        for name, mask in (("unjudged", rel < 0), ("judged", rel >= 0)):
            c = np.bincount(seg[mask], minlength=index.n_runs * index.n_topics)
            c = np.where(ev, c.reshape(index.n_runs, index.n_topics), 0).sum(axis=1)
            cols[f"{name}_{k}"] = np.divide(c, n_ev, out=np.full(len(c), np.nan), where=n_ev > 0)
    frame = pd.DataFrame({
        "group": [index.group_names[g] for g in index.run_group],
        "pooled": index.pooled,
        "topics": n_ev,
        **{f"unjudged_{k}": cols[f"unjudged_{k}"] for k in cutoffs},
        **{f"judged_{k}": cols[f"judged_{k}"] for k in cutoffs},
    }, index=pd.Index(index.run_names, name="run"))
    return frame


def boundary_ties(index: JudgedRuns, depth: Depth, runs: np.ndarray | None = None) -> int:
    """How many (contributing run, topic) cuts at the pool depth fell inside a tie group:
    the documents kept there depend on the tie order (``JudgedRuns.tie_order``)."""
    contributing = index.pooled if runs is None else np.asarray(runs, bool)
    if not index.runs:
        return 0
    d = index.depth_array(depth)
    T = index.n_topics
    all_counts = index.segment_counts()
    dtype = np.float32 if index.compat == 9 else np.float64    # the order's own scores
    ties = 0
    for i in np.flatnonzero(contributing):
        run, lines = index.runs[i], index.run_lines[i]
        t = np.flatnonzero((d >= 1) & (all_counts[i * T:(i + 1) * T] > d))  # an entry below
        at = index.seg_start[i * T + t] - index.seg_start[i * T] + d[t] - 1
        above, below = run.score[lines[at]].astype(dtype), run.score[lines[at + 1]].astype(dtype)
        ties += int((above == below).sum())
    return ties


def pool_statistics(index: JudgedRuns, depth: Depth, pool: Pool | None = None,
                    cutoffs: Sequence[int] = (10, 100)) -> PoolStatistics:
    """Compare the rebuilt pool with the qrels (see the module docstring).

    Topics reported are those pooled (depth > 0) or judged.
    """
    pool = reconstruct_pool(index, depth) if pool is None else pool
    T = index.n_topics
    lvl = index.relevance_level
    p_topic = index.key_topic(pool.keys)
    found, rel = index.lookup(pool.keys)
    judged = found & (rel >= 0)
    relevant = found & (rel >= lvl)
    size = np.bincount(p_topic, minlength=T)
    n_judged = np.bincount(p_topic[judged], minlength=T)
    n_rel = np.bincount(p_topic[relevant], minlength=T)
    not_in = ~found
    q_in_pool = pool.contains(index.q_key)
    q_topic = index.key_topic(index.q_key)
    q_judged = index.q_rel >= 0
    outside = ~q_in_pool & q_judged
    per_topic = pd.DataFrame({
        "depth": pool.depth,
        "pool_size": size,
        "judged": n_judged,
        "relevant": n_rel,
        "share_judged": np.divide(n_judged, size, out=np.full(T, np.nan), where=size > 0),
        "share_relevant": np.divide(n_rel, size, out=np.full(T, np.nan), where=size > 0),
        "qrels_judged": index.num_judged(),
        "qrels_relevant": index.num_rel(),
        "judged_outside_pool": np.bincount(q_topic[outside], minlength=T),
        "relevant_outside_pool": np.bincount(q_topic[outside & (index.q_rel >= lvl)], minlength=T),
        "pooled_not_in_qrels": np.bincount(p_topic[not_in], minlength=T),
    }, index=text_index(index.topics, name="topic"))
    keep = (pool.depth > 0) | index.in_qrels
    per_topic = per_topic[keep]
    out_keys = index.q_key[outside]
    outside_frame = pd.DataFrame({"topic": index.topic_names(index.key_topic(out_keys)),
                                  "docno": pd.Series(index.docnos(index.key_doc(out_keys)),
                                                     dtype=object),
                                  "rel": index.q_rel[outside]})
    miss_keys = pool.keys[not_in]
    missing_frame = pd.DataFrame({"topic": index.topic_names(index.key_topic(miss_keys)),
                                  "docno": pd.Series(index.docnos(index.key_doc(miss_keys)),
                                                     dtype=object),
                                  "min_rank": pool.min_rank[not_in],
                                  "n_runs": pool.n_runs[not_in]})
    per_run = unjudged_at(index, cutoffs)
    pooled_topics = per_topic[per_topic["depth"] > 0]
    total = int(pooled_topics["pool_size"].sum())
    summary = pd.Series({
        "topics": len(per_topic),
        "pooled_runs": int(pool.contributing.sum()),
        "pool_groups": len(set(index.run_group[pool.contributing].tolist())),
        "mean_pool_size": pooled_topics["pool_size"].mean(),
        "total_pool_size": total,
        "share_judged": pooled_topics["judged"].sum() / max(total, 1),
        "mean_share_judged": pooled_topics["share_judged"].mean(),
        "share_relevant": pooled_topics["relevant"].sum() / max(total, 1),
        "mean_share_relevant": pooled_topics["share_relevant"].mean(),
        "judged_outside_pool": int(per_topic["judged_outside_pool"].sum()),
        "relevant_outside_pool": int(per_topic["relevant_outside_pool"].sum()),
        "pooled_not_in_qrels": int(per_topic["pooled_not_in_qrels"].sum()),
        **{f"mean_unjudged_{k}": per_run[f"unjudged_{k}"].mean() for k in cutoffs},
        "boundary_ties": boundary_ties(index, depth, pool.contributing),
    })
    return PoolStatistics(per_topic=per_topic, per_run=per_run, outside=outside_frame,
                          missing=missing_frame, summary=summary)
