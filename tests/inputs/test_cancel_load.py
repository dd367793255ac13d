"""Cancel stops a run being parsed and gives its memory back (issue #14).

The window's load job parses on a helper thread; closing the job (Cancel) once
only dropped the result while the parse ran on to the end, holding gigabytes
for seconds.  Now closing sets an event that the run reader checks between
pieces: the thread stops after the piece in hand and frees what it had built.
"""

from __future__ import annotations

import gc
import threading
import time
import tracemalloc

import yardstick.inputs.io.run_file as rf
from yardstick.common.progress import Cancelled
from yardstick.inputs.io.read_progress import read_run_job


def _parse_threads():
    return [t for t in threading.enumerate() if t.name.startswith("yardstick-parse-")]


def test_cancel_stops_the_parse_and_frees_its_memory(tmp_path, monkeypatch):
    path = tmp_path / "big.run"
    with open(path, "w") as f:
        for t in range(200):
            f.writelines(f"{t} Q0 DOC-{t}-{i:06d} {i} {1000 - i / 7:.4f} tag\n"
                         for i in range(1000))
    monkeypatch.setattr(rf, "CHUNK", 1 << 16)     # ~100 pieces
    seen, raised = [], []
    real_table, real_read = rf._piece_table, rf._read_run

    def slow_table(*a, **k):                       # a slow machine: 20 ms a piece
        seen.append(1)
        time.sleep(0.02)
        return real_table(*a, **k)

    def watched_read(*a, **k):
        try:
            return real_read(*a, **k)
        except Cancelled as e:
            raised.append(str(e))   # not the exception: its traceback holds the frames
            raise

    monkeypatch.setattr(rf, "_piece_table", slow_table)
    monkeypatch.setattr(rf, "_read_run", watched_read)
    pieces = path.stat().st_size // (1 << 16)
    small = tmp_path / "small.run"                 # import everything the job uses first
    small.write_text("1 Q0 d 1 2 t\n")
    warm = read_run_job(small)
    try:
        while True:
            next(warm)
    except StopIteration:
        pass
    seen.clear()
    tracemalloc.start()
    try:
        job = read_run_job(path)
        while not seen:                            # until the parse is under way
            next(job)
        job.close()                                # Cancel
        for t in _parse_threads():
            t.join(30)
        assert not _parse_threads()
        gc.collect()
        left, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert raised == ["reading cancelled"]
    assert len(seen) < pieces // 2                 # it stopped, it did not run to the end
    assert left < 2 << 20                          # the columns (20 bytes a line) are gone
