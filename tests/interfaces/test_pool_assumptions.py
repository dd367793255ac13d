"""``yardstick pool`` states its assumptions: the pool inferred from the judged depths by
default (with its evidence written by --out), a given --pooled list said as given, and a
track without pool structure said as 'cannot tell' with every run assumed."""

from __future__ import annotations

import numpy as np
import pandas as pd
from pool_tracks import make_track, write_track

from yardstick.cli import main


def _pool(tmp_path, capsys, *extra, **track):
    runs, qrels, truth = make_track(**track)
    paths, q = write_track(tmp_path, runs, qrels)
    out = tmp_path / "out"
    assert main(["pool", "--qrels", q, "--analysis", "stats", "--out", str(out),
                 *extra, *paths]) == 0
    return capsys.readouterr().out, out, truth, paths


def test_the_inferred_pool_is_the_default_and_says_so(tmp_path, capsys):
    text, out, truth, _ = _pool(tmp_path, capsys, depth=np.tile([20, 50, 80, 35], 5))
    a = pd.read_csv(out / "assumptions.csv").set_index("assumption")["value"]
    assert a["pooled runs"].startswith(f"inferred from the judged depths: {len(truth)} runs")
    assert a["pool depth"] == "inferred per topic: 20-80 (median 42)"
    assert a["groups"].startswith("a guess from run names")
    assert text.startswith("Assumptions:\n  runs: ")
    assert "pooled_runs and pool_groups count the inferred pool" in text
    summary = pd.read_csv(out / "pool_summary.csv").set_index("statistic")["value"]
    assert int(summary["pooled_runs"]) == len(truth)
    assert int(summary["pooled_not_in_qrels"]) == 0      # the real pool: nothing missing
    runs = pd.read_csv(out / "inferred_pool_runs.csv").set_index("run")
    assert set(runs.index[runs["contributing"] == "yes"]) == set(truth)
    topics = pd.read_csv(out / "inferred_pool_topics.csv")
    assert topics["pool_depth"].tolist() == [20, 50, 80, 35] * 5


def test_a_given_pooled_list_overrides_and_is_said_given(tmp_path, capsys):
    runs, qrels, truth = make_track()
    paths, q = write_track(tmp_path, runs, qrels)
    listed = tmp_path / "pooled.txt"
    listed.write_text("\n".join(list(truth)[:3]) + "\n")
    assert main(["pool", "--qrels", q, "--analysis", "stats", "--pooled", str(listed),
                 "--depth", "50", "--out", str(tmp_path / "out"), *paths]) == 0
    text = capsys.readouterr().out
    assert f"pooled runs: given (--pooled {listed}): 3 runs" in text
    assert "pool depth: given (--depth): 50" in text
    assert "pooled_runs and pool_groups count the given pool" in text


def test_no_pool_structure_cannot_tell_and_assumes_all_runs(tmp_path, capsys):
    text, out, _, paths = _pool(tmp_path, capsys, seed=2, pool=False)
    a = pd.read_csv(out / "assumptions.csv").set_index("assumption")["value"]
    assert a["pooled runs"].startswith(f"assumed: all {len(paths)} runs (the data cannot "
                                       "tell: no depth explains half")
    assert a["pool depth"] == "assumed: 100 (the data cannot tell; give a depth)"
    assert "== inferred pool: pool cannot be inferred: " in text


def test_a_groups_file_is_named_and_the_guess_is_called_one(tmp_path, capsys):
    runs, qrels, truth = make_track()
    paths, q = write_track(tmp_path, runs, qrels)
    groups = tmp_path / "groups.tsv"
    groups.write_text("".join(f"{r.name}\t{r.name[:6]}\n" for r in runs))
    assert main(["pool", "--qrels", q, "--analysis", "stats", "--groups", str(groups),
                 *paths]) == 0
    teams = len({r.name[:6] for r in runs})
    assert f"  groups: file groups.tsv: {teams} groups\n" in capsys.readouterr().out
    assert main(["pool", "--qrels", q, "--analysis", "stats", *paths]) == 0
    out = capsys.readouterr().out
    assert "  groups: a guess from run names (give a groups file to replace it): " in out
