"""The run's columns, filled piece by piece from the parsed batches
(:mod:`yardstick.inputs.io.run_piece`).

Room is estimated from the file's size after the first piece and grown by a
quarter when short (a large file's pages are asked for ahead of the appends:
:mod:`yardstick.inputs.io.run_room`); docno words widen when a longer docno comes.  Topic ids
get codes in first-seen order while reading and are put in byte order at the
end (:meth:`Columns.finish`).
"""

from __future__ import annotations

import numpy as np

from yardstick.inputs.io.arrow_buffers import call, set_lookup, string_array
from yardstick.inputs.io.docno_words import DocnoTooLong, check_docno_width

#: topics known up to which a batch's names are looked up by pyarrow (a hash table
#: of the known names is built for each batch)
LOOKUP_TOPICS = 1 << 16
#: ... when a batch names at least this many
LOOKUP_NAMES = 256


class Columns:
    """Output columns filled batch by batch, with room estimated from the file size.

    Only what evaluation reads: topic ids, docno words and scores (and the rank
    column when asked for), and the docno hashes the run's join index is made of
    (:attr:`yardstick.inputs.run.Run.key_sorted` turns them into the index in place).
    """

    def __init__(self, capacity: int, ranks: bool):
        self.cap = max(capacity, 1024)
        self.n = 0
        self.words = np.empty((self.cap, 1), np.uint64)
        self.score = np.empty(self.cap, np.float64)
        self.rank = np.empty(self.cap, np.int32) if ranks else None
        self.topic = np.empty(self.cap, np.int32)
        self.hash = np.empty(self.cap, np.uint64)
        self.topic_lines = np.zeros(0, np.int64)  # lines per topic id (first-seen order)
        self.size = 0  # bytes of the file (bounds the docno width)
        self._known = None  # the topic names so far as a pyarrow array, in id order

    def populate(self, rows: int, stop, step: int = 1 << 18, ahead: int = 1 << 20) -> None:
        """Have the kernel hand over the memory pages of the first ``rows`` rows, a
        slice of rows of every column at a time in the order :meth:`append` fills
        them, never more than ``ahead`` rows beyond what is appended, until ``stop()``
        (:func:`yardstick.inputs.io.memory_pages.populate` leaves the contents as they are:
        :meth:`append` may be writing meanwhile).  Slices already appended are
        skipped.  (Ahead of the appends only so far: a file found irregular in its
        first pieces has had 28 MB of pages asked for, not its whole room.)"""
        import time

        from yardstick.inputs.io.memory_pages import populate

        arrays = [a for a in (self.words, self.score, self.rank, self.topic, self.hash)
                  if a is not None]
        for r in range(0, min(rows, self.cap), step):
            while r >= self.n + ahead:
                if stop():
                    return
                time.sleep(0.002)
            if stop():
                return
            if self.n >= r + step:
                continue
            for a in arrays:
                if not populate(a[r:r + step]):
                    return

    def reserve(self, m: int, k: int) -> slice:
        """Room for ``m`` more lines of docnos up to ``8 k`` bytes: their slice."""
        if self.n + m > self.cap or k > self.words.shape[1]:
            self._grow(max(self.cap, int((self.n + m) * 1.25)), k)
        a = self.n
        self.n += m
        return slice(a, a + m)

    def _grow(self, cap: int, k: int) -> None:
        n, k0 = self.n, self.words.shape[1]
        words = np.empty((cap, max(k, k0)), np.uint64)
        words[:n, :k0] = self.words[:n]
        words[:n, k0:] = 0
        self.words = words
        for name in ("score", "rank", "topic", "hash"):
            old = getattr(self, name)
            if old is None:
                continue
            new = np.empty(cap, old.dtype)
            new[:n] = old[:n]
            setattr(self, name, new)
        self.cap = cap

    def append(self, batches: list, topic_ids: dict) -> None:
        """One piece's batches (:func:`yardstick.inputs.io.run_piece.piece_batches`), in order."""
        for b in batches:
            if isinstance(b, DocnoTooLong):
                raise DocnoTooLong(self.n + b.index, b.length, b.need)
            names, local, counts, words, lens, score, rank, dhash = b
            ids = self._topic_ids(names, topic_ids)
            if len(topic_ids) > len(self.topic_lines):
                self.topic_lines = np.concatenate(
                    [self.topic_lines, np.zeros(len(topic_ids) - len(self.topic_lines), np.int64)])
            m, k = words.shape
            if k > self.words.shape[1]:  # the whole output widens: bound it too
                try:
                    check_docno_width(max(self.cap, self.n + m), k, self.size, lens)
                except DocnoTooLong as e:
                    raise DocnoTooLong(self.n + e.index, e.length, e.need) from None
            rows = self.reserve(m, k)
            if k == self.words.shape[1]:
                self.words[rows] = words
            else:
                self.words[rows, :k] = words
                self.words[rows, k:] = 0
            np.take(ids, local, out=self.topic[rows])
            self.topic_lines[ids] += counts
            self.score[rows] = score
            self.hash[rows] = dhash
            if self.rank is not None:
                self.rank[rows] = rank

    def _topic_ids(self, names, topic_ids: dict) -> np.ndarray:
        """Ids of a batch's topic names (a pyarrow string array), new names added to
        ``topic_ids`` (name -> id, in first-seen order).

        A run with its topics interleaved names thousands in every batch: they are
        looked up at C speed, by pyarrow's ``index_in`` against the names known so
        far while there are not too many (:data:`LOOKUP_TOPICS`), else by ``map``
        over the dict's lookup (7M shuffled lines, 7,000 topics: 1.35 ms a batch
        by the dict, 0.25 ms by ``index_in``).
        """
        if len(names) >= LOOKUP_NAMES and len(topic_ids) <= LOOKUP_TOPICS:
            ids = self._looked_up(names, topic_ids)
            if ids is not None:
                return ids
        seen = names.to_pylist()
        new = set(seen).difference(topic_ids)
        if new:  # (in the batch's order; a loop only where a batch names new topics)
            for t in seen:
                if t in new:
                    topic_ids.setdefault(t, len(topic_ids))
        return np.fromiter(map(topic_ids.__getitem__, seen), np.int32, len(seen))

    def _looked_up(self, names, topic_ids: dict) -> np.ndarray | None:
        """:meth:`_topic_ids` by ``index_in``; None if a name is new (the dict adds it)."""
        if self._known is None or len(self._known) != len(topic_ids):
            self._known = string_array(topic_ids)
        found = call("index_in", [names], set_lookup(self._known))
        if found.null_count:
            return None
        return np.frombuffer(found.buffers()[1], np.int32, count=len(found),
                             offset=found.offset * 4)

    def finish(self, topic_ids: dict):
        """``(topic_code, topics, docno_bytes, score, rank, lines per topic, docno hash)``:
        topics in byte order, codes into them (rewritten in place, a slice at a time)."""
        n = self.n
        seen = list(topic_ids)
        by_bytes = sorted(range(len(seen)),
                          key=lambda i: seen[i].encode("utf-8", "surrogateescape"))
        remap = np.empty(len(seen), np.int32)
        remap[by_bytes] = np.arange(len(seen), dtype=np.int32)
        topics = np.array([seen[i] for i in by_bytes], dtype=object)
        topic_code = self.topic[:n]
        for a in range(0, n, 1 << 20):
            topic_code[a:a + (1 << 20)] = remap[topic_code[a:a + (1 << 20)]]
        lines = np.zeros(len(seen), np.int64)
        lines[remap] = self.topic_lines
        k = self.words.shape[1]
        docno_bytes = self.words[:n].view(f"S{8 * k}").reshape(n)
        rank = self.rank[:n] if self.rank is not None else None
        return topic_code, topics, docno_bytes, self.score[:n], rank, lines, self.hash[:n]
