"""Room for a large run's columns, made before its parse (yardstick.io.run_room, issue #19).

The room is sized from samples of the text: big enough for every line of a
regular run, its docno words as wide as the samples' longest docno, and never
a reason for a different reading: the run read with a room equals the run
read without one, whatever the samples get wrong.
"""

from __future__ import annotations

import numpy as np
import pytest
from yardstick.io import run_room
from yardstick.io.memory_pages import populate
from yardstick.io.run_columns import Columns
from yardstick.io.run_file import read_run


def _run_text(rng, topics, per_topic, docno) -> bytes:
    lines = []
    for t in range(topics):
        for i in range(per_topic):
            lines.append(f"{t} Q0 {docno(rng, t, i)} {i + 1} {100 - i * 0.01:.4f} tag\n")
    return "".join(lines).encode()


@pytest.fixture
def small_rooms(monkeypatch):
    """Rooms for files from 1 KB, samples of 4 KB (the real ones need 64 MiB files)."""
    monkeypatch.setattr(run_room, "MIN_BYTES", 1024)
    monkeypatch.setattr(run_room, "SAMPLE", 4096)
    made = []
    real = run_room.make_room

    def spy(*a):
        room = real(*a)
        made.append((room, room.columns.cap if room is not None else None))
        return room

    monkeypatch.setattr("yardstick.io.run_file.make_room", spy)
    return made


def _same(a, b):
    assert a.docno_bytes.dtype == b.docno_bytes.dtype
    assert a.topics.tolist() == b.topics.tolist()
    np.testing.assert_array_equal(a.topic_code, b.topic_code)
    np.testing.assert_array_equal(a.docno_bytes, b.docno_bytes)
    np.testing.assert_array_equal(a.score, b.score)
    assert a.tag == b.tag


@pytest.mark.parametrize("shape", ["uniform", "long docnos at the end", "short lines first",
                                   "long lines where sampled", "long docnos where sampled"])
def test_a_run_read_with_a_room_is_the_run_read_without(tmp_path, small_rooms, monkeypatch,
                                                         shape):
    rng = np.random.default_rng(5)

    def docno(rng, t, i):
        if shape == "long docnos at the end" and t == 39 and i > 150:
            return f"clueweb12-{rng.integers(0, 10**6)}-wb-{i}-extra-long-part"  # 5 words
        return f"D{rng.integers(0, 10**6)}-{i}"

    text = _run_text(rng, 40, 200, docno)
    if shape == "short lines first":  # the first sample sees more lines per byte
        text = text.replace(b" tag\n", b" t\n", 2000)
    if shape == "long lines where sampled":  # the samples see far fewer lines per byte
        long_lines = text[:4096].replace(b" tag\n", b" " + b"t" * 300 + b"\n")
        long_lines = long_lines[:long_lines.rfind(b"\n") + 1]
        monkeypatch.setattr(run_room, "_samples", lambda *a: [long_lines] * 3)
    if shape == "long docnos where sampled":  # the room's docno words wider than needed
        wide = b"1 Q0 " + b"w" * 40 + b" 1 1.0 tag\n"
        monkeypatch.setattr(run_room, "_samples", lambda *a: [wide * 20] * 3)
    path = tmp_path / "run.txt"
    path.write_bytes(text)
    with_room = read_run(path, ranks=False)
    room, first_cap = small_rooms[0]
    assert room is not None
    if shape == "long docnos where sampled":
        assert room.columns.words.shape[1] == 5
    if shape == "long lines where sampled":
        assert first_cap < len(with_room) <= room.columns.cap   # the columns grew
    monkeypatch.setattr(run_room, "MIN_BYTES", 1 << 40)
    _same(with_room, read_run(path, ranks=False))


def test_room_holds_every_line_and_the_sampled_docno_width(tmp_path, small_rooms):
    rng = np.random.default_rng(6)
    text = _run_text(rng, 30, 300, lambda rng, t, i: f"doc-{t:03d}-{i:05d}-x")  # 15 bytes
    path = tmp_path / "run.txt"
    path.write_bytes(text)
    room = run_room.make_room(str(path), len(text), False)
    room.close()
    assert room.columns.cap >= 30 * 300
    assert room.columns.words.shape[1] == 2


def test_no_room_for_docnos_beyond_the_bound(tmp_path, small_rooms, monkeypatch):
    monkeypatch.setattr(run_room, "WIDE_DOCNO_SLACK", 0)
    text = b"".join(b"1 Q0 " + b"d" * 3000 + b"%d 1 1.0 t\n" % i for i in range(3))
    path = tmp_path / "run.txt"
    path.write_bytes(text)
    assert run_room.make_room(str(path), len(text), False) is None


def test_populating_pages_leaves_what_they_hold():
    cols = Columns(300_000, ranks=False)
    cols.score[:1000] = np.arange(1000)
    cols.n = 1000
    cols.populate(300_000, stop=lambda: False, step=4096)
    np.testing.assert_array_equal(cols.score[:1000], np.arange(1000))
    assert not populate(np.zeros((10, 10))[:, 0])   # not contiguous: nothing done
