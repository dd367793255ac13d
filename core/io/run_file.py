"""TREC run files: ``topic Q0 docno rank score tag``.

Parsing follows trec_eval 10.0 (``get_trec_results.c``): fields separated by
any white space; lines starting with ``#`` and blank lines are skipped; at
least six fields, anything after the tag ignored; the rank column is ignored
for evaluation; the run tag is that of the last content line.  Unlike
trec_eval, which silently reads ``atof("abc")`` as 0, a score that is not a
finite number is an error, as is a duplicate (topic, docno) (trec_eval refuses
those too, but only later and without a line number).

The fast path reads the file in pieces of :data:`CHUNK` bytes, hands each to
pyarrow's CSV reader and converts its table batch by batch into numpy columns
(docnos as one NUL-padded bytes array, see :class:`yardstick.run.Run`), never a
Python object per line.  Anything irregular (a lone CR, a byte-order mark,
fields that do not make six columns, control bytes in a field) falls back to a
line-by-line parser that can name the offending line.
"""

from __future__ import annotations

import os
import re

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
from yardstick.errors import FormatError
from yardstick.io.line_rules import field_splitter, parse_float, parse_int, raise_at_row, text_lines
from yardstick.io.text_source import _KIND, check_size, decode_text, display_name, read_bytes
from yardstick.run import (
    DocnoTooLong,
    Run,
    check_docno_width,
    codes_of,
    string_words,
    to_bytes_array,
)

RUN_COLUMNS = "topic Q0 docno rank score tag"
_DICT = pa.dictionary(pa.int32(), pa.string())
_MAGIC = tuple(_KIND)


#: Text handed to pyarrow per call: the file is read and converted in pieces of
#: this size, so memory holds one piece and its table, not the whole text.
CHUNK = 1 << 24
_BLOCK = 1 << 22  # pyarrow's parallel unit within a piece


class _Irregular(Exception):
    """The text needs the line parser (comments, CR, empty fields, odd columns...)."""


def read_run(path: str | os.PathLike, name: str | None = None, group: str = "",
             data: bytes | None = None, ranks: bool = True, cancel=None) -> Run:
    """Read a TREC run file (plain, .gz, .bz2, .xz; ``"-"`` for stdin).

    Parameters
    ----------
    path : path-like
        The file.  Its name (without compression suffix) is the run's name
        unless ``name`` is given.
    name, group : str, optional
    data : bytes, optional
        Content already read (then ``path`` only names it).
    ranks : bool
        Keep the file's rank column (the window shows it).  ``yardstick eval``
        passes False: trec_eval ignores ranks, and the run's ``rank`` is then None.
    cancel : threading.Event, optional
        Checked between pieces (16 MiB, tens of milliseconds) and every 65,536
        lines of the line parser: once set, reading stops with
        :class:`yardstick.progress.Cancelled` and everything read is dropped.

    Raises
    ------
    FormatError
        naming the file and line, for any malformed input.
    """
    spath = "<stdin>" if str(path) == "-" else str(path)
    try:
        return _read_run(path, spath, name, group, data, ranks, cancel)
    except DocnoTooLong as e:
        _raise_row(data, spath, e.index, str(e))


def _read_run(path, spath: str, name: str | None, group: str, data: bytes | None,
              ranks: bool, cancel) -> Run:
    cols = None
    if data is None and spath != "<stdin>" and _is_plain_file(spath):
        try:
            cols = _parse_pieces(_watched(_file_pieces(spath), cancel),
                                 os.path.getsize(spath), ranks)
        except (_Irregular, OSError):
            cols = None
    if cols is None:
        _check(cancel)
        if data is None:
            data = read_bytes(path, "run file (topic Q0 docno rank score tag)")
        try:
            cols = _parse_pieces(_watched(_bytes_pieces(data), cancel), len(data), ranks)
        except _Irregular:
            cols = _parse_slow(data, spath, cancel)
    topic_code, topics, docno_bytes, score, rank, tag, topic_lines = cols
    if not ranks:
        rank = None
    del cols
    if len(score) == 0:
        raise FormatError(spath, None, f"has no run lines: expected {RUN_COLUMNS}")
    bad = np.flatnonzero(~np.isfinite(score))
    if len(bad):
        _raise_row(data, spath, int(bad[0]), "score is not a finite number")
    run = Run(name=name or display_name(spath), tag=tag, topics=topics, topic_code=topic_code,
              docno_bytes=docno_bytes, score=score, rank=rank,
              path=None if spath == "<stdin>" else os.path.abspath(spath), group=group)
    if topic_lines is not None:
        run.meta["_topic_counts"] = topic_lines  # yardstick.judged.run_topic_counts
    dup = run.first_duplicate()  # numpy sorts without holding the GIL
    if dup is not None:
        reason = (f"document {run.docno(dup)!r} appears twice for topic "
                  f"{run.topics[run.topic_code[dup]]!r} (trec_eval refuses such runs)")
        _raise_row(data, spath, dup, reason)
    return run


