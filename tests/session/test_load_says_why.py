"""A file the window cannot take is refused with the reason and the line, as the CLI says.

A run with a NaN score or a 100 MB docno was only "not recognised as qrels, a run, …"
in the window, where ``yardstick eval`` named the line and the reason: files shaped
like a run or a qrels file are now read as one, so their reader says what is wrong.
"""

from __future__ import annotations

import re

import pytest

from yardstick.common.progress import run_sync
from yardstick.session.loading import column_shape, load_files


def _errors(*paths) -> list[str]:
    res = run_sync(load_files([(str(p), None) for p in paths]))
    return [str(e) for e in res.errors]


@pytest.mark.parametrize("body, why", [
    (b"301 Q0 d1 1 nan t\n301 Q0 d2 2 0.5 t\n", r"line 1: score is not a finite number"),
    (b"301 Q0 d1 1 0.9 t\n301 Q0 d2 2 inf t\n301 Q0 d3 3 0.1 t\n",
     r"line 2: score is not a finite number"),
    (b"301 Q0 " + b"D" * 200_000 + b" 1 1.0 t\n", r"line 1: a docno of 200,000 bytes"),
    (b"301 0 d1 yes\n301 0 d2 1\n301 0 d3 0\n", r"line 1: relevance 'yes' is not an integer"),
])
def test_the_reason_and_line_are_said(tmp_path, body, why):
    p = tmp_path / "input.txt"
    p.write_bytes(body)
    errs = _errors(p)
    assert len(errs) == 1 and "not recognised" not in errs[0]
    assert errs[0].startswith(str(p))
    assert re.search(why, errs[0]), errs[0]


def test_text_of_no_known_shape_is_still_not_recognised(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("Dear reader,\nthis is a letter.\n")
    assert column_shape(p.read_text()) is None
    assert "not recognised" in _errors(p)[0]
