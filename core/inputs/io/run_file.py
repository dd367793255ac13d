"""TREC run files: ``topic Q0 docno rank score tag``.

Parsing follows trec_eval 10.0 (``get_trec_results.c``): fields separated by
any white space; lines starting with ``#`` and blank lines are skipped; at
least six fields, anything after the tag ignored; the rank column is ignored
for evaluation; the run tag is that of the last content line.  Unlike
trec_eval, which silently reads ``atof("abc")`` as 0, a score that is not a
finite number is an error, as is a duplicate (topic, docno) (trec_eval refuses
those too, but only later and without a line number).

The fast path reads the file in pieces of :data:`CHUNK` bytes and hands each
to pyarrow's CSV reader on a worker thread, :data:`AHEAD` pieces at a time
(:mod:`yardstick.inputs.io.run_piece`), which also turns the piece's table into
numpy batches (docnos as 8-byte words, see :class:`yardstick.inputs.run.Run`); this
thread appends the batches to the columns in file order
(:mod:`yardstick.inputs.io.run_columns`), never a Python object per line.  Anything
irregular (a lone CR, a byte-order mark, fields that do not make six columns,
control bytes in a field) falls back to a line-by-line parser that can name
the offending line.
"""

from __future__ import annotations

import os

import numpy as np

from yardstick.common.errors import FormatError
from yardstick.common.threads import in_order
from yardstick.inputs.io.docno_words import DocnoTooLong, to_bytes_array
from yardstick.inputs.io.line_rules import numbered_lines, parse_float, parse_int, raise_at_row
from yardstick.inputs.io.run_columns import Columns
from yardstick.inputs.io.run_piece import Irregular, piece_batches, piece_table
from yardstick.inputs.io.run_room import Room, fewest_lines
from yardstick.inputs.io.text_source import _KIND, check_size, display_name, read_bytes
from yardstick.inputs.run import LINE_HASH, Run, codes_of

RUN_COLUMNS = "topic Q0 docno rank score tag"
_MAGIC = tuple(_KIND)

#: Text handed to pyarrow per call: the file is read and converted in pieces of
#: this size, so memory holds a few pieces and their tables, not the whole text.
#: (4 MiB: ``yardstick eval``'s peak on 7M lines 446 MB on average against 479 MB
#: with 16 MiB pieces, in the same time; 5 rounds each.)
CHUNK = 1 << 22
#: pieces parsed at once (each on its own worker, pyarrow's pool shared): while
#: one piece waits for a serial step of pyarrow's reader or is turned into numpy
#: on its worker, the others keep the cores busy, and this thread appends.  (3
#: against 2, 7M lines on 2 cores, alternating: 1.49 against 1.62-1.67 s median of
#: 8-16 whole ``yardstick eval`` processes, peak 430 against 435-440 MB; 4: 1.47-1.54 s,
#: 449-452 MB)
AHEAD = 3
_piece_table = piece_table  # (looked up here on every piece: tests slow it down)


