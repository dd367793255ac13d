"""TREC run files: ``topic Q0 docno rank score tag``.

Parsing follows trec_eval 10.0 (``get_trec_results.c``): fields separated by
any white space; lines starting with ``#`` and blank lines are skipped; at
least six fields, anything after the tag ignored; the rank column is ignored
for evaluation; the run tag is that of the last content line.  Unlike
trec_eval, which silently reads ``atof("abc")`` as 0, a score that is not a
finite number is an error, as is a duplicate (topic, docno) (trec_eval refuses
those too, but only later and without a line number).

The fast path hands the bytes to pyarrow's CSV reader (ids dictionary-encoded,
never a Python object per line); anything irregular falls back to a line-by-line
parser that can name the offending line.
"""

from __future__ import annotations

import io
import os

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from core.errors import FormatError
from core.io.text_source import decode_text, display_name, read_bytes
from core.run import Run, sorted_codes

RUN_COLUMNS = "topic Q0 docno rank score tag"
_IRREGULAR = (b"\n ", b"\n#", b"\n\n", b"  ", b"\r", b" \n")
_DICT = pa.dictionary(pa.int32(), pa.string())


def read_run(path: str | os.PathLike, name: str | None = None, group: str = "",
             data: bytes | None = None) -> Run:
    """Read a TREC run file (plain, .gz, .bz2, .xz; ``"-"`` for stdin).

    Parameters
    ----------
    path : path-like
        The file.  Its name (without compression suffix) is the run's name
        unless ``name`` is given.
    name : str, optional
    group : str, optional
    data : bytes, optional
        Content already read (then ``path`` only names it).

    Raises
    ------
    FormatError
        naming the file and line, for any malformed input.
    """
    spath = "<stdin>" if str(path) == "-" else str(path)
    if data is None:
        data = read_bytes(path, "run file (topic Q0 docno rank score tag)")
    if b"\t" in data:
        data = data.replace(b"\t", b" ")
    table = None
    if not any(m in data for m in _IRREGULAR) and not data.startswith((b" ", b"#")):
        table = _parse_fast(data)
    if table is None:
        topic, docno, rank, score, tag = _parse_slow(data, spath)
        t_codes, topics = sorted_codes(*_factorize(topic))
        d_codes, docnos = sorted_codes(*_factorize(docno))
        score = np.asarray(score, dtype=np.float64)
        rank = np.asarray(rank, dtype=np.int64)
    else:
        t_codes, topics = _dict_codes(table.column("topic"))
        d_codes, docnos = _dict_codes(table.column("docno"))
        score = table.column("score").to_numpy()
        rank = _int_or_zero(table.column("rank"))
        tag = table.column("tag")[-1].as_py() if table.num_rows else ""
        bad = np.flatnonzero(~np.isfinite(score))
        if len(bad):
            _raise_line(data, spath, int(bad[0]), "score is not a finite number")
    if len(score) == 0:
        raise FormatError(spath, None, f"has no run lines: expected {RUN_COLUMNS}")
    run = Run(name=name or display_name(spath), tag=tag, topics=topics, docnos=docnos,
              topic_code=t_codes, doc_code=d_codes, score=score, rank=rank,
              path=None if spath == "<stdin>" else os.path.abspath(spath), group=group)
    _check_duplicates(run, data, spath, fast=table is not None)
    return run


def _parse_fast(data: bytes) -> pa.Table | None:
    """pyarrow parse of a regular file; None if it does not fit 6 columns."""
    try:
        return pacsv.read_csv(
            io.BytesIO(data),
            read_options=pacsv.ReadOptions(
                column_names=["topic", "q0", "docno", "rank", "score", "tag"],
                block_size=1 << 24),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False,
                                             double_quote=False, escape_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types={"topic": _DICT, "q0": _DICT, "docno": _DICT, "rank": pa.string(),
                              "score": pa.float64(), "tag": pa.string()},
                include_columns=["topic", "docno", "rank", "score", "tag"],
                strings_can_be_null=False, quoted_strings_can_be_null=False,
                null_values=[]),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None


