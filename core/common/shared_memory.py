"""Data every worker process of this machine reads, written once to shared memory.

A ``LocalCluster``'s workers are processes of this machine: sending each one its own
copy of the pool's judged runs (322 MB on 110 runs x 250 topics) costs the sending
process a write per worker, each worker a read and the pages of its copy, and the
machine the memory of every copy.  :func:`shared` writes the large arrays of a value once
to a file in ``/dev/shm`` and gives a copy of the value whose arrays are stand-ins
(:class:`MappedArray`): sent to a worker (pickled by Dask as usual), each stand-in
arrives as the array itself, mapped read-only from that file, so that every worker reads
the same pages and what is sent is a few kilobytes.  Nothing is unpickled here: the
worker's own Dask does that, and the file holds raw array bytes only.  A value that
travels on from a worker (to one that joined later) is pickled with its arrays.

Plain containers and objects pickled by their ``__dict__`` (dataclasses and the like) are
copied with their arrays swapped; anything else travels as it is.  Nothing here is
needed for correctness: :func:`shared` gives None where there is no room, and the caller
sends the value as usual.
"""

from __future__ import annotations

import mmap
import os
import shutil
import tempfile
import uuid
from typing import Any

import numpy as np

__all__ = ["MappedArray", "Shared", "shared", "SHM_DIR", "MIN_BYTES"]

#: where the files go (a RAM file system on Linux)
SHM_DIR = "/dev/shm"
#: arrays smaller than this travel as they are
MIN_BYTES = 1 << 16
#: each array starts at a multiple of this many bytes (cache lines; numpy's alignment)
_ALIGN = 64


class MappedArray:
    """Stands in for an array written to ``path`` at ``offset``: pickled, the array's
    place; unpickled, the array mapped read-only from there."""

    def __init__(self, path: str, offset: int, dtype: str, shape: tuple[int, ...]):
        self.path, self.offset, self.dtype, self.shape = path, offset, dtype, shape

    def __reduce__(self):
        return _mapped, (self.path, self.offset, self.dtype, self.shape)


class Shared:
    """:func:`shared`'s result: ``value`` (its large arrays stand-ins) and the file."""

    def __init__(self, value: Any, path: str):
        self.value, self.path = value, path

    def remove(self) -> None:
        """Delete the file (processes that mapped it keep their mapping)."""
        try:
            os.unlink(self.path)
        except OSError:
            pass


def shared(value: Any, directory: str = SHM_DIR) -> Shared | None:
    """``value`` with its large arrays written to shared memory (None where
    ``directory`` is missing or has less room than twice those arrays, or where the
    value holds no array worth it)."""
    placed: list[tuple[np.ndarray, MappedArray]] = []
    swapped = _swap(value, placed, {})
    if not placed:
        return None
    size = sum(_aligned(a.nbytes) for a, _ in placed)
    try:
        if not os.path.isdir(directory) or shutil.disk_usage(directory).free < 2 * size:
            return None
        fd, path = tempfile.mkstemp(prefix=f"yardstick-{uuid.uuid4().hex[:8]}-",
                                    dir=directory)
    except OSError:
        return None
    at = 0
    try:
        with os.fdopen(fd, "wb") as f:
            for a, ref in placed:
                f.seek(at)
                f.write(memoryview(a).cast("B"))
                ref.path, ref.offset = path, at
                at += _aligned(a.nbytes)
    except OSError:
        Shared(None, path).remove()
        return None
    return Shared(swapped, path)


def _swap(value: Any, placed: list, memo: dict) -> Any:
    """A copy of ``value`` with its large contiguous arrays replaced by stand-ins (each
    array and its stand-in appended to ``placed``; an array met twice is one stand-in)."""
    key = id(value)
    if key in memo:
        return memo[key]
    t = type(value)
    if t is np.ndarray:
        if value.dtype.hasobject or value.nbytes < MIN_BYTES or not value.flags.c_contiguous:
            return value
        out = MappedArray("", -1, value.dtype.str, value.shape)
        placed.append((value, out))
    elif t is dict:
        out = {k: _swap(v, placed, memo) for k, v in value.items()}
    elif t in (list, tuple):
        out = t(_swap(v, placed, memo) for v in value)
    elif _by_dict(t) and hasattr(value, "__dict__"):
        out = object.__new__(t)
        out.__dict__.update({k: _swap(v, placed, memo) for k, v in value.__dict__.items()})
    else:
        return value
    memo[key] = out
    return out


def _by_dict(t: type) -> bool:
    """Whether instances of ``t`` pickle as their class and ``__dict__`` (no reducer, no
    state methods, no slots of their own)."""
    return (t.__reduce_ex__ is object.__reduce_ex__ and t.__reduce__ is object.__reduce__
            and getattr(t, "__getstate__", object.__getstate__) is object.__getstate__
            and not hasattr(t, "__setstate__") and "__slots__" not in t.__dict__
            and t.__module__.startswith("yardstick."))


def _aligned(n: int) -> int:
    return -(-n // _ALIGN) * _ALIGN


def _mapped(path: str, offset: int, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    """The array at ``offset`` of ``path``, a read-only view of the mapped file (the
    mapping lives as long as the array)."""
    dt = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    if count == 0:
        return np.zeros(shape, dt)
    with open(path, "rb") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    return np.frombuffer(mm, dt, count, offset).reshape(shape)
