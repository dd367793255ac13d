"""Finding the judgment of millions of (topic, document) pairs without hashing strings.

Every document of the qrels and the runs has an integer code (see
:class:`yardstick.judging.judged_runs.JudgedRuns`), the qrels' own documents first, so a pair
can only be judged when its document code is below ``n_q`` (the number of
documents the qrels judge anywhere).  Those pairs are looked up in a dense
(topic x judged document) table of one-byte cells when that table is small
enough, or else by walking the few topics each judged document is judged for
(a CSR layout by document).  Either way the work is gathers over integer
arrays: no Python object per pair, no hash table, and no cache-missing binary
search over millions of random keys.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: largest (topic x judged document) table used for judgment look-ups (1-byte cells)
DENSE_CELLS = 128_000_000


@dataclass(frozen=True, eq=False)
class JudgmentTable:
    """The qrels arranged for look-ups by (topic code, document code).

    Attributes
    ----------
    start : numpy.ndarray
        ``n_q + 1`` offsets: the judgments of document d are rows
        ``start[d]:start[d + 1]`` of ``topic`` / ``rel``.
    topic, rel : numpy.ndarray
        Per judgment, grouped by document (topics ascending within a document).
    dense : numpy.ndarray or None
        ``rel - base + 1`` per (topic, judged document) cell, 0 = not judged.
    base : int
    """

    start: np.ndarray
    topic: np.ndarray
    rel: np.ndarray
    dense: np.ndarray | None
    base: int

    @property
    def n_q(self) -> int:
        return len(self.start) - 1

    @classmethod
    def build(cls, q_key: np.ndarray, q_rel: np.ndarray, n_topics: int, n_docs: int
              ) -> "JudgmentTable":
        """From sorted keys ``topic * n_docs + doc`` and their judgments."""
        q_topic = (q_key // n_docs).astype(np.int64)
        q_doc = (q_key % n_docs).astype(np.int64)
        order = np.argsort(q_doc, kind="stable")  # q_key order keeps topics sorted per doc
        n_q = int(q_doc.max()) + 1 if len(q_doc) else 0
        start = np.concatenate([[0], np.cumsum(np.bincount(q_doc, minlength=n_q))])
        dense, base = None, 0
        if len(q_rel) and n_topics * n_q <= DENSE_CELLS:
            base = int(q_rel.min())
            span = int(q_rel.max()) - base + 2
            dtype = np.int8 if span < 127 else np.int16 if span < 32767 else np.int64
            dense = np.zeros(n_topics * n_q, dtype)
            dense[q_topic * n_q + q_doc] = (q_rel - base + 1).astype(dtype)
        return cls(start=start.astype(np.int64), topic=q_topic[order], rel=q_rel[order],
                   dense=dense, base=base)

    def lookup(self, topic: np.ndarray, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(found, judgment) of each (topic code, document code) pair."""
        found = np.zeros(len(doc), bool)
        rel = np.zeros(len(doc), np.int64)
        n_q = self.n_q
        cand = np.flatnonzero(np.asarray(doc) < n_q)
        if self.dense is not None:
            v = self.dense[np.asarray(topic)[cand].astype(np.int64) * n_q + np.asarray(doc)[cand]]
            hit = v > 0
            found[cand[hit]] = True
            rel[cand[hit]] = v[hit].astype(np.int64) + self.base - 1
            return found, rel
        lo = self.start[np.asarray(doc)[cand]]
        cnt = self.start[np.asarray(doc)[cand] + 1] - lo
        t = np.asarray(topic)[cand]
        j = 0
        while len(cand):
            live = cnt > j
            cand, lo, cnt, t = cand[live], lo[live], cnt[live], t[live]
            if not len(cand):
                break
            hit = self.topic[lo + j] == t
            found[cand[hit]] = True
            rel[cand[hit]] = self.rel[lo[hit] + j]
            miss = ~hit
            cand, lo, cnt, t = cand[miss], lo[miss], cnt[miss], t[miss]
            j += 1
        return found, rel


def unique_sorted(values: np.ndarray) -> np.ndarray:
    """Sorted unique values by sort-and-compare (numpy 2's hash-based ``np.unique``
    is several times slower on large integer arrays)."""
    s = np.sort(values)
    if len(s) < 2:
        return s
    keep = np.empty(len(s), bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def search_sorted(values: np.ndarray, needles: np.ndarray) -> np.ndarray:
    """``np.searchsorted(values, needles)`` with the needles taken in sorted order: each
    search then starts near the last one, several times faster than random needles in
    a large array (and the GIL, which a search holds, is held that much less)."""
    order = np.argsort(needles)
    pos = np.empty(len(needles), np.int64)
    pos[order] = np.searchsorted(values, needles[order])
    return pos
