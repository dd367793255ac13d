"""When each document gets judged under a cheaper judging strategy: the judging orders of
:mod:`yardstick.analysis.pool.simulation`.

Buckley, Dimmick, Soboroff & Voorhees 2007, §6 ("Bias and the limits of pooling for large
collections", Information Retrieval 10(6)): a shallower pool (``depth``), the first n pooled
groups of a seeded random order (``runs``), move-to-front pooling (``mtf``; Cormack,
Palmer & Clarke, SIGIR 1998) and a uniform random sample of each topic's pool
(``random``; Aslam et al. 2006).  Each gives every candidate document the smallest level
at which it is judged (:class:`JudgingOrder`); the module docstring of
:mod:`~yardstick.analysis.pool.simulation` describes the strategies in full.
"""

from __future__ import annotations

import heapq
from collections.abc import Generator
from dataclasses import dataclass

import numpy as np

from yardstick.analysis.pool.reconstruction import Depth, pool_entries, reconstruct_pool
from yardstick.common.progress import Progress, run_sync
from yardstick.judging.judged_runs import JudgedRuns

__all__ = ["JudgingOrder", "order_by_depth", "order_by_runs", "order_random",
           "order_move_to_front", "iter_order_move_to_front"]


@dataclass(frozen=True, eq=False)
class JudgingOrder:
    """When each candidate document gets judged: judged at level L iff ``value <= L``.

    Attributes
    ----------
    strategy : str
    keys : numpy.ndarray of int64
        Sorted candidate keys (documents the strategy may judge).
    value : numpy.ndarray of int64
        Per key, the smallest level at which it is judged.
    pool_keys : numpy.ndarray or None
        For ``random``: the sampling frame (unsampled members become "unjudged").
    """

    strategy: str
    keys: np.ndarray
    value: np.ndarray
    pool_keys: np.ndarray | None = None


def order_by_depth(index: JudgedRuns, depth: Depth) -> JudgingOrder:
    """Level = pool depth: a document is judged at depth d when a pooled run ranks it <= d."""
    pool = reconstruct_pool(index, depth)
    return JudgingOrder("depth", pool.keys, pool.min_rank.astype(np.int64))


def order_by_runs(index: JudgedRuns, depth: Depth, unit: str = "group", seed: int = 0
                  ) -> JudgingOrder:
    """Level = number of pooled groups (runs), added in a seeded random order."""
    rng = np.random.default_rng(seed)
    unit_of_run = index.run_group if unit == "group" else np.arange(index.n_runs)
    units = np.unique(unit_of_run[index.pooled])
    position = np.full(int(unit_of_run.max()) + 1, np.iinfo(np.int64).max, np.int64)
    position[rng.permutation(units)] = np.arange(1, len(units) + 1)
    sel = pool_entries(index, depth)
    k = index.entry_keys(sel)
    v = position[unit_of_run[index.entry_run(sel)]]
    order = np.lexsort((v, k))
    k, v = k[order], v[order]
    keys, first = np.unique(k, return_index=True)
    return JudgingOrder("runs", keys, v[first])


def order_random(index: JudgedRuns, depth: Depth, seed: int = 0) -> JudgingOrder:
    """Level = budget per topic: a seeded uniform random order of each topic's pool."""
    pool = reconstruct_pool(index, depth)
    rng = np.random.default_rng(seed)
    topic = index.key_topic(pool.keys)
    order = np.lexsort((rng.random(len(pool.keys)), topic))
    start = np.searchsorted(topic[order], topic[order], side="left")
    value = np.empty(len(order), np.int64)
    value[order] = np.arange(len(order)) - start + 1
    return JudgingOrder("random", pool.keys, value, pool_keys=pool.keys)


def order_move_to_front(index: JudgedRuns, max_budget: int, seed: int | None = 0,
                        max_depth: int | None = None) -> JudgingOrder:
    """Level = budget per topic: move-to-front pooling (see the module docstring).

    Runs are read down to ``max_depth`` (default: all they retrieved).
    """
    return run_sync(iter_order_move_to_front(index, max_budget, seed, max_depth))


