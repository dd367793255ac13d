"""Small input, huge cost: bounds that follow from the file, not from its longest field or
largest value (issue: never a runaway).  Each hostile file is refused, naming file and line."""

from __future__ import annotations

import pytest

from yardstick.errors import FormatError
from yardstick.io import read_qrels, read_run
from yardstick.io.qrels_file import MAX_RELEVANCE
from yardstick.io.run_file import _file_pieces


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
    assert info.value.reason.startswith("a docno of 200,000 bytes: Yardstick holds every docno "
                                        "padded to the longest, which here would take ")


def test_one_long_docno_in_a_qrels_is_refused_at_its_line(tmp_path):
    q = tmp_path / "qrels"
    q.write_text("1 0 d0 0\n" * 0 + "".join(f"1 0 d{i} 0\n" for i in range(20_000))
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
