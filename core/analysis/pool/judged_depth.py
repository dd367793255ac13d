"""Each run's judged depth per topic, and how many judged documents a pool of each depth
explains: the evidence :func:`yardstick.analysis.pool.inferred_pool.infer_pool` reads.

A run's judged depth on a topic is how far down its ranking every document is in the
qrels (ties at its first unjudged document in its favour); a depth-k pool of the runs
judged to k explains the judged documents in their top k (Buckley, Dimmick, Soboroff &
Voorhees 2007, "Bias and the limits of pooling for large collections", Information
Retrieval 10(6), §1-2).  See :mod:`yardstick.analysis.pool.inferred_pool`.
"""

from __future__ import annotations

import numpy as np

from yardstick.judging.judged_runs import ENTRY_CHUNK, JudgedRuns

__all__ = ["judged_depths", "coverage", "best_depth", "close_depths", "CLOSE"]


def judged_depths(index: JudgedRuns) -> tuple[np.ndarray, np.ndarray]:
    """``(judged, length)``, each ``(n_runs, n_topics)``: each run's judged depth per topic
    (ties at its first unjudged document resolved in its favour) and ranking length."""
    R, T = index.n_runs, index.n_topics
    counts = index.segment_counts().astype(np.int64)
    judged = counts.copy()
    # the first unjudged entry of each segment, a slice of entries at a time (entries are
    # in segment order: a segment's first is where the segment changes, or a slice's first)
    first = np.full(R * T, -1, np.int64)
    for a in range(0, index.n_entries, ENTRY_CHUNK):
        unj = np.flatnonzero(index.e_rel[a:a + ENTRY_CHUNK] == -1) + a
        seg = index.entry_segment(unj)
        new = np.ones(len(seg), bool)
        new[1:] = seg[1:] != seg[:-1]
        seg, unj = seg[new], unj[new]
        fresh = first[seg] < 0
        first[seg[fresh]] = unj[fresh]
    useg = np.flatnonzero(first >= 0)
    if len(useg):
        first = first[useg]
        judged[useg] = first - index.seg_start[useg]
        judged[useg] += tied_judged(index, useg, first)
    return judged.reshape(R, T), counts.reshape(R, T)


def tied_judged(index: JudgedRuns, segs: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Per first unjudged entry, the judged entries of its tie group at or after it that a
    cut inside the tie could have kept instead (0 when it ties with nothing)."""
    extra = np.zeros(len(first), np.int64)
    if not index.runs or len(index.run_lines) != index.n_runs:
        return extra
    T = index.n_topics
    dtype = np.float32 if index.compat == 9 else np.float64
    run_of = segs // T
    for r in np.unique(run_of):
        a, b = index.seg_start[r * T], index.seg_start[(r + 1) * T]
        lines = index.run_lines[r]
        if len(lines) != b - a:
            continue
        score = index.runs[r].score[lines].astype(dtype)
        judged = (index.e_rel[a:b] != -1).astype(np.int64)
        starts = index.seg_start[r * T:(r + 1) * T] - a
        new = np.ones(len(score), bool)
        new[1:] = score[1:] != score[:-1]
        new[starts[starts < len(score)]] = True
        gid = np.cumsum(new) - 1
        g_end = np.append(np.flatnonzero(new)[1:], len(score))    # exclusive end per group
        cum = np.concatenate([[0], np.cumsum(judged)])
        sel = run_of == r
        u = first[sel] - a
        g = gid[u]
        # judged entries from the first unjudged one to the end of its tie group
        extra[sel] = cum[g_end[g]] - cum[u]
    return extra


def coverage(index: JudgedRuns, judged: np.ndarray, keep: np.ndarray, max_depth: int
              ) -> np.ndarray:
    """``(n_topics, max_depth + 1)``: per topic and depth k, how many judged documents lie in
    the top k of some run in ``keep`` (bool per run) judged to depth >= k on that topic.

    An entry at rank rho of a run judged to depth J covers its document for k in [rho, J];
    each document's intervals are merged and counted once (a sweep over depths)."""
    R, T = index.n_runs, index.n_topics
    J = np.where(keep[:, None], np.minimum(judged, max_depth), 0)
    strict = np.minimum(J, index.segment_counts().reshape(R, T))
    cov = np.zeros((T, max_depth + 2), np.int64)
    # a block of topics at a time (about COVERAGE_BLOCK entries): memory follows the block,
    # not the judged prefixes of a whole deep-judged track
    per_topic = strict.sum(axis=0)
    t0 = 0
    while t0 < T:
        t1, total = t0 + 1, per_topic[t0]
        while t1 < T and total + per_topic[t1] <= COVERAGE_BLOCK:
            total += per_topic[t1]
            t1 += 1
        block = np.zeros_like(strict)
        block[:, t0:t1] = strict[:, t0:t1]
        coverage_block(index, J, index.prefix(block), cov, max_depth)
        t0 = t1
    return np.cumsum(cov, axis=1)[:, :-1]


#: judged-prefix entries swept at once by :func:`coverage`
COVERAGE_BLOCK = 1 << 22


def coverage_block(index: JudgedRuns, J: np.ndarray, idx: np.ndarray, cov: np.ndarray,
                    max_depth: int) -> None:
    """Add the merged intervals of the entries ``idx`` (whole topics) to ``cov``'s
    difference array."""
    T = index.n_topics
    if not len(idx):
        return
    seg = index.entry_segment(idx)
    key = (seg % T).astype(np.int64) * index.n_docs + index.e_doc[idx]
    start = (idx - index.seg_start[seg] + 1).astype(np.int64)
    end = J.ravel()[seg]
    del seg, idx
    order = np.lexsort((start, key))
    key, start, end = key[order], start[order], end[order]
    big = max_depth + 2
    # segmented running maximum of the interval ends (keys offset so groups never mix)
    off = key - key.min()
    run_end = np.maximum.accumulate(end + off * big) - off * big
    prev_end = np.empty_like(run_end)
    prev_end[0] = -1
    prev_end[1:] = run_end[:-1]
    new_key = np.ones(len(key), bool)
    new_key[1:] = key[1:] != key[:-1]
    opens = new_key | (start > prev_end + 1)
    # a merged interval runs from an opening entry to the running maximum before the next one
    o = np.flatnonzero(opens)
    close = np.append(o[1:] - 1, len(key) - 1)
    topic = key[o] // index.n_docs
    np.add.at(cov, (topic, start[o]), 1)
    np.add.at(cov, (topic, run_end[close] + 1), -1)


def best_depth(cov: np.ndarray, total: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per topic the largest depth of greatest coverage, and the share it explains."""
    K = cov.shape[1] - 1
    rev = cov[:, ::-1]
    best = K - np.argmax(rev, axis=1)          # the largest k among the maxima
    got = cov[np.arange(len(cov)), best]
    share = np.divide(got, total, out=np.zeros(len(got)), where=total > 0)
    return np.where(got > 0, best, 0).astype(np.int64), share


#: depths explaining at least this share of the best depth's documents "fit" as well
CLOSE = 0.995


def close_depths(cov: np.ndarray, depth: np.ndarray, tell: np.ndarray) -> dict:
    """Topics where depths far from the chosen one explain nearly as much (within
    :data:`CLOSE`): ``{topic: (lowest, highest)}`` when they span more than a tenth of it."""
    out = {}
    for t in np.flatnonzero(tell):
        best = cov[t, depth[t]]
        near = np.flatnonzero(cov[t] >= CLOSE * best)
        lo, hi = int(near.min()), int(near.max())
        if hi - lo > max(2, depth[t] // 10):
            out[int(t)] = (lo, hi)
    return out
