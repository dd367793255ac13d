"""Fusing ranked lists: reciprocal rank fusion and CombSUM.

Both work on the depth-cut lists that would have been submitted, held as
queries x documents score matrices with a mask of retrieved documents.

* RRF (Cormack, Clarke and Büttcher 2009, "Reciprocal rank fusion outperforms
  Condorcet and individual rank learning methods", SIGIR):
  ``score(d) = Σ_r 1 / (k + rank_r(d))`` with ``k = 60``.
* CombSUM (Fox and Shaw 1994, "Combination of multiple searches", TREC-2) of
  per-topic min-max normalised scores (Lee 1997's normalisation); a document
  missing from a list adds 0.
"""

from __future__ import annotations

import numpy as np


def ranks(scores: np.ndarray, retrieved: np.ndarray) -> np.ndarray:
    """1-based rank of each retrieved document per query (score desc, then file order); 0 if not."""
    n_q, n_d = scores.shape
    masked = np.where(retrieved, scores, -np.inf)
    order = np.lexsort((np.arange(n_d)[None, :].repeat(n_q, 0), -masked), axis=-1)
    out = np.empty_like(order)
    np.put_along_axis(out, order, np.arange(1, n_d + 1)[None, :].repeat(n_q, 0), axis=1)
    return np.where(retrieved, out, 0)


def rrf(lists: list[tuple[np.ndarray, np.ndarray]],
        k: float = 60.0) -> tuple[np.ndarray, np.ndarray]:
    """Reciprocal rank fusion of ``(scores, retrieved)`` lists; returns the same pair."""
    total = np.zeros_like(lists[0][0], dtype=np.float64)
    any_ret = np.zeros_like(lists[0][1], dtype=bool)
    for scores, retrieved in lists:
        r = ranks(scores, retrieved)
        total += np.where(retrieved, 1.0 / (k + np.maximum(r, 1)), 0.0)
        any_ret |= retrieved
    return total, any_ret


def combsum(lists: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """CombSUM of per-topic min-max normalised scores; returns ``(scores, retrieved)``."""
    total = np.zeros_like(lists[0][0], dtype=np.float64)
    any_ret = np.zeros_like(lists[0][1], dtype=bool)
    for scores, retrieved in lists:
        lo = np.where(retrieved, scores, np.inf).min(axis=1, keepdims=True)
        hi = np.where(retrieved, scores, -np.inf).max(axis=1, keepdims=True)
        span = np.where(np.isfinite(hi - lo) & (hi > lo), hi - lo, 1.0)
        lo = np.where(np.isfinite(lo), lo, 0.0)
        total += np.where(retrieved, (scores - lo) / span, 0.0)
        any_ret |= retrieved
    return total, any_ret


FUSERS = {"rrf": rrf, "combsum": combsum}
