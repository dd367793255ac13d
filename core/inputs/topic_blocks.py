"""Each topic's lines sorted on its own: the block sorts behind trec_eval's order and the
run's join index.

:func:`yardstick.inputs.ranking.trec_order` puts a run whose lines are not in score
order into trec_eval's order (``form_res_rels.c``: score descending, docno
descending) topic by topic.  Sorting 7,000 blocks of 1,000 keys, each in
cache, is several times cheaper than one sort of 7 million; done as one numpy
sort along the rows of a padded (blocks × longest block) matrix 64K keys
at a time, it also costs no Python per topic.  Keys agreeing in the kept score
bits come out as "near" neighbours, which the caller orders exactly.
:func:`sort_by_topic_blocks` sorts a run's join keys the same way, block by block.
"""

from __future__ import annotations

import numpy as np

from yardstick.common.threads import each, threads_for

#: keys per padded matrix (512 KiB of uint64): memory follows the chunk, not the run,
#: with a chunk sorted on each core (7M lines shuffled within topics, peak of
#: ``yardstick eval``: 432-438 MB against 448-463 MB with chunks of 256K keys)
_CHUNK = 1 << 16
#: a chunk is padded only while its matrix holds at most this many keys per line
_MAX_PADDING = 2
_ALL_ONES = np.uint64(2**64 - 1)
_SIGN = np.uint64(1 << 63)
_FLIP = np.uint64(0x7FFF_FFFF_FFFF_FFFF)


def descending_score_key(score: np.ndarray) -> np.ndarray:
    """uint64 keys that sort ascending as the (finite) scores sort descending.

    The IEEE-754 bits of a double, with the sign bit flipped for positives and
    every bit flipped for negatives, order like the numbers (the usual radix-sort
    mapping); their complement orders descending.  ``-0.0`` is taken as ``0.0``.
    """
    score = score.astype(np.float64, copy=False)
    if not np.signbit(score).any():  # the usual run: one pass
        return np.bitwise_xor(score.view(np.uint64), _FLIP)
    u = np.add(score, 0.0).view(np.uint64)  # a copy; -0.0 + 0.0 = 0.0
    flip = u >> np.uint64(63)
    flip *= _FLIP
    flip |= _SIGN
    u ^= flip      # ascending with the number
    np.invert(u, out=u)
    return u


