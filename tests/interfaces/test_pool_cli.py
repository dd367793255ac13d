"""``yardstick pool`` on the hand-built pool written to files."""

from __future__ import annotations

import pandas as pd
import pytest
from pool_fixtures import HAND_DOCS, HAND_QRELS, HAND_RUNS, HAND_TOPICS

from yardstick.cli import main


@pytest.fixture()
def files(tmp_path):
    paths = []
    for name, (_group, rows) in HAND_RUNS.items():
        p = tmp_path / f"{name}.run"
        p.write_text("".join(f"{t} Q0 {d} {i} {s} {name}\n" for i, (t, d, s) in enumerate(rows)))
        paths.append(str(p))
    q = tmp_path / "hand.qrels"
    q.write_text("".join(f"{t} 0 {d} {r}\n" for t, d, r in HAND_QRELS))
    g = tmp_path / "groups.tsv"
    g.write_text("".join(f"{name}\t{group}\n" for name, (group, _) in HAND_RUNS.items()))
    docs = tmp_path / "docs.tsv"
    docs.write_text("".join(f"{d}\t{t}\n" for d, t in HAND_DOCS.items() if t))
    topics = tmp_path / "topics.tsv"
    topics.write_text("".join(f"{t}\t{title}\n"
                              for t, title in HAND_TOPICS.itertuples(index=False)))
    return tmp_path, paths, str(q), str(g), str(docs), str(topics)


def test_pool_command_writes_counted_tables(files, capsys):
    tmp, runs, qrels, groups, docs, topics = files
    out = tmp / "out"
    rc = main(["pool", "--qrels", qrels, "--depth", "2", "--groups", groups,
               "--analysis", "stats", "--analysis", "uniques", "--analysis", "titlestat",
               "--docs", docs, "--topics", topics, "--out", str(out), *runs])
    assert rc == 0
    text = capsys.readouterr().out
    assert "leave-out-uniques by group" in text
    per_topic = pd.read_csv(out / "pool_per_topic.csv", dtype={"topic": str}).set_index("topic")
    assert per_topic["pool_size"].tolist() == [4, 5]            # see pool_fixtures
    assert per_topic["pooled_not_in_qrels"].tolist() == [0, 2]   # e4, e6
    units = pd.read_csv(out / "uniques_group_units.csv").set_index("group")
    assert units["unique_relevant"].to_dict() == {"G1": 2, "G2": 1}
    rel = pd.read_csv(out / "titlestat_rel.csv", dtype={"topic": str}).set_index("topic")
    assert rel.loc["1", "titlestat"] == pytest.approx(0.75)      # (2/4 + 3/3) / 2


def test_not_pooled_runs_stay_out_of_the_pool(files, capsys):
    tmp, runs, qrels, groups, *_ = files
    out = tmp / "out2"
    rc = main(["pool", "--qrels", qrels, "--depth", "2", "--analysis", "stats",
               "--not-pooled", "C", "--out", str(out), *runs])
    assert rc == 0
    per_topic = pd.read_csv(out / "pool_per_topic.csv", dtype={"topic": str}).set_index("topic")
    # without C: {d1 d2 d4} and {e2 e1 e4 e5}
    assert per_topic["pool_size"].tolist() == [3, 4]
    per_run = pd.read_csv(out / "pool_per_run.csv").set_index("run")
    assert per_run["pooled"].to_dict() == {"A.run": True, "B.run": True, "C.run": False}


def test_bad_qrels_is_a_format_error(files, capsys):
    tmp, runs, *_ = files
    bad = tmp / "bad.qrels"
    bad.write_text("1 0 d1 x\n")
    assert main(["pool", "--qrels", str(bad), *runs]) == 1
    assert "bad.qrels" in capsys.readouterr().err


def test_compare_qrels_prints_the_paired_test(files, capsys):
    tmp, runs, qrels, groups, docs, topics = files
    other = tmp / "b.qrels"
    other.write_text("1 0 d2 1\n1 0 d3 1\n2 0 e4 1\n")
    out = tmp / "out3"
    rc = main(["pool", "--qrels", qrels, "--depth", "2", "--analysis", "titlestat",
               "--docs", docs, "--topics", topics, "--compare-qrels", str(other),
               "--out", str(out), *runs])
    assert rc == 0
    assert "2 topics, 1 higher in" in capsys.readouterr().out
    cmp_ = pd.read_csv(out / "titlestat_compare.csv", dtype={"topic": str}).set_index("topic")
    # tables are written with four decimals
    assert cmp_["mean_difference"].tolist() == pytest.approx([0.5, -2 / 3], abs=5e-5)


def test_titlestat_without_documents_is_refused(files, capsys):
    _, runs, qrels, *_ = files
    assert main(["pool", "--qrels", qrels, "--analysis", "titlestat", *runs]) == 2
    assert "needs --docs and --topics" in capsys.readouterr().err


def test_a_pooled_runs_file_names_the_pool(files, capsys):
    """``--pooled FILE`` (a track's list of pooled runs) gives the pool of the same runs
    as ``--not-pooled`` for every other run; names of runs not given are only noted."""
    tmp, runs, qrels, *_ = files
    listed = tmp / "pooled.txt"
    listed.write_text("# pooled at depth 2\nA\nB.run\nZ\n")
    out = tmp / "out3"
    assert main(["pool", "--qrels", qrels, "--depth", "2", "--analysis", "stats",
                 "--pooled", str(listed), "--out", str(out), *runs]) == 0
    assert "1 run(s) named in" in capsys.readouterr().err
    per_topic = pd.read_csv(out / "pool_per_topic.csv", dtype={"topic": str}).set_index("topic")
    assert per_topic["pool_size"].tolist() == [3, 4]          # as --not-pooled C above
    per_run = pd.read_csv(out / "pool_per_run.csv").set_index("run")
    assert per_run["pooled"].to_dict() == {"A.run": True, "B.run": True, "C.run": False}
    listed.write_text("Z\n")
    assert main(["pool", "--qrels", qrels, "--analysis", "stats", "--pooled", str(listed),
                 *runs]) != 0
    assert "no pooled run left" in capsys.readouterr().err


def test_not_pooled_by_file_name_unknown_refused_and_provenance(files, capsys):
    import json

    tmp, runs, qrels, groups, *_ = files
    out = tmp / "out3"
    assert main(["pool", "--qrels", qrels, "--depth", "2", "--analysis", "stats",
                 "--not-pooled", "C.run", "--out", str(out), *runs]) == 0
    per_run = pd.read_csv(out / "pool_per_run.csv").set_index("run")
    assert per_run["pooled"].to_dict() == {"A.run": True, "B.run": True, "C.run": False}
    prov = json.loads((out / "pool_per_run.provenance.json").read_text())
    assert prov["extra"]["not_pooled"] == "C.run" and len(prov["runs"]) == 3
    capsys.readouterr()
    assert main(["pool", "--qrels", qrels, "--analysis", "stats", "--not-pooled", "Z",
                 *runs]) == 1
    err = capsys.readouterr().err
    assert "yardstick pool: --not-pooled: 'Z' is neither a run file nor a run tag" in err
