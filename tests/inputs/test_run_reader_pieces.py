"""The run reader's fast path reads a file in pieces and must equal the line parser.

``yardstick.inputs.io.run_file`` hands pyarrow one piece of text at a time (:data:`CHUNK`
bytes, cut at a line end) and converts each piece's columns before reading the
next.  These tests read real TREC runs (Robust 2003 submissions) with pieces of
a few kilobytes, so that thousands of piece boundaries fall everywhere in
lines, and compare every column with the line-by-line parser, which follows
trec_eval's ``get_trec_results.c`` field by field.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

import yardstick.inputs.io.run_file as rf
from tests.shared_data import robust03_dir  # noqa: E402
from yardstick.common.errors import FormatError
from yardstick.inputs.io import read_run
from yardstick.inputs.run import LINE_HASH, Run

# the real Robust 2003 runs, or the generated track with their names and layout
RUNS = robust03_dir() / "runs"
NAMES = ["input.InexpC2.gz", "input.MU03rob01.gz", "input.NLPR03vb10.gz"]


def _slow(path: Path):
    data = path.read_bytes()
    return rf._parse_slow(data, str(path))


def _same_as_line_parser(run, path: Path) -> None:
    topic_code, topics, docnos, score, rank, tag, _, _ = _slow(path)
    assert run.topics.tolist() == topics.tolist()
    assert (run.topic_code == topic_code).all()
    w = max(run.docno_bytes.dtype.itemsize, docnos.dtype.itemsize)
    assert (run.docno_bytes.astype(f"S{w}") == docnos.astype(f"S{w}")).all()
    assert (run.score == score).all()
    assert (run.rank == rank).all()
    assert run.tag == tag
    # the join index, made from the docno hashes the reader's workers computed piece
    # by piece (narrower pieces before wider ones), equals one made from the docnos
    fresh = Run(name="fresh", tag=run.tag, topics=run.topics, topic_code=run.topic_code,
                docno_bytes=run.docno_bytes, score=run.score, rank=run.rank)
    assert LINE_HASH not in run.meta
    assert (run.key_sorted[0] == fresh.key_sorted[0]).all()


@pytest.fixture(scope="module", params=NAMES)
def real_run(request, tmp_path_factory) -> Path:
    src = RUNS / request.param
    if not src.exists():
        pytest.skip(f"{src} not present")
    out = tmp_path_factory.mktemp("runs") / request.param.removesuffix(".gz")
    out.write_bytes(gzip.decompress(src.read_bytes()))
    return out


@pytest.mark.parametrize("chunk", [rf.CHUNK, 65536, 3001])
def test_pieces_equal_the_line_parser(real_run, chunk, monkeypatch):
    monkeypatch.setattr(rf, "CHUNK", chunk)
    run = read_run(real_run)
    _same_as_line_parser(run, real_run)
    # without ranks (yardstick eval): the same columns, and no rank column at all
    lean = read_run(real_run, ranks=False)
    assert lean.rank is None
    assert (lean.topic_code == run.topic_code).all() and (lean.score == run.score).all()
    assert (lean.docno_bytes == run.docno_bytes).all() and lean.tag == run.tag
    assert (run.meta["_topic_counts"] == np.bincount(run.topic_code)).all()


def test_in_memory_bytes_take_the_same_path(real_run, monkeypatch):
    monkeypatch.setattr(rf, "CHUNK", 4096)
    a = read_run(real_run)
    b = read_run(real_run, data=real_run.read_bytes())
    assert (a.docno_bytes == b.docno_bytes).all() and (a.score == b.score).all()
    assert (a.topic_code == b.topic_code).all() and a.tag == b.tag


def test_irregular_piece_late_in_the_file(tmp_path, monkeypatch):
    """A comment line, a lone CR or tabs in the last piece only: read as the line parser
    reads it (the lone CR sends the whole file there)."""
    monkeypatch.setattr(rf, "CHUNK", 4096)
    src = RUNS / NAMES[0]
    if not src.exists():
        pytest.skip(f"{src} not present")
    text = b"".join(gzip.decompress(src.read_bytes()).splitlines(keepends=True)[:5000])
    lines = text.splitlines(keepends=True)
    for extra in (b"# a comment at the end\n", b"301 Q0 XYZ-1 1001 -5.5 tag\r\n"):
        p = tmp_path / "late.run"
        p.write_bytes(text + extra)
        run = read_run(p)
        _same_as_line_parser(run, p)
    # tabs in one piece only, spaces elsewhere
    p = tmp_path / "tabs.run"
    p.write_bytes(b"".join(lines[:50]) + b"".join(ln.replace(b" ", b"\t") for ln in lines[50:]))
    _same_as_line_parser(read_run(p), p)


def test_a_line_longer_than_a_piece(tmp_path, monkeypatch):
    monkeypatch.setattr(rf, "CHUNK", 64)
    long_doc = "D" * 300
    p = tmp_path / "long.run"
    p.write_text(f"1 Q0 a 1 3.5 t\n1 Q0 {long_doc} 2 2.5 t\n2 Q0 b 1 1e-3 t2\n")
    run = read_run(p)
    assert [run.docno(i) for i in range(3)] == ["a", long_doc, "b"]
    assert run.score.tolist() == [3.5, 2.5, 1e-3] and run.tag == "t2"
    _same_as_line_parser(run, p)


def test_ranks_read_as_the_line_parser_reads_them(tmp_path):
    """trec_eval ignores the rank column; it is kept for display, 0 where not an int32."""
    p = tmp_path / "ranks.run"
    p.write_text("1 Q0 a +7 3 t\n1 Q0 b x 2 t\n1 Q0 c 99999999999 1 t\n1 Q0 d -3 0 t\n")
    run = read_run(p)
    assert run.rank.tolist() == [7, 0, 0, -3]
    _same_as_line_parser(run, p)


@pytest.mark.parametrize("line", ["1  a 1 3 t", "1 Q0 a 1 3 ", "1 Q0  1 3 t"])
def test_an_empty_field_is_named(tmp_path, line):
    """A doubled delimiter is an empty field for pyarrow; trec_eval sees five fields."""
    p = tmp_path / "empty.run"
    p.write_text("1 Q0 z 1 4 t\n" + line + "\n")
    with pytest.raises(FormatError) as e:
        read_run(p)
    assert e.value.line == 2


def test_doubled_white_space_between_six_fields_is_fine(tmp_path):
    """trec_eval splits at any run of white space: the line parser takes this line."""
    p = tmp_path / "spaces.run"
    p.write_text("1 Q0 z 1 4 t\n1 Q0 a 1 3  t\n")
    run = read_run(p)
    assert [run.docno(i) for i in range(2)] == ["z", "a"] and run.score.tolist() == [4, 3]


def test_blank_variants_take_the_fast_path(tmp_path, monkeypatch):
    """CRLF line ends, padded columns, tabs mixed with spaces, blanks at a line's
    ends, comment lines: trec_eval reads the same fields, and so does the pyarrow
    path (the text squeezed to single spaces, comment lines dropped), without
    falling back to the line parser."""
    src = RUNS / NAMES[1]
    if not src.exists():
        pytest.skip(f"{src} not present")
    lines = gzip.decompress(src.read_bytes()).decode().splitlines()[:20000]
    plain = tmp_path / "plain.run"
    plain.write_text("\n".join(lines) + "\n")
    expected = _slow(plain)
    variants = {
        "crlf": "\r\n".join(lines) + "\r\n",
        "padded": "\n".join("  ".join(f.ljust(12) for f in ln.split()) for ln in lines) + "\n",
        "mixed": "\n".join(ln.replace(" ", " \t", 2) for ln in lines) + "\n",
        "ends": "\n".join(f"\t {ln} \t" for ln in lines) + "\n\n  \n",
        "comments": "# made by hand\n" + "\n".join(
            ln if i % 5000 else f"  #note {i} Q0 x 1 2 t\n{ln}" for i, ln in enumerate(lines))
        + "\n#end",
    }
    monkeypatch.setattr(rf, "CHUNK", 65536)
    monkeypatch.setattr(rf, "_parse_slow", lambda *a: pytest.fail("fell back to the line parser"))
    for name, text in variants.items():
        p = tmp_path / f"{name}.run"
        p.write_bytes(text.encode())
        run = read_run(p)
        topic_code, topics, docnos, score, rank, tag, _, _ = expected
        assert run.topics.tolist() == topics.tolist(), name
        assert (run.topic_code == topic_code).all() and (run.score == score).all(), name
        assert [run.docno(i) for i in range(0, len(run), 997)] == \
            [d.decode() for d in docnos[::997].tolist()], name
        assert (run.rank == rank).all() and run.tag == tag, name


def test_a_lone_cr_still_goes_to_the_line_parser(tmp_path):
    """A CR not before a LF ends a line for the line parser (yardstick.inputs.io.line_rules)."""
    p = tmp_path / "cr.run"
    p.write_bytes(b"1 Q0 a 1 3 t\r1 Q0 b 2 2 t\n")
    run = read_run(p)
    assert [run.docno(i) for i in range(len(run))] == ["a", "b"]


def test_tag_and_blank_bytes_read_as_trec_eval_reads_them(tmp_path):
    """The tag is read from the last line's bytes (not converted by pyarrow): a tag
    that is not UTF-8 comes back as the same bytes; VT and FF separate fields for
    trec_eval (C isspace), NUL ends its strings: those files take the line parser."""
    p = tmp_path / "latin1.run"
    p.write_bytes(b"1 Q0 a 1 3 t\xe9st\n1 Q0 b 2 2 r\xe9n\xe9\n")
    run = read_run(p)
    assert run.tag.encode("utf-8", "surrogateescape") == b"r\xe9n\xe9"
    _same_as_line_parser(run, p)
    p = tmp_path / "vt.run"
    p.write_bytes(b"1 Q0 a 1\x0b3 tag extra\n1 Q0 b 2 2 tag\n")
    run = read_run(p)   # trec_eval: rank '1', score '3', tag 'tag'
    assert run.score.tolist() == [3.0, 2.0] and run.tag == "tag"
    p = tmp_path / "trailing.run"
    p.write_bytes(b"1 Q0 a 1 3 \n")   # five fields and a blank: trec_eval refuses it
    with pytest.raises(FormatError) as e:
        read_run(p)
    assert e.value.line == 1 and "expected 6 columns" in str(e.value)


@pytest.mark.parametrize("lookup", ["dict", "index_in"])
@pytest.mark.parametrize("chunk", [rf.CHUNK, 65536])
def test_shuffled_real_run_in_pieces_equals_the_line_parser(real_run, chunk, lookup, tmp_path,
                                                            monkeypatch):
    """A real run with its lines shuffled: every piece names hundreds of topics, mapped
    to ids by a set difference and one dict lookup per line, or by pyarrow's index_in
    against the topics known so far (Columns._topic_ids), with topics first seen in
    late pieces too; the columns must equal the line parser's."""
    from yardstick.inputs.io import run_columns

    monkeypatch.setattr(rf, "CHUNK", chunk)
    looked_up = []
    if lookup == "index_in":
        monkeypatch.setattr(run_columns, "LOOKUP_NAMES", 16)
        real = run_columns.Columns._looked_up
        monkeypatch.setattr(run_columns.Columns, "_looked_up",
                            lambda *a: looked_up.append(1) or real(*a))
    lines = real_run.read_bytes().splitlines(keepends=True)
    perm = np.random.default_rng(2611).permutation(len(lines))
    out = tmp_path / "shuffled.run"
    out.write_bytes(b"".join(lines[i] for i in perm))
    run = read_run(out)
    _same_as_line_parser(run, out)
    assert (run.meta["_topic_counts"] == np.bincount(run.topic_code)).all()
    assert bool(looked_up) == (lookup == "index_in")


