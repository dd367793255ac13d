"""A judging order placed on the judged runs' entries: what every level of a simulated
strategy reads (:mod:`yardstick.analysis.pool.simulation`).

:func:`iter_place_order` gives each entry a strategy can judge the level at which it is
judged (Buckley, Dimmick, Soboroff & Voorhees 2007, §6: shallower pools, move-to-front,
a random sample of the pool).  The result travels from the task that makes it to the
workers that score its levels: :class:`PlacedOrder` pickles without what a worker holding
the judged runs rebuilds in a few tens of milliseconds (the entries' judgments and ranks,
and the qrels' entries themselves), so that a copy is a fraction of the whole (110 runs x
250 topics: 204 -> 45 MB; a random sample's frame 223 -> 131 MB).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from yardstick.analysis.pool.judging_orders import JudgingOrder
from yardstick.common.progress import Progress
from yardstick.judging.judged_runs import ENTRY_CHUNK, NONPOOL, UNJUDGED, JudgedRuns
from yardstick.judging.judged_subset import (
    SubsetEntries,
    entries_lacking,
    on_qrels,
    qrels_entries,
    spread,
)

__all__ = ["PlacedOrder", "iter_place_order", "LOCATE_CHUNK"]

#: entries located in a judging order between two cancellation points (each search holds
#: the GIL: a smaller slice keeps the window's event loop answering)
LOCATE_CHUNK = 1 << 18


@dataclass(frozen=True, eq=False)
class PlacedOrder:
    """A judging order placed on the entries it can judge (every other entry stays "not
    in the qrels" at every level): per entry of ``entries`` the level at which it is
    judged (0: never), and per key of the order its qrels value.

    ``entries`` and ``rel`` are None in a copy that has travelled (see :meth:`complete`).
    """

    order: JudgingOrder
    entries: SubsetEntries | None
    rel: np.ndarray | None    # the entries' full-qrels judgments
    value: np.ndarray         # the entries' levels (0: never)
    q_ok: np.ndarray          # per order key: the qrels judge it (value >= 0)
    q_code: np.ndarray        # per order key: topic * L + qrels value
    n_topics: int
    n_levels: int
    #: the entries are the qrels' own (:func:`qrels_entries`): a copy names them only
    on_qrels_entries: bool = False
    #: a travelled copy's entries (sorted indices and segment offsets), ranks left out
    _idx_start: tuple[np.ndarray, np.ndarray] | None = None

    def __reduce__(self):
        # the judgments (``e_rel`` of the entries), the ranks and the qrels' entries are
        # the judged runs' own: a worker holding them rebuilds them (:meth:`complete`)
        e = self.entries
        kept = None if self.on_qrels_entries or e is None else (e.idx, e.start)
        return (PlacedOrder, (self.order, None, None, self.value, self.q_ok, self.q_code,
                              self.n_topics, self.n_levels, self.on_qrels_entries,
                              kept if e is not None else self._idx_start))

    def complete(self, index: JudgedRuns) -> PlacedOrder:
        """This placed order with its entries and their judgments (a travelled copy's
        rebuilt from ``index``, the judged runs it was made from, once)."""
        if self.entries is not None:
            return self
        got = self.__dict__.get("_completed")
        if got is None:
            if self.on_qrels_entries:
                entries = qrels_entries(index)
            else:
                idx, start = self._idx_start
                entries = SubsetEntries(idx, start, _ranks(index, idx, start))
            got = PlacedOrder(self.order, entries, index.e_rel[entries.idx], self.value,
                              self.q_ok, self.q_code, self.n_topics, self.n_levels,
                              self.on_qrels_entries)
            object.__setattr__(self, "_completed", got)
        return got

    def at(self, level: int) -> tuple[np.ndarray, np.ndarray, SubsetEntries]:
        """The ``(n_topics, L)`` counts per level at ``level`` and the judgments of the
        entries they can change (those judged by then; for a sample, every member of the
        sampling frame), with those entries (of a complete copy: :meth:`complete`)."""
        ok = self.q_ok & (self.order.value <= level)
        levels = np.bincount(self.q_code[ok], minlength=self.n_topics * self.n_levels
                             ).reshape(self.n_topics, self.n_levels)
        if self.order.pool_keys is None:
            # a located entry is judged (>= 0) at its level (0: never): those judged by then
            # (never-judged ones are not left out once: that copy would raise the peak)
            keep = (self.value > 0) & (self.value <= level)
            if keep.all():
                return self.rel, levels, self.entries
            return np.compress(keep, self.rel), levels, self.entries.select(keep)
        value, full, entries = self._frame
        # judged by then (a sampled document the qrels lack: not in the qrels); the rest of
        # the sampling frame: pooled, unjudged
        return np.where(value <= level, full, full.dtype.type(UNJUDGED)), levels, entries

    @cached_property
    def _frame(self) -> tuple[np.ndarray, np.ndarray, SubsetEntries]:
        """A sample's frame, the same at every level: its members' levels, their
        judgments once sampled (a document the qrels lack: not in the qrels) and entries."""
        keep = self.value > 0
        value, full = (self.value, self.rel) if keep.all() else (self.value[keep],
                                                                 self.rel[keep])
        full = np.where(full >= 0, full, full.dtype.type(NONPOOL))
        return value, full, self.entries if keep.all() else self.entries.select(keep)


def _ranks(index: JudgedRuns, idx: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Each entry's 0-based rank in its list (its index less its segment's first), a
    slice of :data:`ENTRY_CHUNK` entries at a time."""
    shell = SubsetEntries(idx, start, np.zeros(0, np.int32))
    rank = np.empty(len(idx), np.int32)
    for a in range(0, len(idx), ENTRY_CHUNK):
        z = min(a + ENTRY_CHUNK, len(idx))
        rank[a:z] = idx[a:z] - index.seg_start[shell.segments(a, z)]
    return rank


def iter_place_order(index: JudgedRuns, order: JudgingOrder, step: float = 0,
                     total: int = 1, message: str = ""):
    """:class:`PlacedOrder` for ``order``, :data:`LOCATE_CHUNK` entries at a time, a
    cancellation point after each: the entries the qrels hold (for a sample also the
    sampled pool's members the qrels lack, which become "pooled but unjudged"; otherwise
    only entries judged ``>= 0`` are located)."""
    entries = qrels_entries(index)
    own = True
    e_rel = index.e_rel[entries.idx]
    top = int(order.value.max()) if len(order.value) else 0
    val = np.zeros(len(entries), np.uint16 if top < 2**16 else np.int32 if top < 2**31
                   else np.int64)
    if len(order.keys):
        # the order's levels spread onto the qrels once, then onto the entries by a gather
        on_q, lacking = on_qrels(index, order.keys, order.value.astype(val.dtype))
        for a in range(0, len(entries), LOCATE_CHUNK):
            qpos = entries.qpos[a:a + LOCATE_CHUNK]
            got = on_q[qpos]                       # (every qrels entry has a position)
            if order.pool_keys is None:
                got[e_rel[a:a + LOCATE_CHUNK] < 0] = 0
            val[a:a + LOCATE_CHUNK] = got
            yield Progress(step, total, message)
        if order.pool_keys is not None:
            # a sample: only its frame's members matter (judged or "pooled, unjudged"), the
            # members the qrels lack among them
            keep = val > 0
            val, e_rel = val[keep], e_rel[keep]
            lack_keys, lack_val = order.keys[lacking], order.value[lacking]
            extra, at_key = entries_lacking(index, lack_keys)
            # (the frame's entries and the extra ones merged in one pass)
            entries, is_new = entries.merged(index, extra, keep)
            own = False
            del keep
            if len(extra):
                extra_val = lack_val[at_key].astype(val.dtype)
                val = spread(val, extra_val, is_new)
                e_rel = spread(e_rel, np.full(len(extra), NONPOOL, e_rel.dtype), is_new)
    found, q_val = index.lookup(order.keys)
    L = max(int(index.q_rel.max()) + 1 if len(index.q_rel) else 1, 1)
    ok = found & (q_val >= 0)
    code = index.key_topic(order.keys).astype(np.int64) * L + np.where(ok, q_val, 0)
    return PlacedOrder(order, entries, e_rel, val, ok, code, index.n_topics, L,
                       on_qrels_entries=own)
