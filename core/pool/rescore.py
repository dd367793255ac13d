"""Re-scoring every run at once after the judgments change (masking, not re-reading).

The leave-out-uniques test and the pool simulations evaluate the same rankings
under many judgment sets.  Each function here takes the per-entry judgments of a
:class:`~core.pool.index.PoolIndex` (``rel``: the judgment, ``-1`` not in qrels,
``-2`` in qrels but unjudged) plus the per-topic counts trec_eval takes from the
qrels, and returns a ``(n_runs, n_topics)`` matrix for all runs and topics in a
few numpy passes.  They follow trec_eval 10.0 line by line:

* :func:`average_precision` — ``m_map.c``; with ``judged_only`` the ranking is
  first condensed to judged documents (``form_res_rels.c`` with ``-J``), which
  is the "condensed list" AP of Sakai (SIGIR 2007);
* :func:`bpref` — ``m_bpref.c`` (Buckley & Voorhees, SIGIR 2004);
* :func:`inferred_ap` — ``m_infap.c`` (Yilmaz & Aslam, CIKM 2006);
* :func:`precision_at` — ``m_P.c``.

This module is deliberately self-contained so that it can later be swapped for
the engine's masked-judgment path (``yardstick.judged`` / ``yardstick.measures``); the tests
hold it to pytrec_eval.
"""

from __future__ import annotations

import numpy as np

from yardstick.pool.index import UNJUDGED_IN_QRELS, PoolIndex

INFAP_EPSILON = 0.00001  # trec_eval.h

MEASURES = ("map", "map_judged", "bpref", "infAP")


def _seg(index: PoolIndex) -> np.ndarray:
    return index.e_run.astype(np.int64) * index.n_topics + index.e_topic


