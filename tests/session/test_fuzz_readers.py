"""Hostile input: every reader loads a mutated real file correctly or raises FormatError.

Property (issue 9), for the run, qrels, topics, SMART, LISA, documents and
session readers and for the window's loader (:func:`yardstick.session.loading.load_files`):
an input either loads, and then what was loaded is right, or raises
:class:`yardstick.common.errors.FormatError` naming the file (and the line, when the
problem is a line, quoting that line); no other exception escapes.  "Right"
for runs and qrels means equal to an independent parse written from
trec_eval's rules (``tests/fuzz_support.py``: lines end at LF/CRLF/CR, fields
split at ASCII white space, 6 run / 4 qrels columns, finite scores, integer
relevance, no duplicate (topic, docno)); for the other formats it means the
invariants listed there (topic ids unique and non-empty, as many topics as
``<top>`` tags, as many SMART records as ``.I`` lines ...).

Inputs are the first ~200 lines of real files from ``../shared/data`` (or, without
it, the repository's stand-ins: ``tests/fuzz_support.SEED_FILES``) with 1-3
mutations (``tests/fuzz_support.MUTATIONS``).  Hypothesis runs 150 derandomised
examples per reader so CI stays fast; ``benchmarks/fuzz_readers.py`` runs many
more with random seeds and prints outcome counts (README "Reliability").

The explicit tests at the end pin down, with hand-written inputs, the bugs the
fuzzing found (each was an escaping exception or a silently wrong load).
"""

from __future__ import annotations

import gzip
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz_support import (
    MUTATIONS,
    READERS,
    gui_loader_outcome,
    mutate,
    outcome,
    seed_bytes,
    write_input,
)
from yardstick.common.errors import FormatError
from yardstick.inputs.io import read_qrels, read_run

FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MUTATION_LISTS = st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=3)
SEEDS = st.integers(0, 2**32 - 1)


class Inputs:
    """Seed files, read once per module (not a fixture: hypothesis would print them)."""

    def __init__(self, workdir):
        self.workdir = workdir
        self._seeds: dict[str, bytes] = {}

    def seed(self, reader: str) -> bytes:
        if reader not in self._seeds:
            self._seeds[reader] = seed_bytes(READERS[reader].seed, self.workdir / "session_files")
        return self._seeds[reader]

    def __repr__(self) -> str:
        return f"Inputs({self.workdir})"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    return Inputs(tmp_path_factory.mktemp("fuzz"))


@pytest.fixture(scope="module")
def workdir(inputs):
    return inputs.workdir


@pytest.mark.parametrize("reader", sorted(READERS))
def test_unmutated_seed_loads(reader, inputs, workdir):
    """The slices themselves are good files (else the fuzzing would test nothing)."""
    path = write_input(workdir / f"seed{READERS[reader].suffix}", inputs.seed(reader))
    assert outcome(reader, path, inputs.seed(reader)) == "loaded"


@pytest.mark.parametrize("reader", sorted(READERS))
@FUZZ
@given(kinds=MUTATION_LISTS, seed=SEEDS)
def test_mutated_file_loads_right_or_raises_format_error(reader, kinds, seed, inputs, workdir):
    data = mutate(inputs.seed(reader), kinds, random.Random(seed))
    path = write_input(workdir / f"in{READERS[reader].suffix}", data)
    result = outcome(reader, path, data)
    assert not result.startswith("BUG"), f"{kinds} seed={seed}: {result}"


@pytest.mark.parametrize("kind", ["run", "qrels", None])
@FUZZ
@given(kinds=MUTATION_LISTS, seed=SEEDS)
def test_window_loader_never_raises(kind, kinds, seed, inputs, workdir):
    """load_files (what the window runs) with the kind given or guessed from the content."""
    base = inputs.seed(kind or random.Random(seed).choice(["run", "qrels", "topics", "session"]))
    data = mutate(base, kinds, random.Random(seed))
    path = write_input(workdir / "gui.in", data)
    result = gui_loader_outcome(path, kind, data if kind else None)
    assert not result.startswith("BUG"), f"{kinds} seed={seed}: {result}"


@pytest.mark.parametrize("reader", sorted(READERS))
def test_directory_is_refused_naming_it(reader, workdir):
    path = write_input(workdir / "a_directory", None)
    with pytest.raises(FormatError) as e:
        READERS[reader].read(path)
    assert e.value.path == str(path) and e.value.line is None
    assert "is a directory" in e.value.message


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("content, reason", [
    (b"", "is empty"), (b" \n\t\r\n", "is empty"),
    (b"301 Q0 d1 1 2.0 x\n\x00\x01\x02", "NUL bytes"),
    (b"\x1f\x8b\x08\x00garbage", "cannot decompress"),
])
def test_empty_binary_and_corrupt_files_are_refused(reader, content, reason, workdir):
    path = write_input(workdir / "bad.in", content)
    with pytest.raises(FormatError) as e:
        READERS[reader].read(path)
    assert e.value.path == str(path) and reason in e.value.reason
    if reason == "NUL bytes":
        assert e.value.line == 2


# ---------------------------------------------------------------- the bugs found


def _run_error(tmp_path, text: bytes) -> FormatError:
    p = tmp_path / "x.run"
    p.write_bytes(text)
    with pytest.raises(FormatError) as e:
        read_run(p)
    return e.value


