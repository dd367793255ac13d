"""The line parsers read a file a piece at a time (``line_rules.numbered_lines``).

Decoding and splitting a whole 2 GB file of garbage took 8 GB before the error on its
first line; pieces hold 16 MiB.  The pieces must give exactly the lines and line
numbers of the whole text under trec_eval's rules (``text_lines``), whatever the piece
boundaries cut: CRLF, a lone CR, bytes that are not UTF-8, no final newline.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yardstick.common.errors import FormatError
from yardstick.inputs.io.line_rules import line_at, numbered_lines, text_lines
from yardstick.inputs.io.qrels_file import read_qrels
from yardstick.inputs.io.text_source import decode_text

SAMPLES = [b"", b"\n", b"a b\n", b"a b", b"1 0 d1 1\r\n1 0 d2 0\r\n", b"x\ry\rz",
           b"1 0 caf\xe9 1\n\n# c\n2 0 d 0\n", b"\r\n\r\n\n", b"a\n" * 50 + b"b"]


def _whole(data: bytes) -> list[tuple[int, str]]:
    return list(enumerate(text_lines(decode_text(data)), 1))


@pytest.mark.parametrize("data", SAMPLES)
@pytest.mark.parametrize("piece", [1, 2, 3, 5, 64])
def test_pieces_give_the_whole_texts_lines(data, piece):
    assert [(i, line) for i, line, _ in numbered_lines(data, piece)] == _whole(data)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200).map(lambda b: b.replace(b"\x00", b"")),
       st.integers(1, 40))
def test_pieces_any_bytes(data, piece):
    assert [(i, line) for i, line, _ in numbered_lines(data, piece)] == _whole(data)


def test_line_at():
    data = b"1 0 a 1\r\n1 0 b 1\n\n1 0 c"
    assert [line_at(data, i) for i in (1, 2, 3, 4, 5)] == ["1 0 a 1", "1 0 b 1", "", "1 0 c", ""]


def test_a_bad_first_line_stops_the_qrels_parser_in_the_first_piece(tmp_path, monkeypatch):
    """The line parser decodes no further than the piece holding the bad line."""
    import yardstick.inputs.io.text_source as ts

    decoded = []
    real = ts.decode_text

    def counting(b: bytes) -> str:
        decoded.append(len(b))
        return real(b)

    monkeypatch.setattr(ts, "decode_text", counting)
    p = tmp_path / "garbage.qrels"
    p.write_bytes(b"not a qrels line at all\n" + b"1 0 d 1\n" * 3_000_000)   # 24 MB
    with pytest.raises(FormatError, match=r"line 1: expected 4 columns"):
        read_qrels(p)
    assert decoded and sum(decoded) <= (1 << 24) + 64      # one piece, not 24 MB


def test_a_binary_file_is_refused_from_its_first_bytes(tmp_path, monkeypatch):
    """2 GB of random bytes were read whole (11.8 s, 2.2 GB) before the NUL byte on their
    first line was seen: the first 64 KiB decide."""
    import builtins

    from yardstick.inputs.io.text_source import read_bytes

    p = tmp_path / "sparse.bin"
    with open(p, "wb") as f:
        f.truncate(1 << 30)                       # 1 GiB of NUL bytes, sparse on disk
    sizes = []
    real_open = builtins.open

    class Counting:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def read(self, n=-1):
            out = self.f.read(n)
            sizes.append(len(out))
            return out

    monkeypatch.setattr(builtins, "open", lambda *a, **k: Counting(real_open(*a, **k))
                        if str(a[0]) == str(p) else real_open(*a, **k))
    with pytest.raises(FormatError, match=r"line 1: contains NUL bytes"):
        read_bytes(p, "run file")
    assert sum(sizes) <= 1 << 16
