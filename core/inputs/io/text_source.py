"""Open a file as bytes whatever its compression; refuse what is not text.

Shared by every reader: ``.gz``, ``.bz2`` and ``.xz`` are read transparently
(by magic number, not only by suffix), ``-`` is standard input, and empty,
binary (NUL bytes) or unreadable inputs raise :class:`~yardstick.common.errors.FormatError`.
"""

from __future__ import annotations

import bz2
import lzma
import os
import stat
import sys
import zlib
from pathlib import Path

from yardstick.common.errors import FormatError

COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz")



def display_name(path: str | os.PathLike) -> str:
    """The file name without a compression suffix (a run's default name)."""
    name = Path(str(path)).name
    for suf in COMPRESSED_SUFFIXES:
        if name.endswith(suf):
            return name[: -len(suf)]
    return name


def available_memory() -> int | None:
    """Bytes of memory available now, or None if unknown.

    The kernel's ``MemAvailable`` (free memory plus the page cache it can drop:
    a full page cache is not a full memory), lowered to the room left under a
    cgroup v2 memory limit when the process runs in one.
    """
    avail = None
    try:
        with open("/proc/meminfo", "rb") as f:
            for line in f:
                if line.startswith(b"MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
    except OSError:
        return None
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit != "max":
            used = int(Path("/sys/fs/cgroup/memory.current").read_text())
            room = max(0, int(limit) - used)
            avail = room if avail is None else min(avail, room)
    except (OSError, ValueError):
        pass
    return avail


#: a file up to this size is always read (the guard is for files that can matter)
ALWAYS_READ = 64 << 20
#: memory a reader needs per byte of input, at most (text, parsed columns, indexes)
NEED_PER_BYTE = 3
#: a compressed file may inflate to at most ALWAYS_READ + this many times its size
MAX_INFLATION = 50
#: how long to wait for the first byte from a pipe before giving up
PIPE_WAIT_SECONDS = 1.0


def read_bytes(path: str | os.PathLike, what: str = "file") -> bytes:
    """Return the decompressed content of ``path`` (``"-"``: standard input).

    Raises
    ------
    FormatError
        if the file is missing, a directory, a device, a pipe that sends nothing,
        unreadable, empty, corrupt when decompressed, too large for memory, or binary
        (contains NUL bytes).
    """
    spath = str(path)
    if spath == "-":
        return finish_bytes(_read_stdin(what), "<stdin>", what)
    try:
        st = os.stat(spath)
    except OSError as e:
        raise FormatError(spath, None, f"cannot read {what}: {e.strerror or e}") from None
    mode = st.st_mode
    if stat.S_ISDIR(mode):
        raise FormatError(spath, None, f"is a directory, not a {what}")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
        raise FormatError(spath, None, f"is a device or socket, not a {what} (endless input "
                                       "such as /dev/zero is never read)")
    try:
        if stat.S_ISFIFO(mode):  # a named pipe or a shell's <(...): read what arrives
            data = _read_pipe(spath, what)
        else:
            check_size(spath, st.st_size, what)
            with open(spath, "rb", buffering=0) as f:
                head = f.read(1 << 16)
                _refuse_binary(head, spath, what)     # before reading 2 GB of random bytes
                f.seek(0)
                data = f.readall()  # one bytes object the file's size (head + rest: two)
    except OSError as e:
        raise FormatError(spath, None, f"cannot read {what}: {e.strerror or e}") from None
    return finish_bytes(data, spath, what)


def _read_stdin(what: str) -> bytes:
    """Standard input under the bounds of a file: a device (``- < /dev/zero``) is refused
    as the file ``/dev/zero`` is, a redirected file is checked for size first, and a
    stream is refused at its first NUL byte or once it outgrows the memory."""
    spath = "<stdin>"
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        mode = None
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode)):
        if not sys.stdin.isatty():
            raise FormatError(spath, None, f"is a device or socket, not a {what} (endless "
                                           "input such as /dev/zero is never read)")
    if mode is not None and stat.S_ISREG(mode):
        check_size(spath, os.fstat(sys.stdin.fileno()).st_size, what)
    try:
        return _read_stream(sys.stdin.buffer, spath, what)
    except OSError as e:
        raise FormatError(spath, None, f"cannot read {what}: {e.strerror or e}") from None


