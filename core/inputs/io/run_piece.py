"""One piece of a run file's text through pyarrow's CSV reader, fields as trec_eval splits them.

:func:`piece_table` parses a piece (a few MiB of whole lines) into the columns
evaluation reads, after the checks that send irregular text to the line
parser (:class:`Irregular`); :func:`piece_batches` turns the table into numpy
arrays batch by batch (docnos as 8-byte words, topics as indices into each
batch's dictionary).  Both run on the reader's worker threads
(:mod:`yardstick.inputs.io.run_file`), several pieces at a time; nothing here keeps
state between pieces.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from yardstick.inputs.io.docno_words import DocnoTooLong, hash_words, string_words
from yardstick.inputs.io.text_source import decode_text

_DICT = pa.dictionary(pa.int32(), pa.string())
_BLOCK = 1 << 22  # pyarrow's parallel unit within a piece


class Irregular(Exception):
    """The text needs the line parser (comments, CR, empty fields, odd columns...)."""


def piece_table(buf, start: int, end: int, ranks: bool = True):
    """pyarrow's parse of one piece of text, fields as trec_eval splits them, and
    the run tag of the piece's last line.

    pyarrow reads one delimiter byte; trec_eval splits at any run of C white
    space and ends lines at LF only.  A piece with one space (or one tab)
    between fields goes to pyarrow as it is; one with CR (CRLF files), mixed
    tabs and spaces, padded columns, blanks at either end of a line or comment
    lines is first squeezed to single spaces (:func:`_squeeze_blanks`, comment
    lines dropped), which is the same text for trec_eval; padded columns and
    blanks at a line's ends are seen in the first parse, as empty fields
    (:func:`_has_empty_field`).  Only topic, docno and score (and rank if asked
    for) are returned; Q0 and the tag are copied as raw bytes for that check
    only.  Raises Irregular if the parse still
    fails (the line parser then names the line), or if the text holds a byte
    that pyarrow would keep inside a field but trec_eval would not (NUL, VT, FF).
    """
    if (buf.find(b"\0", start, end) >= 0 or buf.find(b"\x0b", start, end) >= 0
            or buf.find(b"\x0c", start, end) >= 0):
        raise Irregular
    delimiter = " "
    squeeze = False
    if buf.find(b"\r", start, end) >= 0:
        if buf.count(b"\r", start, end) != buf.count(b"\r\n", start, end):
            raise Irregular  # a lone CR: the line parser ends the line there (line_rules)
        squeeze = True
    comments = buf.find(b"#", start, end) >= 0  # perhaps a comment line (or a '#' in a field)
    squeeze |= comments
    if not squeeze and buf.find(b"\t", start, end) >= 0:
        if buf.find(b" ", start, end) < 0:
            delimiter = "\t"
        else:
            squeeze = True
    with memoryview(buf) as mv:
        text = mv[start:end]
        if not squeeze:
            table = _read_table(text, delimiter, ranks)
            if table is not None and not _has_empty_field(table):
                return _evaluated_columns(table, ranks), _last_tag(buf, start, end)
        squeezed = _squeeze_blanks(text)
        del text
    if comments:
        squeezed = _drop_comment_lines(squeezed)
    table = _read_table(squeezed, " ", ranks)
    if table is None:
        raise Irregular
    return _evaluated_columns(table, ranks), _last_tag(squeezed, 0, len(squeezed))


def _has_empty_field(table) -> bool:
    """Whether some line of the parse has an empty field: it started or ended with the
    delimiter or held two in a row (pyarrow reads an empty field there, trec_eval one
    field fewer; the squeezed text then goes to pyarrow again).

    Read from the parse itself (string lengths from the offsets, the topics'
    dictionary), not by searching the text for pairs of bytes: a two-byte
    ``bytes.find`` over every piece took a third of the reader's time.
    """
    for name in ("q0", "docno", "rank", "tag"):
        col = table.column(name)
        if not (pa.types.is_binary(col.type) or pa.types.is_string(col.type)):
            continue  # (an int32 rank: pyarrow refuses an empty one)
        for c in col.chunks:
            if len(c) and bool((_lengths(c) == 0).any()):
                return True
    return any(bool((_lengths(c.dictionary) == 0).any()) for c in table.column("topic").chunks)


def _evaluated_columns(table, ranks: bool):
    """The columns evaluation converts: topic, docno, score (and rank if asked for)."""
    return table.select(["topic", "docno", "rank", "score"] if ranks else
                        ["topic", "docno", "score"])


def _last_tag(text, start: int, end: int) -> str:
    """The sixth field of the last non-blank line of ``text[start:end]`` ("" if none)."""
    while end > start and text[end - 1:end] == b"\n":
        end -= 1
    if end <= start:
        return ""
    line = bytes(text[text.rfind(b"\n", start, end) + 1:end])
    fields = line.split()
    return decode_text(fields[5]) if len(fields) >= 6 else ""


_BLANKS = np.zeros(256, bool)
_BLANKS[[9, 11, 12, 13, 32]] = True  # C isspace() but the line feed


def _squeeze_blanks(text) -> bytes:
    """Runs of blanks (space, tab, CR, VT, FF) as one space, none at a line's ends.

    trec_eval's ``get_trec_results.c`` reads the same fields from both texts.
    """
    a = np.frombuffer(text, np.uint8)
    if not len(a):
        return b""
    blank = _BLANKS[a]
    before = np.empty(len(a), bool)      # the previous byte is a blank or a line end
    before[0] = True
    before[1:] = blank[:-1] | (a[:-1] == 10)
    first = blank & ~before              # a run of blanks starting after a field
    runs = np.flatnonzero(first)
    # where each such run ends, and what follows it (a field, or a line end)
    nonblank = np.flatnonzero(~blank)
    nxt = np.searchsorted(nonblank, runs)
    follows_field = np.zeros(len(runs), bool)
    inside = nxt < len(nonblank)
    follows_field[inside] = a[nonblank[nxt[inside]]] != 10
    keep = ~blank
    keep[runs[follows_field]] = True
    out = a[keep]
    out[_BLANKS[out]] = 32
    return out.tobytes()


def _drop_comment_lines(text: bytes) -> bytes:
    """``text`` without the lines starting with ``#`` (trec_eval 10 skips them).

    Call it on squeezed text, where no line starts with a blank.
    """
    a = np.frombuffer(text, np.uint8)
    if not len(a):
        return text
    starts = np.concatenate([[0], np.flatnonzero(a[:-1] == 10) + 1])
    comment = a[starts] == ord("#")
    if not comment.any():
        return text
    ends = np.append(starts[1:], len(a))
    inside = np.zeros(len(a) + 1, np.int32)
    np.add.at(inside, starts[comment], 1)
    np.add.at(inside, ends[comment], -1)
    return a[np.cumsum(inside[:-1]) == 0].tobytes()


def _offsets(arr) -> np.ndarray:
    """A pyarrow string (or binary) array's int32 offsets."""
    if not len(arr):
        return np.zeros(1, np.int32)
    return np.frombuffer(arr.buffers()[1], np.int32, count=len(arr) + 1, offset=arr.offset * 4)