def sort_in_blocks(s, bstarts, out_start, itype, base=None):
    """Each block of lines sorted by score, descending, on its own, and put at its
    output position: ``(order, near)``, ``near[i]`` saying that output positions i
    and i + 1 are in one block with scores equal in the kept bits.

    Parameters
    ----------
    s : float64 array
        Scores, indexed by line.
    bstarts : int64 array
        Start of each block, ascending; block j holds positions ``bstarts[j]`` up to
        the next start (the last up to the end).  Positions are lines, or with
        ``base`` positions in ``base``, which holds the lines (a run whose lines
        were grouped by topic first): an int array, or ``(packed, b)``, uint64
        values with the line in their low ``b`` bits (a run's join index).
    out_start : int64 array
        Output position of each block's first line.
    itype : int32 or int64

    Notes
    -----
    A key is a score's :func:`descending_score_key` with the line's position in its
    block in the low bits.  Consecutive blocks, about :data:`_CHUNK` keys at a
    time, are written as the rows of a matrix padded with all-ones keys (which
    sort last: a position never fills the low bits with ones) and sorted along
    the rows in one call.  Where padding would more than double a chunk (blocks
    of very unequal length), its blocks are sorted one by one.  The chunks of a
    large run are sorted on a thread per core (:func:`yardstick.common.threads.each`).
    """
    n = len(s) if base is None else len(base[0] if isinstance(base, tuple) else base)
    ends = np.append(bstarts[1:], n)
    lens = ends - bstarts
    longest = int(lens.max())
    lb = max(1, longest.bit_length())   # positions < longest < 2**lb
    sl = np.uint64(lb)
    order = np.empty(n, itype)
    near = np.zeros(max(n - 1, 0), bool)
    in_place = out_start is bstarts or bool(np.array_equal(out_start, bstarts))

    def sort_chunk(chunk: tuple[int, int]) -> None:  # (chunks write disjoint positions)
        j, j1 = chunk
        a, z = int(bstarts[j]), int(ends[j1 - 1])
        ln = lens[j:j1]
        width = int(ln.max())
        lines = None if base is None else _lines(base, a, z)
        key = descending_score_key(s[a:z] if base is None else s[lines])
        key >>= sl
        key <<= sl
        row = np.repeat(np.arange(j1 - j), ln)
        local = np.arange(z - a, dtype=np.int64)
        local -= np.repeat(bstarts[j:j1] - a, ln)
        key |= local.astype(np.uint64)
        if (j1 - j) * width == z - a:  # blocks of one length: no padding
            key.reshape(j1 - j, width).sort(axis=1)
        else:
            padded = np.full((j1 - j, width), _ALL_ONES)
            padded.ravel()[row * width + local] = key
            padded.sort(axis=1)
            key = padded[np.arange(width) < ln[:, None]]  # each block's keys in order
            del padded
        src = (key & np.uint64((1 << lb) - 1)).astype(np.int64)
        src += np.repeat(bstarts[j:j1], ln)
        key >>= sl
        same = key[1:] == key[:-1]
        same &= row[1:] == row[:-1]
        lines = src if base is None else lines[src - a]
        if in_place:
            order[a:z] = lines
            near[a:z - 1] = same
        else:
            dest = np.repeat(out_start[j:j1], ln)
            dest += local
            order[dest] = lines
            near[dest[:-1][same]] = True

    each(sort_chunk, _chunks(lens, max(1, _CHUNK // max(longest, 1))), threads_for(n))
    return order, near


def _chunks(lens, per: int):
    """``(j, j1)``: consecutive blocks ``j`` to ``j1`` sorted as one padded matrix, ``per``
    at a time, or one by one where padding would more than double their keys."""
    for j in range(0, len(lens), per):
        j1 = min(len(lens), j + per)
        ln = lens[j:j1]
        if (j1 - j) * int(ln.max()) > _MAX_PADDING * int(ln.sum()):
            yield from ((b, b + 1) for b in range(j, j1))
        else:
            yield j, j1


def _lines(base, a: int, z: int) -> np.ndarray:
    """The lines at positions ``a`` to ``z`` of ``base``: an int array, or ``(packed, b)``,
    uint64 values holding the line in their low ``b`` bits (a run's join index)."""
    if isinstance(base, tuple):
        packed, b = base
        return (packed[a:z] & np.uint64((1 << b) - 1)).astype(np.int64)
    return base[a:z]


#: lines grouped by topic per radix sort in :func:`group_in_slices` (slices that stay in
#: cache: 7M lines of 7,000 topics 0.35 s in slices of 1M, 0.15 s in slices of 64K)
_GROUP_SLICE = 1 << 16


def group_in_slices(tc, itype) -> np.ndarray:
    """The lines grouped by topic code, in file order within a topic (a stable sort by
    16-bit topic code), a slice of lines at a time.

    Each slice is radix sorted on its own and its lines are written after those of
    earlier slices in their topic's range of the output, which is the stable sort
    of the whole without its int64 result and the uint16 copy of every code (10
    bytes a line, 70 MB on 7M lines, while the run's join index is still held).
    """
    n = len(tc)
    T = int(tc.max()) + 1
    counts = np.bincount(tc, minlength=T)
    filled = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)  # next free
    grouped = np.empty(n, itype)
    for a in range(0, n, _GROUP_SLICE):
        part = tc[a:a + _GROUP_SLICE]
        perm = np.argsort(part.astype(np.uint16), kind="stable")
        sc = part[perm]
        here = np.bincount(part, minlength=T)
        first = np.concatenate([[0], np.cumsum(here)[:-1]])  # of each topic in the slice
        dest = np.arange(len(part), dtype=np.int64)
        dest += filled[sc] - first[sc]
        perm += a
        grouped[dest] = perm
        filled += here
    return grouped


#: topic blocks shorter than this on average: one sort of the whole array instead
_MIN_BLOCK = 256


def sort_by_topic_blocks(keys: np.ndarray, topic_code: np.ndarray, topic_major: bool,
                         min_block: int = _MIN_BLOCK) -> None:
    """Sort ``keys`` in place, where a line's key holds its topic code in the high bits.

    A run file holds each topic as one block of lines (nearly always): the keys
    of different topics then occupy disjoint ranges, so sorting each block's
    slice and then putting the blocks in order (a stable sort, numpy's timsort,
    which finds the sorted blocks as runs and only moves them) gives the same
    array as one sort of the whole.  Small cache-resident sorts are about four
    times cheaper than one sort of 7 million keys.  Anything else (interleaved
    topics, many tiny topics, keys not topic-major) is sorted as two halves, one on
    a second thread, merged the same way (0.25 s instead of 0.43 s on 7M keys).
    """
    n = len(keys)
    starts = None
    if topic_major and n >= 2 * min_block:
        change = topic_code[1:] != topic_code[:-1]
        if n >= min_block * (np.count_nonzero(change) + 1):  # (else tiny blocks: one sort)
            starts = np.flatnonzero(change) + 1
            if len(np.unique(topic_code[np.concatenate([[0], starts])])) != len(starts) + 1:
                starts = None  # a topic in more than one block
        del change
    if starts is None:
        if n < _TWO_THREADS:
            keys.sort()
            return
        bounds = [0, n // 2, n]  # two halves sorted at once, then merged
    else:
        bounds = [0, *starts.tolist(), n]
    if n < _TWO_THREADS:
        _sort_blocks(keys, bounds)
    else:  # half the blocks on a second thread: numpy sorts without holding the GIL
        import threading

        half = len(bounds) // 2
        other = threading.Thread(target=_sort_blocks, args=(keys, bounds[half:]),
                                 name="yardstick-sort", daemon=True)
        other.start()
        _sort_blocks(keys, bounds[:half + 1])
        other.join()
    keys.sort(kind="stable")  # the blocks into topic order (timsort merges whole runs)


#: keys from which :func:`sort_by_topic_blocks` sorts its blocks on two threads
_TWO_THREADS = 1 << 20


def _sort_blocks(keys: np.ndarray, bounds: list[int]) -> None:
    """Sort each slice ``keys[bounds[i]:bounds[i + 1]]`` in place."""
    for a, z in zip(bounds[:-1], bounds[1:]):
        keys[a:z].sort()
