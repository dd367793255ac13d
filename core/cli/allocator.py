"""Allocator settings for short headless commands that churn through large arrays.

A large ``yardstick eval`` makes and frees a hundred numpy arrays of 30-60 MB.
glibc serves each from fresh ``mmap`` pages and unmaps it on ``free``, so the
kernel zeroes every page again for the next array: on a 7M-line run that was a
quarter of the wall time, all of it ``sys``.  With ``M_MMAP_MAX = 0`` large blocks
come from the heap and with a high ``M_TRIM_THRESHOLD`` freed memory stays
there for the next array (``mallopt(3)``).  The peak resident memory grows a
little (blocks are reused, not returned); the process ends soon anyway.

Only glibc has ``mallopt``; elsewhere this does nothing.  :func:`small_pages` keeps
numpy from asking for transparent huge pages, whose compaction was up to half a
second of system time; :func:`lean_arrow_pool` gives pyarrow's pages back once each
run is read (what the qrels freed is left for the run's parse to reuse).
"""

from __future__ import annotations

import ctypes
import sys

from yardstick.inputs.io.memory_pages import libc

M_TRIM_THRESHOLD = -1
M_MMAP_MAX = -4
M_ARENA_MAX = -8


def keep_freed_memory() -> bool:
    """Tell glibc malloc to reuse freed large blocks instead of unmapping them.

    Returns whether the settings took effect.
    """
    mallopt = _mallopt()
    if mallopt is None:
        return False
    # one arena: the reader's workers allocate numpy arrays too, and blocks freed in a
    # thread's own arena could not serve the main thread's next array
    return (bool(mallopt(M_MMAP_MAX, 0)) and bool(mallopt(M_TRIM_THRESHOLD, 2**31 - 1))
            and bool(mallopt(M_ARENA_MAX, 1)))


def few_arenas(n: int = 2) -> bool:
    """At most ``n`` glibc malloc arenas (``M_ARENA_MAX``; glibc's default is 8 a core).

    ``yardstick pool`` runs its parts on a thread per core; each thread's frees land in
    its own arena, where the next thread's arrays cannot reuse them.  On 110 runs × 250
    topics the peak resident size with the default arenas was 1,935,568 KiB, with two
    1,872,760 KiB (one: 1,863,556 KiB, 1.5 s more system time); with each task's freed
    memory also handed back (:func:`yardstick.common.memory.release_freed_memory`)
    1.63-1.65 GB.  Call it before any thread starts.  Returns whether the setting took
    effect (glibc only)."""
    mallopt = _mallopt()
    return mallopt is not None and bool(mallopt(M_ARENA_MAX, max(1, int(n))))


def _mallopt():
    """glibc's ``mallopt``, or None (not Linux, no libc, not glibc)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        mallopt = libc().mallopt
    except AttributeError:  # (no libc, or not glibc)
        return None
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return mallopt


def small_pages() -> bool:
    """Stop numpy asking the kernel for transparent huge pages for its large arrays.

    numpy ``madvise``s every array of 4 MB or more ``MADV_HUGEPAGE`` (the
    ``NUMPY_MADVISE_HUGEPAGE`` setting).  Where the kernel compacts memory to find
    2 MB pages on demand (``/sys/kernel/mm/transparent_hugepage/defrag``:
    ``madvise``, the usual default), a command that fills half a GB of fresh arrays
    spends that compaction in its system time: ``yardstick eval`` on 7M lines took
    0.37-1.01 s of system time and 1.60-2.39 s in all with huge pages, 0.39-0.46 s
    and 1.59-1.73 s without (5 runs each, alternating, on the 2-core development
    machine).  Returns whether numpy took the setting.
    """
    try:
        from numpy._core.multiarray import _set_madvise_hugepage
    except ImportError:  # (numpy 1.x)
        try:
            from numpy.core.multiarray import _set_madvise_hugepage
        except ImportError:
            return False
    _set_madvise_hugepage(False)
    return True


#: how long jemalloc keeps pages pyarrow freed before returning them (its default)
DECAY_MS = 1000


def lean_arrow_pool() -> str:
    """Give pyarrow's allocations back to the system once a file is read.

    pyarrow's default pool (mimalloc in the wheels) keeps what a parse freed in
    per-thread segments that numpy cannot reuse: reading a 28 MB qrels file left
    100 MB behind.  jemalloc keeps freed pages for :data:`DECAY_MS`, so that the
    next piece of a run reuses the last piece's pages instead of new ones the
    kernel must zero (a decay time of 0 made the kernel zero 0.25 s of pages in a
    7M-line run), and :func:`release_arrow_memory` returns them after each file
    (``system`` where the wheel has no jemalloc).  A pool chosen by the user
    (``ARROW_DEFAULT_MEMORY_POOL``) is left alone.  Returns the pool's name.
    """
    import os

    import pyarrow as pa

    if os.environ.get("ARROW_DEFAULT_MEMORY_POOL"):
        return pa.default_memory_pool().backend_name
    try:
        pool = pa.jemalloc_memory_pool()
        pa.jemalloc_set_decay_ms(DECAY_MS)
    except (NotImplementedError, pa.ArrowNotImplementedError):
        pool = pa.system_memory_pool()
    pa.set_memory_pool(pool)
    return pool.backend_name


def release_arrow_memory() -> None:
    """Return the pages pyarrow's pool holds freed to the system (after a file is read)."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()