def read_run(path: str | os.PathLike, name: str | None = None, group: str = "",
             data: bytes | None = None, ranks: bool = True, cancel=None,
             order: int | None = None, scores: bool = True) -> Run:
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
        Checked between pieces (4 MiB, a few milliseconds) and every 65,536
        lines of the line parser: once set, reading stops with
        :class:`yardstick.common.progress.Cancelled` and everything read is dropped.
    order : {10, 9}, optional
        Also put the lines in trec_eval's order for this compat level
        (:func:`yardstick.inputs.ranking.cached_order`, kept with the run), made on a
        second thread during the duplicate check when each topic is one block of
        lines (as in run files), else after it.
    scores : bool
        Keep the score column.  With ``order`` given, False drops it once the order
        is made (the run's ``score`` is then None): evaluation reads nothing else
        from scores, and ``yardstick eval`` has 56 MB less at its peak on 7M lines.

    Raises
    ------
    FormatError
        naming the file and line, for any malformed input.
    """
    spath = "<stdin>" if str(path) == "-" else str(path)
    try:
        return _read_run(path, spath, name, group, data, ranks, cancel, order, scores)
    except DocnoTooLong as e:
        _raise_row(data, spath, e.index, str(e))


def _read_run(path, spath: str, name: str | None, group: str, data: bytes | None,
              ranks: bool, cancel, order: int | None = None, scores: bool = True) -> Run:
    cols = None
    if data is None and spath != "<stdin>" and _is_plain_file(spath):
        size = os.path.getsize(spath)
        try:
            cols = _parse_pieces(_watched(_file_pieces(spath, AHEAD), cancel), size, ranks,
                                 fewest_lines(spath, size))
        except (Irregular, OSError):
            cols = None
    if cols is None:
        _check(cancel)
        if data is None:
            data = read_bytes(path, "run file (topic Q0 docno rank score tag)")
        try:
            cols = _parse_pieces(_watched(_bytes_pieces(data), cancel), len(data), ranks)
        except Irregular:
            cols = _parse_slow(data, spath, cancel)
    topic_code, topics, docno_bytes, score, rank, tag, topic_lines, dhash = cols
    _release_arrow_pages()
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
        run.meta["_topic_counts"] = topic_lines  # yardstick.judging.judged.run_topic_counts
    if dhash is not None:
        run.meta[LINE_HASH] = dhash  # made into the join index (Run.key_sorted)
    if order is not None and _in_topic_blocks(run):
        # trec_eval's order on a second thread while this one looks for duplicates:
        # neither needs the other when each topic is one block of lines
        from concurrent.futures import ThreadPoolExecutor

        from yardstick.inputs.ranking import cached_order

        with ThreadPoolExecutor(1, thread_name_prefix="yardstick-order") as pool:
            ordered = pool.submit(cached_order, run, order)
            dup = run.first_duplicate()
            ordered.result()
    else:
        dup = run.first_duplicate()
    if dup is not None:
        reason = (f"document {run.docno(dup)!r} appears twice for topic "
                  f"{run.topics[run.topic_code[dup]]!r} (trec_eval refuses such runs)")
        _raise_row(data, spath, dup, reason)
    if order is not None:
        from yardstick.inputs.ranking import cached_order

        cached_order(run, order)
        if not scores:
            # (the reader still owns the frozen run: nothing else has seen it)
            object.__setattr__(run, "score", None)
    return run


def _in_topic_blocks(run: Run) -> bool:
    """Whether each topic's lines are one block of the file (as run files hold them):
    then trec_eval's order never reads the run's join index."""
    if len(run.topic_code) < 2:
        return False
    changes = int(np.count_nonzero(run.topic_code[1:] != run.topic_code[:-1]))
    return changes + 1 == len(run.topics)


def _release_arrow_pages() -> None:
    """Return the pages pyarrow's pool kept from the pieces' tables (jemalloc keeps
    freed pages a while) before the join index and the order are made beside them."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


def _check(cancel) -> None:
    if cancel is not None and cancel.is_set():
        from yardstick.common.progress import Cancelled

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


def _file_pieces(spath: str, buffers: int = 1):
    """(buffer, start, end) pieces of a file, each ending at a line end, in
    ``buffers`` reused buffers taken in turn (no page of memory is touched twice).

    A piece's buffer is written again ``buffers`` pieces later: the caller must be
    done with it by then (:func:`_parsed` holds at most ``buffers`` in flight).
    """
    keep = 0
    with open(spath, "rb") as f:
        # no bigger than the file: zeroing 64 MiB for a 1 KB run made a 3000-run session
        # take over a minute
        size = max(1, min(CHUNK, os.fstat(f.fileno()).st_size + 1))
        bufs = [bytearray(size)]
        b = 0
        buf = bufs[0]
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
                    buf = bufs[b] = bigger
                keep = end
                continue
            yield buf, 0, cut
            b = (b + 1) % buffers
            if b == len(bufs):
                bufs.append(bytearray(len(buf)))
            nxt = bufs[b]
            if len(nxt) < len(buf):
                nxt = bufs[b] = bytearray(len(buf))
            nxt[:end - cut] = buf[cut:end]
            buf = nxt
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


def _parse_pieces(pieces, size: int, ranks: bool = True, room_lines: int | None = None):
    """pyarrow parse of a regular run, piece by piece; raises Irregular otherwise.

    Each piece is parsed and turned into numpy batches on a worker
    (:func:`_parse_piece`, :data:`AHEAD` pieces at a time); this thread only
    appends the batches to the columns, in file order.  With ``room_lines`` (a large
    file: :func:`~yardstick.inputs.io.run_room.fewest_lines`), once the first piece is in,
    the columns' memory pages for up to that many lines are asked for on a second
    thread ahead of the appends (:class:`~yardstick.inputs.io.run_room.Room`).
    """
    topic_ids: dict[str, int] = {}
    tag = ""
    out = room = None
    try:
        for batches, piece_tag, piece_bytes in _parsed(pieces, ranks):
            tag = piece_tag or tag
            if out is None:
                rows = sum(len(b[1]) for b in batches if not isinstance(b, DocnoTooLong))
                out = Columns(int(size / piece_bytes * rows * 1.02) + 1024, ranks)
                out.size = size
                out.append(batches, topic_ids)
                if room_lines:
                    room = Room(out, min(room_lines, int(size / piece_bytes * rows)))
            else:
                out.append(batches, topic_ids)
            del batches
    finally:
        if room is not None:
            room.close()
    if out is None or out.n == 0:
        raise Irregular
    topic_code, topics, docno_bytes, score, rank, lines, dhash = out.finish(topic_ids)
    return topic_code, topics, docno_bytes, score, rank, tag, lines, dhash


def _parse_piece(buf, start: int, end: int, ranks: bool):
    """On a worker: one piece's numpy batches and the run tag of its last line."""
    table, tag = _piece_table(buf, start, end, ranks)
    return piece_batches(table, ranks), tag


def _parsed(pieces, ranks: bool):
    """(numpy batches, run tag of the last line, piece size in bytes) of each piece, in
    order, :data:`AHEAD` pieces parsed at once on worker threads
    (:func:`yardstick.common.threads.in_order`).

    pyarrow parses without the GIL, and so does most of numpy, so the workers and
    this thread run at once.  A piece is taken from ``pieces`` (which reuses
    :data:`AHEAD` buffers in turn) only once the parse of the piece that used its
    buffer has finished and been appended.  An error in a piece is raised when its
    turn comes.
    """
    def parse(piece):
        buf, start, end = piece
        return (*_parse_piece(buf, start, end, ranks), end - start)

    return in_order(parse, _nonempty(pieces), AHEAD, name="yardstick-piece")


def _nonempty(pieces):
    """The pieces holding text; Irregular at a byte-order mark (the line parser drops it)."""
    first = True
    for buf, start, end in pieces:
        if end <= start:
            continue
        if first and start == 0 and buf.startswith(b"\xef\xbb\xbf"):
            raise Irregular
        first = False
        yield buf, start, end


def _parse_slow(data: bytes, spath: str, cancel=None):
    topic, docno, rank, score = [], [], [], []
    tag = ""
    for lineno, line, split in numbered_lines(data):    # a piece at a time: see there
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
            np.asarray(rank, dtype=np.int32), tag, None, None)


def _raise_row(data: bytes | None, spath: str, row: int, reason: str):
    """Raise FormatError at the ``row``-th content line (0-based)."""
    raise_at_row(read_bytes(spath, "run file") if data is None else data, spath, row, reason)


def write_run(run: Run, path: str | os.PathLike, tag: str | None = None) -> None:
    """Write a run as TREC text in trec_eval order (score desc, docno desc), ranks 1..n."""
    from yardstick.inputs.io.atomic import atomic_write_text
    from yardstick.inputs.ranking import trec_order

    order = trec_order(run.topic_code, run.score, run.docno_bytes)
    tag = tag or run.tag or run.name
    counts = np.bincount(run.topic_code[order], minlength=len(run.topics))
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    ranks = np.arange(len(order)) - np.repeat(starts, counts) + 1
    lines = [f"{run.topics[run.topic_code[i]]} Q0 {run.docno(i)} {r} "
             f"{float(run.score[i])!r} {tag}\n"
             for i, r in zip(order.tolist(), ranks.tolist())]
    atomic_write_text(path, "".join(lines))
