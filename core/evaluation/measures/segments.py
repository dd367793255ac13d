"""Per-topic running sums that add in trec_eval's order.

trec_eval accumulates a topic's sums one rank at a time starting from 0
(``sum += gain / log2(i + 2)``).  A global ``cumsum`` minus the previous topic's
total rounds differently in the last bits, which can flip a printed fourth
decimal.  These helpers keep the exact order: each topic's entries are laid in
one row of a padded matrix and summed along the row, so every topic starts
from 0.  They work on *sparse* entries (only the ranks that carry gain), which
is also what makes the graded measures fast on deep runs.
"""

from __future__ import annotations

import numpy as np

#: above this many cells a padded matrix would waste memory: loop per topic instead
MAX_CELLS = 20_000_000


def segment_starts(seg: np.ndarray, T: int) -> np.ndarray:
    """Offsets (T + 1) of each segment in an array sorted by segment id."""
    counts = np.bincount(seg, minlength=T) if len(seg) else np.zeros(T, np.int64)
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


def running_sum(values: np.ndarray, seg: np.ndarray, T: int) -> np.ndarray:
    """Inclusive running sum of ``values`` within each segment, summed from 0 in order.

    ``seg`` (segment id per entry) must be non-decreasing.
    """
    n = len(values)
    if n == 0:
        return np.zeros(0)
    start = segment_starts(seg, T)
    counts = np.diff(start)
    m = int(counts.max())
    within = np.arange(n) - start[seg]
    if T * m <= MAX_CELLS:
        mat = np.zeros((T, m))
        mat[seg, within] = values
        np.cumsum(mat, axis=1, out=mat)
        return mat[seg, within]
    out = np.empty(n)
    for t in np.flatnonzero(counts):
        a, b = start[t], start[t + 1]
        out[a:b] = np.cumsum(values[a:b])
    return out


def sum_before(seg: np.ndarray, pos: np.ndarray, running: np.ndarray, T: int,
               qseg: np.ndarray, qk: np.ndarray) -> np.ndarray:
    """For queries (topic ``qseg``, rank ``qk``): the running sum over entries with pos < qk.

    ``seg``/``pos`` locate the sparse entries (sorted by segment then position),
    ``running`` is their :func:`running_sum`.  Returns 0 where no entry precedes.
    """
    qseg = np.asarray(qseg, dtype=np.int64)
    qk = np.asarray(qk, dtype=np.int64)
    if not len(seg):
        return np.zeros(qk.shape)
    key = (seg.astype(np.int64) << 32) | pos.astype(np.int64)
    qkey = (qseg << 32) | np.clip(qk, 0, 2**31 - 1)
    idx = np.searchsorted(key, qkey.ravel(), side="left").reshape(qkey.shape)
    start = segment_starts(seg, T)
    has = idx > start[qseg]
    return np.where(has, running[np.clip(idx - 1, 0, len(running) - 1)], 0.0)


def divide(num, den) -> np.ndarray:
    """``num / den`` elementwise, 0 where ``den`` is 0 (trec_eval leaves such values at 0)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den != 0)
