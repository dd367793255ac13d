"""TREC run files: ``topic Q0 docno rank score tag``.

Parsing follows trec_eval 10.0 (``get_trec_results.c``): fields separated by
any white space; lines starting with ``#`` and blank lines are skipped; at
least six fields, anything after the tag ignored; the rank column is ignored
for evaluation; the run tag is that of the last content line.  Unlike
trec_eval, which silently reads ``atof("abc")`` as 0, a score that is not a
finite number is an error, as is a duplicate (topic, docno) (trec_eval refuses
those too, but only later and without a line number).

The fast path hands the bytes to pyarrow's CSV reader and keeps docnos as one
NUL-padded numpy bytes array (see :class:`core.run.Run`), never a Python object
per line; anything irregular falls back to a line-by-line parser that can name
the offending line.
"""

from __future__ import annotations

import os

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from core.errors import FormatError
from core.io.line_rules import field_splitter, has_empty_field, parse_float, parse_int, text_lines
from core.io.text_source import decode_text, display_name, read_bytes
from core.run import Run, codes_of, fixed_width_bytes, to_bytes_array

RUN_COLUMNS = "topic Q0 docno rank score tag"
_DICT = pa.dictionary(pa.int32(), pa.string())


def read_run(path: str | os.PathLike, name: str | None = None, group: str = "",
             data: bytes | None = None) -> Run:
    """Read a TREC run file (plain, .gz, .bz2, .xz; ``"-"`` for stdin).

    Parameters
    ----------
    path : path-like
        The file.  Its name (without compression suffix) is the run's name
        unless ``name`` is given.
    name, group : str, optional
    data : bytes, optional
        Content already read (then ``path`` only names it).

    Raises
    ------
    FormatError
        naming the file and line, for any malformed input.
    """
    spath = "<stdin>" if str(path) == "-" else str(path)
    given = data
    if data is None:
        data = read_bytes(path, "run file (topic Q0 docno rank score tag)")
    delimiter = " "
    if b"\t" in data:
        if b" " not in data:
            delimiter = "\t"          # tab-separated throughout: no copy needed
        else:
            data = data.replace(b"\t", b" ")
    cols = None
    if b"\r" not in data and b"\x0b" not in data and b"\x0c" not in data:
        cols = _parse_fast(data, delimiter)
    fast = cols is not None
    if cols is None:
        cols = _parse_slow(data, spath)
    topic_code, topics, docno_bytes, score, rank, tag = cols
    del cols
    if fast and spath != "<stdin>" and given is None:
        # the text is only needed again to name a bad line: read it again then
        data = None
    if len(score) == 0:
        raise FormatError(spath, None, f"has no run lines: expected {RUN_COLUMNS}")
    if fast:
        bad = np.flatnonzero(~np.isfinite(score))
        if len(bad):
            _raise_row(data, spath, int(bad[0]), "score is not a finite number")
    run = Run(name=name or display_name(spath), tag=tag, topics=topics, topic_code=topic_code,
              docno_bytes=docno_bytes, score=score, rank=rank,
              path=None if spath == "<stdin>" else os.path.abspath(spath), group=group)
    dup = run.first_duplicate()  # numpy sorts without holding the GIL
    if dup is not None:
        reason = (f"document {run.docno(dup)!r} appears twice for topic "
                  f"{run.topics[run.topic_code[dup]]!r} (trec_eval refuses such runs)")
        _raise_row(data, spath, dup, reason)
    return run


