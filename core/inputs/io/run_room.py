"""Memory pages of a large run file's columns, handed over ahead of the appends.

The kernel hands a process each new page of memory at its first write, and on
the 2-core development machine that costs about 2 µs a page: the 200 MB of
columns of a 7M-line run took 0.1-0.2 s of CPU in the reader's own thread,
between the appends of parsed pieces (:class:`Columns`).  Once the first piece
of a file of :data:`MIN_BYTES` or more is in, a :class:`Room` thread asks the
kernel for the columns' pages (``madvise(MADV_POPULATE_WRITE)``, which leaves
the contents alone) a slice at a time, at most a million rows ahead of the
appends, until the parse ends.  (``yardstick eval`` on 7M lines, alternating
whole processes: 1.67 -> 1.36 s median of 8, 2.34 -> 2.07 s of CPU, peak 425 ->
443 MB.)

Pages are asked for no more lines than the fewest that three samples of the
text suggest (:func:`fewest_lines`), never more than a line per
:data:`MIN_LINE` bytes, and only after the first piece parsed: no page is
touched that the run does not fill, and a file found irregular in its first
piece (a hostile one: 70 MB of ``x`` lines) has none touched.
"""

from __future__ import annotations

import threading

from yardstick.inputs.io.run_columns import Columns

#: bytes read at each of the three sampled places of the file
SAMPLE = 1 << 18
#: files smaller than this get no room made ahead (their pages cost little)
MIN_BYTES = 64 << 20
#: bytes of the shortest run line, ``1 Q 1 1 1 t`` and its line end
MIN_LINE = 12


class Room:
    """The pages of some columns' first ``rows`` rows, asked for on a thread."""

    def __init__(self, columns: Columns, rows: int):
        self._done = threading.Event()
        threading.Thread(target=columns.populate, args=(rows, self._done.is_set),
                         name="yardstick-room", daemon=True).start()

    def close(self) -> None:
        """Stop asking for pages (the parse ended, or the columns are dropped)."""
        self._done.set()


def fewest_lines(spath: str, size: int) -> int | None:
    """The fewest lines that samples of the plain run file ``spath`` (``size`` bytes)
    suggest it holds; None if it is small, unreadable or holds no line break in its
    samples (then no room is made)."""
    if size < MIN_BYTES:
        return None
    try:
        samples = _samples(spath, size)
    except OSError:
        return None
    # (lines per byte, at most that of the shortest run line: a sample of blank lines
    # must not make room for a line per byte)
    rates = [min(s.count(b"\n") / len(s), 1 / MIN_LINE) for s in samples
             if s.count(b"\n") > 1]
    return int(size * min(rates)) if rates else None


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
