"""TREC qrels files: ``topic iter docno rel`` (trec_eval ``get_qrels.c``).

White-space separated, ``#`` comment lines and blank lines skipped, the
``iter`` column ignored, ``rel`` an integer (negative: judged-but-unassessed).
A (topic, docno) judged twice is an error, as in trec_eval.
"""

from __future__ import annotations

import os

import numpy as np

from yardstick.common.errors import FormatError
from yardstick.inputs.io.atomic import atomic_write_text
from yardstick.inputs.io.line_rules import (
    has_empty_field,
    has_hex_field,
    line_at,
    numbered_lines,
    parse_int,
    raise_at_row,
)
from yardstick.inputs.io.text_source import display_name, read_bytes, text_column
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import MAX_DOCNO_BYTES, DocnoTooLong

QRELS_COLUMNS = "topic iter docno rel"


def read_qrels(path: str | os.PathLike, name: str | None = None,
               data: bytes | None = None) -> Qrels:
    """Read a TREC qrels file (plain or compressed).

    Raises
    ------
    FormatError
        naming file and line: wrong column count, non-integer relevance,
        duplicate judgment, no judgments at all.
    """
    spath = str(path)
    if data is None:
        data = read_bytes(path, "qrels file (topic iter docno rel)")
    try:
        q = _read(data, spath, name)
        q.docno_bytes  # noqa: B018 - the fixed-width docnos, built (and bounded) now
    except DocnoTooLong as e:
        raise_at_row(data, spath, e.index, str(e))
    return q


#: the largest relevance grade read (trec_eval keeps a counter per grade 0..max per topic)
MAX_RELEVANCE = 1000
#: negative grades below this are read as this (all negative grades mean the same)
MIN_RELEVANCE = -(2**31)


def _read(data: bytes, spath: str, name: str | None) -> Qrels:
    if b"\t" in data:
        data = data.replace(b"\t", b" ")
    regular = b"\r" not in data and b"\x0b" not in data and b"\x0c" not in data
    fast = _read_fast(data, spath, name) if regular else None
    if fast is not None:
        return fast
    import pandas as pd

    topics, docnos, rels, lines = [], [], [], []
    for lineno, line, split in numbered_lines(data):   # a piece at a time: see there
        f = split(line)
        if not f or f[0].startswith("#"):
            continue
        if len(f) != 4:
            hint = ""
            if len(f) == 6:
                hint = " (this looks like a run file: topic Q0 docno rank score tag)"
            raise FormatError(spath, lineno,
                              f"expected 4 columns ({QRELS_COLUMNS}), found {len(f)}{hint}", line)
        r = parse_int(f[3])
        if r is None:
            raise FormatError(spath, lineno,
                              f"relevance {f[3]!r} is not an integer (columns: {QRELS_COLUMNS})",
                              line)
        if r > MAX_RELEVANCE:
            raise FormatError(spath, lineno, f"relevance {r:,} is above the largest supported "
                              f"grade, {MAX_RELEVANCE:,} (trec_eval keeps a counter per grade "
                              "and topic; see README 'Limits')", line)
        r = max(r, MIN_RELEVANCE)  # any negative grade means the same: judged, not assessed
        if len(f[2]) > MAX_DOCNO_BYTES // 4 and _utf8_length(f[2]) > MAX_DOCNO_BYTES:
            # before the fixed-width docno column (every line padded to this one) is built:
            # the run reader's bound, met on the line that breaks it
            raise FormatError(spath, lineno, str(DocnoTooLong(0, _utf8_length(f[2]), 0)),
                              line[:200])
        topics.append(f[0])
        docnos.append(f[2])
        rels.append(r)
        lines.append(lineno)
    if not topics:
        raise FormatError(spath, None, f"has no judgments: expected lines '{QRELS_COLUMNS}'")
    # text_column: a docno may hold bytes that are not UTF-8 (surrogateescape)
    frame = pd.DataFrame({"topic": text_column(topics),
                          "docno": text_column(docnos),
                          "rel": np.asarray(rels, dtype=np.int64),
                          "line": np.asarray(lines, dtype=np.int64)})
    # byte order (trec_eval's strcmp), on the bytes the strings were read from
    tb, db = _bytes_column(topics), _bytes_column(docnos)
    order = np.lexsort((db, tb))
    frame = frame.iloc[order].reset_index(drop=True)
    tb, db = tb[order], db[order]
    dup = np.concatenate([[False], (tb[1:] == tb[:-1]) & (db[1:] == db[:-1])])
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        row = frame.iloc[i]
        raise FormatError(spath, int(row["line"]),
                          f"document {row['docno']!r} is judged twice for topic {row['topic']!r}",
                          line_at(data, int(row["line"])))
    return Qrels(frame=frame.drop(columns="line"), name=name or display_name(spath),
                 path=os.path.abspath(spath))


