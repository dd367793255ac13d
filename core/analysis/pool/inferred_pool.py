"""Which runs made the pool, and how deep: inferred from the runs and the qrels alone.

TREC builds a topic's judgment set from the union of the top *k* documents of each
pooled run (Buckley, Dimmick, Soboroff & Voorhees 2007, "Bias and the limits of pooling
for large collections", Information Retrieval 10(6), §1 and §2; Voorhees 2003, TREC 2003
robust track overview, §1).  That leaves a trace a pool analysis can read instead of
assuming "every loaded run was pooled to depth 100":

* a run's **judged depth** on a topic is how far down its ranking every document is
  in the qrels (the rank before its first unjudged document; ties at that rank count
  in the run's favour, since a pool cut inside a tie may have kept either document);
* a pooled run's judged depth is at least the pool depth on **every** topic, where a
  run that was not pooled meets an unjudged document early on some topic;
* the **pool depth of a topic** is the depth *k* at which the runs judged to depth *k*,
  cut at *k*, explain the most of the topic's judged documents (below the true depth
  the contributors' ranks k+1..depth are missing; above it most contributors drop out);
* a second, shallower pool (a team-level pool of further runs) shows in the judged
  documents the first one leaves unexplained, and is looked for the same way.

Where the data cannot tell (the best depth explains less than half the judged
documents, or few runs are judged to any depth) the result says so
(:attr:`InferredPool.status` ``"cannot tell"``) rather than guessing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.pool.judged_depth import (
    CLOSE,
    best_depth,
    close_depths,
    coverage,
    judged_depths,
)
from yardstick.inputs.io.text_source import text_index
from yardstick.judging.judged_runs import JudgedRuns

__all__ = ["InferredPool", "infer_pool", "judged_depths", "CONTRIBUTING"]

#: the contributing column's values, strongest first
CONTRIBUTING = ("yes", "likely", "no")
#: share of topics a run must be judged to the pool depth on to be a contributor
FULL_SHARE = 0.9
#: share of the judged documents the pool must explain before it is believed
MIN_EXPLAINED = 0.5
#: fewer judged topics than this cannot tell a pooled run from a lucky one
MIN_JUDGED_TOPICS = 5
#: share of the judged topics that must tell a depth before the pool is believed
MIN_TOPICS = 0.5
#: a second pool must explain this many of the first pool's leftovers (and this share)
SECOND_MIN_DOCS, SECOND_MIN_SHARE = 20, 0.3


@dataclass(frozen=True, eq=False)
class InferredPool:
    """What the runs and qrels say about the pool (:func:`infer_pool`).

    Attributes
    ----------
    status : {"inferred", "cannot tell"}
    reason : str
        One sentence: how the pool was found, or why it could not be.
    depth : numpy.ndarray of int64
        Inferred pool depth per topic of the index (0 where the topic cannot tell).
    contributing : numpy.ndarray of str
        Per run, ``yes`` / ``likely`` / ``no``.
    run_depth : numpy.ndarray of int64
        Per run, the depth it contributed to (0 when not contributing; the topic's
        depth for the main pool is given as its median).
    runs : pandas.DataFrame
        The evidence per run (index run): group, judged_depth (lowest over topics),
        median_judged_depth, topics_to_depth, share_to_depth, unique_documents,
        contributing, depth, level (1 main pool, 2 second pool).
    topics : pandas.DataFrame
        Per judged topic: pool_depth, judged, explained, share_explained,
        runs_to_depth, note.
    judged : numpy.ndarray of int64
        ``(n_runs, n_topics)`` judged depth of each run and topic.
    """

    status: str
    reason: str
    depth: np.ndarray
    contributing: np.ndarray
    run_depth: np.ndarray
    runs: pd.DataFrame
    topics: pd.DataFrame
    judged: np.ndarray

    @property
    def known(self) -> bool:
        return self.status == "inferred"

    def pooled(self, likely: bool = True) -> np.ndarray:
        """Bool per run: contributing ``yes`` (and ``likely`` unless ``likely=False``)."""
        ok = ("yes", "likely") if likely else ("yes",)
        return np.isin(self.contributing, ok)

    def counts(self) -> dict[str, int]:
        return {c: int((self.contributing == c).sum()) for c in CONTRIBUTING}

    def depth_text(self) -> str:
        """``100`` or ``80-120 (median 100)`` over the topics that could tell."""
        d = self.depth[self.depth > 0]
        if not len(d):
            return "unknown"
        lo, hi = int(d.min()), int(d.max())
        return str(lo) if lo == hi else f"{lo}-{hi} (median {int(np.median(d))})"

    def summary(self) -> str:
        """One sentence for a result's assumptions."""
        if not self.known:
            return f"pool cannot be inferred: {self.reason}"
        c = self.counts()
        second = self.runs[self.runs["level"] == 2]
        text = (f"pool inferred from judged depths: {c['yes']} runs contributing, "
                f"{c['likely']} likely, to depth {self.depth_text()}")
        if len(second):
            text += (f"; a second pool of {len(second)} runs to depth "
                     f"{int(second['depth'].median())}")
        return text