def test_latin1_nel_byte_stays_inside_the_docno(tmp_path):
    """0x85 (Latin-1 NEL, cp1252 '…') is a line break for str.splitlines, not for trec_eval."""
    p = tmp_path / "x.run"
    p.write_bytes(b"301 Q0 FT9\x8534 1 2.5 t\n301 Q0 d2 2 1.5 t\n302 Q0 d3 1 0.5 t\n")
    run = read_run(p)
    assert len(run) == 3
    # the byte 0x85 is kept as it is (a docno is bytes; read with surrogateescape)
    assert sorted(run.docno(i).encode("utf-8", "surrogateescape") for i in range(3)) == [
        b"FT9\x8534", b"d2", b"d3"]


def test_nbsp_is_not_a_field_separator(tmp_path):
    e = _run_error(tmp_path, "301 Q0 d1 1 2.5 t\n301 Q0 d2 2 \u00a01.5 t\n".encode())
    assert e.line == 2 and "is not a number" in e.reason


def test_vertical_tab_separates_fields_as_in_trec_eval(tmp_path):
    p = tmp_path / "x.run"
    p.write_bytes(b"301 Q0 d1\x0b1 2.5 t\n301\x0cQ0 d2 2 1.5 t\n")
    run = read_run(p)
    assert sorted((run.docno(i), float(run.score[i])) for i in range(2)) == [("d1", 2.5),
                                                                          ("d2", 1.5)]


@pytest.mark.parametrize("line, found", [
    (b"301 Q0 d2 2 1.5 \n", 5),        # tag missing, trailing space (pyarrow: empty 6th field)
    (b"301  d2 2 1.5 t\n", 5),         # Q0 missing, doubled space
    (b"301 Q0 d2  1.5 t\n", 5),        # rank missing
])
def test_missing_field_next_to_a_doubled_delimiter_is_an_error(tmp_path, line, found):
    e = _run_error(tmp_path, b"301 Q0 d1 1 2.5 t\n" + line + b"301 Q0 d3 3 0.5 t\n")
    assert e.line == 2 and f"found {found}" in e.reason


@pytest.mark.parametrize("score", ["1_0", "\uff11", "0x1F", "nan", "1e400"])
def test_scores_python_reads_but_strtod_does_not_are_errors(tmp_path, score):
    e = _run_error(tmp_path, f"301 Q0 d1 1 2.5 t\n301 Q0 d2 2 {score} t\n".encode())
    assert e.line == 2


def test_huge_rank_is_ignored_not_an_overflow(tmp_path):
    p = tmp_path / "x.run"
    p.write_bytes(b"301 Q0 d1 99999999999999999999 2.5 t\r\n301 Q0 d2 2 1.5 t\r\n")
    run = read_run(p)
    assert len(run) == 2 and list(run.rank) == [0, 2]


@pytest.mark.parametrize("rel", ["0x1F", "99999999999999999999", "1_0", "\u00b2"])
def test_relevance_must_be_a_decimal_int64(tmp_path, rel):
    p = tmp_path / "x.qrels"
    p.write_bytes(f"301 0 d1 1\n301 0 d2 {rel}\n".encode("latin-1" if rel == "\u00b2" else "utf-8"))
    with pytest.raises(FormatError) as e:
        read_qrels(p)
    assert e.value.line == 2 and "is not an integer" in e.value.reason


def test_qrels_missing_iter_next_to_a_doubled_space_is_an_error(tmp_path):
    p = tmp_path / "x.qrels"
    p.write_bytes(b"301 0 d1 1\n301  d2 1\n")
    with pytest.raises(FormatError) as e:
        read_qrels(p)
    assert e.value.line == 2 and "found 3" in e.value.reason


@pytest.mark.parametrize("text, line", [
    (b"1 486 -1\n1 57\xb2 1\n", 2),     # Latin-1 superscript two: str.isdigit() but not int()
    (b"\xb9 184 2\n", 1),
])
def test_smart_qrels_superscript_digits(text, line):
    from yardstick.inputs.collections.smart import read_smart_qrels

    with pytest.raises(FormatError) as e:
        read_smart_qrels(text.decode("latin-1"), "cranqrel", scheme="cranfield")
    assert e.value.line == line


def test_lisa_double_minus_is_an_error():
    from yardstick.inputs.collections.lisa import read_lisa_rj

    with pytest.raises(FormatError) as e:
        read_lisa_rj("1 2 3 4\n2 --1 5\n", "LISARJ.NUM")
    assert e.value.line == 2 and "'--1' is not an integer" in e.value.reason


def test_corrupt_gzip_guessed_by_content_is_a_load_error_not_a_crash(tmp_path):
    from yardstick.common.progress import run_sync
    from yardstick.session.loading import load_files

    z = bytearray(gzip.compress(b"301 Q0 d1 1 2.5 t\n" * 2000, mtime=0))
    z[40:60] = bytes(20)
    p = tmp_path / "run.gz"
    p.write_bytes(bytes(z))
    res = run_sync(load_files([(str(p), None)]))
    assert res.runs == () and len(res.errors) == 1
    assert str(p) in res.errors[0].message and "cannot decompress" in res.errors[0].reason