def _check(cancel) -> None:
    if cancel is not None and cancel.is_set():
        from yardstick.progress import Cancelled

        raise Cancelled("reading cancelled")


def _watched(pieces, cancel):
    """``pieces``, stopping with Cancelled as soon as ``cancel`` is set."""
    for piece in pieces:
        _check(cancel)
        yield piece


def _is_plain_file(spath: str) -> bool:
    """A regular, uncompressed file that fits in memory (else read_bytes decides)."""
    try:
        if not os.path.isfile(spath):
            return False
        check_size(spath, os.path.getsize(spath), "run file")
        with open(spath, "rb") as f:
            head = f.read(8)
    except (OSError, FormatError):
        return False
    return bool(head) and not any(head.startswith(m) for m in _MAGIC)


def _file_pieces(spath: str):
    """(buffer, start, end) pieces of a file, each ending at a line end, in one
    reused buffer (no page of memory is touched twice)."""
    keep = 0
    with open(spath, "rb") as f:
        # no bigger than the file: zeroing 64 MiB for a 1 KB run made a 3000-run session
        # take over a minute
        buf = bytearray(max(1, min(CHUNK, os.fstat(f.fileno()).st_size + 1)))
        while True:
            with memoryview(buf) as mv:
                nread = f.readinto(mv[keep:])
            end = keep + nread
            if nread == 0:
                if keep:
                    yield buf, 0, keep
                return
            cut = buf.rfind(b"\n", 0, end) + 1
            if cut == 0:  # a line longer than the buffer: grow it
                if end == len(buf):  # (a new buffer: pyarrow may still hold the old one)
                    bigger = bytearray(2 * len(buf))
                    bigger[:end] = buf[:end]
                    buf = bigger
                keep = end
                continue
            yield buf, 0, cut
            buf[:end - cut] = buf[cut:end]
            keep = end - cut


def _bytes_pieces(data: bytes):
    """(data, start, end) pieces of text in memory, each ending at a line end."""
    start, size = 0, len(data)
    while start < size:
        end = min(size, start + CHUNK)
        if end < size:
            cut = data.rfind(b"\n", start, end) + 1
            end = cut if cut > start else data.find(b"\n", end) + 1 or size
        yield data, start, end
        start = end


class _Columns:
    """Output columns filled batch by batch, with room estimated from the file size.

    Only what evaluation reads: topic ids, docno words and scores (and the rank
    column when asked for).  Nothing derived (hashes, sort keys) is built here.
    """

    def __init__(self, capacity: int, ranks: bool):
        self.cap = max(capacity, 1024)
        self.n = 0
        self.words = np.empty((self.cap, 1), np.uint64)
        self.score = np.empty(self.cap, np.float64)
        self.rank = np.empty(self.cap, np.int32) if ranks else None
        self.topic = np.empty(self.cap, np.int32)
        self.topic_lines = np.zeros(0, np.int64)  # lines per topic id (first-seen order)
        self.size = 0  # bytes of the file (bounds the docno width)

    def reserve(self, m: int, k: int) -> slice:
        """Room for ``m`` more lines of docnos up to ``8 k`` bytes: their slice."""
        if self.n + m > self.cap or k > self.words.shape[1]:
            self._grow(max(self.cap, int((self.n + m) * 1.25)), k)
        a = self.n
        self.n += m
        return slice(a, a + m)

    def _grow(self, cap: int, k: int) -> None:
        n, k0 = self.n, self.words.shape[1]
        words = np.empty((cap, max(k, k0)), np.uint64)
        words[:n, :k0] = self.words[:n]
        words[:n, k0:] = 0
        self.words = words
        for name in ("score", "rank", "topic"):
            old = getattr(self, name)
            if old is None:
                continue
            new = np.empty(cap, old.dtype)
            new[:n] = old[:n]
            setattr(self, name, new)
        self.cap = cap