def infer_pool(index: JudgedRuns, max_depth: int | None = None) -> InferredPool:
    """Infer the pooled runs and the pool depth per topic (see the module docstring).

    Parameters
    ----------
    index : JudgedRuns
        Every loaded run judged by the qrels (its ``pooled`` flags are ignored).
    max_depth : int, optional
        Deepest pool considered (default: the longest ranking).
    """
    R, T = index.n_runs, index.n_topics
    judged, length = judged_depths(index)
    ev = index.evaluated()
    q_topic = index.key_topic(index.q_key)
    total = np.bincount(q_topic, minlength=T).astype(np.int64)
    K = int(max_depth or max(1, int(length.max()) if length.size else 1))
    everyone = np.ones(R, bool)
    cov = coverage(index, judged, everyone, K)
    depth, share = best_depth(cov, total)
    tell = index.in_qrels & (share >= MIN_EXPLAINED) & (depth > 0)
    # a run is judged to the pool depth where J >= depth, or all of a shorter ranking
    need = np.minimum(depth[None, :], length)
    full = (judged >= need) & ev & tell[None, :]
    n_tell = (ev & tell[None, :]).sum(axis=1)
    share_full = np.divide(full.sum(axis=1), n_tell, out=np.zeros(R), where=n_tell > 0)
    candidate = share_full >= FULL_SHARE
    contributing = np.full(R, "no", dtype=object)
    run_depth = np.zeros(R, np.int64)
    level = np.zeros(R, np.int64)
    unique = np.zeros(R, np.int64)
    cannot = ""
    n_judged = int(index.in_qrels.sum())
    if n_judged < MIN_JUDGED_TOPICS:
        cannot = (f"{n_judged} judged topics are too few to tell pooled runs from lucky "
                  f"ones (at least {MIN_JUDGED_TOPICS})")
    elif not tell.any() or not candidate.any() or tell.sum() < MIN_TOPICS * n_judged:
        cannot = ("no depth explains half of any topic's judged documents"
                  if not tell.any() else
                  f"only {int(tell.sum())} of {n_judged} topics have a depth that explains "
                  f"half their judged documents (the pool came from other runs)"
                  if tell.sum() < MIN_TOPICS * n_judged else
                  "no run is judged to the pool depth on most topics")
    else:
        unique = _unique_documents(index, judged, candidate, depth * tell)
        contributing[candidate & (unique > 0)] = "yes"
        # judged to depth everywhere but nothing of its own: a copy of a pooled run, or
        # a run the others covered; either may have been pooled
        contributing[candidate & (unique == 0)] = "likely"
        if not (contributing == "yes").any():
            contributing[candidate] = "likely"
        run_depth[candidate] = int(np.median(depth[tell]))
        level[candidate] = 1
        _second_pool(index, judged, ev, tell, depth, candidate, total, K,
                     contributing, run_depth, level)
    explained = cov[np.arange(T), depth]
    notes = np.where(~index.in_qrels, "not judged",
                     np.where(tell, "", "cannot tell: no depth explains half the judged "
                                        "documents")).astype(object)
    for t, (lo, hi) in close_depths(cov, depth, tell).items():
        notes[t] = (f"several depths fit: {lo}-{hi} explain within {CLOSE:.1%} as many "
                    f"judged documents; {depth[t]} (the deepest best) is used")
    lowest = np.where(ev, judged, np.iinfo(np.int64).max).min(axis=1)
    masked = np.where(ev, judged, np.nan).astype(float)
    with np.errstate(all="ignore"):
        median = np.nanmedian(masked, axis=1) if R and T else np.zeros(R)
    runs = pd.DataFrame({
        "group": [index.group_names[g] for g in index.run_group],
        "contributing": contributing,
        "depth": run_depth,
        "judged_depth": np.where(ev.any(axis=1), lowest, 0),
        "median_judged_depth": np.nan_to_num(median),
        "topics_to_depth": full.sum(axis=1),
        "share_to_depth": share_full,
        "unique_documents": unique,
        "level": level,
    }, index=pd.Index(index.run_names, name="run"))
    topics = pd.DataFrame({
        "pool_depth": np.where(tell, depth, 0),
        "judged": total,
        "explained": explained,
        "share_explained": share,
        "runs_to_depth": full.sum(axis=0),
        "note": notes,
    }, index=text_index(index.topics, name="topic"))[index.in_qrels]
    if cannot:
        return InferredPool("cannot tell", cannot, np.zeros(T, np.int64),
                            np.full(R, "no", dtype=object), np.zeros(R, np.int64), runs,
                            topics, judged)
    c = (contributing == "yes").sum(), (contributing == "likely").sum()
    reason = (f"{c[0]} runs judged to the pool depth on at least {FULL_SHARE:.0%} of the "
              f"topics with documents of their own, {c[1]} likely; the depth per topic "
              f"explains {share[tell].mean():.0%} of the judged documents on average "
              f"({int(tell.sum())} of {int(index.in_qrels.sum())} topics could tell)")
    return InferredPool("inferred", reason, np.where(tell, depth, 0), contributing, run_depth,
                        runs, topics, judged)

