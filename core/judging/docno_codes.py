"""One integer code per distinct docno over several docno arrays, in order of first appearance.

The pool diagnostics ask set questions about (topic, document) pairs of many runs
and the qrels; with every docno as a small integer such a pair is one ``int64``
key.  Docnos are told apart by their 64-bit hash (:func:`yardstick.inputs.run.docno_hash`,
what the engine joins on), never by a Python string per line.  The codes are those
``pandas.factorize`` gives the concatenation of the arrays (first appearance
first), built one array at a time: only the vocabulary (distinct hashes, sorted)
is kept between arrays, so no per-line array of the concatenation exists.
"""

from __future__ import annotations

import numpy as np

from yardstick.inputs.run import docno_hash
from yardstick.judging.judgment_table import search_sorted


class DocnoCodes:
    """The growing vocabulary: :meth:`add` codes an array, :meth:`doc_bytes` the docnos."""

    def __init__(self) -> None:
        self._hash = np.zeros(0, np.uint64)     # distinct hashes, sorted
        self._code = np.zeros(0, np.int32)      # their codes
        self._new: list[np.ndarray] = []        # docno bytes of each batch of new codes
        self.n = 0

    def add(self, docno_bytes: np.ndarray) -> np.ndarray:
        """Codes (int32) of ``docno_bytes``; docnos not seen before get the next codes,
        in the order they first appear in this array."""
        h = docno_hash(docno_bytes)
        if len(self._hash):
            pos = self._find(h)
            np.minimum(pos, len(self._hash) - 1, out=pos)
            out = self._code[pos]
            new = np.flatnonzero(self._hash[pos] != h)
            del pos
        else:
            out, new = np.empty(len(h), np.int32), np.arange(len(h))
        if len(new):
            uh, first, inverse = np.unique(h[new], return_index=True, return_inverse=True)
            by_appearance = np.argsort(first, kind="stable")
            codes = np.empty(len(uh), np.int32)
            codes[by_appearance] = self.n + np.arange(len(uh), dtype=np.int32)
            self._new.append(docno_bytes[new[first[by_appearance]]])
            # the new lines' codes from their distinct hashes (no second search)
            out[new] = codes[inverse.reshape(-1)]
            at = np.searchsorted(self._hash, uh)
            self._hash = np.insert(self._hash, at, uh)
            self._code = np.insert(self._code, at, codes)
            self.n += len(uh)
        return out

    def _find(self, h: np.ndarray) -> np.ndarray:
        """Position of each hash in the sorted vocabulary (sorted needles: fast)."""
        return search_sorted(self._hash, h)

    def doc_bytes(self) -> np.ndarray:
        """Each code's docno as NUL-padded bytes (the widest array's width)."""
        if not self._new:
            return np.zeros(0, "S1")
        width = max(b.dtype.itemsize for b in self._new)
        return np.concatenate([b.astype(f"S{width}") for b in self._new])
