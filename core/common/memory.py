"""Memory handed back to the operating system once a large part of it is freed.

CPython and numpy allocate arrays of a few megabytes with the C library's ``malloc``;
glibc raises its mmap threshold as large blocks are freed (up to 32 MB), so the next
arrays of a run (4 MB of docnos each for 250,000 lines) come from the heap, and when
they are freed together the pages stay with the process: a ``yardstick pool`` that drops
its runs' docnos once their codes are made kept 1.99 GB of resident memory where 1.6 GB
was in use.  :func:`release_freed_memory` asks glibc to return the free pages
(``malloc_trim(0)``, which since glibc 2.8 also releases whole free pages inside the
heap); elsewhere (musl, macOS, Windows) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache

__all__ = ["release_freed_memory"]


@cache
def _malloc_trim():
    """glibc's ``malloc_trim``, or None where the C library has none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def release_freed_memory() -> bool:
    """Return the C heap's free pages to the operating system (glibc only); True when
    something was released.  Call it after dropping many arrays at once, not in a loop
    (it walks the whole heap: a few milliseconds)."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False
