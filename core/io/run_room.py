"""Room for a large run file's columns, its memory pages handed over ahead of the parse.

The kernel hands a process each new page of memory at its first write, and on
the 2-core development machine that costs about 2 µs a page: the 200 MB of
columns of a 7M-line run took 0.1-0.2 s of CPU in the reader's own thread,
between the appends of parsed pieces (:class:`Columns`).  :func:`make_room`
sizes the columns from samples of the file's text before the parse starts, and
a second thread asks for their pages (``madvise(MADV_POPULATE_WRITE)``, which
leaves the contents alone) a slice ahead of the appends; it stops when the
columns are full, taken over or dropped.  (``yardstick eval`` on 7M lines,
alternating whole processes: 1.67 -> 1.36 s median of 8, 2.34 -> 2.07 s of CPU,
peak 425 -> 443 MB.)

The columns have room for the most lines the samples suggest (and 2 % more),
and pages are asked for the fewest, so that no page is touched that the run
does not fill; a run with more lines than the room grows its columns as any
other (:meth:`Columns.reserve`).
"""

from __future__ import annotations

import threading

from yardstick.io.docno_words import WIDE_DOCNO_SLACK
from yardstick.io.run_columns import Columns

#: bytes read at each of the three sampled places of the file
SAMPLE = 1 << 18
#: files smaller than this get no room made ahead (their pages cost little)
MIN_BYTES = 64 << 20


class Room:
    """Columns for one run file, their pages asked for on a thread."""

    def __init__(self, columns: Columns, rows: int):
        self.columns = columns
        self._done = threading.Event()
        threading.Thread(target=columns.populate, args=(rows, self._done.is_set),
                         name="yardstick-room", daemon=True).start()

    def close(self) -> None:
        """Stop asking for pages (the parse ended, or the columns are dropped)."""
        self._done.set()


def make_room(spath: str, size: int, ranks: bool) -> Room | None:
    """A :class:`Room` for the plain run file ``spath`` of ``size`` bytes (None if it is
    small, unreadable or holds no line break in its samples)."""
    if size < MIN_BYTES:
        return None
    try:
        samples = _samples(spath, size)
    except OSError:
        return None
    rates = [s.count(b"\n") / len(s) for s in samples if s.count(b"\n") > 1]
    if not rates:
        return None
    words = max(_docno_words(s) for s in samples)
    capacity = int(size * max(rates) * 1.02) + 1024
    if capacity * words * 8 > WIDE_DOCNO_SLACK + 16 * size:
        return None  # docnos this long: the reader widens (and bounds) its columns itself
    return Room(Columns(capacity, ranks, words), int(size * min(rates)))


def _samples(spath: str, size: int) -> list[bytes]:
    """The whole lines in :data:`SAMPLE` bytes at the start, middle and end of the file."""
    out = []
    with open(spath, "rb") as f:
        for at in (0, size // 2, max(0, size - SAMPLE)):
            f.seek(at)
            text = f.read(SAMPLE)
            if at:
                text = text[text.find(b"\n") + 1:]
            out.append(text[:text.rfind(b"\n") + 1])
    return out


def _docno_words(text: bytes, lines: int = 2000) -> int:
    """8-byte words of the longest docno (third of six fields) among a sample's first
    lines."""
    longest = 0
    for line in text.split(b"\n", lines)[:lines]:
        f = line.split()
        if len(f) == 6 and not f[0].startswith(b"#"):
            longest = max(longest, len(f[2]))
    return max(1, -(-longest // 8))