def _parse_pieces(pieces, size: int, ranks: bool = True):
    """pyarrow parse of a regular run, piece by piece; raises _Irregular otherwise.

    Per piece: the checks that send a file to the line parser, pyarrow's parse,
    then per pyarrow batch (a few MiB, so the work stays in cache) the columns
    as numpy: docnos as 8-byte words, topics as codes.  Each piece's table is
    dropped before the next piece is read.
    """
    out = None
    topic_ids: dict[str, int] = {}
    tag = ""
    for table, piece_tag, piece_bytes in _tables(pieces, ranks):
        tag = piece_tag or tag
        if out is None:
            out = _Columns(int(size / piece_bytes * table.num_rows * 1.02) + 1024, ranks)
            out.size = size
        for batch in table.to_batches():
            if batch.num_rows:
                _convert_batch(batch, out, topic_ids)
        del table
    if out is None or out.n == 0:
        raise _Irregular
    n = out.n
    # topic codes in first-seen order -> codes into the byte-ordered topics
    seen = list(topic_ids)
    by_bytes = sorted(range(len(seen)), key=lambda i: seen[i].encode("utf-8", "surrogateescape"))
    remap = np.empty(len(seen), np.int32)
    remap[by_bytes] = np.arange(len(seen), dtype=np.int32)
    topics = np.array([seen[i] for i in by_bytes], dtype=object)
    topic_code = out.topic[:n]
    for a in range(0, n, 1 << 20):  # in place, a slice at a time
        topic_code[a:a + (1 << 20)] = remap[topic_code[a:a + (1 << 20)]]
    lines = np.zeros(len(seen), np.int64)
    lines[remap] = out.topic_lines
    k = out.words.shape[1]
    docno_bytes = out.words[:n].view(f"S{8 * k}").reshape(n)
    rank = out.rank[:n] if out.rank is not None else None
    return topic_code, topics, docno_bytes, out.score[:n], rank, tag, lines


def _tables(pieces, ranks: bool):
    """(pyarrow table, run tag of its last line, piece size in bytes) of each piece.

    pyarrow parses on its own threads without the GIL, so while the caller
    converts piece i to numpy (:func:`_convert_batch`), piece i + 1 is being
    parsed.  The next piece is taken from ``pieces`` (which reuses one buffer)
    only once the parse reading the buffer has finished.
    """
    from concurrent.futures import ThreadPoolExecutor

    it = iter(pieces)
    first = True
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = None  # (future table, size) of the piece being parsed
        while True:
            done = None
            if pending is not None:
                done = (*pending[0].result(), pending[1])  # the buffer is free again
                pending = None
            for buf, start, end in it:
                if end <= start:
                    continue
                if first and start == 0 and buf.startswith(b"\xef\xbb\xbf"):
                    raise _Irregular  # a byte-order mark: the line parser drops it
                first = False
                pending = (pool.submit(_piece_table, buf, start, end, ranks), end - start)
                break
            if done is not None:
                yield done
            if pending is None:
                return


