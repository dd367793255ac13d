"""Tidy column names shared by every exported table; provenance in every report format;
runs with one name or one tag told apart in the API and in `yardstick eval` (sample data)."""

import json
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from yardstick.cli import main as cli_main
from yardstick.common.provenance import file_sha256
from yardstick.presentation.export.columns import tidy_name
from yardstick.presentation.export.tables import write_table

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample_fallback"
QRELS = SAMPLE / "robust03.qrels.gz"
RUNS = [SAMPLE / f"{n}.run.gz" for n in ("aplrob03a", "UIUC03Rd1", "pircRBa1")]
TIDY = re.compile(r"^[A-Za-z0-9_.@#-]+$")


def _matrix(measure="map", complete=True):
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.evaluation_service import EvalOptions, score_matrix
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.session.evaluating import evaluate_runs

    evs = run_sync(evaluate_runs([read_run(p) for p in RUNS], read_qrels(QRELS), [measure],
                                 EvalOptions(complete=complete)))
    return score_matrix(evs, measure).fillna(0.0)


def test_tidy_names_of_display_labels():
    assert [tidy_name(x) for x in ("p t-test", "CI low", "mean baseline", "P_10 +", "map *",
                                   "map p-value (holm)", "p t (holm)", "error_rate_%",
                                   "Summary Statistics", "ndcg_cut_10", "nDCG@10", None)] == [
        "p_value_t", "ci_low", "mean_baseline", "P_10_wins", "map_marker", "map_p_value_holm",
        "p_value_corrected", "error_rate_pct", "statistic", "ndcg_cut_10", "nDCG@10", "label"]


