"""Allocator settings for short headless commands that churn through large arrays.

A large ``yardstick eval`` makes and frees a hundred numpy arrays of 30-60 MB.
glibc serves each from fresh ``mmap`` pages and unmaps it on ``free``, so the
kernel zeroes every page again for the next array: on a 7M-line run that was a
quarter of the wall time, all of it ``sys``.  With ``M_MMAP_MAX = 0`` large blocks
come from the heap and with a high ``M_TRIM_THRESHOLD`` freed memory stays
there for the next array (``mallopt(3)``).  The peak resident memory grows a
little (blocks are reused, not returned); the process ends soon anyway.

Only glibc has ``mallopt``; elsewhere this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

M_TRIM_THRESHOLD = -1
M_MMAP_MAX = -4


def keep_freed_memory() -> bool:
    """Tell glibc malloc to reuse freed large blocks instead of unmapping them.

    Returns whether the settings took effect.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_MAX, 0)) and bool(mallopt(M_TRIM_THRESHOLD, 2**31 - 1))


def lean_arrow_pool() -> str:
    """Give pyarrow's allocations back to the system as soon as they are freed.

    pyarrow's default pool (mimalloc in the wheels) keeps what a parse freed in
    per-thread segments that numpy cannot reuse: reading a 28 MB qrels file left
    100 MB behind.  jemalloc with a decay time of 0 returns freed pages at once
    (``system`` where the wheel has no jemalloc).  A pool chosen by the user
    (``ARROW_DEFAULT_MEMORY_POOL``) is left alone.  Returns the pool's name.
    """
    import os

    import pyarrow as pa

    if os.environ.get("ARROW_DEFAULT_MEMORY_POOL"):
        return pa.default_memory_pool().backend_name
    try:
        pool = pa.jemalloc_memory_pool()
        pa.jemalloc_set_decay_ms(0)
    except (NotImplementedError, pa.ArrowNotImplementedError):
        pool = pa.system_memory_pool()
    pa.set_memory_pool(pool)
    return pool.backend_name