def _read_pipe(spath: str, what: str) -> bytes:
    """Read a FIFO without hanging: wait at most PIPE_WAIT_SECONDS for a writer's first bytes."""
    import select

    fd = os.open(spath, os.O_RDONLY | os.O_NONBLOCK)  # never blocks, even with no writer
    try:
        ready, _, _ = select.select([fd], [], [], PIPE_WAIT_SECONDS)
        if not ready:
            raise FormatError(spath, None, f"is a pipe that sent nothing in "
                                           f"{PIPE_WAIT_SECONDS:g} s; expected a {what} (give a "
                                           "file, or '-' to read standard input)")
        os.set_blocking(fd, True)
        with os.fdopen(os.dup(fd), "rb") as f:
            return _read_stream(f, spath, what)
    finally:
        os.close(fd)


def _read_stream(f, spath: str, what: str) -> bytes:
    """Read a stream of unknown size, refusing it once it outgrows the available memory."""
    parts, total = [], 0
    limit = _memory_limit()
    while True:
        chunk = f.read(1 << 24)
        if not chunk:
            return b"".join(parts)
        if not parts:
            _refuse_binary(chunk[:1 << 16], spath, what)  # before reading endless NULs
        total += len(chunk)
        if total * NEED_PER_BYTE > limit and total > ALWAYS_READ:
            raise FormatError(spath, None, f"sent more than {total / 2**20:,.0f} MiB, more than "
                              f"the available memory allows; refusing to read the rest")
        parts.append(chunk)


def _memory_limit() -> float:
    avail = available_memory()
    return float("inf") if avail is None else float(avail)


def check_size(spath: str, size: int, what: str = "file") -> None:
    """Refuse a file of ``size`` bytes whose reading would not fit in the available memory.

    Files up to :data:`ALWAYS_READ` are always read; a larger one is refused when
    :data:`NEED_PER_BYTE` times its size exceeds the memory the kernel reports as
    available (:func:`available_memory`).
    """
    if size <= ALWAYS_READ:
        return
    avail = available_memory()
    if avail is not None and size * NEED_PER_BYTE > avail:
        raise FormatError(
            spath, None,
            f"is {size / 2**20:,.0f} MiB and reading it needs about "
            f"{size * NEED_PER_BYTE / 2**20:,.0f} MiB, but only {avail / 2**20:,.0f} MiB of "
            f"memory is available; refusing to load it (split the file or free memory)")


def finish_bytes(data: bytes, spath: str, what: str = "file") -> bytes:
    """Decompress (if compressed) and refuse empty or binary content (see :func:`read_bytes`)."""
    for magic, kind in _KIND.items():
        if data.startswith(magic):
            data = _inflate(data, kind, spath, what)
            break
    blank = data[3:] if data.startswith(b"\xef\xbb\xbf") else data  # a lone BOM is empty too
    if not blank[:65536].strip() and not blank.strip():  # cheap unless it starts blank
        raise FormatError(spath, None, f"is empty: expected a {what}")
    _refuse_binary(data, spath, what)
    return data


def _refuse_binary(data: bytes, spath: str, what: str) -> None:
    """FormatError naming the line of the first NUL byte of uncompressed ``data``."""
    if b"\x00" in data and not any(data.startswith(m) for m in _KIND):
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise FormatError(spath, line, f"contains NUL bytes: this is a binary file, not a {what}")


_KIND = {b"\x1f\x8b": "gz", b"BZh": "bz2", b"\xfd7zXZ\x00": "xz"}
_OUT = 1 << 24  # decompressed bytes per step


