"""A retrieval run held as columns, not as a Python object per line.

A TREC run is ``topic Q0 docno rank score tag``.  Yardstick keeps it as numpy
arrays: ``topic_code`` indexes the sorted unique ``topics``; docnos are kept as
one fixed-width, NUL-padded bytes array (``docno_bytes``, numpy ``S`` dtype),
which compares in byte order exactly like trec_eval's ``strcmp`` and lets the
engine hash, sort and join millions of lines without a Python object per line.
``docnos``/``doc_code`` (sorted unique docnos and per-line codes) are derived on
first use.  ``score`` is float64; ``rank`` is the file's rank column as int32
(trec_eval ignores it; kept for display only).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from yardstick.inputs.io.docno_words import (  # noqa: F401 (the run's docno words, re-exported)
    MAX_DOCNO_BYTES,
    WIDE_DOCNO_SLACK,
    DocnoTooLong,
    check_docno_width,
    docno_hash,
    fixed_width_bytes,
    hash_words,
    string_words,
    to_bytes_array,
)
from yardstick.inputs.run_cache import RUN_CACHE
from yardstick.inputs.topic_blocks import sort_by_topic_blocks

if TYPE_CHECKING:  # pandas is imported where a frame is built, not at import time
    import pandas as pd

#: lines per slice where a per-line temporary is built a slice at a time
_SLICE = 1 << 18


@dataclass(frozen=True, eq=False)
class Run:
    """One run file.

    Attributes
    ----------
    name : str
        What the user calls it (file name by default; several runs may share a tag).
    tag : str
        The run tag of the file's last content line (trec_eval's ``runid``).
    topics : numpy.ndarray of str (object)
        Sorted unique topic ids (byte order).
    topic_code : numpy.ndarray of int32
        Per line, index into ``topics``.
    docno_bytes : numpy.ndarray of ``S<w>``
        Per line, the UTF-8 docno, NUL padded.
    score : numpy.ndarray of float64, or None
        None when the run was read with ``scores=False`` (``yardstick eval``: the
        scores are dropped once trec_eval's order is made).
    rank : numpy.ndarray of int32, or None
        The file's rank column (0 where it was not an integer in int32 range);
        None when the run was read without it (``read_run(..., ranks=False)``,
        as ``yardstick eval`` does: trec_eval never reads ranks).
    path : str or None
    group : str
        The team that submitted it ("" if unknown).
    """

    name: str
    tag: str
    topics: np.ndarray
    topic_code: np.ndarray
    docno_bytes: np.ndarray
    score: np.ndarray
    rank: np.ndarray | None
    path: str | None = None
    group: str = ""

    def __len__(self) -> int:
        return len(self.topic_code)

    @property
    def num_topics(self) -> int:
        return len(self.topics)

    @cached_property
    def doc_hash(self) -> np.ndarray:
        """A 64-bit hash of each line's docno (:func:`docno_hash`); built on demand,
        not kept by the join (:attr:`key_sorted` hashes on the fly)."""
        return docno_hash(self.docno_bytes)

    def drop_join_index(self) -> None:
        """Free :attr:`key_sorted` (8 bytes a line) once no more joins are coming."""
        self.__dict__.pop("key_sorted", None)

    @cached_property
    def key_sorted(self) -> tuple[np.ndarray, int]:
        """The lines sorted by (topic, docno) key, as one packed array: (high key bits << b) | line.

        The key is :meth:`join_key` of topic code and docno hash.  numpy's (SIMD)
        sort of a plain uint64 array is several times faster than an argsort, and
        keeps the line number in the low ``b`` bits; a run holding each topic as
        one block is sorted block by block (:func:`sort_by_topic_blocks`).  Built
        once per run; used to find duplicates and to join with any qrels.
        """
        n = len(self.topic_code)
        b = max(1, int(n - 1).bit_length()) if n > 1 else 1
        sb = np.uint64(b)
        # the reader's docno hashes (made on its workers) become the index in place;
        # else they are made (or copied) a slice at a time, so that the hashes and the
        # key's parts are never whole columns (8 bytes a line each)
        made = RUN_CACHE.take_line_hash(self)
        h = made if made is not None else self.__dict__.get("doc_hash")
        packed = made if made is not None else np.empty(n, np.uint64)
        for a in range(0, n, _SLICE):
            z = min(n, a + _SLICE)
            if h is None:
                hashes = docno_hash(self.docno_bytes[a:z])
            else:
                hashes = h[a:z] if h is packed else h[a:z].copy()
            key = self.join_key(self.topic_code[a:z], hashes)
            key >>= sb
            key <<= sb
            key |= np.arange(a, z, dtype=np.uint64)
            packed[a:z] = key
        sort_by_topic_blocks(packed, self.topic_code, self._topic_major)
        return packed, b

    def lines_by_topic(self) -> tuple[np.ndarray, int] | None:
        """The lines grouped by topic code (in join-key order within a topic): the
        :attr:`key_sorted` index ``(packed, b)``, the line in the low ``b`` bits, if it
        is built already and holds the topic code whole in its high bits; else None.
        (:func:`yardstick.inputs.ranking.trec_order` then need not group an interleaved
        run's lines again.)"""
        built = self.__dict__.get("key_sorted")
        return built if built is not None and self._topic_major else None

    @property
    def _topic_major(self) -> bool:
        """Whether :meth:`join_key` keeps the topic code whole in its high bits (and
        at least 20 hash bits above the packed line number)."""
        tbits = max(1, int(len(self.topics)).bit_length())
        lbits = max(1, int(len(self.topic_code) - 1).bit_length())
        return 64 - tbits - lbits >= 20

    def join_key(self, topic_code: np.ndarray, doc_hash: np.ndarray) -> np.ndarray:
        """A 64-bit key of (topic code, docno hash), topic in the high bits.

        ``doc_hash`` is consumed (overwritten by the key).

        Sorted keys keep each topic's lines together, and a run file keeps them
        together too: the exact check of a join then reads run lines near each
        other instead of all over memory.  With very many topics and lines too
        few hash bits would be left, and :func:`pair_key` mixes the two instead.
        """
        tbits = max(1, int(len(self.topics)).bit_length())
        if not self._topic_major:
            return pair_key(topic_code, doc_hash)
        # in place on the hash (callers hand over one they own): no third array
        doc_hash >>= np.uint64(tbits)
        key = doc_hash
        key |= topic_code.astype(np.uint64) << np.uint64(64 - tbits)
        return key

    def first_duplicate(self) -> int | None:
        """The first line repeating an earlier line's (topic, docno), or None.

        Lines sharing the high key bits are compared exactly (a handful per
        million lines are mere hash collisions).
        """
        packed, b = self.key_sorted
        sb = np.uint64(b)
        n = len(packed)
        # neighbours sharing the high key bits, a slice at a time (no whole-column temporary)
        same = np.concatenate([np.zeros(0, np.int64)] + [
            np.flatnonzero(np.diff(packed[a:min(n, a + _SLICE + 1)] >> sb) == 0) + a
            for a in range(0, max(n - 1, 0), _SLICE)])
        if not len(same):
            return None
        mask_low = np.uint64((1 << b) - 1)
        keys = packed[same] >> sb << sb
        starts = np.unique(np.searchsorted(packed, keys, side="left"))
        ends = np.searchsorted(packed, packed[starts] | mask_low, side="right")
        # every line of a group sharing its high key bits; a few per million lines are
        # mere hash collisions, so compare (topic, docno) exactly: sorted by them and by
        # line, a line equal to its predecessor repeats an earlier line
        lens = ends - starts
        members = np.repeat(starts - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens)
        members += np.arange(int(lens.sum()))
        lines = (packed[members] & mask_low).astype(np.int64)
        tc, docs = self.topic_code[lines], self.docno_bytes[lines]
        order = np.lexsort((lines, docs, tc))
        lines, tc, docs = lines[order], tc[order], docs[order]
        again = (tc[1:] == tc[:-1]) & (docs[1:] == docs[:-1])
        return int(lines[1:][again].min()) if again.any() else None

    def lookup(self, topic_code: np.ndarray, docno_bytes: np.ndarray,
               doc_hash: np.ndarray | None = None) -> np.ndarray:
        """Line of each (topic code, docno) in this run, or -1 (exact, collision-safe)."""
        m = len(topic_code)
        out = np.full(m, -1, dtype=np.int64)
        if not m or not len(self.topic_code):
            return out
        doc_hash = docno_hash(docno_bytes) if doc_hash is None else doc_hash.copy()
        packed, b = self.key_sorted
        sb = np.uint64(b)
        # the queries' high key bits, sorted with their index packed in the low bits
        # (searching for sorted needles is several times faster: numpy starts each
        # search where the last one ended)
        bq = max(1, int(m - 1).bit_length())
        q = self.join_key(topic_code, doc_hash)
        q >>= sb
        if 64 - b + bq > 64:
            order = np.argsort(q, kind="stable")
            qs = q[order]
        else:
            q <<= np.uint64(bq)
            q |= np.arange(m, dtype=np.uint64)
            # qrels come grouped by topic: a sort per topic (a few hundred keys each)
            sort_by_topic_blocks(q, topic_code, self._topic_major, min_block=64)
            order = (q & np.uint64((1 << bq) - 1)).astype(np.int64)
            qs = q >> np.uint64(bq)
        del q
        mask_low = np.uint64((1 << b) - 1)
        same_docno = _docno_comparer(self.docno_bytes, docno_bytes)
        check_topic = not self._topic_major
        n = len(packed)
        step = _SLICE >> 2

        def find(a: int) -> None:  # a slice of queries at a time: small temporaries
            want_all, qorder = qs[a:a + step], order[a:a + step]
            # first run line whose high bits are >= the query's: packed >= qs << b
            lo = np.searchsorted(packed, want_all << sb, side="left")
            todo = None  # None: every query (the first round); then those still unmatched
            k = 0
            while True:
                idx = lo if todo is None else lo[todo] + k
                want = want_all if todo is None else want_all[todo]
                inside = idx < n
                if not inside.all():
                    idx, want = idx[inside], want[inside]
                    todo = np.flatnonzero(inside) if todo is None else todo[inside]
                entry = packed[idx]
                sel = np.flatnonzero((entry >> sb) == want)
                todo = sel if todo is None else todo[sel]
                cand = (entry[sel] & mask_low).astype(np.int64)
                qi = qorder[todo]
                ok = same_docno(cand, qi)
                if check_topic:
                    ok &= self.topic_code[cand] == topic_code[qi]
                out[qi[ok]] = cand[ok]  # (slices write disjoint queries)
                todo = todo[~ok]
                if not len(todo):
                    break
                k += 1

        starts = range(0, m, step)
        if len(starts) < 2:
            for a in starts:
                find(a)
        else:  # two threads: numpy's binary searches run without the GIL
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=2, thread_name_prefix="yardstick-join") as pool:
                list(pool.map(find, starts))
        return out

    @cached_property
    def _doc_index(self) -> tuple[np.ndarray, np.ndarray]:
        uniq, inv = np.unique(self.docno_bytes, return_inverse=True)
        docnos = np.array([b.decode("utf-8", "surrogateescape") for b in uniq.tolist()],
                          dtype=object)
        return docnos, inv.astype(np.int32).ravel()

    @property
    def docnos(self) -> np.ndarray:
        """Sorted unique docnos (str, byte order)."""
        return self._doc_index[0]

    @property
    def doc_code(self) -> np.ndarray:
        """Per line, index into :attr:`docnos`."""
        return self._doc_index[1]

    def docno(self, i: int) -> str:
        return self.docno_bytes[i].decode("utf-8", "surrogateescape")

    def scores_only(self) -> "Run":
        """This run without its docnos, topic codes and file ranks (None): what an index
        that has coded its documents keeps of it (name, tag, topics and the scores a
        ranking reads by line).  The copy can no longer be ordered, joined or evaluated;
        once nothing else holds the original, its docnos' memory (16 bytes a line or more)
        goes back (``yardstick pool`` on 27.5 million lines: about 550 MB)."""
        return replace(self, topic_code=None, docno_bytes=None, rank=None)

    def renamed(self, name: str | None = None, group: str | None = None) -> "Run":
        return replace(self, name=self.name if name is None else name,
                       group=self.group if group is None else group)

    def to_frame(self) -> pd.DataFrame:
        """Columns ``topic``, ``docno`` (categoricals), ``rank``, ``score`` in file order."""
        import pandas as pd

        return pd.DataFrame({
            "topic": pd.Categorical.from_codes(self.topic_code, self.topics),
            "docno": pd.Categorical.from_codes(self.doc_code, self.docnos),
            "rank": self.rank,
            "score": self.score,
        })

    @classmethod
    def from_arrays(cls, topic, docno, score, name: str, tag: str | None = None, rank=None,
                    path: str | None = None, group: str = "") -> "Run":
        """Build a run from per-line topic ids, docnos and scores (any sequences of str)."""
        t_codes, topics = codes_of(topic)
        score = np.asarray(score, dtype=np.float64)
        rank = (np.zeros(len(score), np.int64) if rank is None
                else np.asarray(rank, dtype=np.int64))
        rank = np.where((rank >= -2**31) & (rank < 2**31), rank, 0).astype(np.int32)
        return cls(name=name, tag=tag if tag is not None else name, topics=topics,
                   topic_code=t_codes, docno_bytes=to_bytes_array(docno), score=score,
                   rank=rank, path=path, group=group)

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, name: str, tag: str | None = None,
                   path: str | None = None, group: str = "") -> "Run":
        """Build a run from columns ``topic``, ``docno``, ``score`` (``rank`` optional)."""
        return cls.from_arrays(frame["topic"], frame["docno"], frame["score"], name=name,
                               tag=tag, rank=frame["rank"] if "rank" in frame else None,
                               path=path, group=group)

    @classmethod
    def from_dict(cls, run: dict, name: str = "run") -> "Run":
        """Build from ``{topic: {docno: score}}`` (the pytrec_eval / ranx shape)."""
        rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
        t, d, s = zip(*rows) if rows else ((), (), ())
        return cls.from_arrays(list(t), list(d), list(s), name=name)




