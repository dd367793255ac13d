"""Small input, huge cost: bounds that follow from the file, not from its longest field or
largest value (issue: never a runaway).  Each hostile file is refused, naming file and line."""

from __future__ import annotations

import pytest

from yardstick.common.errors import FormatError
from yardstick.inputs.io import read_qrels, read_run
from yardstick.inputs.io.qrels_file import MAX_RELEVANCE
from yardstick.inputs.io.run_file import _file_pieces


@pytest.mark.parametrize("value", ["3000000000", "100000000", "9223372036854775807"])
def test_huge_relevance_is_refused_at_its_line(tmp_path, value):
    q = tmp_path / "qrels"
    q.write_text(f"1 0 a 1\n1 0 b {value}\n")
    with pytest.raises(FormatError) as info:
        read_qrels(q)
    assert info.value.line == 2
    assert info.value.reason == (f"relevance {int(value):,} is above the largest supported "
                                 f"grade, {MAX_RELEVANCE:,} (trec_eval keeps a counter per "
                                 "grade and topic; see README 'Limits')")


def test_grades_up_to_the_bound_and_any_negative_grade_are_read(tmp_path):
    q = tmp_path / "qrels"
    q.write_text(f"1 0 a {MAX_RELEVANCE}\n1 0 b -5000000000\n1 0 c 0\n")
    assert sorted(read_qrels(q).rel.tolist()) == [-(2**31), 0, MAX_RELEVANCE]


def test_one_200_kb_docno_in_a_run_is_refused_at_its_line(tmp_path):
    r = tmp_path / "run"
    lines = [f"1 Q0 D{i} {i} {1000 - i} t\n" for i in range(200_000)]
    r.write_text("".join(lines) + "1 Q0 " + "X" * 200_000 + " 1 0.5 t\n")
    with pytest.raises(FormatError) as info:
        read_run(r)
    assert info.value.line == 200_001
    assert info.value.reason.startswith("a docno of 200,000 bytes: docnos are limited to "
                                        "65,536 bytes")
    # under the length limit, the padded array must still follow the file's size
    r.write_text("".join(lines) + "1 Q0 " + "X" * 60_000 + " 1 0.5 t\n")
    with pytest.raises(FormatError) as info:
        read_run(r)
    assert info.value.line == 200_001
    assert info.value.reason.startswith("a docno of 60,000 bytes: Yardstick holds every docno "
                                        "padded to the longest, which here would take ")


def test_one_long_docno_in_a_qrels_is_refused_at_its_line(tmp_path):
    q = tmp_path / "qrels"
    q.write_text("".join(f"1 0 d{i} 0\n" for i in range(20_000))
                 + "1 0 " + "Y" * 300_000 + " 1\n")
    with pytest.raises(FormatError) as info:
        read_qrels(q)
    assert info.value.line == 20_001
    assert info.value.reason.startswith("a docno of 300,000 bytes")


def test_long_docnos_that_fit_the_file_are_read(tmp_path):
    """Every docno 2,000 bytes long: the padded array is the size of the file."""
    r = tmp_path / "run"
    r.write_text("".join(f"1 Q0 {'u' * 1995}{i:05d} {i} {100 - i} t\n" for i in range(50)))
    run = read_run(r)
    assert len(run.score) == 50 and run.docno(0).endswith("00000")


def test_a_small_run_is_read_with_a_small_buffer(tmp_path):
    """A 1 KB run must not zero a 64 MiB buffer (a session of 3000 small runs took 75 s)."""
    r = tmp_path / "run"
    r.write_text("1 Q0 a 1 2.0 t\n" * 60)
    buf, start, end = next(_file_pieces(str(r)))
    assert len(buf) <= r.stat().st_size + 1 and (start, end) == (0, r.stat().st_size)


# ----------------------------------------------------------------- what is not a file
def test_devices_are_refused_at_once():
    for dev in ("/dev/zero", "/dev/urandom"):
        with pytest.raises(FormatError) as info:
            read_run(dev)
        assert info.value.reason.startswith("is a device or socket, not a run file")


def test_a_pipe_without_a_writer_is_refused_and_a_pipe_with_one_is_read(tmp_path):
    import os
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(FormatError) as info:
        read_run(fifo)
    assert info.value.reason.startswith("is a pipe that sent nothing in 1 s")

    def write():
        with open(fifo, "wb") as f:
            f.write(b"1 Q0 a 1 2.0 t\n1 Q0 b 2 1.0 t\n")

    t = threading.Thread(target=write)
    t.start()
    run = read_run(fifo)
    t.join(10)
    assert len(run) == 2 and run.tag == "t"


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(FormatError) as info:
        read_qrels(tmp_path)
    assert info.value.reason == "is a directory, not a qrels file (topic iter docno rel)"