@pytest.mark.parametrize("bad, slow", [(b"7\x01", 1), (b"#7", 0)])
def test_a_topic_with_a_control_byte_or_hash_among_many(tmp_path, monkeypatch, bad, slow):
    """A batch naming hundreds of topics is checked from its dictionary's buffers
    (run_piece._plain_names); one topic id with a control byte among them still goes
    to the line parser, and a comment line is dropped (trec_eval 10 skips it): either
    way the columns are the line parser's."""
    monkeypatch.setattr(rf, "_parse_slow", _count_slow := _CountingSlow(rf._parse_slow))
    rows = [f"{t} Q0 d{t}-{i} {i} {100 - i}.5 tag\n".encode() for i in range(40)
            for t in range(300)]
    rows.insert(5000, bad + b" Q0 dx 1 1.0 tag\n")
    path = tmp_path / "many.run"
    path.write_bytes(b"".join(rows))
    run = read_run(path)
    assert _count_slow.calls == slow
    _same_as_line_parser(run, path)


class _CountingSlow:
    def __init__(self, f):
        self.f, self.calls = f, 0

    def __call__(self, *a, **k):
        self.calls += 1
        return self.f(*a, **k)


def test_docnos_widening_from_piece_to_piece(tmp_path, monkeypatch):
    """Short docnos in the first pieces and docnos of 9-40 bytes later: the columns
    widen while reading, and the docno hashes made per piece (padding words skipped)
    must still make the join index that the widened docnos make."""
    monkeypatch.setattr(rf, "CHUNK", 4096)
    rows = [f"{t} Q0 {'d' * (1 + (i * 7 + t) % (40 if i > 300 else 6))}{i} {i} {-i}.25 x\n"
            for t in range(3) for i in range(600)]
    path = tmp_path / "wide.run"
    path.write_text("".join(rows))
    run = read_run(path)
    assert run.docno_bytes.dtype.itemsize > 8
    _same_as_line_parser(run, path)
