"""Hostile-input cases whose fix lies in the run/qrels readers (lead's files; issue 14).

Found by ``benchmarks/hostile_corpus.py``: a 10 MB run made of one 75-line run
repeated (each (topic, docno) about 1,900 times) is not refused within 60 s and
took 1.3 GB; 1 MB took 2.5 s.  ``Run.first_duplicate`` compared every pair of
lines that share a hash key, which is quadratic in the number of copies; it now
sorts the colliding lines by (topic, docno, line) once.
"""

from __future__ import annotations

import numpy as np

from yardstick.inputs.run import Run


class _CountingBytes(np.ndarray):
    """A docno array that counts element reads (scalar indexing)."""

    reads = 0

    def __getitem__(self, item):
        if isinstance(item, (int, np.integer)):
            _CountingBytes.reads += 1
        return super().__getitem__(item)


def test_first_duplicate_reads_each_line_a_bounded_number_of_times():
    n = 1000
    docnos = np.full(n, b"d1", dtype="S2").view(_CountingBytes)
    run = Run(name="r", tag="t", topics=np.array(["1"], dtype=object),
              topic_code=np.zeros(n, dtype=np.int32), docno_bytes=docnos,
              score=np.arange(n, 0, -1, dtype=np.float64), rank=np.arange(1, n + 1, dtype=np.int32))
    _CountingBytes.reads = 0
    assert run.first_duplicate() == 1
    assert _CountingBytes.reads <= 4 * n


def test_a_truncated_compressed_run_names_the_line_it_broke_after(tmp_path):
    """A run cut off mid-download (half of its xz file): the error names the file and how
    many whole lines came out before the stream broke (it said only "cannot decompress")."""
    import lzma

    import pytest

    from yardstick.common.errors import FormatError
    from yardstick.inputs.io import read_run

    lines = [f"{t} Q0 d{t}-{r} {r} {1000 - r} tag\n" for t in range(1, 41) for r in range(1, 501)]
    data = lzma.compress("".join(lines).encode(), preset=0)
    cut = tmp_path / "cut.xz"
    cut.write_bytes(data[: len(data) // 2])
    whole = len(lzma.LZMADecompressor().decompress(data[: len(data) // 2]).split(b"\n")) - 1
    with pytest.raises(FormatError) as err:
        read_run(cut)
    assert err.value.path == str(cut)
    assert f"after line {whole:,} " in err.value.reason
    assert 0 < whole < len(lines)
