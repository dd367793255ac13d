"""``yardstick archive``: one row per track, equal to running each track alone.

Three small tracks are generated here (seeded: runs that find relevant documents
with different skill, qrels pooled from the runs' top 20); the table over all three
must equal, row by row, the table of each track run alone, and its columns must equal
what the single-track analyses give (``ys.stability_report``'s discriminative power
and Kendall tau; the runs and topics counted from the files).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import yardstick as ys
from yardstick.cli import main
from yardstick.session.archive_study import (
    ArchiveSettings,
    archive_table,
    track_files,
    track_row,
)


def _track(root, seed: int, n_runs: int = 6, n_topics: int = 12, depth: int = 40):
    rng = np.random.default_rng(seed)
    (root / "runs").mkdir(parents=True)
    rel = {t: set(rng.choice(120, 15, replace=False).tolist()) for t in range(n_topics)}
    pooled = set()
    for r in range(n_runs):
        skill = 0.2 + 0.1 * r
        lines = []
        for t in range(n_topics):
            docs = rng.permutation(120)
            score = rng.random(120) + skill * np.isin(docs, list(rel[t]))
            order = docs[np.argsort(-score)][:depth]
            pooled.update((t, int(d)) for d in order[:20])
            lines += [f"{100 + t} Q0 D{d} {k + 1} {depth - k} run{r}" for k, d in
                      enumerate(order)]
        (root / "runs" / f"run{r}").write_text("\n".join(lines) + "\n")
    (root / "qrels.txt").write_text("".join(
        f"{100 + t} 0 D{d} {int(d in rel[t])}\n" for t, d in sorted(pooled)))
    (root / "groups.tsv").write_text("".join(f"run{r}\tteam{r // 2}\n" for r in range(n_runs)))
    return root


@pytest.fixture(scope="module")
def tracks(tmp_path_factory):
    base = tmp_path_factory.mktemp("archive")
    return [str(_track(base / f"t{i}", i)) for i in range(3)]


def _read(path):
    return pd.read_csv(path, comment="#")


def test_archive_table_equals_each_track_alone(tracks, tmp_path, capsys):
    assert main(["archive", *tracks, "--out", str(tmp_path / "all"), "-B", "100"]) == 0
    together = _read(tmp_path / "all" / "archive.csv")
    assert together["track"].tolist() == ["t0", "t1", "t2"]
    assert (tmp_path / "all" / "archive.png").stat().st_size > 0
    for i, t in enumerate(tracks):
        out = tmp_path / f"alone{i}"
        assert main(["archive", t, "--out", str(out), "-B", "100"]) == 0
        alone = _read(out / "archive.csv")
        pd.testing.assert_frame_equal(together.iloc[[i]].reset_index(drop=True), alone)
        per_track = _read(tmp_path / "all" / "tracks" / f"t{i}.csv")
        pd.testing.assert_frame_equal(per_track, alone)


def test_archive_columns_match_the_single_track_analyses(tracks):
    st = ArchiveSettings(measures=("map", "recip_rank"), samples=100, seed=3)
    row = track_row(track_files(tracks[1]), st)
    assert (row["runs"], row["topics"]) == (6, 12)
    files = track_files(tracks[1])
    rep = ys.stability_report(files.qrels, list(files.runs), measures=("map", "recip_rank"),
                              analyses=("discriminative", "kendall"), samples=100, seed=3)
    disc = rep.table("discriminative_power").set_index("measure")
    assert row["discriminative_power"] == disc.loc["map", "discriminative_power"]
    assert row["kendall_tau_map_recip_rank"] == pytest.approx(
        rep.table("kendall_matrix").loc["map", "recip_rank"], abs=1e-12)
    assert 0 < row["judged_depth"] <= 20
    assert row["min_diff_5%_at_25"] >= row["min_diff_5%_at_50"] or \
        np.isnan(row["min_diff_5%_at_50"])
    # 12 topics: disjoint halves sample sizes 1..6; 25 and 50 are the fit extrapolated,
    # and the row says how far its samples went
    assert row["swap_largest_sampled_size"] == 6


def test_archive_on_threads_cluster_equals_in_process(tracks):
    pytest.importorskip("distributed")
    from yardstick.common.executor import connect

    st = ArchiveSettings(samples=100, seed=1)
    here = archive_table(tracks, st)
    with connect("local-threads:2") as ex:
        there = archive_table(tracks, st, ex)
        assert ex.stats.tasks == 3
    pd.testing.assert_frame_equal(here, there)


def test_archive_counts_are_integers_in_every_format(tracks, tmp_path, capsys):
    """Counts (runs, topics, judged depth, topics needed) are written as integers: the CSV
    held ``201.0`` and the console ``201.0000`` for a topic count (#28 tidy files)."""
    import openpyxl

    counts = ["runs", "topics", "judged_depth", "topics_for_diff_0.05"]
    tidy = ["n_runs", "n_topics", "judged_depth", "topics_for_diff_0.05"]
    assert main(["archive", *tracks[:2], "--out", str(tmp_path / "c"), "-B", "50"]) == 0
    console = capsys.readouterr().out.splitlines()
    text = pd.read_csv(tmp_path / "c" / "archive.csv", comment="#", dtype=str)
    assert all(text[c].str.fullmatch(r"\d+").all() for c in tidy)
    assert text["n_runs"].tolist() == ["6", "6"] and text["n_topics"].tolist() == ["12", "12"]
    head = console[0].split()
    for line, (_, row) in zip(console[1:], text.iterrows()):
        cells = dict(zip(head, line.split()))
        assert [cells[c] for c in counts] == [row[c] for c in tidy]
    assert main(["archive", tracks[0], "--out", str(tmp_path / "x"), "-B", "50", "--format",
                 "xlsx"]) == 0
    sheet = openpyxl.load_workbook(tmp_path / "x" / "archive.xlsx").active
    header = [c.value for c in sheet[1]]
    row = [c.value for c in sheet[2]]
    assert all(type(row[header.index(c)]) is int for c in tidy)


def test_judged_depth_is_the_lower_median_of_the_gapless_depths(tracks):
    """Every document of the generated runs' top 20 is judged and none below, so every
    pooled run is judged to depth 20 without a gap (``_track``)."""
    row = track_row(track_files(tracks[0]), ArchiveSettings(samples=50))
    assert row["judged_depth"] == 20 and type(row["judged_depth"]) is int


def test_a_track_judged_to_the_bottom_of_every_run(tmp_path):
    """Every document of every run judged (runs 20 deep, pool 20 deep): the judged depth is
    the runs' whole depth (an IndexError before: no unjudged document to search for)."""
    t = _track(tmp_path / "full", 5, n_runs=3, depth=20)
    row = track_row(track_files(str(t)), ArchiveSettings(samples=20))
    assert row["judged_depth"] == 20


def test_same_named_directories_are_told_apart_by_their_parents(tmp_path, capsys):
    a = _track(tmp_path / "2004" / "robust", 1)
    b = _track(tmp_path / "2005" / "robust", 2)
    c = _track(tmp_path / "trec8", 3)
    out = tmp_path / "out"
    assert main(["archive", str(a), str(b), str(c), "--out", str(out), "-B", "20"]) == 0
    assert _read(out / "archive.csv")["track"].tolist() == ["2004/robust", "2005/robust",
                                                             "trec8"]
    alone = _read(out / "tracks" / "2005" / "robust.csv")
    assert alone["track"].tolist() == ["2005/robust"]
    assert main(["archive", str(c), str(tmp_path / "." / "trec8"), "--out", str(out)]) == 1
    assert "given twice" in capsys.readouterr().err


def _bad(tmp_path, what: str):
    t = _track(tmp_path / what, 4, n_runs=3)
    if what == "one-run":
        for p in sorted((t / "runs").iterdir())[1:]:
            p.unlink()
    elif what == "no-qrels":
        (t / "qrels.txt").unlink()
    elif what == "no-runs":
        for p in (t / "runs").iterdir():
            p.unlink()
    elif what == "judges-none":
        lines = (t / "qrels.txt").read_text().splitlines()
        (t / "qrels.txt").write_text("".join(f"9{x}\n" for x in lines))
    return t


@pytest.mark.parametrize("what, says", [
    ("one-run", "one run file under runs/"), ("no-qrels", "no qrels file"),
    ("no-runs", "no run files under runs/"), ("judges-none", "judges none of the runs' topics")])
def test_a_bad_track_is_a_message_naming_it(tracks, tmp_path, capsys, what, says):
    """Second of two: the message names the bad track (not the first one given), exit 1,
    no traceback."""
    bad = _bad(tmp_path, what)
    assert main(["archive", tracks[0], str(bad), "--out", str(tmp_path / "o"), "-B", "20"]) == 1
    err = capsys.readouterr().err
    assert says in err and bad.name in err and tracks[0] not in err


def test_archive_charts_in_every_file_format_with_fonts_and_names_once(tracks, tmp_path):
    """archive.png, .pdf and .svg (only a PNG before); the PDF's text in embedded TrueType
    fonts (Type 42, as every chart file: no Type 3), the SVG's as text; each track named
    under the two lower panels only (the upper ones share their axis)."""
    out = tmp_path / "charts"
    assert main(["archive", *tracks, "--out", str(out), "-B", "20"]) == 0
    assert (out / "archive.png").stat().st_size > 0
    pdf = (out / "archive.pdf").read_bytes()
    assert b"/FontFile2" in pdf and b"/Type3" not in pdf
    svg = (out / "archive.svg").read_text()
    for name in ("t0", "t1", "t2"):
        assert svg.count(f">{name}</text>") == 2


def test_each_tracks_provenance_says_where_it_came_from(tracks, tmp_path):
    import json
    import os

    out = tmp_path / "prov"
    assert main(["archive", *tracks[:2], "--out", str(out), "-B", "20"]) == 0
    prov = json.loads((out / "tracks" / "t1.provenance.json").read_text())
    assert prov["extra"]["directory"] == os.path.abspath(tracks[1])
    assert prov["extra"]["groups_file"] == os.path.join(os.path.abspath(tracks[1]), "groups.tsv")
    assert prov["extra"]["pooled_file"] == "(none: every run pooled)"
    assert [r["file"] for r in prov["runs"]] == [f"run{i}" for i in range(6)]


def test_an_unknown_measure_or_an_unwritable_out_is_said_before_any_work(tracks, tmp_path,
                                                                          capsys, monkeypatch):
    """Both were found only after every track was computed (an unknown measure inside the
    first task; ``--out`` a file: a NotADirectoryError traceback at the end)."""
    import yardstick.session.archive_study as study

    monkeypatch.setattr(study, "track_row", lambda *a, **k: pytest.fail("work started"))
    assert main(["archive", *tracks, "--out", str(tmp_path / "m"), "-m", "nosuch"]) == 1
    assert "yardstick archive: --measure: unknown measure 'nosuch'" in capsys.readouterr().err
    afile = tmp_path / "afile"
    afile.write_text("")
    assert main(["archive", *tracks, "--out", str(afile)]) == 1
    assert f"{afile}: cannot write the results there" in capsys.readouterr().err


def test_a_track_named_like_mathtext_is_charted_as_text(tracks, tmp_path):
    odd = _track(tmp_path / "x$^$y", 6, n_runs=3)
    out = tmp_path / "odd"
    assert main(["archive", str(odd), tracks[0], "--out", str(out), "-B", "20"]) == 0
    assert (out / "archive.svg").read_text().count(">x$^$y</text>") == 2
