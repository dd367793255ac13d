"""trec_eval's ordering of a run: score descending, then docno descending.

``form_res_rels.c`` sorts each topic's documents with ``comp_sim_docno``: higher
similarity first, ties broken by ``strcmp`` on the docno, the larger docno
first.  The rank column of the file is ignored.  With ``compat=9`` scores are
compared as C ``float`` (trec_eval 9.0.8 stores ``sim`` as float), which merges
scores that differ only beyond float precision into one tie group.
"""

from __future__ import annotations

import numpy as np

from yardstick.common.threads import each, threads_for
from yardstick.inputs.run_cache import derived
from yardstick.inputs.topic_blocks import descending_score_key, group_in_slices, sort_in_blocks


def cached_order(run, compat: int) -> np.ndarray:
    """trec_eval order of a :class:`~yardstick.inputs.run.Run`'s lines, computed once per run
    and compat level (kept in :data:`~yardstick.inputs.run_cache.RUN_CACHE`; two threads
    asking at once compute it once)."""
    kept = derived(run)
    order = kept.trec_order.get(compat)
    if order is not None:
        return order
    with kept.lock:
        if compat not in kept.trec_order:
            order = trec_order(run.topic_code, run.score, run.docno_bytes, compat,
                               grouped=run.lines_by_topic)
            kept.trec_order[compat] = (order.astype(np.int32, copy=False)
                                       if len(order) < 2**31 else order)
        return kept.trec_order[compat]


def trec_order(topic_code: np.ndarray, score: np.ndarray, docno_bytes: np.ndarray,
               compat: int = 10, grouped=None) -> np.ndarray:
    """Indices that sort lines by topic code, score descending, docno descending.

    Parameters
    ----------
    topic_code : int array
        Codes into byte-ordered topic ids.
    score : float array
    docno_bytes : numpy ``S`` array or int array
        Docnos (NUL-padded bytes compare like ``strcmp``) or codes into
        byte-ordered docnos.
    compat : {10, 9}
    grouped : callable, optional
        Returns the lines grouped by topic code (in any order within a topic), as
        ``sort_in_blocks`` takes its ``base``, or None: a grouping made already (the
        run's join index, :meth:`yardstick.inputs.run.Run.lines_by_topic`), for a run with
        interleaved topics.

    Returns
    -------
    ndarray of int32 (int64 beyond 2**31 lines)

    Notes
    -----
    Run files almost always hold each topic as one block already sorted by
    score.  Then the order is the topic blocks put in order, and only the tie
    groups (lines of one topic sharing a score, a few percent of a real run)
    need sorting, by docno; everything is decided in file order, without
    gathering the columns.  A file with each topic as one block but shuffled
    lines sorts each block on its own
    (:func:`~yardstick.inputs.topic_blocks.sort_in_blocks`); one with interleaved topics
    is first grouped by topic (:func:`_sort_grouped`); tiny
    topics take two packed-integer sorts of the whole (:func:`_sort_unordered`).
    No cliff either way.
    """
    if compat == 9:  # C float: huge scores become inf, as (float) atof(...) does
        with np.errstate(over="ignore"):
            s = score.astype(np.float32)
    else:
        s = score
    n = len(s)
    itype = np.int32 if n < 2**31 else np.int64
    if n == 0:
        return np.zeros(0, itype)
    tc = topic_code
    same = tc[1:] == tc[:-1]
    if _in_score_order(s, same):
        placed = _block_permutation(tc, np.flatnonzero(~same) + 1, n, itype)
        if placed is not None:
            tied = np.equal(s[1:], s[:-1], out=np.empty(n - 1, bool))
            tied &= same
            return _order_ties(placed[0], tied, docno_bytes, itype, placed[1], placed[2])
    s = s.astype(np.float64, copy=False)
    np.invert(same, out=same)  # topic changes
    if n >= _MIN_BLOCK * (np.count_nonzero(same) + 1):
        # each topic one block, its lines out of score order (a run shuffled within topics)
        placed = _block_starts(tc, np.flatnonzero(same) + 1, n)
        del same
        if placed is not None:
            order, near = sort_in_blocks(s, placed[0], placed[1], itype)
            return _order_near_ties(order, near, s, docno_bytes)
    else:
        del same
    tbits = max(1, int(tc.max()).bit_length())
    if n >= _MIN_BLOCK * np.count_nonzero(np.bincount(tc)) and \
            tbits + max(1, (n - 1).bit_length()) <= 64:
        return _sort_grouped(tc, s, docno_bytes, itype, grouped() if grouped else None)
    return _sort_unordered(tc, s, docno_bytes, itype)


def _in_score_order(s, same) -> bool:
    """Whether each topic's lines come in score order, descending (``same[i]``: lines
    i and i + 1 share a topic); a slice at a time, no temporary for the whole run."""
    step = 1 << 20
    for a in range(0, len(same), step):
        z = min(len(same), a + step)
        ok = s[a + 1:z + 1] <= s[a:z]
        ok |= ~same[a:z]
        if not ok.all():
            return False
    return True