def _lengths(arr) -> np.ndarray:
    off = _offsets(arr)
    return off[1:] - off[:-1]


def _plain_names(names) -> bool:
    """Whether no topic id of a batch's dictionary (a pyarrow string array) is empty,
    starts with ``#`` or holds a control byte (below 0x20; in UTF-8 no other byte
    is one), read from its buffers: a shuffled run's batches name thousands."""
    if not len(names):
        return True
    off = _offsets(names)
    if bool((off[1:] == off[:-1]).any()):
        return False
    buf = names.buffers()[2]
    data = np.frombuffer(buf, np.uint8) if buf is not None else np.zeros(0, np.uint8)
    data = data[off[0]:off[-1]]
    return not (bool((data < 0x20).any()) or bool((data[off[:-1] - off[0]] == 0x23).any()))


def _read_table(text, delimiter: str, ranks: bool = True):
    """One piece through pyarrow's CSV reader; None if it does not fit 6 columns.

    Q0 and the tag (and without ``ranks`` the rank) are kept as raw bytes, only
    to see that none is empty (:func:`_has_empty_field`); a plain copy of their
    bytes costs less than looking for empty fields in the text.
    """
    columns = ["topic", "q0", "docno", "rank", "score", "tag"]

    def read(rank_type):
        return pacsv.read_csv(
            pa.py_buffer(text),
            read_options=pacsv.ReadOptions(column_names=columns, block_size=_BLOCK),
            parse_options=pacsv.ParseOptions(delimiter=delimiter, quote_char=False,
                                             double_quote=False, escape_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types={"topic": _DICT, "q0": pa.binary(), "docno": pa.string(),
                              "rank": rank_type, "score": pa.float64(), "tag": pa.binary()},
                strings_can_be_null=False, quoted_strings_can_be_null=False,
                null_values=[]),
        )
    try:
        if not ranks:
            return read(pa.binary())
        try:
            return read(pa.int32())
        except pa.ArrowInvalid:
            return read(pa.string())
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None




