"""``yardstick qrels-compare`` and ``yardstick compare-systems`` on the bundled example
(``resources/systems_example``, made by ``benchmarks/make_systems_example.py``): tidy
CSV with the columns the issue names, provenance naming each qrels, and the API's frames
equal to the CLI's."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import yardstick as ys
from yardstick.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "systems_example"
RUNS = sorted(str(p) for p in (EXAMPLE / "runs").iterdir())


def test_qrels_compare_writes_tidy_tables(tmp_path, capsys):
    out = tmp_path / "qc"
    assert main(["qrels-compare", str(EXAMPLE / "qrels.nist.txt"),
                 str(EXAMPLE / "qrels.second.txt"), *RUNS, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "1 topics judged in some sets only" in printed
    agree = pd.read_csv(out / "agreement.csv", dtype={"topic": str})
    assert "kappa" in agree and agree["topic"].iloc[-1] == "all"
    assert not agree.loc[agree["topic"] == "416", "in_b"].item()
    corr = pd.read_csv(out / "correlations.csv")
    assert {"tau", "tau_ap"} <= set(corr) and len(corr) == 1
    scores = pd.read_csv(out / "scores.csv")
    assert len(scores) == 2 * 40 and set(scores["qrels"]) == {"qrels.nist", "qrels.second"}
    prov = json.loads((out / "correlations.provenance.json").read_text())
    assert {"qrels qrels.nist", "qrels qrels.second"} <= set(prov["extra"])
    missing = pd.read_csv(out / "missing_judgments.csv")
    assert len(missing) > 0 and set(missing["missing_in"]) <= {"qrels.nist", "qrels.second"}
    assert (out / "voorhees.png").stat().st_size > 0
    assert (out / "ranking_vs_overlap.png").exists()
    api = ys.compare_qrels([EXAMPLE / "qrels.nist.txt", EXAMPLE / "qrels.second.txt"], RUNS,
                           names=["qrels.nist", "qrels.second"])
    assert api["correlations"]["tau"].iloc[0] == pytest.approx(corr["tau"].iloc[0])


def test_qrels_compare_without_runs_gives_agreement_only(tmp_path):
    out = tmp_path / "qa"
    assert main(["qrels-compare", str(EXAMPLE / "qrels.nist.txt"),
                 str(EXAMPLE / "qrels.second.txt"), "--out", str(out)]) == 0
    assert (out / "agreement.csv").exists() and not (out / "correlations.csv").exists()


def test_compare_systems_one_row_per_system_and_pair(tmp_path, capsys):
    out = tmp_path / "cs"
    assert main(["compare-systems", "--qrels", str(EXAMPLE / "qrels.nist.txt"), "--systems",
                 str(EXAMPLE / "systems.tsv"), *RUNS, "--out", str(out)]) == 0
    systems = pd.read_csv(out / "systems.csv")
    assert len(systems) == 8 and (systems["n_runs"] == 5).all()
    pairs = pd.read_csv(out / "system_pairs.csv")
    assert len(pairs) == 28
    assert {"p_value_mixed_corrected", "p_value_averaged_corrected",
            "p_value_pooled_corrected"} <= set(pairs)
    assert "mixed" in capsys.readouterr().out
    assert (out / "systems.png").stat().st_size > 0


def test_compare_systems_lists_runs_in_no_system(tmp_path, capsys):
    assert main(["compare-systems", "--qrels", str(EXAMPLE / "qrels.nist.txt"), "--pattern",
                 r"^(bm25|tfidf)_s\d", *RUNS[:15], *RUNS[-5:]]) == 0
    assert "runs in no system" in capsys.readouterr().out


def test_compare_systems_says_one_run_where_a_system_has_no_spread(tmp_path, capsys):
    systems = tmp_path / "systems.tsv"
    lines = (EXAMPLE / "systems.tsv").read_text().splitlines()
    systems.write_text("\n".join(ln for ln in lines if not ln.startswith("bm25_s")
                                 or ln.startswith("bm25_s1\t")) + "\n")
    runs = [r for r in RUNS if "bm25_s" not in r or "bm25_s1" in r]
    assert main(["compare-systems", "--qrels", str(EXAMPLE / "qrels.nist.txt"), "--systems",
                 str(systems), *runs]) == 0
    table = capsys.readouterr().out.split("system pairs")[0]
    bm25 = next(ln for ln in table.splitlines() if ln.split()[:1] == ["bm25"])
    assert "one run" in bm25 and "NaN" not in table and "nan" not in table


def test_qrels_compare_names_the_bad_line_of_a_qrels(tmp_path, capsys):
    """A qrels with one short line is not 'neither qrels nor a run': the reader's own
    message names the file and the line, as ``yardstick eval`` does."""
    good = (EXAMPLE / "qrels.nist.txt").read_text().splitlines()[:30]
    bad = tmp_path / "bad.qrels"
    bad.write_text("\n".join(good + ["301 0 DOCX"]) + "\n")
    assert main(["qrels-compare", str(EXAMPLE / "qrels.nist.txt"), str(bad), RUNS[0]]) == 1
    err = capsys.readouterr().err
    assert "bad.qrels, line 31" in err and "neither" not in err


def test_no_rank_change_names_no_run(tmp_path, capsys):
    """The same judgments twice: no run changes rank, so none is named as the largest."""
    q = str(EXAMPLE / "qrels.nist.txt")
    main(["qrels-compare", q, q, *RUNS[:5], "--out", str(tmp_path)])
    corr = pd.read_csv(tmp_path / "correlations.csv")
    assert (corr["max_rank_change"] == 0).all()
    assert corr["max_rank_change_run"].isna().all()


def test_compare_systems_console_prints_p_values_as_the_files_do(tmp_path, capsys):
    """The console's p-values are the CSV's through the one p-value format (#28): the
    example's bm25 vs hybrid mixed-model p is about 3e-26, which ``{:.4f}`` printed as a
    false 0.0000."""
    from yardstick.presentation.export.cells import fmt_pvalue

    out = tmp_path / "out"
    assert main(["compare-systems", "--qrels", str(EXAMPLE / "qrels.nist.txt"), "--systems",
                 str(EXAMPLE / "systems.tsv"), *RUNS, "--out", str(out)]) == 0
    text = capsys.readouterr().out.split("system pairs")[1].split("mixed model")[0]
    pairs = pd.read_csv(out / "system_pairs.csv")
    cols = ["p_value_mixed_corrected", "p_value_averaged_corrected", "p_value_pooled_corrected"]
    assert (pairs[cols] < 1e-4).to_numpy().sum() > 10
    rows = {tuple(ln.split()[:2]): ln.split()[3:6] for ln in text.splitlines()[2:] if ln.strip()}
    for _, r in pairs.iterrows():
        assert rows[(r["system_a"], r["system_b"])] == [fmt_pvalue(r[c], 4) for c in cols]
    assert "0.0000" not in text
