"""``yardstick pool`` refuses nonsense before any work, and its shares stay shares (issue #14).

Each refusal is checked by its message: a user must learn which option or file
was wrong and what is allowed, instead of a NaN, a traceback or a silent
fallback.
"""

from __future__ import annotations

import pandas as pd
import pytest

from yardstick.analysis.pool.simulation import simulate
from yardstick.cli import main
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.judged_runs_build import build_judged_runs


@pytest.fixture()
def files(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n1 0 d3 1\n1 0 d4 1\n")
    runs = []
    for name, docs in (("runA", "d1 d3 d5"), ("runB", "d2 d4 d6")):
        p = tmp_path / name
        p.write_text("".join(f"1 Q0 {d} {i} {3 - i} {name}\n"
                             for i, d in enumerate(docs.split())))
        runs.append(str(p))
    return str(qrels), runs


def _refused(capsys, argv) -> str:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.mark.parametrize("option, value, message", [
    ("--measure", "P_0", "argument --measure: 'P_0': precision needs a cutoff of at least 1 "
                         "document (P_1, P_10, ...)"),
    ("--measure", "ndcg", "argument --measure: pool re-scoring supports map, map_judged, bpref, "
                          "infAP and P_k (k >= 1), not 'ndcg'"),
    ("--levels", "0,-3", "argument --levels: must be 1 or more (a depth, a number of groups or "
                         "a budget per topic), not 0"),
    ("--levels", "10,x", "argument --levels: 'x' is not a whole number"),
    ("--levels", ",", "argument --levels: expected whole numbers separated by commas"),
])
def test_nonsense_options_are_refused_by_name(capsys, files, option, value, message):
    qrels, runs = files
    assert _refused(capsys, ["pool", "--qrels", qrels, option, value, *runs]) == \
        f"yardstick pool: error: {message}"


def test_a_groups_file_naming_no_run_is_refused(tmp_path, files, capsys):
    qrels, runs = files
    groups = tmp_path / "groups.tsv"
    groups.write_text("otherA\tteam1\notherB\tteam2\n")
    assert main(["pool", "--qrels", qrels, "--groups", str(groups), "--analysis", "stats",
                 *runs]) == 1
    assert capsys.readouterr().err.strip() == (
        f"yardstick pool: {groups}: names none of the 2 runs given (by file name or run "
        "tag: runA, runB); its runs are otherA, otherB")


def test_runs_missing_from_the_groups_file_are_named(tmp_path, files, capsys):
    qrels, runs = files
    groups = tmp_path / "groups.tsv"
    groups.write_text("runA\tteam1\n")
    assert main(["pool", "--qrels", qrels, "--groups", str(groups), "--analysis", "stats",
                 *runs]) == 0
    assert (f"note: 1 run(s) are not in {groups} and form a group of their own each: runB"
            in capsys.readouterr().err)


def test_move_to_front_share_of_relevant_is_at_most_one():
    """Move-to-front reads the runs below the pool depth (Cormack et al. 1998), so its
    share counts the relevant documents the pooled runs retrieved at any depth.

    Depth-1 pool = {d1, d2}: one relevant document.  With a budget of 6 per topic,
    move-to-front judges all six retrieved documents and finds d1, d3 and d4: all 3
    relevant documents the runs retrieved (the share was 3 / 1 = 3 before)."""
    qrels = Qrels.from_frame(pd.DataFrame({"topic": ["1"] * 4, "docno": ["d1", "d2", "d3", "d4"],
                                           "rel": [1, 0, 1, 1]}))
    runs = [Run.from_arrays(["1"] * 3, docs, [3.0, 2.0, 1.0], name=name)
            for name, docs in (("runA", ["d1", "d3", "d5"]), ("runB", ["d2", "d4", "d6"]))]
    index = build_judged_runs(runs, qrels)
    mtf = simulate(index, 1, "mtf", [1, 6]).levels.set_index("level")
    assert mtf.loc[6, "relevant"].tolist() == [3] * len(mtf.loc[6])
    assert mtf.loc[6, "share_relevant"].tolist() == [1.0] * len(mtf.loc[6])
    assert mtf.loc[1, "share_relevant"].tolist() == [1 / 3] * len(mtf.loc[1])
    depth = simulate(index, 1, "depth", [1]).levels
    assert depth["share_relevant"].tolist() == [1.0] * len(depth)   # d1 of {d1}


@pytest.mark.parametrize("tie_order, kept", [("trec_eval", "e"), ("file", "c"), ("docno", "b")])
def test_tie_order_decides_what_a_depth_keeps(tie_order, kept):
    """Scores: a 3, then c, b, e tied at 2 (in that file order), then d 1.  A depth-2
    pool keeps a and one of the tied three: trec_eval's docno-descending order puts e
    first, the file's order c, docno ascending b; the cut at 2 falls inside the tie."""
    qrels = Qrels.from_frame(pd.DataFrame({"topic": ["1"] * 2, "docno": ["a", "b"],
                                           "rel": [1, 1]}))
    run = Run.from_arrays(["1"] * 5, ["a", "c", "b", "e", "d"], [3.0, 2.0, 2.0, 2.0, 1.0],
                          name="r")
    index = build_judged_runs([run], qrels, tie_order=tie_order)
    from yardstick.analysis.pool.reconstruction import boundary_ties, reconstruct_pool

    pool = reconstruct_pool(index, 2)
    assert sorted(index.docnos(index.key_doc(pool.keys)).tolist()) == sorted(["a", kept])
    assert boundary_ties(index, 2) == 1 and boundary_ties(index, 4) == 0


def test_docnos_and_topics_that_are_not_utf8_go_through_the_pool(tmp_path, capsys):
    """Found by benchmarks/hostile_inputs.py: a Latin-1 docno (or topic) in a run made
    ``pool`` end in a UnicodeEncodeError traceback (pandas' string dtype cannot hold the
    bytes).  The bytes are kept as they are, and tables that list them still come out."""
    (tmp_path / "q").write_bytes(b"301 0 D301-2 1\n\xff01 0 x 0\n")
    (tmp_path / "lat").write_bytes(b"301 Q0 D301-\xe9 1 2 t\n301 Q0 D301-2 2 1 t\n"
                                   b"\xff01 Q0 x 1 1 t\n")
    (tmp_path / "other").write_bytes(b"301 Q0 D301-2 1 2 o\n301 Q0 D301-7 2 1 o\n")
    out = tmp_path / "out"
    assert main(["pool", "--qrels", str(tmp_path / "q"), "--analysis", "stats", "--analysis",
                 "uniques", "--out", str(out), str(tmp_path / "lat"),
                 str(tmp_path / "other")]) == 0
    # the table keeps the docno's own bytes
    assert b"\n301,D301-\xe9," in (out / "pooled_not_in_qrels.csv").read_bytes()
    assert "\ufffd01" in capsys.readouterr().err   # the note shows the topic's odd byte