def _piece_table(buf, start: int, end: int, ranks: bool = True):
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
    only.  Raises _Irregular if the parse still
    fails (the line parser then names the line), or if the text holds a byte
    that pyarrow would keep inside a field but trec_eval would not (NUL, VT, FF).
    """
    if (buf.find(b"\0", start, end) >= 0 or buf.find(b"\x0b", start, end) >= 0
            or buf.find(b"\x0c", start, end) >= 0):
        raise _Irregular
    delimiter = " "
    squeeze = False
    if buf.find(b"\r", start, end) >= 0:
        if buf.count(b"\r", start, end) != buf.count(b"\r\n", start, end):
            raise _Irregular  # a lone CR: the line parser ends the line there (line_rules)
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
        raise _Irregular
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
            if len(c):
                off = np.frombuffer(c.buffers()[1], np.int32, count=len(c) + 1, offset=c.offset * 4)
                if bool((off[1:] == off[:-1]).any()):
                    return True
    return any("" in c.dictionary.to_pylist() for c in table.column("topic").chunks)


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


def _convert_batch(batch, out: _Columns, topic_ids: dict) -> None:
    """One pyarrow batch into the output columns."""
    topic, docno, score = (batch.column(c) for c in ("topic", "docno", "score"))
    names = topic.dictionary.to_pylist()
    for t in names:
        if t not in topic_ids and (not t or t.startswith("#") or _has_control(t)):
            raise _Irregular  # a comment line, a line starting blank, a control byte
    ids = np.array([topic_ids.setdefault(t, len(topic_ids)) for t in names], np.int32)
    if len(topic_ids) > len(out.topic_lines):
        out.topic_lines = np.concatenate(
            [out.topic_lines, np.zeros(len(topic_ids) - len(out.topic_lines), np.int64)])
    try:
        words, lens = string_words(docno)
        if words.shape[1] > out.words.shape[1]:  # the whole output widens: bound it too
            check_docno_width(max(out.cap, out.n + batch.num_rows), words.shape[1], out.size,
                              lens)
    except DocnoTooLong as e:
        raise DocnoTooLong(out.n + e.index, e.length, e.need) from None
    if int(lens.min()) == 0:
        raise _Irregular
    # (no blank can be inside a docno: _piece_table sent NUL, VT, FF and lone CRs to
    # the line parser and squeezed mixed blanks; other control bytes are docno bytes
    # for trec_eval and the line parser alike)
    k = words.shape[1]
    rows = out.reserve(batch.num_rows, k)
    if k == out.words.shape[1]:
        out.words[rows] = words
    else:
        out.words[rows, :k] = words
        out.words[rows, k:] = 0
    del words
    local = _numbers(topic.indices, np.int32)
    np.take(ids, local, out=out.topic[rows])
    out.topic_lines[ids] += np.bincount(local, minlength=len(ids))
    out.score[rows] = _numbers(score, np.float64)
    if out.rank is not None:
        out.rank[rows] = _ranks(batch.column("rank"))


_CONTROL = re.compile("[\x00-\x1f]")


def _has_control(text: str) -> bool:
    return _CONTROL.search(text) is not None


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


def _numbers(col, dtype) -> np.ndarray:
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


def _ranks(col) -> np.ndarray:
    """The rank column as int32: 0 where it is not a decimal integer in range (as
    the line parser reads it)."""
    import pyarrow.compute as pc

    if pa.types.is_int32(col.type):
        return _numbers(col, np.int32)
    data = col.buffers()[2]
    if pc.min(pc.binary_length(col)).as_py() == 0 or (
            data is not None and bool((np.frombuffer(data, np.uint8) < 33).any())):
        raise _Irregular  # an empty field, or a control byte
    ok = pc.match_substring_regex(col, r"^[+-]?[0-9]{1,18}$")
    r = _numbers(pc.replace_substring_regex(pc.if_else(ok, col, "0"), r"^\+", "")
                 .cast(pa.int64()), np.int64)
    return np.where((r >= -2**31) & (r < 2**31), r, 0).astype(np.int32)


def _parse_slow(data: bytes, spath: str, cancel=None):
    text = decode_text(data)
    split = field_splitter(text)
    topic, docno, rank, score = [], [], [], []
    tag = ""
    for lineno, line in enumerate(text_lines(text), 1):
        if not lineno & 0xFFFF:
            _check(cancel)
        fields = split(line)
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) < 6:
            raise FormatError(spath, lineno,
                              f"expected 6 columns ({RUN_COLUMNS}), found {len(fields)}", line)
        s = parse_float(fields[4])
        if s is None:
            raise FormatError(spath, lineno,
                              f"score {fields[4]!r} is not a number (columns: {RUN_COLUMNS})",
                              line)
        if not np.isfinite(s):
            raise FormatError(spath, lineno, "score is not a finite number", line)
        r = parse_int(fields[3])
        r = r if r is not None and -2**31 <= r < 2**31 else 0
        topic.append(fields[0])
        docno.append(fields[2])
        rank.append(r)
        score.append(s)
        tag = fields[5]
    topic_code, topics = codes_of(topic)
    return (topic_code, topics, to_bytes_array(docno), np.asarray(score, dtype=np.float64),
            np.asarray(rank, dtype=np.int32), tag, None)


def _raise_row(data: bytes | None, spath: str, row: int, reason: str):
    """Raise FormatError at the ``row``-th content line (0-based)."""
    raise_at_row(read_bytes(spath, "run file") if data is None else data, spath, row, reason)


def write_run(run: Run, path: str | os.PathLike, tag: str | None = None) -> None:
    """Write a run as TREC text in trec_eval order (score desc, docno desc), ranks 1..n."""
    from yardstick.io.atomic import atomic_write_text
    from yardstick.ranking import trec_order

    order = trec_order(run.topic_code, run.score, run.docno_bytes)
    tag = tag or run.tag or run.name
    counts = np.bincount(run.topic_code[order], minlength=len(run.topics))
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    ranks = np.arange(len(order)) - np.repeat(starts, counts) + 1
    lines = [f"{run.topics[run.topic_code[i]]} Q0 {run.docno(i)} {r} {float(run.score[i])!r} {tag}\n"
             for i, r in zip(order.tolist(), ranks.tolist())]
    atomic_write_text(path, "".join(lines))
