"""A qrels docno that is not UTF-8 and outside the pool (issue 14, found by
benchmarks/hostile_corpus.py).

pandas 3 stores strings as pyarrow UTF-8, which cannot hold the surrogate escapes
of undecodable bytes; ``yardstick pool`` ended in a UnicodeEncodeError
traceback.  The document must be listed with its original bytes.
"""

from __future__ import annotations

from yardstick.cli import main


def test_pool_lists_a_latin1_docno_outside_the_pool_with_its_bytes(tmp_path, capsys):
    (tmp_path / "q").write_bytes(b"1 0 a 1\n1 0 b 0\n1 0 c\xe9 1\n")
    (tmp_path / "r").write_bytes(b"1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 c 3 1 t\n")
    status = main(["pool", "--qrels", str(tmp_path / "q"), "--depth", "2", "--analysis", "stats",
                   "--out", str(tmp_path / "out"), str(tmp_path / "r")])
    assert status == 0
    outside = (tmp_path / "out" / "judged_outside_pool.csv").read_bytes()
    assert outside == b"topic,docno,rel\n1,c\xe9,1\n"
    out = capsys.readouterr().out
    assert "judged_outside_pool        1" in out and "mean_pool_size        2.0000" in out
