"""Data every worker process of this machine reads, written once to shared memory.

A ``LocalCluster``'s workers are processes of this machine: sending each one its own
copy of the pool's judged runs (322 MB on 110 runs x 250 topics) costs the sending
process a write per worker, each worker a read and the pages of its copy, and the
machine the memory of every copy.  :func:`shared` writes the arrays of a value once to a
file in ``/dev/shm`` (pickle protocol 5's out-of-band buffers, PEP 574) and gives a small
stand-in that, unpickled on a worker, is the value itself with its arrays mapped
read-only from that file: every worker reads the same pages, and what is sent is a few
kilobytes.  A value that travels on from a worker (to one that joined later) is pickled
as usual, arrays and all.

Nothing here is needed for correctness: :func:`shared` gives None where there is no
room (a small ``/dev/shm``, another system), and the caller sends the value as usual.
"""

from __future__ import annotations

import mmap
import os
import pickle
import shutil
import tempfile
import uuid
from typing import Any

__all__ = ["SharedValue", "shared", "SHM_DIR"]

#: where the files go (a RAM file system on Linux)
SHM_DIR = "/dev/shm"
#: each buffer starts at a multiple of this many bytes (cache lines; numpy's alignment)
_ALIGN = 64


class SharedValue:
    """A value whose arrays lie in the file ``path``: pickled, the file's name and the
    value's pickle stream without its arrays; unpickled, the value (see the module)."""

    def __init__(self, path: str, stream: bytes, spans: list[tuple[int, int]]):
        self.path, self.stream, self.spans = path, stream, spans

    def __reduce__(self):
        return _load, (self.path, self.stream, self.spans)

    def remove(self) -> None:
        """Delete the file (processes that mapped it keep their mapping)."""
        try:
            os.unlink(self.path)
        except OSError:
            pass


def shared(value: Any, directory: str = SHM_DIR) -> SharedValue | None:
    """``value`` written to shared memory (None where ``directory`` is missing or has
    less room than twice the value's arrays)."""
    buffers: list[pickle.PickleBuffer] = []
    stream = pickle.dumps(value, protocol=5, buffer_callback=buffers.append)
    views = [b.raw() for b in buffers]
    size = sum(_aligned(v.nbytes) for v in views)
    try:
        if not os.path.isdir(directory) or shutil.disk_usage(directory).free < 2 * size:
            return None
        fd, path = tempfile.mkstemp(prefix=f"yardstick-{uuid.uuid4().hex[:8]}-",
                                    dir=directory)
    except OSError:
        return None
    spans, at = [], 0
    try:
        with os.fdopen(fd, "wb") as f:
            for v in views:
                f.seek(at)
                f.write(v)
                spans.append((at, v.nbytes))
                at += _aligned(v.nbytes)
    except OSError:
        SharedValue(path, b"", []).remove()
        return None
    return SharedValue(path, stream, spans)


def _aligned(n: int) -> int:
    return -(-n // _ALIGN) * _ALIGN


def _load(path: str, stream: bytes, spans: list[tuple[int, int]]) -> Any:
    """The value, its arrays read-only views of the mapped file (the mapping lives as
    long as they do)."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        mm = mmap.mmap(f.fileno(), size, access=mmap.ACCESS_READ) if size else b""
    whole = memoryview(mm)
    return pickle.loads(stream, buffers=[whole[a:a + n] for a, n in spans])