def _dict_codes(col: pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray]:
    arr = col.unify_dictionaries().combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    codes = arr.indices.to_numpy(zero_copy_only=False).astype(np.int32, copy=False)
    cats = np.asarray(arr.dictionary.to_pylist(), dtype=object)
    return sorted_codes(cats, codes)


def _int_or_zero(col: pa.ChunkedArray) -> np.ndarray:
    try:
        return col.cast(pa.int64()).to_numpy()
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        out = []
        for v in col.to_pylist():
            try:
                out.append(int(v))
            except ValueError:
                out.append(0)
        return np.asarray(out, dtype=np.int64)


def _factorize(values: list[str]) -> tuple[np.ndarray, np.ndarray]:
    index: dict[str, int] = {}
    codes = np.fromiter((index.setdefault(v, len(index)) for v in values), np.int32, len(values))
    return np.asarray(list(index), dtype=object), codes


def _parse_slow(data: bytes, spath: str):
    text = decode_text(data)
    topic, docno, rank, score = [], [], [], []
    tag = ""
    for lineno, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) < 6:
            raise FormatError(spath, lineno,
                              f"expected 6 columns ({RUN_COLUMNS}), found {len(fields)}", line)
        try:
            s = float(fields[4])
        except ValueError:
            raise FormatError(spath, lineno,
                              f"score {fields[4]!r} is not a number (columns: {RUN_COLUMNS})",
                              line) from None
        if not np.isfinite(s):
            raise FormatError(spath, lineno, "score is not a finite number", line)
        try:
            r = int(fields[3])
        except ValueError:
            r = 0
        topic.append(fields[0])
        docno.append(fields[2])
        rank.append(r)
        score.append(s)
        tag = fields[5]
    return topic, docno, rank, score, tag


def _raise_line(data: bytes, spath: str, row: int, reason: str):
    lines = decode_text(data).split("\n")
    raise FormatError(spath, row + 1, reason, lines[row] if row < len(lines) else None)


def _check_duplicates(run: Run, data: bytes, spath: str, fast: bool) -> None:
    key = run.topic_code.astype(np.int64) * max(1, len(run.docnos)) + run.doc_code
    order = np.argsort(key, kind="stable")
    dup = np.flatnonzero(key[order][1:] == key[order][:-1])
    if not len(dup):
        return
    row = int(order[dup[0] + 1])
    t = run.topics[run.topic_code[row]]
    d = run.docnos[run.doc_code[row]]
    reason = (f"duplicate document {d!r} for topic {t!r} "
              "(trec_eval refuses runs that retrieve a document twice for a topic)")
    if fast:
        _raise_line(data, spath, row, reason)
    # slow path: find the line by scanning
    seen = 0
    for lineno, line in enumerate(decode_text(data).splitlines(), 1):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if seen == row:
            raise FormatError(spath, lineno, reason, line)
        seen += 1
    raise FormatError(spath, None, reason)


def write_run(run: Run, path: str | os.PathLike, tag: str | None = None) -> None:
    """Write a run as TREC text in trec_eval order (score desc, docno desc), ranks 1..n."""
    from core.ranking import trec_order  # local: avoid an import cycle

    order = trec_order(run.topic_code, run.score, run.doc_code)
    tag = tag or run.tag or run.name
    counts = np.bincount(run.topic_code[order], minlength=len(run.topics))
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    ranks = np.arange(len(order)) - np.repeat(starts, counts) + 1
    lines = [f"{run.topics[run.topic_code[i]]} Q0 {run.docnos[run.doc_code[i]]} {r} "
             f"{run.score[i]:.6g} {tag}\n" for i, r in zip(order, ranks)]
    from core.io.atomic import atomic_write_text

    atomic_write_text(path, "".join(lines))