def _utf8_length(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def _bytes_column(values: list[str]) -> np.ndarray:
    enc = [v.encode("utf-8", "surrogateescape") for v in values]
    return np.array(enc, dtype=f"S{max(1, max(map(len, enc), default=1))}")


def _read_fast(data: bytes, spath: str, name: str | None) -> Qrels | None:
    """pyarrow parse of a regular qrels file; None to fall back to the line parser."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    from yardstick.inputs.run import codes_of, docno_hash, fixed_width_bytes

    try:
        table = pacsv.read_csv(
            pa.py_buffer(data),  # not io.BytesIO: reading that would hold the GIL
            read_options=pacsv.ReadOptions(column_names=["topic", "iter", "docno", "rel"],
                                           block_size=1 << 22),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False,
                                             double_quote=False, escape_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types={"topic": pa.dictionary(pa.int32(), pa.string()),
                              "iter": pa.string(), "docno": pa.string(), "rel": pa.int64()},
                include_columns=["topic", "docno", "rel"], strings_can_be_null=False,
                null_values=[]))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    if table.num_rows == 0:
        return None
    tcol = table.column("topic").unify_dictionaries()
    cats = np.asarray(tcol.chunk(0).dictionary.to_pylist(), dtype=object)
    if any(c.startswith("#") or not c for c in cats):
        return None
    if has_empty_field(data, b" ") or has_hex_field(data):
        return None  # a missing field, or '0x1F' (pyarrow reads it as 31): the line parser
    docno = table.column("docno").combine_chunks()
    rel_col = table.column("rel")
    del table
    dbytes = fixed_width_bytes(docno)  # UTF-8 as pyarrow checked it, byte for byte
    local, topics = codes_of(cats)
    tcode = np.concatenate([local[np.frombuffer(c.indices.buffers()[1], np.int32, count=len(c),
                                                offset=c.indices.offset * 4)]
                            for c in tcol.chunks])
    del tcol
    rel = np.concatenate([np.frombuffer(c.buffers()[1], np.int64, count=len(c),
                                        offset=c.offset * 8) for c in rel_col.chunks])
    del rel_col
    if len(rel) and (int(rel.max()) > MAX_RELEVANCE or int(rel.min()) < MIN_RELEVANCE):
        return None  # the line parser names the line
    order = _sorted_order(tcode, dbytes)
    if order is not None:
        tcode, dbytes, rel = tcode[order], dbytes[order], rel[order]
    same = tcode[1:] == tcode[:-1]
    key = dbytes.view(np.uint64) if dbytes.dtype.itemsize == 8 else dbytes
    same &= key[1:] == key[:-1]
    del key
    if bool(same.any()):
        return None  # a (topic, docno) judged twice: let the line parser name it
    del same
    dhash = docno_hash(dbytes)
    def build_frame():
        # pyarrow-backed string columns: no Python object per judgment
        import pandas as pd

        docnos = docno if order is None else docno.take(pa.array(order))
        topic_arr = pa.DictionaryArray.from_arrays(pa.array(tcode.astype(np.int32)),
                                                   pa.array(topics.tolist(), pa.string()))
        return pd.DataFrame({"topic": pd.array(topic_arr.cast(pa.string()), dtype="str"),
                             "docno": pd.array(docnos, dtype="str"), "rel": rel})

    q = Qrels(name=name or display_name(spath), path=os.path.abspath(spath),
              build_frame=build_frame)
    q.__dict__["rel"] = rel
    q.__dict__["docno_bytes"] = dbytes
    q.__dict__["docno_hash"] = dhash
    q.__dict__["topic_index"] = (topics, tcode)
    return q


def _sorted_order(tcode: np.ndarray, dbytes: np.ndarray) -> np.ndarray | None:
    """Permutation sorting by (topic, docno), or None if already sorted.

    Qrels files are usually grouped by topic with docnos sorted, the topics in
    numeric rather than byte order ("2" after "10"); then the docnos are checked
    in file order and only the topic blocks are put in order, which is O(n).
    """
    from yardstick.inputs.ranking import _group_by_topic

    if len(tcode) < 2:
        return None
    # each docno after its predecessor in the same topic (unsigned big-endian words
    # compare as strcmp does: one integer comparison instead of a byte loop)
    key = dbytes.view(">u8") if dbytes.dtype.itemsize == 8 else dbytes
    changes = tcode[1:] != tcode[:-1]
    heads = tcode[np.concatenate([[0], np.flatnonzero(changes) + 1])]
    step = key[1:] >= key[:-1]
    step |= changes
    del changes
    # each topic one block, its docnos in order: only the blocks are put in order
    blocks_sorted = bool(step.all()) and len(np.unique(heads)) == len(heads)
    del step
    if blocks_sorted and bool((heads[1:] > heads[:-1]).all()):
        return None
    order = _group_by_topic(tcode)
    if not blocks_sorted:
        t, d = tcode[order], key[order]
        same = t[1:] == t[:-1]
        if not bool((d[1:][same] >= d[:-1][same]).all()):
            order = np.lexsort((dbytes, tcode))
    return order


def write_qrels(qrels: Qrels, path: str | os.PathLike) -> None:
    """Write TREC qrels text (atomically)."""
    f = qrels.frame
    text = "".join(f"{t} 0 {d} {r}\n" for t, d, r in zip(f["topic"], f["docno"], f["rel"]))
    atomic_write_text(path, text)