def test_compare_panel_table_leaves_with_tidy_names_and_scipy_pvalues(tmp_path):
    from yardstick.analysis.significance import compare_runs

    mat = _matrix()
    base, other = "aplrob03a.run", "UIUC03Rd1.run"
    frame = compare_runs(mat, base, [other], measure="map", test="t",
                         correction="holm").to_frame()
    write_table(frame, tmp_path / "c.csv")
    got = pd.read_csv(tmp_path / "c.csv")
    # the answer first (issue 27): run, mean, difference, p, corrected p, significant
    assert list(got.columns) == [
        "run", "mean_run", "mean_difference", "p_value_t", "p_value_corrected", "significant",
        "baseline", "mean_baseline", "measure", "n_topics", "wins", "ties", "losses", "t",
        "p_value_wilcoxon", "p_value_sign", "p_value_permutation", "effect_size_d", "ci_low",
        "ci_high"]
    assert got.loc[0, "p_value_t"] == stats.ttest_rel(mat[other], mat[base]).pvalue
    assert got.loc[0, "mean_run"] == mat[other].mean()
    # XLSX: the same header, the same numbers
    openpyxl = pytest.importorskip("openpyxl")
    write_table(frame, tmp_path / "c.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "c.xlsx")["table"]
    assert [c.value for c in ws[1]] == list(got.columns)
    assert ws.cell(2, 4).value == got.loc[0, "p_value_t"]
    # the reading formats keep the window's labels
    write_table(frame, tmp_path / "c.md")
    assert "p t-test" in (tmp_path / "c.md").read_text()


def test_several_measure_table_and_matrices(tmp_path):
    from yardstick.analysis.significance import experiment_table

    mats = {"map": _matrix("map")}
    t = experiment_table(mats, "aplrob03a.run", test="t", correction="holm")
    text = write_table(t, tmp_path / "e.csv").read_text().splitlines()[0]
    assert text == "run,map,map_wins,map_losses,map_p_value,map_p_value_holm,map_marker"
    # a runs x runs matrix keeps its run labels as columns
    m = pd.DataFrame(np.eye(2), index=pd.Index(["a b", "c"], name="run"), columns=["a b", "c"])
    assert write_table(m, tmp_path / "m.csv").read_text().splitlines()[0] == "run,a b,c"


def test_stability_and_report_tables_share_the_names(tmp_path, capsys):
    assert cli_main(["stability", "--qrels", str(QRELS), "-m", "map", "-a", "discriminative",
                     "-a", "error-rate", "-a", "kendall", "-m", "P_10", "-B", "20", "--seed",
                     "1", "--out", str(tmp_path / "s"), *map(str, RUNS)]) == 0
    assert cli_main(["report", "--qrels", str(QRELS), *map(str, RUNS), "--out",
                     str(tmp_path / "r"), "--formats", "csv", "--comparison-table",
                     "--measures", "map"]) == 0
    capsys.readouterr()
    headers = {p.relative_to(tmp_path).as_posix(): p.read_text().splitlines()[0].split(",")
               for p in tmp_path.rglob("*.csv")}
    bad = {k: [h for h in v if not TIDY.match(h)] for k, v in headers.items()}
    assert not any(bad.values()), bad
    assert headers["s/pairs_map_all.csv"][:2] == ["run_a", "run_b"]
    assert headers["r/Comparison/comparison_pvalues.csv"][:3] == ["measure", "run_a", "run_b"]
    assert "p_value_t" in headers["s/pairs_map_all.csv"]
    assert "p_value" in headers["r/Comparison/comparison_pvalues.csv"]
    assert headers["s/kendall_matrix.csv"] == ["measure", "map", "P_10"]
    assert headers["s/error_rate.csv"][:4] == ["measure", "error_rate_pct", "ties_pct",
                                               "topic_set"]      # the answer first
    assert headers["r/All_runs/overview.csv"][:2] == ["run", "n_topics"]
    assert headers["r/aplrob03a.run/recall_levels.csv"] == ["recall", "precision"]
    assert headers["r/aplrob03a.run/summary.csv"] == ["statistic", "value"]


def test_report_latex_provenance_names_each_measure_once(tmp_path, capsys):
    assert cli_main(["report", "--qrels", str(QRELS), *map(str, RUNS), "--out",
                     str(tmp_path), "--formats", "tex", "--comparison-table",
                     "--measures", "map,P.10"]) == 0
    capsys.readouterr()
    line = next(ln for ln in (tmp_path / "Comparison" / "comparison.tex").read_text()
                .splitlines() if ln.startswith("% Measures:"))
    names = line.removeprefix("% Measures:").strip().split(", ")
    assert len(names) == len(set(names)) and "P.10" not in names, names
    assert any(n.startswith("P.5,10,") for n in names) and "map" in names


def test_api_tells_runs_with_one_name_apart_as_the_cli_does(tmp_path):
    import yardstick as ys

    for d, src in (("a", RUNS[0]), ("b", RUNS[1])):
        (tmp_path / d).mkdir()
        shutil.copy(src, tmp_path / d / "run.gz")
    paths = [tmp_path / "a" / "run.gz", tmp_path / "b" / "run.gz"]
    with pytest.warns(UserWarning, match=r"two runs are called 'run': .*b/run.gz is shown "
                                         r"as 'run#2' \(name it by 'run#2' or by its path\)"):
        df = ys.evaluate(QRELS, paths, ["map"], per_topic=False)
    assert df["run"].tolist() == ["run", "run#2"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        alone = ys.evaluate(QRELS, [RUNS[1]], ["map"], per_topic=False)
    assert df["value"].iloc[1] == alone["value"].iloc[0]
    with pytest.warns(UserWarning, match="run#2"):
        assert [r.name for r in ys.read_runs(paths)] == ["run", "run#2"]


def test_eval_labels_a_repeated_run_tag_and_writes_one_header(tmp_path, capsys):
    copy = tmp_path / "copy.gz"
    shutil.copy(RUNS[0], copy)
    assert cli_main(["eval", "-m", "map", "--format", "csv", str(QRELS), str(RUNS[0]),
                     str(copy), str(RUNS[1])]) == 0
    out, err = capsys.readouterr()
    rows = list(csv_rows(out))
    assert rows[0] == ["run", "topic", "measure", "value"] and len(rows) == 4
    assert [r[0] for r in rows[1:]] == ["aplrob03a", "aplrob03a#2", "UIUC03Rd1"]
    assert rows[1][3] == rows[2][3]
    assert f"{copy} has the run tag 'aplrob03a' of {RUNS[0]}; its lines are labelled " \
           "'aplrob03a#2'" in err


def csv_rows(text):
    import csv
    import io

    return csv.reader(io.StringIO(text))


@pytest.fixture(scope="module")
def compat9(tmp_path_factory):
    """A report under trec_eval 9's rule with a seeded randomisation test, every format."""
    out = tmp_path_factory.mktemp("compat9")
    assert cli_main(["report", "--qrels", str(QRELS), *map(str, RUNS), "--out", str(out),
                     "--formats", "html,pdf,png,svg,csv,xlsx,tex,md", "--run", "UIUC03Rd1",
                     "--comparison-table", "--measures", "map", "--test", "randomisation",
                     "--seed", "7", "--compat", "9", "-M", "500"]) == 0
    return out


RULE9 = "(long)(r x R + 0.9)"


def test_provenance_in_html_footer_and_pdf(compat9, tmp_path):
    html = (compat9 / "adhoc_report.html").read_text()
    footer = html[html.index("<footer>"):]
    for s in (file_sha256(QRELS), RULE9, "max_docs=500", "trec_eval 9.0.8",
              "Seed (randomisation): 7", "aplrob03a (aplrob03a.run.gz) sha256 "
              + file_sha256(RUNS[0]), "iprec_at_recall", "median: median over all runs"):
        assert s in footer, s
    pdf = compat9 / "adhoc_report.pdf"
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) not installed")
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    sheets = text.split("\f")
    # every sheet's footer names the qrels with its full SHA-256; the last sheet lists runs
    assert all(file_sha256(QRELS)[:40] in s.replace("\n", "") or not s.strip()
               for s in sheets)
    last = [s for s in sheets if s.strip()][-1]
    assert "Computed from" in last and "Provenance" in last
    for p in RUNS:
        assert file_sha256(p) in last
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    assert "Yardstick" in info


def test_provenance_beside_tables_and_in_figures(compat9):
    page = compat9 / "UIUC03Rd1.run"
    side = json.loads((page / "recall_levels.provenance.json").read_text())
    assert side["compat"] == 9 and RULE9 in side["interpolation"]
    assert side["qrels"] == {"file": "robust03.qrels.gz", "sha256": file_sha256(QRELS)}
    assert side["options"]["max_docs"] == 500 and side["seeds"] == {"randomisation": 7}
    assert [r["tag"] for r in side["runs"]] == ["aplrob03a", "UIUC03Rd1", "pircRBa1"]
    assert (page / "recall_levels.md").exists()
    tex = (page / "recall_levels.tex").read_text()
    assert "% Interpolation: " + side["interpolation"] in tex
    assert f"% Run: UIUC03Rd1 (UIUC03Rd1.run.gz) sha256 {file_sha256(RUNS[1])}" in tex
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.load_workbook(page / "recall_levels.xlsx")
    rows = dict(wb["provenance"].iter_rows(values_only=True))
    assert rows["Seed (randomisation)"] == "7" and rows["Compatibility"] == "trec_eval 9.0.8"
    assert json.loads(rows["json"]) == side
    svg = (page / "recall_precision.svg").read_text()
    assert file_sha256(QRELS) in svg and RULE9 in svg
    pdf = (page / "recall_precision.pdf").read_bytes()
    assert b"Yardstick" in pdf


def test_compat9_numbers_are_trec_eval_9s(compat9):
    """The recall-level table under --compat 9 holds the 9.0.8 values the footer names."""
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.evaluation_service import EvalOptions
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.session.evaluating import evaluate_runs

    got = pd.read_csv(compat9 / "UIUC03Rd1.run" / "recall_levels.csv", index_col="recall")
    s9, s10 = (run_sync(evaluate_runs([read_run(RUNS[1])], read_qrels(QRELS),
                                      ["iprec_at_recall"], EvalOptions(compat=c, max_docs=500))
                        )["UIUC03Rd1.run"].summary for c in (9, 10))
    assert got.loc["0.10", "precision"] == s9["iprec_at_recall_0.10"]
    assert s9["iprec_at_recall_0.10"] != s10["iprec_at_recall_0.10"]     # the rules differ here


def test_xlsx_caption_goes_to_the_provenance_sheet_not_the_header(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    f = pd.DataFrame({"map": [0.1 + 0.2]}, index=pd.Index(["a"], name="run"))
    write_table(f, tmp_path / "t.xlsx", caption="Mean scores (α = 0.05)")
    wb = openpyxl.load_workbook(tmp_path / "t.xlsx")
    assert [c.value for c in wb["table"][1]] == ["run", "map"]
    assert wb["table"]["B2"].value == 0.1 + 0.2
    assert dict(wb["provenance"].iter_rows(values_only=True))["Caption"] == \
        "Mean scores (α = 0.05)"


def test_exported_files_get_the_usual_permissions(tmp_path):
    """Atomic writes used to leave mkstemp's 0600: a report copied to a web folder was
    unreadable by anyone else.  Now a new file gets 0666 less the umask, a replaced file
    keeps its mode."""
    import os
    import stat

    f = pd.DataFrame({"map": [0.5]})
    old = os.umask(0o022)
    try:
        p = write_table(f, tmp_path / "t.csv")
        assert stat.S_IMODE(p.stat().st_mode) == 0o644
        os.chmod(p, 0o640)
        write_table(f, p)
        assert stat.S_IMODE(p.stat().st_mode) == 0o640
    finally:
        os.umask(old)


def test_run_and_measure_names_as_columns_are_kept(tmp_path):
    """A topics x runs table (the Measures panel's per-topic view) keeps its run names."""
    f = pd.DataFrame({"input.aplrob03a": [0.5], "run#2": [0.25], "UIUC03Rd1.run-x": [0.125]},
                     index=pd.Index(["301"], name="topic"))
    head = write_table(f, tmp_path / "p.csv").read_text().splitlines()[0]
    assert head == "topic,input.aplrob03a,run#2,UIUC03Rd1.run-x"


def test_api_baseline_by_run_tag_or_file():
    import yardstick as ys
    from yardstick.inputs.run_names import RunNameError

    by_tag = ys.compare(QRELS, RUNS, "map", baseline="UIUC03Rd1")
    by_file = ys.compare(QRELS, RUNS, "map", baseline="UIUC03Rd1.run.gz")
    assert by_tag["baseline"].unique().tolist() == ["UIUC03Rd1.run"]
    pd.testing.assert_frame_equal(by_tag, by_file)
    mat = _matrix("map", complete=False)
    assert by_tag.loc["aplrob03a.run", "p t-test"] == \
        stats.ttest_rel(mat["aplrob03a.run"], mat["UIUC03Rd1.run"]).pvalue
    with pytest.raises(RunNameError, match="neither a run file nor a run tag"):
        ys.experiment(QRELS, RUNS, ["map"], baseline="nope")


def test_pool_out_reproduces_the_diagnostics_exactly(tmp_path, capsys):
    """`pool --out` CSVs read back to the very doubles of the pool report (no rounding),
    under tidy names, with the provenance beside them."""
    import yardstick as ys

    assert cli_main(["pool", "--qrels", str(QRELS), "--depth", "20", "--analysis", "stats",
                     "--analysis", "uniques", "--out", str(tmp_path), *map(str, RUNS)]) == 0
    capsys.readouterr()
    rep = ys.pool_report(QRELS, RUNS, depth=20, analyses=("stats", "uniques"))
    want = rep.tables()["uniques_run"]
    got = pd.read_csv(tmp_path / "uniques_run.csv").set_index("run")
    assert "mean_difference" in got.columns and "diff" in want.columns
    for col in ("score", "score_without", "percent"):
        assert got[col].tolist() == want.loc[got.index, col].tolist()       # bit for bit
    summary = pd.read_csv(tmp_path / "pool_summary.csv")
    assert summary.columns.tolist() == ["statistic", "value"]
    side = json.loads((tmp_path / "uniques_run.provenance.json").read_text())
    assert side["qrels"]["sha256"] == file_sha256(QRELS)