def _parse_fast(data: bytes, delimiter: str = " "):
    """pyarrow parse of a regular file; None if it does not fit 6 columns."""
    def read(rank_type):
        return pacsv.read_csv(
            pa.BufferReader(data),  # not io.BytesIO: reading it would hold the GIL
            read_options=pacsv.ReadOptions(
                column_names=["topic", "q0", "docno", "rank", "score", "tag"],
                block_size=1 << 24),
            parse_options=pacsv.ParseOptions(delimiter=delimiter, quote_char=False,
                                             double_quote=False, escape_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types={"topic": _DICT, "q0": pa.string(), "docno": pa.string(),
                              "rank": rank_type, "score": pa.float64(), "tag": pa.string()},
                include_columns=["topic", "docno", "rank", "score"],
                strings_can_be_null=False, quoted_strings_can_be_null=False,
                null_values=[]),
        )
    try:
        try:
            table = read(pa.int64())
        except pa.ArrowInvalid:
            table = read(pa.string())
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    docno = table.column("docno").combine_chunks()
    docno_bytes = fixed_width_bytes(docno, ascii_known=data.isascii())
    if docno_bytes is None:
        return None  # non-ASCII docnos: let the line parser encode them
    if has_empty_field(data, delimiter.encode()):
        return None  # doubled or trailing delimiter: a missing field the line parser names
    tcol = table.column("topic").unify_dictionaries()
    cats = np.asarray(tcol.chunk(0).dictionary.to_pylist(), dtype=object)
    raw = np.concatenate([c.indices.to_numpy(zero_copy_only=False) for c in tcol.chunks])
    if any(c.startswith("#") or not c for c in cats):
        return None  # comment lines (the slow path skips them) or a line starting blank
    t_codes_local, topics = codes_of(cats)
    topic_code = t_codes_local[raw].astype(np.int32)
    score = table.column("score").to_numpy()
    rank_col = table.column("rank")
    if pa.types.is_integer(rank_col.type):
        rank = rank_col.to_numpy()
    else:
        rank = np.zeros(len(score), np.int64)
    tag = _last_tag(data)
    return topic_code, topics, docno_bytes, score, rank.astype(np.int32), tag


def _last_tag(data: bytes) -> str:
    """The run tag (6th field) of the last non-blank line, without copying the data."""
    end = len(data)
    while end and data[end - 1] in b" \t\n\r":
        end -= 1
    last = data[data.rfind(b"\n", 0, end) + 1:end].split()
    return last[5].decode("utf-8", "replace") if len(last) >= 6 else ""


def _parse_slow(data: bytes, spath: str):
    text = decode_text(data)
    split = field_splitter(text)
    topic, docno, rank, score = [], [], [], []
    tag = ""
    for lineno, line in enumerate(text_lines(text), 1):
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
            np.asarray(rank, dtype=np.int64), tag)


def _raise_row(data: bytes | None, spath: str, row: int, reason: str):
    """Raise FormatError at the ``row``-th content line (0-based)."""
    if data is None:
        data = read_bytes(spath, "run file")
    text = decode_text(data)
    lines, split = text_lines(text), field_splitter(text)
    seen, lineno = -1, None
    for i, line in enumerate(lines, 1):
        f = split(line)
        if f and not f[0].startswith("#"):
            seen += 1
            if seen == row:
                lineno = i
                break
    if lineno is None:
        raise FormatError(spath, None, reason)
    raise FormatError(spath, lineno, reason, lines[lineno - 1] if lineno <= len(lines) else None)


def write_run(run: Run, path: str | os.PathLike, tag: str | None = None) -> None:
    """Write a run as TREC text in trec_eval order (score desc, docno desc), ranks 1..n."""
    from core.io.atomic import atomic_write_text
    from core.ranking import trec_order

    order = trec_order(run.topic_code, run.score, run.docno_bytes)
    tag = tag or run.tag or run.name
    counts = np.bincount(run.topic_code[order], minlength=len(run.topics))
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    ranks = np.arange(len(order)) - np.repeat(starts, counts) + 1
    lines = [f"{run.topics[run.topic_code[i]]} Q0 {run.docno(i)} {r} {float(run.score[i])!r} {tag}\n"
             for i, r in zip(order.tolist(), ranks.tolist())]
    atomic_write_text(path, "".join(lines))
