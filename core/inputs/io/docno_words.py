"""Docnos as fixed-width bytes: NUL-padded 8-byte words read from pyarrow's buffers.

A docno is held as the little-endian uint64 words of its UTF-8 bytes, NUL
padded to the longest docno (numpy ``S`` dtype when viewed as bytes), which
compares in byte order like trec_eval's ``strcmp``.  :func:`string_words` reads
them from a pyarrow string array by unaligned 8-byte loads; :func:`docno_hash`
hashes the words (FNV-1a style mixing per word, Fowler, Noll and Vo, "FNV hash",
1991) for joins and duplicate checks.  The width is bounded so that memory
follows the file's size (:func:`check_docno_width`).
"""

from __future__ import annotations

import numpy as np


def to_bytes_array(values) -> np.ndarray:
    """UTF-8 encode strings into one NUL-padded numpy ``S`` array (strcmp order)."""
    import pyarrow as pa

    try:
        arr = values if isinstance(values, (pa.Array, pa.ChunkedArray)) else \
            pa.array(np.asarray(values, dtype=object), type=pa.string())
    except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeEncodeError):
        # bytes that are not UTF-8 (read with surrogateescape): give them back as bytes
        arr = pa.array([str(v).encode("utf-8", "surrogateescape") for v in values],
                       type=pa.binary())
    return fixed_width_bytes(arr)


def fixed_width_bytes(arr) -> np.ndarray:
    """A pyarrow string array as a NUL-padded numpy ``S`` array, without Python objects.

    The width is a multiple of 8 bytes (the hash then reads the docnos as uint64
    words in place).  The bytes are copied as they are, so any UTF-8 works.
    """
    words, _ = string_words(arr)
    return words.view(f"S{8 * words.shape[1]}").reshape(len(words))


_MASKS = np.array([(1 << (8 * r)) - 1 for r in range(8)] + [2**64 - 1], dtype=np.uint64)


#: fixed-width docno arrays may take this much memory beyond 16 × the docno bytes
WIDE_DOCNO_SLACK = 64 << 20


class DocnoTooLong(ValueError):
    """One docno so long that the fixed-width docno array would not follow the file's size.

    Docnos are held NUL-padded to the longest one (8-byte words); a single
    200 KB docno among 7 million would need 1.4 TB.  :func:`check_docno_width`
    refuses an array larger than ``WIDE_DOCNO_SLACK`` + 16 × the bytes of all
    docnos, so memory stays proportional to the input.  ``index`` is the row.
    """

    def __init__(self, index: int, length: int, need: int):
        self.index, self.length, self.need = index, length, need
        if length > MAX_DOCNO_BYTES:
            text = (f"a docno of {length:,} bytes: docnos are limited to "
                    f"{MAX_DOCNO_BYTES:,} bytes (see README 'Limits')")
        else:
            text = (f"a docno of {length:,} bytes: Yardstick holds every docno padded to the "
                    f"longest, which here would take {need / 2**30:.1f} GiB (docnos are "
                    f"limited so that memory follows the file's size; see README 'Limits')")
        super().__init__(text)


#: the longest docno read: real ones (ids, URLs) are far shorter, and the engine's
#: per-word passes made a single 10 MB docno take seconds
MAX_DOCNO_BYTES = 1 << 16


def check_docno_width(n: int, k: int, total_bytes: int, lens) -> None:
    """Raise :class:`DocnoTooLong` if ``n`` docnos padded to ``8 k`` bytes would be too big,
    or one is longer than :data:`MAX_DOCNO_BYTES`."""
    need = n * k * 8
    if need > WIDE_DOCNO_SLACK + 16 * total_bytes or 8 * k > MAX_DOCNO_BYTES + 7:
        i = int(np.argmax(lens))
        raise DocnoTooLong(i, int(lens[i]), need)