def test_a_compression_bomb_is_refused_by_its_ratio(tmp_path):
    import gzip

    from yardstick.inputs.io.text_source import ALWAYS_READ, MAX_INFLATION

    bomb = tmp_path / "run.gz"
    bomb.write_bytes(gzip.compress(b"1 Q0 d 1 1.0 t\n" * 6_000_000, 9))  # 90 MB in ~200 KB
    with pytest.raises(FormatError) as info:
        read_run(bomb)
    limit = ALWAYS_READ + MAX_INFLATION * bomb.stat().st_size
    assert info.value.reason == (f"decompresses to more than {limit / 2**20:,.0f} MiB, over "
                                 f"{MAX_INFLATION} times its {bomb.stat().st_size / 2**20:,.1f} "
                                 "MiB (a compression bomb?); refusing it")


def test_memory_guard_reads_small_files_even_when_memory_looks_full(tmp_path, monkeypatch):
    """A full page cache once made a 30 KB run 'too large for 0.0 GiB of free memory'."""
    from yardstick.inputs.io import text_source

    monkeypatch.setattr(text_source, "available_memory", lambda: 10_000)
    r = tmp_path / "run"
    r.write_text("".join(f"1 Q0 d{i} {i} 2.0 t\n" for i in range(2000)))  # 30 KB
    assert len(read_run(r)) == 2000
    with pytest.raises(FormatError) as info:
        text_source.check_size(str(r), 200 << 20, "run file")
    assert info.value.reason.startswith("is 200 MiB and reading it needs about 600 MiB, but "
                                        "only 0 MiB of memory is available")


def test_a_ten_megabyte_docno_is_refused_at_once(tmp_path):
    """One 10 MB docno (a 10 MB single line) took 7-27 s to read or refuse: docnos are
    limited to 65,536 bytes (README 'Limits'), the line named."""
    from yardstick.inputs.run import MAX_DOCNO_BYTES

    run = tmp_path / "long.run"
    run.write_bytes(b"1 Q0 d 1 3 t\n1 Q0 " + b"x" * 10_000_000 + b" 2 2 t\n")
    qrels = tmp_path / "long.qrels"
    qrels.write_bytes(b"1 0 d 1\n1 0 " + b"x" * (MAX_DOCNO_BYTES + 1) + b" 1\n")
    ok = tmp_path / "ok.run"
    ok.write_bytes(b"1 Q0 " + b"y" * MAX_DOCNO_BYTES + b" 1 3 t\n")
    with pytest.raises(FormatError) as e:
        read_run(run)
    assert e.value.line == 2 and "a docno of 10,000,000 bytes: docnos are limited to " \
        "65,536 bytes" in e.value.message
    with pytest.raises(FormatError) as e:
        read_qrels(qrels)
    assert e.value.line == 2 and "a docno of 65,537 bytes" in e.value.message
    assert read_run(ok).docno(0) == "y" * MAX_DOCNO_BYTES


def test_a_ten_megabyte_docno_after_many_qrels_lines_is_refused_within_bounds(tmp_path):
    """A qrels with one 10 MB docno peaked at 2.8 GB: the line parser padded every line's
    docno to the longest before the bound was checked. Now refused at the line, with memory
    that follows the file's size (numpy's buffers are traced by tracemalloc)."""
    import tracemalloc

    q = tmp_path / "long.qrels"
    q.write_bytes(b"".join(b"301 0 D%d 1\n" % i for i in range(300))
                  + b"301 0 " + b"A" * 10_000_000 + b" 1\n")
    tracemalloc.start()
    try:
        with pytest.raises(FormatError) as e:
            read_qrels(q)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert e.value.line == 301
    assert e.value.reason.startswith("a docno of 10,000,000 bytes: docnos are limited to "
                                     "65,536 bytes")
    assert peak < 12 * q.stat().st_size      # padded to the longest: 300 x 10 MB = 3 GB


def _eval_stdin(stdin, tmp_path):
    import subprocess
    import sys

    q = tmp_path / "q"
    q.write_text("1 0 a 1\n")
    code = ("import sys, resource; resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30));"
            "from yardstick.cli import main; sys.exit(main(['eval', sys.argv[1], '-']))")
    return subprocess.run([sys.executable, "-c", code, str(q)], stdin=stdin,
                          capture_output=True, text=True, timeout=120)


def test_standard_input_from_dev_zero_is_refused_as_the_file_is(tmp_path):
    """``yardstick eval q - < /dev/zero`` read until a MemoryError at 3.9 GB; the file
    /dev/zero was refused at once. Both now say the same, without a traceback."""
    with open("/dev/zero", "rb") as zero:
        done = _eval_stdin(zero, tmp_path)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "<stdin>: is a device or socket, not a run file" in done.stderr


def test_a_pipe_of_nul_bytes_on_standard_input_is_refused_at_its_first_piece(tmp_path):
    import subprocess

    with subprocess.Popen(["head", "-c", str(1 << 30), "/dev/zero"],
                          stdout=subprocess.PIPE) as head:
        done = _eval_stdin(head.stdout, tmp_path)
        head.kill()
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "<stdin>, line 1: contains NUL bytes: this is a binary file" in done.stderr