#: topics shorter than this on average: one sort of the whole run instead of one per topic
_MIN_BLOCK = 256
#: up to this many topics, lines are grouped by topic with a radix sort of 16-bit codes
_RADIX_TOPICS = 1 << 16


def _sort_grouped(tc, s, docno_bytes, itype, grouped=None) -> np.ndarray:
    """trec_eval's order for a run whose topics are interleaved: the lines grouped
    by topic, then each topic sorted by score on its own
    (:func:`~yardstick.inputs.topic_blocks.sort_in_blocks`).

    ``grouped``, a grouping made already (the run's join index), is used as it is.
    Else the grouping is numpy's stable argsort of 16-bit topic codes, a radix
    sort (0.2 s for 7M lines, half a sort of 64-bit keys), a slice of lines at a
    time (:func:`~yardstick.inputs.topic_blocks.group_in_slices`); with more than 65,536
    topics, one sort of topic code and line packed in 64 bits.
    """
    n = len(s)
    if grouped is None and int(tc.max()) < _RADIX_TOPICS:
        grouped = group_in_slices(tc, itype)
    elif grouped is None:
        lbits = max(1, (n - 1).bit_length())
        k = tc.astype(np.uint64)
        k <<= np.uint64(lbits)
        k |= np.arange(n, dtype=np.uint64)
        k.sort()
        k &= np.uint64((1 << lbits) - 1)
        grouped = k.astype(itype)
        del k
    counts = np.bincount(tc)
    counts = counts[counts > 0]
    bstarts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    order, near = sort_in_blocks(s, bstarts, bstarts, itype, base=grouped)
    del grouped
    return _order_near_ties(order, near, s, docno_bytes)


def _sort_unordered(tc, s, docno_bytes, itype) -> np.ndarray:
    """trec_eval's order for a run whose topics or scores are not in file order.

    Two sorts of packed uint64 values (numpy's SIMD sort of plain integers is
    several times faster than an argsort or a lexsort): the score key's high bits
    with the line number in the low bits, then the topic with the position in
    that order (a stable sort by topic).  Lines whose scores agree in the kept
    bits come out together; :func:`_order_near_ties` puts each such group in
    exact (score descending, docno descending) order.
    """
    n = len(s)
    lbits = max(1, (n - 1).bit_length())
    sl, low = np.uint64(lbits), np.uint64((1 << lbits) - 1)
    key = descending_score_key(s)
    key >>= sl
    key <<= sl
    key |= np.arange(n, dtype=np.uint64)
    key.sort()
    by_score = (key & low).astype(itype)
    key >>= sl      # the kept score bits, in score order
    tbits = max(1, int(tc.max()).bit_length()) if n else 1
    if tbits + lbits <= 64:
        k2 = tc[by_score].astype(np.uint64)
        k2 <<= sl
        k2 |= np.arange(n, dtype=np.uint64)
        k2.sort()
        pos = (k2 & low).astype(itype)
        k2 >>= sl   # the topic codes, in the final order
        topic_sorted = k2
    else:
        t = tc[by_score]
        pos = np.argsort(t, kind="stable").astype(itype, copy=False)
        topic_sorted = t[pos]
    order = by_score[pos]
    del by_score
    # neighbours (in the final order) sharing topic and kept score bits, a slice at a time
    near = np.empty(max(n - 1, 0), bool)
    step = 1 << 20
    for a in range(0, n - 1, step):
        kk, tt = key[pos[a:a + step + 1]], topic_sorted[a:a + step + 1]
        part = near[a:a + len(kk) - 1]
        np.equal(tt[1:], tt[:-1], out=part)
        part &= kk[1:] == kk[:-1]
    del key, pos, topic_sorted
    return _order_near_ties(order, near, s, docno_bytes)


def _order_near_ties(order, near, s, docno_bytes) -> np.ndarray:
    """Sort each group of adjacent ``near`` positions by score, then docno, descending
    (a slice of groups at a time: :func:`_group_slices`)."""
    def sort_slice(groups) -> None:  # (slices write disjoint positions)
        pos, group_id = groups
        members = order[pos]
        keys = _descending_keys(docno_bytes[members]) + (-s[members],)
        rank = np.empty(len(pos), np.int64)
        rank[np.lexsort(keys)] = np.arange(len(pos))
        order[pos] = members[np.argsort(group_id * len(pos) + rank)]

    each(sort_slice, _group_slices(near), threads_for(len(order)))
    return order


#: positions whose tie groups are sorted together (the groups' temporaries are a few
#: arrays of this many int64s: a run of 7M tied lines took its peak from 450 to 955 MB)
_TIE_SLICE = 1 << 18


