"""What a line and a field are in the column formats (runs, qrels): trec_eval's rules.

trec_eval (``get_trec_results.c``, ``get_qrels.c``) ends a line at ``\\n`` only
and separates fields with C ``isspace`` in the C locale: space, tab, ``\\r``,
``\\v``, ``\\f``.  Python's ``str.splitlines`` and ``str.split`` go further:
they also break lines at ``\\v``, ``\\f``, ``\\x1c``-``\\x1e``, NEL (``\\x85``,
a Latin-1 "…") and U+2028, and split fields at NBSP (``\\xa0``) and
``\\x1c``-``\\x1f``, so a Latin-1 docno holding such a byte would be cut in two
and every later line number shifted.  These helpers keep the line parsers to
trec_eval's rules, except that a lone ``\\r`` also ends a line (old Mac files)
so a line number is the one an editor shows.  Found by
``tests/test_fuzz_readers.py``.

pyarrow parses with one delimiter byte, where two delimiters in a row (or one
at the end of a line) make an *empty* field rather than one separator: the
qrels reader's fast path uses :func:`has_empty_field` to send such files to the
line parser.  (The run reader squeezes such text instead: ``yardstick.inputs.io.run_file``.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import numpy as np

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ASCII_SPACE = re.compile(r"[ \t\n\r\x0b\x0c]+")
_NOT_C_SPACE = re.compile(r"[\x1c-\x1f]")  # str.split() white space that C isspace() is not
_INT = re.compile(r"[+-]?[0-9]+\Z")
#: bytes per step of the vectorised scans: small enough that the temporaries stay in
#: cache (has_empty_field on a 28 MB qrels file: 21 ms in 8 MiB steps, 6 ms in 1 MiB)
_CHUNK = 1 << 20
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def text_lines(text: str) -> list[str]:
    """Lines split at LF, CRLF or a lone CR, and nowhere else."""
    if "\r" not in text:
        return text.split("\n")
    return _LINE_BREAK.split(text)


def numbered_lines(data: bytes, piece: int = 1 << 24) -> Iterator[tuple[int, str, Callable]]:
    """``(line number, line, field splitter)`` of ``data``, decoded a piece at a time.

    The same lines and numbers as :func:`text_lines` of the whole decoded text, but a
    parser that stops at a bad line holds one piece (16 MiB) of text and its lines, not
    the whole file's: 2 GB of garbage decoded and split whole took 8 GB before the
    error on its first line.  Pieces end after a ``\n``, so a CRLF is never cut.
    """
    from yardstick.inputs.io.text_source import decode_text

    lineno, start, n = 0, 0, len(data)
    while start < n:
        end = data.find(b"\n", min(start + piece, n) - 1)
        end = n if end < 0 else end + 1
        text = decode_text(data[start:end])
        lines = text_lines(text)
        if end < n:
            lines.pop()          # the empty string after the piece's last \n
        split = field_splitter(text)
        del text
        for line in lines:
            lineno += 1
            yield lineno, line, split
        start = end
    if n == 0:
        yield 1, "", str.split


def line_at(data: bytes, lineno: int) -> str:
    """Line ``lineno`` (1-based) of ``data`` under :func:`text_lines`' rules ('' if none)."""
    for i, line, _ in numbered_lines(data):
        if i == lineno:
            return line
    return ""


def field_splitter(text: str) -> Callable[[str], list[str]]:
    """A function splitting one line of ``text`` into fields at ASCII white space.

    ``str.split`` when that is the same thing (pure ASCII without ``\\x1c``-``\\x1f``),
    so regular files pay nothing.
    """
    if text.isascii() and not _NOT_C_SPACE.search(text):
        return str.split
    return _split_ascii


def _split_ascii(line: str) -> list[str]:
    return [f for f in _ASCII_SPACE.split(line) if f]


def parse_int(field: str) -> int | None:
    """A decimal integer in int64 range (``+``/``-`` allowed), else None.

    Python's ``int`` also takes ``1_000`` and non-ASCII digits; trec_eval's
    ``atol`` takes neither.
    """
    if not _INT.match(field):
        return None
    v = int(field)
    return v if INT64_MIN <= v <= INT64_MAX else None


def parse_float(field: str) -> float | None:
    """A number as C ``strtod`` reads a whole field (no ``_``, ASCII only), else None."""
    if not field.isascii() or "_" in field:
        return None
    try:
        return float(field)
    except ValueError:
        return None


def has_empty_field(data: bytes, delimiter: bytes) -> bool:
    """Whether two delimiters meet or a line ends with one (an empty field).

    One vectorised pass over the bytes in 1 MiB chunks (about 0.004 s per
    million qrels lines); a line *starting* with the delimiter shows as an empty
    first column, which the caller checks on the parsed column.
    """
    if data.endswith(delimiter):
        return True
    a = np.frombuffer(data, dtype=np.uint8)
    d = delimiter[0]
    for start in range(0, max(len(a) - 1, 0), _CHUNK):
        c = a[start:start + _CHUNK + 1]
        nxt = c[1:]
        if np.any((c[:-1] == d) & ((nxt == d) | (nxt == 10))):
            return True
    return False


def has_hex_field(data: bytes) -> bool:
    """Whether some field starts with ``0x`` (pyarrow reads ``0x1F`` as the integer 31)."""
    if b"x" not in data and b"X" not in data:
        return False
    return re.search(rb"(?:^|[ \t])[+-]?0[xX]", data, re.MULTILINE) is not None


def raise_at_row(data: bytes, spath: str, row: int, reason: str):
    """Raise FormatError at the ``row``-th content line (0-based; blank lines and ``#``
    comments are not content), quoting that line."""
    from yardstick.common.errors import FormatError

    seen = -1
    for lineno, line, split in numbered_lines(data):
        f = split(line)
        if f and not f[0].startswith("#"):
            seen += 1
            if seen == row:
                raise FormatError(spath, lineno, reason, line)
    raise FormatError(spath, None, reason)
