"""Open a file as bytes whatever its compression; refuse what is not text.

Shared by every reader: ``.gz``, ``.bz2`` and ``.xz`` are read transparently
(by magic number, not only by suffix), ``-`` is standard input, and empty,
binary (NUL bytes) or unreadable inputs raise :class:`~core.errors.FormatError`.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import sys
from pathlib import Path

from core.errors import FormatError

_MAGIC = {
    b"\x1f\x8b": gzip.decompress,
    b"BZh": bz2.decompress,
    b"\xfd7zXZ\x00": lzma.decompress,
}
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
        avail = available_memory()
        if avail is not None and size > MEMORY_SHARE * avail:
            raise FormatError(
                spath, None,
                f"is {size / 2**30:.1f} GiB but only {avail / 2**30:.1f} GiB of memory is free; "
                f"refusing to load it (split the file or free memory)")
        try:
            with open(p, "rb") as f:
                data = f.read()
        except OSError as e:
            raise FormatError(spath, None, f"cannot read {what}: {e.strerror or e}") from None
    for magic, decompress in _MAGIC.items():
        if data.startswith(magic):
            try:
                data = decompress(data)
            except Exception as e:  # corrupt or truncated archive
                raise FormatError(spath, None, f"cannot decompress {what}: {e}") from None
            break
    blank = data[3:] if data.startswith(b"\xef\xbb\xbf") else data  # a lone BOM is empty too
    if not blank[:65536].strip() and not blank.strip():  # cheap unless it starts blank
        raise FormatError(spath, None, f"is empty: expected a {what}")
    if b"\x00" in data:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise FormatError(spath, line, f"contains NUL bytes: this is a binary file, not a {what}")
    return data


def decode_text(data: bytes) -> str:
    """Decode as UTF-8 (BOM dropped), falling back to Latin-1 so no byte is ever fatal."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