def iter_order_move_to_front(index: JudgedRuns, max_budget: int, seed: int | None = 0,
                             max_depth: int | None = None
                             ) -> Generator[Progress, None, JudgingOrder]:
    """:func:`order_move_to_front` as a progress generator, one step a topic (a
    cancellation point every topic: the loop over runs is plain Python)."""
    rng = np.random.default_rng(seed)
    lvl = index.relevance_level
    pooled = np.flatnonzero(index.pooled)
    out_k: list[np.ndarray] = []
    out_v: list[np.ndarray] = []
    for t in range(index.n_topics):
        yield Progress(t, index.n_topics, "move-to-front: ordering the judgments")
        if not index.in_qrels[t]:
            continue
        lists = []
        for r in pooled:
            s = int(r) * index.n_topics + t
            a, b = index.seg_start[s], index.seg_start[s + 1]
            if max_depth is not None:
                b = min(b, a + max_depth)
            # a run is read no further than the budget (each document it passes is judged)
            b = min(b, a + max_budget + 1)
            if b > a:
                lists.append((t * index.n_docs + index.e_doc[a:b].astype(np.int64),
                              index.e_rel[a:b] >= lvl))
        if not lists:
            continue
        # tie order among runs: seeded random, or the runs' own order without a seed
        tie_rank = np.arange(len(lists)) if seed is None else rng.permutation(len(lists))
        judged = _move_to_front_topic(lists, max_budget, tie_rank.tolist())
        if judged:
            out_k.append(np.fromiter(judged.keys(), np.int64, len(judged)))
            out_v.append(np.fromiter(judged.values(), np.int64, len(judged)))
    k = np.concatenate(out_k) if out_k else np.zeros(0, np.int64)
    v = np.concatenate(out_v) if out_v else np.zeros(0, np.int64)
    order = np.argsort(k)
    return JudgingOrder("mtf", k[order], v[order])


def _move_to_front_topic(lists: list, max_budget: int, tie_rank: list) -> dict[int, int]:
    """One topic's move-to-front judgments ``{key: when judged (1, 2, ...)}``: ``lists`` per
    run its keys and relevance flags in rank order (arrays).  The run judged next is the
    live run of highest priority, the run just judged among tied ones, else the lowest
    ``tie_rank`` (a heap of (-priority, tie rank, run), entries left stale when a
    run's priority changes).  A run's list is read as Python values a part at a time
    (most runs are read a few documents deep: the whole lists would be ten times more)."""
    n = len(lists)
    prio, live, ptr = [0] * n, [True] * n, [0] * n
    head: list = [None] * n      # per run: (keys, relevance flags) read so far, as lists
    heap = [(0, tie_rank[i], i) for i in range(n)]
    heapq.heapify(heap)
    judged: dict[int, int] = {}
    current = -1
    while len(judged) < max_budget:
        while heap and (not live[heap[0][2]] or -heap[0][0] != prio[heap[0][2]]):
            heapq.heappop(heap)
        if not heap:
            break
        top = -heap[0][0]
        r = current if current >= 0 and live[current] and prio[current] == top \
            else heap[0][2]
        if head[r] is None:
            head[r] = _read_more(lists[r], 0)
        keys, rel = head[r]
        p = ptr[r]
        while True:
            while p < len(keys) and keys[p] in judged:
                p += 1
            if p < len(keys) or len(keys) >= len(lists[r][0]):
                break
            head[r] = keys, rel = _read_more(lists[r], len(keys))
        if p >= len(keys):
            ptr[r], live[r], current = p, False, -1
            continue
        judged[keys[p]] = len(judged) + 1
        prio[r] = 0 if rel[p] else prio[r] - 1   # relevant: the maximum priority again
        heapq.heappush(heap, (-prio[r], tie_rank[r], r))
        ptr[r], current = p + 1, r
    return judged


def _read_more(run: tuple[np.ndarray, np.ndarray], have: int) -> tuple[list, list]:
    """The first ``max(64, 2 * have)`` keys and relevance flags of a run's list, as lists."""
    n = max(64, 2 * have)
    return run[0][:n].tolist(), run[1][:n].tolist()
