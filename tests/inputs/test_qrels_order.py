"""Qrels in any line order are held sorted by (topic, docno) in byte order (issue #19).

The reader checks the docnos in file order and only puts topic blocks in order
when a file is grouped by topic (the usual numeric topic order, "2" before
"10", is not byte order); anything else is sorted.  Each order of the same
judgments must give the arrays that Python's own sort of the byte strings
gives, for docnos of one 8-byte word, of several, and with non-ASCII bytes.
"""

from __future__ import annotations

import numpy as np
import pytest

from yardstick.common.errors import FormatError
from yardstick.inputs.io.qrels_file import read_qrels


def _judgments(rng, docno):
    rows = []
    for t in [2, 3, 10, 11, 100, 25]:
        docs = sorted({docno(rng) for _ in range(40)})
        rows += [(str(t), d, int(rng.integers(-1, 3))) for d in docs]
    return rows


_DOCNOS = {
    "one word": lambda rng: f"D{rng.integers(0, 10**6)}",
    "several words": lambda rng: f"clueweb12-{rng.integers(0, 10**4):04d}wb-{rng.integers(0, 99)}",
    "non-ascii": lambda rng: f"doc-é{rng.integers(0, 500)}ü",
}


def _orders(rng, rows):
    """Numeric topic order (docnos sorted), byte order, docnos reversed within
    topics, one topic in two blocks, and shuffled."""
    by_bytes = sorted(rows, key=lambda r: (r[0].encode(), r[1].encode()))
    numeric = sorted(rows, key=lambda r: (int(r[0]), r[1].encode()))
    reversed_docs = sorted(rows, key=lambda r: (int(r[0]), [-b for b in r[1].encode()]))
    split = numeric[:20] + numeric[60:] + numeric[20:60]
    shuffled = [rows[i] for i in rng.permutation(len(rows))]
    return {"numeric": numeric, "bytes": by_bytes, "reversed": reversed_docs,
            "split": split, "shuffled": shuffled}


@pytest.mark.parametrize("kind", list(_DOCNOS))
def test_every_line_order_gives_the_byte_sorted_judgments(tmp_path, kind):
    rng = np.random.default_rng(7)
    rows = _judgments(rng, _DOCNOS[kind])
    want = sorted(rows, key=lambda r: (r[0].encode(), r[1].encode()))
    for name, lines in _orders(rng, rows).items():
        path = tmp_path / f"{name}.qrels"
        path.write_text("".join(f"{t} 0 {d} {r}\n" for t, d, r in lines), encoding="utf-8")
        q = read_qrels(path)
        topics, code = q.topic_index
        assert [topics[c] for c in code] == [r[0] for r in want], name
        assert [d.decode() for d in q.docno_bytes.tolist()] == [r[1] for r in want], name
        assert q.rel.tolist() == [r[2] for r in want], name


def test_a_judgment_repeated_in_another_block_is_named(tmp_path):
    path = tmp_path / "twice.qrels"
    path.write_text("2 0 D1 1\n2 0 D3 0\n10 0 D1 1\n2 0 D3 1\n")
    with pytest.raises(FormatError) as e:
        read_qrels(path)
    assert e.value.line == 4 and "judged twice" in e.value.message