def _unique_documents(index: JudgedRuns, judged: np.ndarray, runs: np.ndarray,
                      depth: np.ndarray) -> np.ndarray:
    """Per run of ``runs``, documents in its top ``depth`` no other such run has there."""
    from yardstick.analysis.pool.reconstruction import reconstruct_pool

    pool = reconstruct_pool(index, depth, runs)
    owner = pool.owner_run[pool.owner_run >= 0]
    return np.bincount(owner, minlength=index.n_runs).astype(np.int64)


def _second_pool(index, judged, ev, tell, depth, first, total, K, contributing, run_depth,
                 level) -> None:
    """A shallower pool of further runs (a team-level pool): over the judged documents the
    first pool leaves unexplained, the global depth k whose runs (judged to k on most
    topics) explain most of them; accepted when it explains enough of them."""
    from yardstick.analysis.pool.reconstruction import reconstruct_pool

    T = index.n_topics
    pool = reconstruct_pool(index, depth * tell, first)
    left = index.in_qrels[index.key_topic(index.q_key)] & ~pool.contains(index.q_key)
    n_left = int(left.sum())
    if n_left < SECOND_MIN_DOCS:
        return
    left_keys = index.q_key[left]
    rest = ~first
    n_ev = (ev & index.in_qrels[None, :]).sum(axis=1)
    best = (0, 0, None)
    cand_depths = sorted({d for d in (1, 2, 3, 5, 10, 15, 20, 25, 30, 40, 50, 60, 75, 80, 100)
                          if d < K})
    for k in cand_depths:
        ok = rest & (np.divide(((judged >= k) & ev).sum(axis=1), n_ev,
                               out=np.zeros(len(n_ev)), where=n_ev > 0) >= FULL_SHARE)
        if not ok.any():
            continue
        p = reconstruct_pool(index, np.full(T, k) * index.in_qrels, ok)
        got = int(p.contains(left_keys).sum())
        if got >= best[0]:
            best = (got, k, ok)
    got, k, ok = best
    if ok is None or got < max(SECOND_MIN_DOCS, SECOND_MIN_SHARE * n_left):
        return
    p = reconstruct_pool(index, np.full(T, k) * index.in_qrels, ok)
    hit = p.contains(p.keys) & np.isin(p.keys, left_keys)
    own = np.bincount(p.owner_run[hit & (p.owner_run >= 0)], minlength=index.n_runs)
    covers = np.zeros(index.n_runs, bool)
    # runs whose top k holds a leftover document (alone or with others)
    for r in np.flatnonzero(ok):
        one = reconstruct_pool(index, np.full(T, k) * index.in_qrels,
                               np.arange(index.n_runs) == r)
        covers[r] = bool(np.isin(one.keys, left_keys).any())
    contributing[ok & (own > 0)] = "yes"
    contributing[ok & (own == 0) & covers] = "likely"
    sel = ok & covers
    run_depth[sel] = k
    level[sel] = 2