def _group_slices(linked):
    """The groups of positions joined by ``linked`` (``linked[i]``: positions i and i + 1
    are in one group), about :data:`_TIE_SLICE` positions at a time, never cutting a
    group: yields ``(pos, group_id)``, a slice's members' positions (int64) and a group
    number each, ascending."""
    step = _TIE_SLICE
    n = len(linked) + 1
    a = 0
    while a < n:
        z = min(n, a + step)
        while z < n and linked[z - 1]:  # a group goes on past z: end the slice after it
            w = linked[z - 1:z - 1 + step]
            k = int(np.argmin(w))
            z = min(n, z + len(w)) if w[k] else z + k
        inside = linked[a:z - 1]
        if inside.any():
            member = np.zeros(z - a, bool)
            member[:-1] = inside
            member[1:] |= inside
            pos = np.flatnonzero(member)
            prev = np.zeros(len(pos), bool)  # a group starts where a member is not linked
            nz = pos > 0                      # to the one before it
            prev[nz] = inside[pos[nz] - 1]
            pos += a
            yield pos, np.cumsum(~prev)
        a = z


def _block_starts(tc, blocks, n):
    """(file start, output start) of each topic block, the blocks put in topic code
    order; None if some topic has more than one block."""
    bstarts = np.concatenate([np.zeros(1, np.int64), blocks])
    heads = tc[bstarts]
    border = np.argsort(heads, kind="stable")
    hs = heads[border]
    if len(hs) > 1 and not bool((hs[1:] != hs[:-1]).all()):
        return None
    if bool((border == np.arange(len(border))).all()):
        return bstarts, bstarts
    lens = np.diff(np.concatenate([bstarts, [n]]))[border]
    new_starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    out_start = np.empty(len(bstarts), np.int64)
    out_start[border] = new_starts
    return bstarts, out_start


def _block_permutation(tc, blocks, n, itype):
    """(output position -> line, file start and output start of each block), putting
    topic blocks in code order; None if some topic has more than one block."""
    placed = _block_starts(tc, blocks, n)
    if placed is None:
        return None
    bstarts, out_start = placed
    if out_start is bstarts:
        return np.arange(n, dtype=itype), bstarts, bstarts
    out = np.empty(n, itype)
    ends = np.append(bstarts[1:], n)
    # block by block: no per-line temporaries (a repeat and an arange were 2 x 4 bytes a line)
    for a, z, o in zip(bstarts.tolist(), ends.tolist(), out_start.tolist()):
        out[o:o + z - a] = np.arange(a, z, dtype=itype)
    return out, bstarts, out_start


def _order_ties(order, tied, docno_bytes, itype, bstarts=None, out_start=None) -> np.ndarray:
    """Sort each tie group by docno descending (a slice of groups at a time).

    ``tied[i]`` says positions i and i+1 share topic and score.  With ``bstarts``
    and ``out_start`` (file and output start of each topic block) given, ``tied``
    is in file order and ``order`` the block permutation
    (a tie group is then contiguous in both); otherwise ``tied`` is in output
    order.
    """
    if not tied.any():
        return order
    if bstarts is None:
        order = order.copy()

    def sort_slice(groups) -> None:  # (slices write disjoint positions)
        pos, group_id = groups
        if bstarts is None:
            members = order[pos]
            out_pos = pos
        else:
            members = pos.astype(itype)
            b = np.searchsorted(bstarts, pos, side="right") - 1  # file block of each member
            out_pos = out_start[b] + (pos - bstarts[b])
        # rank the members' docnos (descending), then sort by (group, that rank) as one int64
        keys = _descending_keys(docno_bytes[members])
        by_doc = np.argsort(keys[0]) if len(keys) == 1 else np.lexsort(keys)
        doc_rank = np.empty(len(pos), np.int64)
        doc_rank[by_doc] = np.arange(len(pos))
        sub = np.argsort(group_id * len(pos) + doc_rank)
        order[out_pos] = members[sub]

    each(sort_slice, _group_slices(tied), threads_for(len(order)))
    return order


def _descending_keys(docs: np.ndarray) -> tuple[np.ndarray, ...]:
    """np.lexsort keys (least significant first) ordering docnos descending."""
    if docs.dtype.kind != "S":
        return (-docs.astype(np.int64),)
    w = docs.dtype.itemsize
    w8 = -(-w // 8) * 8
    if w8 != w:
        docs = docs.astype(f"S{w8}")
    words = np.ascontiguousarray(docs).view(">u8").reshape(len(docs), w8 // 8)
    # big-endian words compare as the bytes do; ~ turns ascending into descending
    return tuple(~words[:, j].astype(np.uint64) for j in range(words.shape[1] - 1, -1, -1))


def _group_by_topic(tc: np.ndarray) -> np.ndarray:
    """A stable sort by topic code, in O(n) when each topic is one contiguous block."""
    n = len(tc)
    bstarts = np.concatenate([[0], np.flatnonzero(tc[1:] != tc[:-1]) + 1])
    heads = tc[bstarts]
    if len(np.unique(heads)) != len(heads):
        return np.argsort(tc, kind="stable")
    border = np.argsort(heads, kind="stable")
    lens = np.diff(np.concatenate([bstarts, [n]]))[border]
    new_starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    return np.repeat(bstarts[border] - new_starts, lens) + np.arange(n)