def string_words(arr) -> tuple[np.ndarray, np.ndarray]:
    """Each string's bytes as little-endian uint64 words, NUL padded, and its length.

    Returns ``(words, lengths)``: ``words`` has shape (n, k), k = ceil(longest / 8)
    (at least 1), and viewed as ``S{8k}`` is the NUL-padded strings; ``lengths``
    are byte lengths (offsets' type).  Each word is one unaligned 8-byte load from
    pyarrow's data buffer at the string's offset, masked to its length: a few
    passes over n, where padding with pyarrow (``utf8_rpad`` and a cast to
    fixed-size binary) makes and copies every string twice.
    """
    import pyarrow as pa

    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    n = len(arr)
    large = pa.types.is_large_string(arr.type) or pa.types.is_large_binary(arr.type)
    off_type = np.dtype(np.int64 if large else np.int32)
    bufs = arr.buffers()
    if n == 0:
        return np.zeros((0, 1), np.uint64), np.zeros(0, off_type)
    offsets = np.frombuffer(bufs[1], dtype=off_type, count=n + 1,
                            offset=arr.offset * off_type.itemsize)
    lens = offsets[1:] - offsets[:-1]
    k = max(1, -(-int(lens.max()) // 8))
    check_docno_width(n, k, int(offsets[-1] - offsets[0]), lens)
    short = int(lens.min())
    data = bufs[2]
    size = data.size if data is not None else 0
    last = size - 8  # a word starting after this would read past the buffer
    view = (np.ndarray(shape=(size - 7,), dtype="<u8", buffer=data, strides=(1,))
            if size >= 8 else None)
    out = np.empty((n, k), dtype=np.uint64)
    starts = offsets[:-1]
    for j in range(k):
        idx = starts + 8 * j if j else starts
        col = out[:, j] if k > 1 else out.reshape(n)
        far = idx > last
        any_far = bool(far.any())
        if view is not None:
            col[:] = view[np.minimum(idx, last) if any_far else idx]
        if any_far:  # the last few strings: read from a zero-padded copy of the tail
            t0 = max(0, last)
            tail = np.zeros(size - t0 + 8 * k + 8, np.uint8)
            tail[:size - t0] = np.frombuffer(data, np.uint8, count=size - t0, offset=t0)
            rel = (idx[far] - t0).astype(np.int64)
            words = np.zeros(len(rel), np.uint64)
            for b in range(8):
                words |= tail[rel + b].astype(np.uint64) << np.uint64(8 * b)
            col[far] = words
        if short < 8 * (j + 1):
            rem = lens - 8 * j
            np.clip(rem, 0, 8, out=rem)
            col &= _MASKS[rem]
    return out, lens


def docno_hash(docno_bytes: np.ndarray) -> np.ndarray:
    """A 64-bit hash per NUL-padded docno (vectorised over 8-byte words)."""
    w = docno_bytes.dtype.itemsize
    w8 = -(-w // 8) * 8
    if w8 != w:
        docno_bytes = docno_bytes.astype(f"S{w8}")
    words = np.ascontiguousarray(docno_bytes).view(np.uint64).reshape(len(docno_bytes), w8 // 8)
    return hash_words(words)


def hash_words(words: np.ndarray) -> np.ndarray:
    """:func:`docno_hash` of docnos given as (n, k) little-endian uint64 words."""
    prime, basis, s29 = np.uint64(0x100000001B3), np.uint64(0xCBF29CE484222325), np.uint64(29)
    h = None
    with np.errstate(over="ignore"):
        for j in range(words.shape[1]):
            wj = words[:, j]
            m = wj ^ (basis if h is None else h)
            m *= prime
            m ^= m >> s29
            # an all-zero word is padding (docnos hold no NUL): skip it, so the
            # hash does not depend on the array's width
            if h is None:
                h = m
            else:
                np.copyto(h, m, where=wj != 0)
    return h if h is not None else np.zeros(0, np.uint64)
