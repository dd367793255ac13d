"""Work split over the machine's cores, on threads.

numpy and pyarrow run their large loops without holding the interpreter lock,
so independent slices of one array job (sorting topic blocks, ordering tie
groups, measuring topic ranges) go as fast on threads as on processes, without
copying anything.  Only jobs of a million lines or more are split: below that
a thread costs more than it saves.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

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


def in_order(work: Callable, items: Iterable, threads: int, ahead: int | None = None,
             name: str = "yardstick-work") -> Iterator:
    """``work(item)`` of every item, made ``threads`` at a time on threads (in this
    thread alone if ``threads`` < 2), yielded in the items' order; an error is raised
    when its item's turn comes.

    At most ``ahead`` items (``threads`` by default) are in hand at once, and the
    next one is taken from ``items`` only after the oldest result is yielded and the
    caller has come back for more: a generator of pieces reusing a few buffers, or
    of slices, never has more than that many alive.
    """
    if threads < 2:
        yield from map(work, items)
        return
    from concurrent.futures import ThreadPoolExecutor

    ahead = ahead or threads
    with ThreadPoolExecutor(threads, thread_name_prefix=name) as pool:
        pending: deque = deque()
        try:
            for item in items:
                pending.append(pool.submit(work, item))
                if len(pending) >= ahead:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for fut in pending:  # stopped early (an error, the caller gone): drop the rest
                fut.cancel()


def each(work: Callable, items: Iterable, threads: int) -> None:
    """Call ``work(item)`` for every item, ``threads`` at a time (:func:`in_order`, at
    most twice as many items in hand).  The calls must write disjoint memory; their
    results are dropped and the first error is raised."""
    deque(in_order(work, items, threads, ahead=2 * threads), maxlen=0)


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


#: guards :data:`_blas_users` and the BLAS limit it holds
_blas_lock = threading.Lock()
_blas_users = 0
_blas_limit = None


@contextmanager
def blas_single_threaded():
    """BLAS (numpy's OpenBLAS) on one thread while the block runs, for work that is itself
    split over the cores (a task per core): otherwise each of its matrix products starts a
    BLAS thread per core, which spin against the other tasks (discriminative power's
    products on 150 runs took 2.2x their CPU time on two cores).

    The limit is process-wide (``threadpoolctl``); nested and concurrent blocks share it,
    the first sets it and the last lifts it.  A product's elements can differ in the last
    bit with the number of BLAS threads (the kernel OpenBLAS runs depends on the block each
    thread gets); on one thread they are those of a Dask worker, whose BLAS runs on one
    thread too.  The CLI and the window start with ``OPENBLAS_NUM_THREADS=1``
    (:func:`yardstick.cli.one_blas_thread`); this gives the API and the benchmarks the same.
    Without ``threadpoolctl`` this does nothing.
    """
    global _blas_users, _blas_limit
    with _blas_lock:
        if _blas_users == 0:
            try:
                from threadpoolctl import threadpool_limits
            except ImportError:          # pragma: no cover - a dependency, see pyproject
                threadpool_limits = None
            _blas_limit = threadpool_limits(1, user_api="blas") if threadpool_limits else None
        _blas_users += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_users -= 1
            if _blas_users == 0 and _blas_limit is not None:
                _blas_limit.restore_original_limits()
                _blas_limit = None
