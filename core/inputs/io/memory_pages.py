"""Memory pages handed over by the kernel ahead of their first write (Linux).

``madvise(MADV_POPULATE_WRITE)`` (Linux 5.14) maps every page of a range as if
written, without changing what it holds.  Elsewhere :func:`populate` does
nothing and says so.  :func:`libc` is glibc itself, for this and for the
allocator settings of ``yardstick eval`` (:mod:`yardstick.cli.allocator`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

MADV_POPULATE_WRITE = 23
_PAGE = 4096


@functools.cache
def libc() -> ctypes.CDLL | None:
    """glibc, by its soname (``ctypes.util.find_library`` runs ``ldconfig -p`` in a
    subprocess: 5-10 ms of every command's start), found the slow way elsewhere; None
    where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        name = ctypes.util.find_library("c")
        try:
            return ctypes.CDLL(name, use_errno=True) if name else None
        except OSError:
            return None


@functools.cache
def _madvise():
    try:
        f = libc().madvise
    except AttributeError:  # (no libc, or one without madvise)
        return None
    f.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    f.restype = ctypes.c_int
    return f


def populate(a: np.ndarray) -> bool:
    """Map the whole pages inside the contiguous array ``a`` for writing; False where
    the system cannot (then nothing more is tried by the caller)."""
    madvise = _madvise()
    if madvise is None or not a.flags.c_contiguous:
        return False
    if not a.nbytes:
        return True
    start = a.ctypes.data
    first = -(-start // _PAGE) * _PAGE
    end = (start + a.nbytes) // _PAGE * _PAGE
    if end <= first:
        return True
    return madvise(first, end - first, MADV_POPULATE_WRITE) == 0
