"""The ranked documents of every run that the qrels hold, with their ranks: what a re-judged
set of qrels can change, scored without the rest.

A pool diagnostic re-judges one :class:`~yardstick.judging.judged_runs.JudgedRuns` many
times (leave-out-uniques, every level of every pool simulation), and each re-judged set
only masks or keeps judgments the qrels already hold: an entry the qrels lack stays "not
in the qrels" (``NONPOOL``) in every one.  The measures the pool re-scores (AP, AP on the
condensed list, bpref, infAP, P@k) read only the entries in the qrels — their ranks,
their judgments and the judgment counts per level (trec_eval ``m_map.c``, ``m_bpref.c``,
``m_infap.c``, ``m_P.c``; ``-J`` drops the others before ranking) — so they are scored
here on those entries alone (a sixth of a deep run or less), each keeping its rank in
the whole list: the same documents in the same order, the same arithmetic, the same
values to the last bit as :meth:`~yardstick.judging.judged_runs.JudgedRuns.judged` over every entry.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from yardstick.common.options import EvalOptions
from yardstick.judging.judged import NONPOOL, Docs, JudgedRanking
from yardstick.judging.judged_runs import ENTRY_CHUNK, JudgedRuns
from yardstick.judging.judgment_table import search_sorted

__all__ = ["SubsetEntries", "JudgedSubset", "qrels_entries", "share_qrels_entries",
           "entries_lacking", "spread",
           "judged_subset", "on_qrels"]


#: entries per chunk of :meth:`SubsetEntries.select`'s search (its index: 32 MB at most)
SELECT_CHUNK = 1 << 22


@dataclass(frozen=True, eq=False)
class SubsetEntries:
    """Some entries of a :class:`JudgedRuns`, in its order.

    Attributes
    ----------
    idx : numpy.ndarray of int32 (int64 past 2**31 entries)
        Sorted entry indices.
    start : numpy.ndarray of int64
        ``n_runs * n_topics + 1`` offsets into ``idx`` per segment.
    rank : numpy.ndarray of int32
        0-based rank of each entry in its segment (the whole list's).
    qpos : numpy.ndarray of int32 (int64 past 2**31 judgments), or None
        Position of each entry's (topic, document) in the index's ``q_key`` (-1: the
        qrels lack it): a judging order or a set of removed judgments placed once on the
        qrels is then placed on the entries by a gather, not a search.  (Not kept by
        :meth:`select`.)
    """

    idx: np.ndarray
    start: np.ndarray
    rank: np.ndarray
    qpos: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.idx)

    def segments(self, a: int = 0, z: int | None = None) -> np.ndarray:
        """Segment (``run * n_topics + topic``, int64) of the entries ``a:z``."""
        z = len(self.idx) if z is None else min(z, len(self.idx))
        if z <= a:
            return np.zeros(0, np.int64)
        s0 = int(np.searchsorted(self.start, a, side="right")) - 1
        s1 = int(np.searchsorted(self.start, z - 1, side="right"))    # (past the last)
        counts = np.diff(np.clip(self.start[s0:s1 + 1], a, z))
        return np.repeat(np.arange(s0, s1, dtype=np.int64), counts)


    def select(self, keep: np.ndarray) -> "SubsetEntries":
        """The entries where ``keep`` (bool per entry) holds."""
        # (np.compress: 2-4x a boolean index's speed on a level's mask of 12M entries)
        return SubsetEntries(np.compress(keep, self.idx), self._kept_start(keep),
                             np.compress(keep, self.rank))

    def _kept_start(self, keep: np.ndarray) -> np.ndarray:
        """The segments' offsets among the entries where ``keep`` holds."""
        # no int64 index of every kept entry (8 bytes each: a 110 x 250 depth simulation's
        # peak RSS 1.98 -> 1.90 GB): the kept entries before each segment by a search per
        # segment within chunks of SELECT_CHUNK entries
        n = len(self.idx)
        start = np.empty(len(self.start), np.int64)
        done = 0
        for a in range(0, n, SELECT_CHUNK):
            b = min(a + SELECT_CHUNK, n)
            at = np.flatnonzero(keep[a:b])
            lo, hi = np.searchsorted(self.start, [a, b])
            start[lo:hi] = done + np.searchsorted(at, self.start[lo:hi] - a)
            done += len(at)
        start[self.start >= n] = done
        return start

    def merged(self, index: JudgedRuns, extra: np.ndarray,
               keep: np.ndarray | None = None) -> tuple["SubsetEntries", np.ndarray]:
        """These entries (those where ``keep`` holds, bool per entry, when given) and the
        entries ``extra`` (sorted indices not among them), and which of the merged ones
        are the extra ones (bool per merged entry: the mask :func:`spread` takes to merge
        arrays of values the same way)."""
        # both sorted and disjoint: the extra ones' places in the union by a search (no
        # mark per entry of the index and no int64 index of the union: ~100 MB of a
        # 110 x 250 random-sample simulation's peak); the kept ones written straight into
        # the union (no selected copy held beside it: ~100 MB more)
        old_idx = self.idx if keep is None else self.idx[keep]
        n = len(old_idx) + len(extra)
        is_new = np.zeros(n, bool)
        is_new[np.searchsorted(old_idx, extra) + np.arange(len(extra))] = True
        idx = np.empty(n, self.idx.dtype)
        idx[~is_new] = old_idx
        idx[is_new] = extra
        del old_idx
        counts = np.diff(self.start if keep is None else self._kept_start(keep))
        extra_rank = np.empty(len(extra), np.int32)
        for a in range(0, len(extra), ENTRY_CHUNK):      # (int64 segments a slice at a time)
            part = extra[a:a + ENTRY_CHUNK]
            seg = index.entry_segment(part)
            counts += np.bincount(seg, minlength=len(counts))
            extra_rank[a:a + len(part)] = part - index.seg_start[seg]
        start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        rank = spread(self.rank if keep is None else self.rank[keep], extra_rank, is_new)
        return SubsetEntries(idx, start, rank), is_new

    def keys(self, index: JudgedRuns, a: int = 0, z: int | None = None) -> np.ndarray:
        """``topic * n_docs + doc`` (int64) of the entries ``a:z`` (made when asked: a
        slice at a time keeps memory to the slice)."""
        z = len(self.idx) if z is None else min(z, len(self.idx))
        topic = self.segments(a, z) % max(index.n_topics, 1)
        return topic * index.n_docs + index.e_doc[self.idx[a:z]]


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def on_qrels(index: JudgedRuns, keys: np.ndarray, values: np.ndarray, fill=0
             ) -> tuple[np.ndarray, np.ndarray]:
    """``values`` of sorted ``keys`` spread onto the qrels' keys (``fill`` where a qrels
    key is not among them), and which ``keys`` the qrels lack (bool per key)."""
    out = np.full(len(index.q_key), fill, np.asarray(values).dtype)
    if not len(keys) or not len(index.q_key):
        return out, np.ones(len(keys), bool)
    pos = np.minimum(np.searchsorted(index.q_key, keys), len(index.q_key) - 1)
    found = index.q_key[pos] == keys
    out[pos[found]] = np.asarray(values)[found]
    return out, ~found


def qrels_entries(index: JudgedRuns) -> SubsetEntries:
    """The entries the qrels hold (``e_rel != NONPOOL``), computed once per index."""
    got = _CACHE.get(index)
    if got is None:
        got = _CACHE[index] = _entries(
            index, lambda a, z: index.e_rel[a:z] != NONPOOL)
    return got


def share_qrels_entries(index: JudgedRuns, entries: SubsetEntries) -> None:
    """Make ``entries`` (:func:`qrels_entries` of an index with the same entries, computed
    elsewhere and sent along) the ones :func:`qrels_entries` gives ``index``."""
    _CACHE.setdefault(index, entries)


def spread(old: np.ndarray, new: np.ndarray, is_new: np.ndarray) -> np.ndarray:
    """``old`` and ``new`` merged: ``new`` where ``is_new``, ``old`` elsewhere, each in
    order (what :func:`numpy.insert` gives at the insertion points, without its search)."""
    out = np.empty(len(is_new), old.dtype)
    out[is_new] = new
    out[~is_new] = old
    return out


def entries_lacking(index: JudgedRuns, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted indices (int32 when they fit) of the entries the qrels lack whose key is in
    ``keys`` (sorted int64; a sampled pool's members the qrels lack), and the position of each
    one's key in ``keys``; found a slice at a time among the entries of those keys'
    documents: a document with one such key (the usual case) by comparing topics, one
    with several by a search among the keys."""
    if not len(keys):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    doc, topic = index.key_doc(keys), index.key_topic(keys)
    per_doc = np.bincount(doc, minlength=index.n_docs)
    # per document: its key's topic when it has one key, -1 when several, -2 when none;
    # and that key's position
    only = np.full(index.n_docs, -2, np.int32)
    only[doc] = np.where(per_doc[doc] == 1, topic, -1)
    where = np.zeros(index.n_docs, np.int64)
    where[doc] = np.arange(len(keys))
    del doc, topic, per_doc
    T = max(index.n_topics, 1)
    out, out_pos = [], []
    for a in range(0, index.n_entries, ENTRY_CHUNK):
        z = min(a + ENTRY_CHUNK, index.n_entries)
        o = only[index.e_doc[a:z]]
        idx = np.flatnonzero((o > -2) & (index.e_rel[a:z] == NONPOOL)) + a
        o, d = o[idx - a], index.e_doc[idx]
        t = (index.entry_segment(idx) % T).astype(np.int32)
        hit, pos = o == t, where[d]
        several = np.flatnonzero(o == -1)
        if len(several):
            k = t[several].astype(np.int64) * index.n_docs + d[several]
            p = np.minimum(np.searchsorted(keys, k), len(keys) - 1)
            hit[several], pos[several] = keys[p] == k, p
        out.append(idx[hit].astype(_index_dtype(index.n_entries)))
        out_pos.append(pos[hit].astype(_index_dtype(len(keys))))
    return np.concatenate(out), np.concatenate(out_pos)


def _index_dtype(n: int) -> type:
    """int32 for indices below ``n`` when they fit (half the memory), else int64."""
    return np.int32 if n < 2**31 else np.int64


def _entries(index: JudgedRuns, wanted) -> SubsetEntries:
    """The entries where ``wanted(a, z)`` (bool per entry of ``a:z``) holds, built a slice
    of :data:`ENTRY_CHUNK` entries at a time (no temporary the size of the index)."""
    idx_type, pos_type = _index_dtype(index.n_entries), _index_dtype(len(index.q_key))
    counts = np.zeros(index.n_runs * index.n_topics, np.int64)
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    doc_pos = _judgment_of_doc(index)
    T = max(index.n_topics, 1)
    for a in range(0, index.n_entries, ENTRY_CHUNK):
        z = min(a + ENTRY_CHUNK, index.n_entries)
        idx = np.flatnonzero(wanted(a, z)) + a
        seg = index.entry_segment(idx)
        counts += np.bincount(seg, minlength=len(counts))
        rank = (idx - index.seg_start[seg]).astype(np.int32)
        qpos = np.full(len(idx), -1, pos_type)
        if len(index.q_key) and len(idx):
            doc = index.e_doc[idx]
            k = (seg % T) * index.n_docs + doc
            # a document the qrels judge once: that judgment's position; else a search
            pos = doc_pos[doc]
            several = np.flatnonzero(pos == -2)
            if len(several):
                pos[several] = search_sorted(index.q_key, k[several])
            pos = np.minimum(np.maximum(pos, 0), len(index.q_key) - 1)
            qpos[:] = np.where(index.q_key[pos] == k, pos, -1)
        parts.append((idx.astype(idx_type), rank, qpos))
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    if not parts:
        return SubsetEntries(np.zeros(0, idx_type), start, np.zeros(0, np.int32),
                             np.zeros(0, pos_type))
    idx, rank, qpos = (np.concatenate([p[i] for p in parts]) for i in range(3))
    return SubsetEntries(idx, start, rank, qpos)


def _judgment_of_doc(index: JudgedRuns) -> np.ndarray:
    """Per document code, the position in ``q_key`` of its one judgment (-1: none, -2:
    several, for more than one topic)."""
    doc = index.key_doc(index.q_key)
    per_doc = np.bincount(doc, minlength=index.n_docs)
    out = np.full(index.n_docs, -1, np.int64)
    out[doc] = np.where(per_doc[doc] == 1, np.arange(len(doc)), -2)
    return out


class JudgedSubset(JudgedRanking):
    """A :class:`JudgedRanking` of some documents of each list (the others not in the
    qrels) that keeps each one's rank in the whole list (``rank``) and the whole lists'
    lengths (``num_ret``)."""

    def __init__(self, *args, rank: np.ndarray, num_ret: np.ndarray, **kwargs):
        super().__init__(*args, **kwargs)
        self.rank = rank
        self.__dict__["num_ret"] = num_ret

    def topics_of(self, idx: np.ndarray) -> np.ndarray:
        return self.tix[idx]

    def ranks(self, idx: np.ndarray, tix: np.ndarray) -> np.ndarray:
        return self.rank[idx]

    @cached_property
    def tix(self) -> np.ndarray:
        return np.repeat(np.arange(self.num_topics, dtype=np.int32), np.diff(self.start))

    @cached_property
    def pos(self) -> np.ndarray:
        return self.rank

    @cached_property
    def qrels_docs(self) -> Docs:
        """As :attr:`JudgedRanking.qrels_docs`; when every document is in the qrels (a
        simulated level's) the ranking's own arrays, not copies."""
        if not (self.rel == NONPOOL).any():
            return Docs(np.arange(len(self.rel)), self.tix, self.rank, self.rel,
                        self.num_topics)
        return super().qrels_docs


def judged_subset(index: JudgedRuns, entries: SubsetEntries, rel: np.ndarray,
                  rel_levels: np.ndarray | None = None, judged_only: bool = False,
                  runs: tuple[int, int] | None = None, compat: int = 10) -> JudgedRanking:
    """Runs ``runs = (r0, r1)`` (default all) judged by ``rel`` (one judgment per entry of
    ``entries``; every other entry not in the qrels), as
    :meth:`~yardstick.judging.judged_runs.JudgedRuns.judged` gives them: one ranking
    whose "topic" ``s`` is the segment ``run * n_topics + topic`` of those runs.

    ``rel_levels``: ``(n_topics, L)`` or ``(n_runs, n_topics, L)`` (all runs; cut here).
    ``judged_only``: trec_eval ``-J`` (the condensed list: ranks count judged entries).
    """
    T = index.n_topics
    r0, r1 = runs or (0, index.n_runs)
    S = (r1 - r0) * T
    a, z = int(entries.start[r0 * T]), int(entries.start[r1 * T])
    start = entries.start[r0 * T:r1 * T + 1] - a
    rel = np.asarray(rel[a:z]).astype(np.int32, copy=False)
    levels = index.rel_levels() if rel_levels is None else np.asarray(rel_levels)
    if levels.ndim == 3:
        levels = levels[r0:r1]
    else:
        levels = np.broadcast_to(levels[None], (r1 - r0,) + levels.shape)
    levels = levels.reshape(S, -1)
    options = EvalOptions(relevance_level=index.relevance_level, judged_only=judged_only,
                          compat=compat)
    args = (np.arange(S), start, rel, None, levels, index.relevance_level, np.zeros(S, bool),
            int(index.in_qrels.sum()))
    if judged_only:
        keep = rel >= 0
        start = np.concatenate([[0], np.cumsum(keep)])[start]
        return JudgedRanking(np.arange(S), start.astype(np.int64), rel[keep], None, levels,
                             index.relevance_level, np.zeros(S, bool),
                             int(index.in_qrels.sum()), options=options)
    counts = index.segment_counts()[r0 * T:r1 * T]
    return JudgedSubset(*args, options=options, rank=entries.rank[a:z], num_ret=counts)