def _cumcount(seg: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Within each segment (``seg`` non-decreasing), ``mask`` entries so far (inclusive)."""
    cs = np.cumsum(mask, dtype=np.int64)
    if not len(seg):
        return cs
    # the first entry of each entry's segment, in one pass (seg is sorted: no search)
    starts = np.flatnonzero(np.concatenate([[True], seg[1:] != seg[:-1]]))
    first = np.repeat(starts, np.diff(np.append(starts, len(seg))))
    return cs - (cs[first] - mask[first])


def _per_topic(index: PoolIndex, seg: np.ndarray, values: np.ndarray) -> np.ndarray:
    out = np.bincount(seg, weights=values, minlength=index.n_runs * index.n_topics)
    return out.astype(np.float64).reshape(index.n_runs, index.n_topics)


def _divide(total: np.ndarray, num_rel: np.ndarray) -> np.ndarray:
    num_rel = np.broadcast_to(num_rel, total.shape).astype(np.float64)
    return np.divide(total, num_rel, out=np.zeros_like(total), where=num_rel > 0)


def average_precision(index: PoolIndex, rel: np.ndarray | None = None,
                      num_rel: np.ndarray | None = None, judged_only: bool = False
                      ) -> np.ndarray:
    """Uninterpolated average precision per (run, topic), as trec_eval ``map``.

    AP = (1 / R) * sum over relevant retrieved documents of (relevant so far / rank)

    Parameters
    ----------
    index : PoolIndex
    rel : numpy.ndarray, optional
        Per-entry judgment (default ``index.e_rel``); ``>= relevance_level`` is relevant.
    num_rel : numpy.ndarray, optional
        R per topic ``(n_topics,)`` or per run and topic ``(n_runs, n_topics)``;
        default ``index.num_rel()``.
    judged_only : bool
        trec_eval ``-J``: drop entries with ``rel < 0`` first and rank the rest
        from 1 (Sakai 2007's condensed list).
    """
    rel = index.e_rel if rel is None else rel
    num_rel = index.num_rel() if num_rel is None else num_rel
    seg = _seg(index)
    is_rel = rel >= index.relevance_level
    if judged_only:
        rank = _cumcount(seg, rel >= 0)
    else:
        rank = index.e_rank
    idx = np.flatnonzero(is_rel)
    s = seg[idx]
    so_far = np.arange(1, len(idx) + 1) - np.searchsorted(s, s, side="left")
    total = _per_topic(index, s, so_far / rank[idx].astype(np.float64))
    return _divide(total, num_rel)


def rescore_ap(index: PoolIndex, rel: np.ndarray, num_rel: np.ndarray) -> np.ndarray:
    """AP per (run, topic) under masked judgments: the one re-scoring hook of the
    uniques test (swap for the engine's masked path once it exists)."""
    return average_precision(index, rel, num_rel)


def precision_at(index: PoolIndex, k: int, rel: np.ndarray | None = None) -> np.ndarray:
    """P@k per (run, topic): relevant in the top k, divided by k (trec_eval ``P_k``)."""
    rel = index.e_rel if rel is None else rel
    hit = (rel >= index.relevance_level) & (index.e_rank <= k)
    return _per_topic(index, _seg(index)[hit], np.ones(int(hit.sum()))) / float(k)


def bpref(index: PoolIndex, rel: np.ndarray | None = None, num_rel: np.ndarray | None = None,
          num_nonrel: np.ndarray | None = None) -> np.ndarray:
    """bpref per (run, topic), trec_eval 10.0 ``m_bpref.c``.

    bpref = (1 / R) * sum over judged relevant retrieved r of
    (1 - min(n_r, R) / min(N, R)), where n_r counts judged non-relevant documents
    ranked above r and N is the number of judged non-relevant documents
    (a term is 1 when ``n_r == 0``).
    """
    rel = index.e_rel if rel is None else rel
    num_rel = index.num_rel() if num_rel is None else num_rel
    num_nonrel = index.num_nonrel() if num_nonrel is None else num_nonrel
    seg = _seg(index)
    lvl = index.relevance_level
    nonrel_seen = _cumcount(seg, (rel >= 0) & (rel < lvl))
    idx = np.flatnonzero(rel >= lvl)
    t = index.e_topic[idx]
    r_run = index.e_run[idx]
    R = np.broadcast_to(num_rel, (index.n_runs, index.n_topics))[r_run, t].astype(np.float64)
    N = np.broadcast_to(num_nonrel, (index.n_runs, index.n_topics))[r_run, t].astype(np.float64)
    n = nonrel_seen[idx].astype(np.float64)
    denom = np.minimum(N, R)
    term = np.where(n > 0, 1.0 - np.minimum(n, R) / np.where(denom > 0, denom, 1.0), 1.0)
    return _divide(_per_topic(index, seg[idx], term), num_rel)


def inferred_ap(index: PoolIndex, rel: np.ndarray | None = None,
                num_rel: np.ndarray | None = None) -> np.ndarray:
    """infAP per (run, topic), trec_eval 10.0 ``m_infap.c`` (Yilmaz & Aslam 2006).

    For a judged relevant document at 0-based position j (>0) with r relevant,
    n judged non-relevant and u pooled-but-unjudged (``rel == -2``) documents
    above it, its term is 1/(j+1) + j/(j+1) * ((r + n + u) / j) * ((r + eps) /
    (r + n + 2 eps)); at j = 0 it is 1; the sum is divided by R.
    Documents not in the qrels (``rel == -1``) count only through j.
    """
    rel = index.e_rel if rel is None else rel
    num_rel = index.num_rel() if num_rel is None else num_rel
    seg = _seg(index)
    lvl = index.relevance_level
    is_rel = rel >= lvl
    rel_seen = _cumcount(seg, is_rel)
    non_seen = _cumcount(seg, (rel >= 0) & (rel < lvl))
    unj_seen = _cumcount(seg, rel == UNJUDGED_IN_QRELS)
    idx = np.flatnonzero(is_rel)
    j = index.e_rank[idx].astype(np.float64) - 1.0
    r = rel_seen[idx] - 1.0
    n = non_seen[idx].astype(np.float64)
    u = unj_seen[idx].astype(np.float64)
    safe_j = np.where(j > 0, j, 1.0)
    term = np.where(
        j == 0, 1.0,
        1.0 / (j + 1.0) + (j / (j + 1.0)) * ((r + n + u) / safe_j)
        * ((r + INFAP_EPSILON) / (r + n + 2 * INFAP_EPSILON)))
    return _divide(_per_topic(index, seg[idx], term), num_rel)


def run_means(per_topic: np.ndarray, evaluated: np.ndarray) -> np.ndarray:
    """Mean over each run's evaluated topics (trec_eval's average without ``-c``)."""
    n = evaluated.sum(axis=1)
    tot = np.where(evaluated, per_topic, 0.0).sum(axis=1)
    return np.divide(tot, n, out=np.full(len(n), np.nan), where=n > 0)


def score_all(index: PoolIndex, measure: str, rel: np.ndarray | None = None,
              num_rel: np.ndarray | None = None, num_nonrel: np.ndarray | None = None
              ) -> np.ndarray:
    """Per (run, topic) values of one of :data:`MEASURES` (or ``P_k``)."""
    if measure == "map":
        return average_precision(index, rel, num_rel)
    if measure == "map_judged":
        return average_precision(index, rel, num_rel, judged_only=True)
    if measure == "bpref":
        return bpref(index, rel, num_rel, num_nonrel)
    if measure == "infAP":
        return inferred_ap(index, rel, num_rel)
    why = unsupported(measure)
    if why:
        raise ValueError(why)
    return precision_at(index, int(measure[2:]), rel)


def unsupported(measure: str) -> str | None:
    """Why ``measure`` cannot be re-scored over a pool (None if it can)."""
    if measure in MEASURES:
        return None
    if measure.startswith("P_") and measure[2:].isdigit():
        if int(measure[2:]) >= 1:
            return None
        return f"{measure!r}: precision needs a cutoff of at least 1 document (P_1, P_10, ...)"
    return (f"pool re-scoring supports {', '.join(MEASURES)} and P_k (k >= 1), "
            f"not {measure!r}")
