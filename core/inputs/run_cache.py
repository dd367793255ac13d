"""What is derived from a run, computed once and shared by threads: a typed cache beside
the run, not inside it.

A :class:`~yardstick.inputs.run.Run` is a value: its name, tag, group and arrays.
Orders, per-topic counts, the reader's docno hashes and the judgments joined from a
qrels are derived from its arrays and kept in a :class:`RunCache`, keyed by the
identity of those arrays — so a run renamed or regrouped (``Run.renamed``, which
keeps the arrays) keeps what was derived, and an entry goes when its arrays do.
Each entry has its own lock: two jobs asking for the same order of the same run
compute it once, and different runs never wait for each other.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np


class Run(Protocol):
    """What the cache reads of a :class:`yardstick.inputs.run.Run` (its arrays)."""

    topic_code: Any
    score: Any
    docno_bytes: Any

__all__ = ["RunDerived", "RunCache", "RUN_CACHE", "derived"]


@dataclass(eq=False)
class RunDerived:
    """The derived data of one run (each field None until computed).

    Attributes
    ----------
    lock : threading.RLock
        Held while a field is computed (:meth:`RunCache.of` callers).
    topic_counts : numpy.ndarray or None
        Lines per topic code (the reader counts them while parsing).
    line_hash : numpy.ndarray or None
        The reader's docno hash per line (uint64), consumed by the join index
        (:attr:`Run.key_sorted <yardstick.inputs.run.Run.key_sorted>` sorts it in place).
    trec_order : dict of int to numpy.ndarray
        trec_eval's order of the lines per compat level
        (:func:`~yardstick.inputs.ranking.cached_order`).
    judgments : tuple or None
        ``(weakref to qrels, compat, judgments in that order)``
        (:func:`yardstick.judging.run_judgments.ranked_judgments`).
    """

    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    topic_counts: np.ndarray | None = None
    line_hash: np.ndarray | None = None
    trec_order: dict[int, np.ndarray] = field(default_factory=dict)
    judgments: tuple | None = None


class RunCache:
    """:class:`RunDerived` entries keyed by the identity of a run's arrays (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[tuple[int, int, int], RunDerived] = {}

    @staticmethod
    def key(run: Run) -> tuple[int, int, int]:
        """The identity of ``run``'s arrays (the same for a run and its renamed copies)."""
        return id(run.topic_code), id(run.score), id(run.docno_bytes)

    def of(self, run: Run) -> RunDerived:
        """The entry of ``run`` (made empty on first use; kept while its arrays live)."""
        key = self.key(run)
        entry = self._entries.get(key)
        if entry is not None:
            return entry
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                entry = self._entries[key] = RunDerived()
                self._follow(run, key)
        return entry

    def _follow(self, run: Run, key: tuple[int, int, int]) -> None:
        """Drop ``key``'s entry when one of the arrays dies (its id may then be reused)."""
        for arr in (run.topic_code, run.score, run.docno_bytes):
            try:
                weakref.finalize(arr, self._drop, key)
            except TypeError:               # None, or not weakly referable
                pass

    def without_scores(self, run: Run) -> None:
        """Set ``run.score`` to None (a reader that was asked for no scores, once the order
        is made), keeping what was derived: the order no longer needs the scores."""
        old = self.key(run)
        object.__setattr__(run, "score", None)
        with self._lock:
            entry = self._entries.pop(old, None)
            if entry is not None:
                new = self.key(run)
                self._entries[new] = entry
                self._follow(run, new)

    def peek(self, run: Run) -> RunDerived | None:
        """The entry of ``run`` if it has one (nothing made)."""
        return self._entries.get(self.key(run))

    def take_line_hash(self, run: Run) -> np.ndarray | None:
        """The reader's docno hashes of ``run``, handed over once (the join index is
        built in their memory)."""
        entry = self.peek(run)
        if entry is None:
            return None
        with entry.lock:
            made, entry.line_hash = entry.line_hash, None
        return made

    def forget(self, run: Run) -> None:
        """Drop what was derived from ``run`` (memory back before the run itself goes)."""
        self._drop(self.key(run))

    def _drop(self, key: tuple[int, int, int]) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def __len__(self) -> int:
        return len(self._entries)


#: The cache every reader, ordering and join of this process shares (a session's
#: ``run_cache``; :func:`derived` reads it).
RUN_CACHE = RunCache()


def derived(run: Run) -> RunDerived:
    """``RUN_CACHE.of(run)``: the derived data of ``run``."""
    return RUN_CACHE.of(run)
