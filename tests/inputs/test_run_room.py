"""Pages of a large run's columns asked for ahead of the appends (yardstick.inputs.io.run_room,
issue #19).

The pages are asked for up to the fewest lines that samples of the text
suggest, once the first piece has parsed; a run read so must be the run read
without, whatever the samples get wrong.
"""

from __future__ import annotations

import numpy as np
import pytest

from yardstick.common.errors import FormatError
from yardstick.inputs.io import run_file, run_room
from yardstick.inputs.io.memory_pages import populate
from yardstick.inputs.io.run_columns import Columns
from yardstick.inputs.io.run_file import read_run


def _run_text(rng, topics, per_topic, docno) -> bytes:
    lines = []
    for t in range(topics):
        for i in range(per_topic):
            lines.append(f"{t} Q0 {docno(rng, t, i)} {i + 1} {100 - i * 0.01:.4f} tag\n")
    return "".join(lines).encode()


@pytest.fixture
def small_rooms(monkeypatch):
    """Rooms for files from 1 KB, samples of 4 KB, pieces of 16 KB (the real ones need
    64 MiB files); the rows each room was asked for are recorded."""
    monkeypatch.setattr(run_room, "MIN_BYTES", 1024)
    monkeypatch.setattr(run_room, "SAMPLE", 4096)
    monkeypatch.setattr(run_file, "CHUNK", 1 << 14)
    made = []
    real = run_room.Room

    def spy(columns, rows):
        made.append(rows)
        return real(columns, rows)

    monkeypatch.setattr(run_file, "Room", spy)
    return made


def _same(a, b):
    assert a.docno_bytes.dtype == b.docno_bytes.dtype
    assert a.topics.tolist() == b.topics.tolist()
    np.testing.assert_array_equal(a.topic_code, b.topic_code)
    np.testing.assert_array_equal(a.docno_bytes, b.docno_bytes)
    np.testing.assert_array_equal(a.score, b.score)
    assert a.tag == b.tag


@pytest.mark.parametrize("shape", ["uniform", "long docnos at the end", "short lines first",
                                   "long lines where sampled"])
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
    path = tmp_path / "run.txt"
    path.write_bytes(text)
    with_room = read_run(path, ranks=False)
    assert len(small_rooms) == 1 and 0 < small_rooms[0] <= len(with_room)
    monkeypatch.setattr(run_room, "MIN_BYTES", 1 << 40)
    _same(with_room, read_run(path, ranks=False))
    assert len(small_rooms) == 1          # (no room for the second reading)


def test_pages_for_the_fewest_lines_the_samples_suggest(tmp_path, small_rooms):
    rng = np.random.default_rng(6)
    text = _run_text(rng, 30, 300, lambda rng, t, i: f"doc-{t:03d}-{i:05d}-x")
    path = tmp_path / "run.txt"
    path.write_bytes(text)
    rows = run_room.fewest_lines(str(path), len(text))
    assert 0.8 * 9000 < rows <= 9000 * 1.05


def test_blank_samples_suggest_no_more_than_the_shortest_lines(tmp_path, small_rooms):
    """A file of blank lines must not have pages asked for at a line per byte."""
    text = b"\n" * 20_000 + b"1 Q0 d 1 1.0 t\n"
    path = tmp_path / "blank.run"
    path.write_bytes(text)
    assert run_room.fewest_lines(str(path), len(text)) <= len(text) / run_room.MIN_LINE


def test_no_room_for_a_file_irregular_from_its_first_piece(tmp_path, small_rooms):
    path = tmp_path / "junk.run"
    path.write_bytes(b"x\n" * 20_000)
    with pytest.raises(FormatError):
        read_run(path)
    assert small_rooms == []


def test_populating_pages_leaves_what_they_hold():
    cols = Columns(300_000, ranks=False)
    cols.score[:1000] = np.arange(1000)
    cols.n = 1000
    cols.populate(300_000, stop=lambda: False, step=4096)
    np.testing.assert_array_equal(cols.score[:1000], np.arange(1000))
    assert not populate(np.zeros((10, 10))[:, 0])   # not contiguous: nothing done
