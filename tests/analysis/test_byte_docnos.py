"""Docnos are bytes: the same bytes mean the same document in every file, whatever each
file's encoding (trec_eval compares bytes).  A qrels file with one Latin-1 byte used to
be decoded as Latin-1 as a whole, so its UTF-8 docnos stopped matching a UTF-8 run."""

from __future__ import annotations

import subprocess
import sys

import pytest

import yardstick as ys

QRELS = b"1 0 caf\xc3\xa9 1\n1 0 doc\xe9 1\n1 0 plain 0\n2 0 x\xff\xfey 1\n2 0 ok 1\n"
RUN = (b"1 Q0 caf\xc3\xa9 1 3.0 t\xc3\xa9st\n1 Q0 plain 2 2.0 t\xc3\xa9st\n"
       b"1 Q0 doc\xe9 3 1.0 t\xc3\xa9st\n2 Q0 ok 1 2 t\xc3\xa9st\n"
       b"2 Q0 x\xff\xfey 2 1 t\xc3\xa9st\n")
# trec_eval 10.0's output on these bytes (-q -m map -m num_rel_ret -m runid)
TREC_EVAL = (b"num_rel_ret           \t1\t2\nmap                   \t1\t0.8333\n"
             b"num_rel_ret           \t2\t2\nmap                   \t2\t1.0000\n"
             b"runid                 \tall\tt\xc3\xa9st\nnum_rel_ret           \tall\t4\n"
             b"map                   \tall\t0.9167\n")


@pytest.fixture()
def files(tmp_path):
    q, r, r2 = tmp_path / "qrels", tmp_path / "run", tmp_path / "run2"
    q.write_bytes(QRELS)
    r.write_bytes(RUN)
    # the *character* é in UTF-8 where the qrels have the Latin-1 byte: another docno
    r2.write_bytes(RUN.replace(b"doc\xe9", b"doc\xc3\xa9"))
    return q, r, r2


def test_eval_prints_trec_eval_s_bytes(files):
    q, r, _ = files
    out = subprocess.run([sys.executable, "-m", "yardstick.cli", "eval", "-q", "-m", "map",
                          "-m", "num_rel_ret", "-m", "runid", str(q), str(r)],
                         capture_output=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == TREC_EVAL


def test_same_character_other_bytes_is_another_document(files):
    q, _, r2 = files
    # topic 1: café at rank 1 relevant, doc\xc3\xa9 is not doc\xe9 -> AP = 1/2; topic 2: 1
    df = ys.evaluate(q, r2, ["map"], per_topic=False)
    assert df["value"].tolist() == [0.75]  # trec_eval 10.0: map all 0.7500


def test_every_path_sees_the_same_documents(files):
    q, r, _ = files
    run = ys.read_runs(r)[0]
    qrels = ys.read_qrels(q)
    assert run.docno(2).encode("utf-8", "surrogateescape") == b"doc\xe9"
    # the API and the window's evaluation
    ev = ys.evaluations(qrels, [run], ["map", "num_rel_ret"])[run.name]
    assert ev.per_topic["num_rel_ret"].tolist() == [2, 2]
    # pool diagnostics: every pooled document is in the qrels (none "pooled, not in qrels")
    per_topic = ys.pool_report(qrels, [run], depth=10).tables()["pool_per_topic"]
    assert per_topic["pool_size"].tolist() == [3, 2]
    assert per_topic["pooled_not_in_qrels"].tolist() == [0, 0]
    # explain: the worked AP of topic 1 is (1/1 + 2/3) / 2, with the Latin-1 docno at rank 3
    from yardstick.analysis.explain import explain_all

    (ex,) = explain_all(run, qrels, "map", "1")
    assert ex.value == (1 / 1 + 2 / 3) / 2
    # display replaces the byte, never drops it
    from yardstick.inputs.io.text_source import shown

    assert shown(run.docno(2)) == "doc\ufffd"