def _docno_comparer(a: np.ndarray, b: np.ndarray):
    """``f(i, j)``: whether docno ``a[i]`` equals ``b[j]``, elementwise.

    Equal widths that are whole 8-byte words compare as integers (the arrays are
    NUL padded, so equal words are equal docnos); otherwise as bytes.
    """
    w = a.dtype.itemsize
    if a.dtype == b.dtype and w % 8 == 0 and a.flags.c_contiguous and b.flags.c_contiguous:
        aw = a.view(np.uint64).reshape(len(a), w // 8)
        bw = b.view(np.uint64).reshape(len(b), w // 8)
        if w == 8:
            aw, bw = aw.ravel(), bw.ravel()
            return lambda i, j: aw[i] == bw[j]
        return lambda i, j: (aw[i] == bw[j]).all(axis=1)
    return lambda i, j: a[i] == b[j]


def codes_of(values) -> tuple[np.ndarray, np.ndarray]:
    """Per-value codes into the sorted (byte order) unique strings."""
    enc = [str(v).encode("utf-8", "surrogateescape") for v in values]
    if not enc:
        return np.zeros(0, np.int32), np.zeros(0, dtype=object)
    b = np.array(enc, dtype=f"S{max(1, max(map(len, enc)))}")
    uniq, inv = np.unique(b, return_inverse=True)
    return inv.astype(np.int32).ravel(), np.array(
        [u.decode("utf-8", "surrogateescape") for u in uniq.tolist()], dtype=object)


def pair_key(topic_code: np.ndarray, doc_hash: np.ndarray) -> np.ndarray:
    """Combine a topic code and a docno hash into one 64-bit key.

    ``doc_hash ^ mix(topic)`` with ``mix(t) = u ^ (u >> 31)``, ``u = (t + 1) * golden``;
    the mix is tabulated per topic code, so the key costs one gather per line.
    """
    if not len(topic_code):
        return np.zeros(0, np.uint64)
    top = int(topic_code.max()) + 1
    with np.errstate(over="ignore"):
        u = np.arange(1, top + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        mix = u ^ (u >> np.uint64(31))
    return doc_hash ^ mix[topic_code]