def _inflate(data: bytes, kind: str, spath: str, what: str) -> bytes:
    """Decompress every member/stream, refusing output larger than the free memory allows.

    A small archive can hold far more than memory (a 1 GiB ``.gz`` of a 20 GiB
    run): the output is produced in 16 MiB steps and counted, so such a file is
    refused with a message before it fills the memory (issue 9).
    """
    avail = _memory_limit()
    bomb = ALWAYS_READ + MAX_INFLATION * len(data)  # a bound that follows the file's size
    parts: list[bytes] = []
    total = 0

    def keep(out: bytes) -> None:
        nonlocal total
        total += len(out)
        if total > bomb:
            raise FormatError(
                spath, None,
                f"decompresses to more than {bomb / 2**20:,.0f} MiB, over {MAX_INFLATION} "
                f"times its {len(data) / 2**20:,.1f} MiB (a compression bomb?); refusing it")
        if total * NEED_PER_BYTE > avail and total > ALWAYS_READ:
            raise FormatError(
                spath, None,
                f"decompresses to more than {total / 2**20:,.0f} MiB, more than the "
                f"{avail / 2**20:,.0f} MiB of available memory allows; refusing to load it")
        parts.append(out)

    magic = next(m for m, k in _KIND.items() if k == kind)
    rest = data
    try:
        while True:
            if kind == "gz":
                d = zlib.decompressobj(wbits=31)
                feed = rest
                while True:
                    out = d.decompress(feed, _OUT)
                    keep(out)
                    feed = d.unconsumed_tail
                    if d.eof or (not feed and len(out) < _OUT):
                        break
            else:
                d = bz2.BZ2Decompressor() if kind == "bz2" else lzma.LZMADecompressor()
                out = d.decompress(rest, _OUT)
                while True:
                    keep(out)
                    if d.eof or d.needs_input:
                        break
                    out = d.decompress(b"", _OUT)
            if not d.eof:
                raise EOFError("compressed file ended before the end-of-stream marker was reached")
            rest = d.unused_data
            if not rest.strip(b"\x00"):  # gzip allows zero padding after the last member
                break
            if not rest.startswith(magic):
                raise ValueError("trailing garbage after the compressed data")
    except FormatError:
        raise
    except (zlib.error, OSError, EOFError, ValueError, lzma.LZMAError, MemoryError) as e:
        lines = sum(p.count(b"\n") for p in parts)   # what came out whole before it broke
        raise FormatError(spath, None, f"cannot decompress {what} after line {lines:,} "
                          f"(the lines up to it read fine): {e}") from None
    return b"".join(parts)


#: how every file is decoded and every docno, topic or tag encoded back (bytes <-> str)
ENCODING, ERRORS = "utf-8", "surrogateescape"


def decode_text(data: bytes) -> str:
    """Decode as UTF-8 with ``surrogateescape`` (a UTF-8 BOM dropped).

    Docnos are bytes, as in trec_eval: the same bytes must give the same string
    in every file, whatever each file's encoding.  ``surrogateescape`` is a
    bijection: valid UTF-8 decodes as usual and each other byte becomes a lone
    surrogate that :func:`encode_text` turns back into that byte.  (Decoding a
    whole file as Latin-1 when one byte was not UTF-8 made its UTF-8 docnos
    differ from the same docnos in a UTF-8 run.)
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode(ENCODING, ERRORS)


def encode_text(text: str) -> bytes:
    """The bytes :func:`decode_text` read ``text`` from."""
    return text.encode(ENCODING, ERRORS)


def text_column(values):
    """A pandas column of text: pandas' string dtype, or object when some value holds
    bytes that are not UTF-8 (read with surrogateescape; the string dtype cannot hold them)."""
    import pandas as pd

    values = [str(v) for v in values]
    try:
        return pd.Series(values, dtype="str")
    except UnicodeEncodeError:
        return pd.Series(values, dtype=object)


def text_index(values, name: str | None = None):
    """A pandas Index of text: the string dtype, or object when some value holds bytes
    that are not UTF-8 (see :func:`text_column`)."""
    import pandas as pd

    values = [str(v) for v in values]
    try:
        return pd.Index(values, dtype="str", name=name)
    except UnicodeEncodeError:
        return pd.Index(values, dtype=object, name=name)


def text_frame(rows, columns):
    """A DataFrame of text from rows (mappings or sequences), each column a
    :func:`text_column` (``pd.DataFrame(rows).astype(str)`` that keeps non-UTF-8 bytes)."""
    import pandas as pd

    rows = list(rows)
    cols = {}
    for j, c in enumerate(columns):
        cols[c] = text_column([r[c] if isinstance(r, dict) else r[j] for r in rows])
    return pd.DataFrame(cols, columns=list(columns))


def shown(text: str) -> str:
    """``text`` for display: bytes that are not UTF-8 shown as U+FFFD."""
    return text.encode(ENCODING, ERRORS).decode(ENCODING, "replace")
