"""Work split over the machine's cores, on threads.

numpy and pyarrow run their large loops without holding the interpreter lock,
so independent slices of one array job (sorting topic blocks, ordering tie
groups, measuring topic ranges) go as fast on threads as on processes, without
copying anything.  Only jobs of a million lines or more are split: below that
a thread costs more than it saves.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable

#: the work (lines) from which a job is split over the cores
PARALLEL_LINES = 1 << 20


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def threads_for(lines: int, most: int = 4) -> int:
    """How many threads a job over ``lines`` lines is split into: one per core, at
    most ``most``, one per :data:`PARALLEL_LINES` lines."""
    return max(1, min(most, cores(), lines // PARALLEL_LINES))


def each(work: Callable, items: Iterable, threads: int) -> None:
    """Call ``work(item)`` for every item, ``threads`` at a time (in this thread alone if
    ``threads`` < 2).  The calls must write disjoint memory; their results are dropped
    and the first error is raised.  Items are taken from ``items`` only as threads come
    free, so a generator of slices never has more than a few slices alive."""
    if threads < 2:
        for item in items:
            work(item)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads, thread_name_prefix="yardstick-work") as pool:
        pending: deque = deque()
        try:
            for item in items:
                if len(pending) >= 2 * threads:
                    pending.popleft().result()
                pending.append(pool.submit(work, item))
            while pending:
                pending.popleft().result()
        finally:
            for fut in pending:
                fut.cancel()


#: lines per slice of :func:`gather`
_GATHER_SLICE = 1 << 20


def gather(values, index):
    """``values[index]`` for a 1-d integer ``index``, slices of it on a thread per core.

    A gather in a random order (a run shuffled across topics put in trec_eval's
    order) waits on memory for each element; two cores wait at once.
    """
    import numpy as np

    n = len(index)
    k = threads_for(n)
    if k < 2:
        return values[index]
    out = np.empty(n, values.dtype)

    def part(a: int) -> None:
        np.take(values, index[a:a + _GATHER_SLICE], out=out[a:a + _GATHER_SLICE])

    each(part, range(0, n, _GATHER_SLICE), k)
    return out
