"""Open a file as bytes whatever its compression; refuse what is not text.

Shared by every reader: ``.gz``, ``.bz2`` and ``.xz`` are read transparently
(by magic number, not only by suffix), ``-`` is standard input, and empty,
binary (NUL bytes) or unreadable inputs raise :class:`~core.errors.FormatError`.
"""

from __future__ import annotations

import bz2
import lzma
import os
import sys
import zlib
from pathlib import Path

from yardstick.errors import FormatError

COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz")

#: Refuse to read a single input whose (decompressed) size exceeds this share of
#: the available memory: better a clear message than swapping the machine to death.
MEMORY_SHARE = 0.5


def display_name(path: str | os.PathLike) -> str:
    """The file name without a compression suffix (a run's default name)."""
    name = Path(str(path)).name
    for suf in COMPRESSED_SUFFIXES:
        if name.endswith(suf):
            return name[: -len(suf)]
    return name


def available_memory() -> int | None:
    """Bytes of memory available now (Linux ``MemAvailable``), or None if unknown."""
    try:
        with open("/proc/meminfo", "rb") as f:
            for line in f:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def read_bytes(path: str | os.PathLike, what: str = "file") -> bytes:
    """Return the decompressed content of ``path`` (``"-"``: standard input).

    Raises
    ------
    FormatError
        if the file is missing, a directory, unreadable, empty, corrupt when
        decompressed, too large for memory, or binary (contains NUL bytes).
    """
    spath = str(path)
    if spath == "-":
        data = sys.stdin.buffer.read()
        spath = "<stdin>"
    else:
        p = Path(spath)
        if p.is_dir():
            raise FormatError(spath, None, f"is a directory, not a {what}")
        try:
            size = p.stat().st_size
        except OSError as e:
            raise FormatError(spath, None, f"cannot read {what}: {e.strerror or e}") from None
        check_size(spath, size, what)
        try:
            with open(p, "rb") as f:
                data = f.read()
        except OSError as e:
            raise FormatError(spath, None, f"cannot read {what}: {e.strerror or e}") from None
    return finish_bytes(data, spath, what)


def check_size(spath: str, size: int, what: str = "file") -> None:
    """Refuse a file of ``size`` bytes if it would not fit in the free memory."""
    avail = available_memory()
    if avail is not None and size > MEMORY_SHARE * avail:
        raise FormatError(
            spath, None,
            f"is {size / 2**30:.1f} GiB but only {avail / 2**30:.1f} GiB of memory is free; "
            f"refusing to load it (split the file or free memory)")


def finish_bytes(data: bytes, spath: str, what: str = "file") -> bytes:
    """Decompress (if compressed) and refuse empty or binary content (see :func:`read_bytes`)."""
    for magic, kind in _KIND.items():
        if data.startswith(magic):
            data = _inflate(data, kind, spath, what)
            break
    blank = data[3:] if data.startswith(b"\xef\xbb\xbf") else data  # a lone BOM is empty too
    if not blank[:65536].strip() and not blank.strip():  # cheap unless it starts blank
        raise FormatError(spath, None, f"is empty: expected a {what}")
    if b"\x00" in data:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise FormatError(spath, line, f"contains NUL bytes: this is a binary file, not a {what}")
    return data


_KIND = {b"\x1f\x8b": "gz", b"BZh": "bz2", b"\xfd7zXZ\x00": "xz"}
_OUT = 1 << 24  # decompressed bytes per step


def _inflate(data: bytes, kind: str, spath: str, what: str) -> bytes:
    """Decompress every member/stream, refusing output larger than the free memory allows.

    A small archive can hold far more than memory (a 1 GiB ``.gz`` of a 20 GiB
    run): the output is produced in 16 MiB steps and counted, so such a file is
    refused with a message before it fills the memory (issue 9).
    """
    avail = available_memory()
    limit = float("inf") if avail is None else MEMORY_SHARE * avail
    parts: list[bytes] = []
    total = 0

    def keep(out: bytes) -> None:
        nonlocal total
        total += len(out)
        if total > limit:
            raise FormatError(
                spath, None,
                f"decompresses to more than {limit / 2**30:.1f} GiB but only "
                f"{avail / 2**30:.1f} GiB of memory is free; refusing to load it")
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
        raise FormatError(spath, None, f"cannot decompress {what}: {e}") from None
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
