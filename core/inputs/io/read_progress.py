"""Reading a large input with progress and cancellation points.

:func:`read_bytes_job` is :func:`yardstick.inputs.io.text_source.read_bytes` as a progress
generator: the file is read in :data:`READ_CHUNK` pieces, yielding
:class:`~yardstick.common.progress.Progress` after each, so the window's status bar moves
and Cancel (which closes the generator at its next ``yield``) takes effect
within one chunk.  The checks are ``read_bytes``' own (directory, size against
free memory before reading, decompression with its output counted against
free memory, empty, NUL bytes), so the result and every error are the same.

:func:`read_run_job` and :func:`read_qrels_job` read with progress, then run
the ordinary readers on a helper thread (their pyarrow fast path is
untouched) while the progress bar keeps moving; a load that is cancelled
returns nothing, so nothing half-loaded can reach the workspace.  Measured on
``benchmarks/_data/msmarco_7000x1000.run`` (7M lines,
278 MB) by ``benchmarks/bench_large_run.py``.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Generator
from pathlib import Path

from yardstick.common.errors import FormatError
from yardstick.common.progress import Progress
from yardstick.inputs.io.text_source import check_size, display_name, finish_bytes, read_bytes

__all__ = ["READ_CHUNK", "read_bytes_job", "read_qrels_job", "read_run_job", "scaled"]

#: Bytes read between two progress reports (and cancellation points).
READ_CHUNK = 8 * 2**20

RUN_WHAT = "run file (topic Q0 docno rank score tag)"
QRELS_WHAT = "qrels file (topic iter docno rel)"


def read_bytes_job(path: str | os.PathLike, what: str = "file", keep: bool = True
                   ) -> Generator[Progress, None, bytes | None]:
    """Progress generator returning what ``read_bytes(path, what)`` returns.

    Progress counts bytes of the file on disk; decompression and the
    empty/binary checks are one last step.  Raises the same
    :class:`~yardstick.common.errors.FormatError` as
    :func:`~yardstick.inputs.io.text_source.read_bytes`.
    With ``keep=False`` the chunks are dropped as they are read and None is
    returned (a first pass for progress that leaves the file in the page cache).
    """
    spath = str(path)
    p = Path(spath)
    if spath == "-" or p.is_dir() or not p.is_file():
        return read_bytes(path, what)  # stdin, or the error read_bytes names
    name = display_name(spath)
    try:
        size = p.stat().st_size
    except OSError:
        return read_bytes(path, what)
    check_size(spath, size, what)
    parts: list[bytes] = []
    done = 0
    try:
        with open(p, "rb") as f:
            while True:
                chunk = f.read(READ_CHUNK)
                if not chunk:
                    break
                if keep:
                    parts.append(chunk)
                done += len(chunk)
                yield Progress(done, max(size, done), f"reading {name}")
    except OSError as e:
        raise FormatError(spath, None, f"cannot read {what}: {e.strerror or e}") from None
    if not keep:
        return None
    data = b"".join(parts)
    del parts
    return finish_bytes(data, spath, what)


def _compressed(path: str | os.PathLike) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(6)
    except OSError:
        return False
    return head.startswith((b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00"))


def _read_then_parse(path, what: str, parse):
    """Read ``path`` with progress, then ``parse(data or None)`` on a helper thread.

    A plain file is read once for progress and dropped, and the parser reads
    it again from the page cache: peak memory stays the parser's own (the
    parser frees the text early; handing it bytes would pin them).  A
    compressed file is decompressed once here and its text handed over.
    """
    spath = str(path)
    cancel = threading.Event()
    if spath == "-":
        return (yield from _parsing(lambda: parse(None, cancel), 0, "<stdin>", cancel))
    keep = _compressed(path)
    data = yield from _reading(read_bytes_job(path, what, keep=keep))
    size = len(data) if data is not None else os.path.getsize(spath)
    return (yield from _parsing(lambda: parse(data, cancel), size, display_name(spath),
                                cancel))


def read_run_job(path: str | os.PathLike, name: str | None = None, group: str = ""):
    """Progress generator returning :func:`yardstick.inputs.io.read_run` ``(path, name, group)``."""
    from yardstick.inputs.io import read_run

    return (yield from _read_then_parse(
        path, RUN_WHAT, lambda data, cancel: read_run(path, name=name, group=group, data=data,
                                                      cancel=cancel)))


def read_qrels_job(path: str | os.PathLike, name: str | None = None):
    """Progress generator returning :func:`yardstick.inputs.io.read_qrels` ``(path, name)``."""
    from yardstick.inputs.io import read_qrels

    return (yield from _read_then_parse(
        path, QRELS_WHAT, lambda data, cancel: read_qrels(path, name=name, data=data)))


#: Share of a load's progress bar given to reading the bytes (the rest: parsing).
READ_SHARE = 0.2
#: Parsing speed assumed to move the bar while the parser runs (bytes per second);
#: the bar stops at 95 % until the parser returns.
PARSE_RATE = 60e6
_TICK = 0.1


def _reading(job):
    try:
        p = next(job)
        while True:
            yield Progress(READ_SHARE * p.fraction, 1, p.message)
            p = next(job)
    except StopIteration as stop:
        return stop.value
    finally:
        job.close()


def _parsing(parse, nbytes: int, name: str, cancel: threading.Event | None = None):
    """Run ``parse()`` on a helper thread, yielding progress until it returns.

    The readers' pyarrow parse cannot yield, so it runs beside the generator:
    the bar keeps moving and Cancel (closing this generator) returns at once.
    Closing also sets ``cancel``, which the run reader checks between pieces:
    the thread stops within one piece and drops what it had read, so the memory
    comes back; nothing is ever handed to the caller half-built.
    """
    box: dict = {}

    def target() -> None:
        try:
            box["value"] = parse()
        except BaseException as e:  # noqa: BLE001 - re-raised in the generator
            box["error"] = e

    worker = threading.Thread(target=target, name=f"yardstick-parse-{name}", daemon=True)
    expected = max(nbytes / PARSE_RATE, 0.05)
    t0 = time.monotonic()
    worker.start()
    try:
        yield Progress(READ_SHARE, 1, f"parsing {name}")
        while worker.is_alive():
            worker.join(_TICK)
            frac = min(0.95, (time.monotonic() - t0) / expected)
            yield Progress(READ_SHARE + (1 - READ_SHARE) * frac, 1, f"parsing {name}")
    finally:
        if worker.is_alive() and cancel is not None:  # closed: Cancel
            cancel.set()
    if "error" in box:
        raise box["error"]
    return box["value"]


def scaled(job: Generator[Progress, None, object], start: float, total: float,
           prefix: str = "") -> Generator[Progress, None, object]:
    """Re-yield ``job``'s progress as step ``start`` .. ``start + 1`` of ``total``."""
    try:
        p = next(job)
        while True:
            yield Progress(start + p.fraction, total, f"{prefix}{p.message}")
            p = next(job)
    except StopIteration as stop:
        return stop.value
    finally:
        job.close()  # cancelled: the file is closed now, not when collected
