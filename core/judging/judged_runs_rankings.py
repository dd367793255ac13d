"""A :class:`~yardstick.judging.judged_runs.JudgedRuns` as the judged rankings the
measure kernels read: every (run, topic) segment at once, judged as given
(:func:`segments_ranking`), or one run as the engine builds it (:func:`run_ranking`);
the methods ``JudgedRuns.judged`` and ``JudgedRuns.ranking`` return them.
"""

from __future__ import annotations

import numpy as np

from yardstick.common.options import EvalOptions
from yardstick.judging.judged import JudgedRanking, with_stand_ins

__all__ = ["segments_ranking", "run_ranking", "starts_index"]


def segments_ranking(index, rel: np.ndarray | None = None,
                     rel_levels: np.ndarray | None = None, judged_only: bool = False,
                     compat: int = 10) -> JudgedRanking:
    """:meth:`~yardstick.judging.judged_runs.JudgedRuns.judged` of ``index`` (a
    ``JudgedRuns``: not imported here, which imports this module)."""
    rel = (index.e_rel if rel is None else rel).astype(np.int32, copy=False)
    levels = index.rel_levels() if rel_levels is None else np.asarray(rel_levels)
    S = index.n_runs * index.n_topics
    if levels.ndim == 2:
        levels = np.broadcast_to(levels[None], (index.n_runs,) + levels.shape)
    levels = levels.reshape(S, -1)
    start = index.seg_start
    if judged_only:
        keep = rel >= 0
        start = np.concatenate([[0], np.cumsum(keep)])[start]
        rel = rel[keep]
    options = EvalOptions(relevance_level=index.relevance_level, judged_only=judged_only,
                          compat=compat)
    return JudgedRanking(np.arange(S), start.astype(np.int64, copy=False), rel, None,
                         levels, index.relevance_level, np.zeros(S, bool),
                         int(index.in_qrels.sum()), options=options)


def run_ranking(index, i: int, options: EvalOptions | None = None
                ) -> JudgedRanking:
    """:meth:`~yardstick.judging.judged_runs.JudgedRuns.ranking` of ``index``."""
    o = options or EvalOptions(relevance_level=index.relevance_level, compat=index.compat)
    if index.tie_order != "trec_eval":
        raise ValueError("a judged ranking is in trec_eval's order; these runs were "
                         f"ordered {index.tie_order!r}")
    if o.compat != index.compat:
        raise ValueError(f"these runs are in trec_eval {index.compat}'s order, not {o.compat}'s")
    T = index.n_topics
    seg_counts = index.segment_counts()[i * T:(i + 1) * T]
    has = seg_counts > 0
    t = np.flatnonzero(index.in_qrels if o.complete and o.compat == 10
                       else index.in_qrels & has)
    missing = ~has[t]
    counts = seg_counts[t]
    if o.max_docs is not None:
        counts = np.minimum(counts, max(o.max_docs, 0))
    a0 = int(index.seg_start[i * T])
    lines = index.run_lines[i]
    if int(counts.sum()) == len(lines):      # every entry of the run: its own arrays
        rel, line = index.e_rel[a0:a0 + len(lines)], lines
    else:
        local = starts_index(index.seg_start[i * T + t] - a0, counts)
        rel, line = index.e_rel[a0 + local], lines[local]
    rel = rel.astype(np.int32)
    if o.judged_only:
        keep = rel >= 0
        tix = np.repeat(np.arange(len(t)), counts)
        rel, line = rel[keep], line[keep]
        counts = np.bincount(tix[keep], minlength=len(t))
    rel, line, counts = with_stand_ins(rel, line, counts, missing)   # -c
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return JudgedRanking(index.topics[t], start, rel, line, index.rel_levels(t),
                         o.relevance_level, missing, int(index.in_qrels.sum()),
                         index.runs[i] if index.runs else None, index.qrels, o)


def starts_index(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``starts[j], starts[j] + 1, ..., starts[j] + counts[j] - 1`` for every ``j``, one
    int64 array (the entries of several runs of consecutive positions)."""
    counts = np.asarray(counts, np.int64)
    total = int(counts.sum())
    if not total:
        return np.zeros(0, np.int64)
    out = np.repeat(np.asarray(starts, np.int64) - (np.cumsum(counts) - counts), counts)
    out += np.arange(total, dtype=np.int64)
    return out