def piece_batches(table, ranks: bool) -> list:
    """The piece's table as numpy, batch by batch: per batch ``(names, local, counts,
    words, lens, score, rank, hash)`` — topic names of the batch's dictionary (a pyarrow
    string array), each line's index into them, lines per name, docno words and
    lengths (:func:`~yardstick.inputs.io.docno_words.string_words`), scores, ranks (None
    unless asked for) and docno hashes (:func:`~yardstick.inputs.io.docno_words.hash_words`,
    which the run's join index is made of: hashed here, on the workers, while the
    reader's thread appends) — or a :class:`DocnoTooLong` (its row in the batch)
    where the batch's docnos are too wide, for the reader to raise at the right line.
    """
    out: list = []
    for batch in table.to_batches():
        if not batch.num_rows:
            continue
        topic, docno, score = (batch.column(c) for c in ("topic", "docno", "score"))
        names = topic.dictionary
        if not _plain_names(names):
            raise Irregular  # a comment line, a line starting blank, a control byte
        try:
            words, lens = string_words(docno)
        except DocnoTooLong as e:
            out.append(e)
            return out
        if int(lens.min()) == 0:
            raise Irregular
        # (no blank can be inside a docno: piece_table sent NUL, VT, FF and lone CRs to
        # the line parser and squeezed mixed blanks; other control bytes are docno bytes
        # for trec_eval and the line parser alike)
        local = numbers(topic.indices, np.int32)
        out.append((names, local, np.bincount(local, minlength=len(names)), words, lens,
                    numbers(score, np.float64), ranks_of(batch.column("rank")) if ranks else None,
                    hash_words(words)))
    return out


def numbers(col, dtype) -> np.ndarray:
    """A null-free pyarrow numeric column as numpy, read from its buffers.

    (``to_numpy`` would import pandas, 0.3 s that ``yardstick eval`` spends on
    another thread while this one parses.)
    """
    dtype = np.dtype(dtype)
    chunks = col.chunks if isinstance(col, pa.ChunkedArray) else [col]
    parts = [np.frombuffer(c.buffers()[1], dtype=dtype, count=len(c),
                           offset=c.offset * dtype.itemsize) for c in chunks if len(c)]
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0, dtype)


def ranks_of(col) -> np.ndarray:
    """The rank column as int32: 0 where it is not a decimal integer in range (as
    the line parser reads it)."""
    import pyarrow.compute as pc

    if pa.types.is_int32(col.type):
        return numbers(col, np.int32)
    data = col.buffers()[2]
    if pc.min(pc.binary_length(col)).as_py() == 0 or (
            data is not None and bool((np.frombuffer(data, np.uint8) < 33).any())):
        raise Irregular  # an empty field, or a control byte
    ok = pc.match_substring_regex(col, r"^[+-]?[0-9]{1,18}$")
    r = numbers(pc.replace_substring_regex(pc.if_else(ok, col, "0"), r"^\+", "")
                 .cast(pa.int64()), np.int64)
    return np.where((r >= -2**31) & (r < 2**31), r, 0).astype(np.int32)
