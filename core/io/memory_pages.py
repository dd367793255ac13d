"""Memory pages handed over by the kernel ahead of their first write (Linux).

``madvise(MADV_POPULATE_WRITE)`` (Linux 5.14) maps every page of a range as if
written, without changing what it holds.  Elsewhere :func:`populate` does
nothing and says so.
"""

from __future__ import annotations

import ctypes
import sys

import numpy as np

MADV_POPULATE_WRITE = 23
_PAGE = 4096
_madvise = None


def _libc_madvise():
    global _madvise
    if _madvise is None:
        _madvise = False
        if sys.platform.startswith("linux"):
            try:
                f = ctypes.CDLL("libc.so.6", use_errno=True).madvise
                f.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
                f.restype = ctypes.c_int
                _madvise = f
            except (OSError, AttributeError):
                pass
    return _madvise


def populate(a: np.ndarray) -> bool:
    """Map the whole pages inside the contiguous array ``a`` for writing; False where
    the system cannot (then nothing more is tried by the caller)."""
    madvise = _libc_madvise()
    if not madvise or not a.flags.c_contiguous:
        return False
    if not a.nbytes:
        return True
    start = a.ctypes.data
    first = -(-start // _PAGE) * _PAGE
    end = (start + a.nbytes) // _PAGE * _PAGE
    if end <= first:
        return True
    return madvise(first, end - first, MADV_POPULATE_WRITE) == 0
