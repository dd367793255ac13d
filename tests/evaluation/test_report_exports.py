"""`yardstick report` writes every format, with provenance, runs named by tag (sample data)."""

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from yardstick.cli import main as cli_main
from yardstick.common.progress import run_sync
from yardstick.common.provenance import file_sha256
from yardstick.inputs.io import read_qrels, read_run
from yardstick.session.evaluating import evaluate_runs

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample_fallback"
QRELS = SAMPLE / "robust03.qrels.gz"
RUNS = [SAMPLE / f"{n}.run.gz" for n in ("aplrob03a", "UIUC03Rd1", "pircRBa1")]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    code = cli_main(["report", "--qrels", str(QRELS), *map(str, RUNS), "--out", str(out),
                     "--formats", "html,pdf,png,svg,csv,xlsx,tex,md", "--run", "aplrob03a",
                     "--comparison-table", "--measures", "map,P.10", "--test", "t",
                     "--correction", "bonferroni", "-c"])
    assert code == 0
    return out


def test_run_named_by_tag_gets_its_page(report):
    # the summary of all runs, the comparison, the page of the run asked for
    assert sorted(p.name for p in report.iterdir() if p.is_dir()) == ["All_runs", "Comparison",
                                                                     "aplrob03a.run"]


def test_xlsx_numbers_equal_the_engine_with_provenance(report):
    openpyxl = pytest.importorskip("openpyxl")
    evs = run_sync(evaluate_runs([read_run(p) for p in RUNS], read_qrels(QRELS), ["map", "P.10"]))
    wb = openpyxl.load_workbook(report / "Comparison" / "comparison.xlsx")
    ws = wb["table"]
    # tidy: the letter, the run's name, each measure and its marks in columns of their own
    assert [c.value for c in ws[1]] == ["letter", "run", "map", "map_marker", "P_10",
                                        "P_10_marker"]
    assert ws["A2"].value == "a" and ws["B2"].value == "aplrob03a.run"
    for row, name in zip((2, 3, 4), ("aplrob03a.run", "UIUC03Rd1.run", "pircRBa1.run")):
        assert isinstance(ws.cell(row, 3).value, float)
        # -c: every qrels topic; the engine's per-topic values, mean at full precision
        full = evs[name].per_topic["map"].reindex(read_qrels(QRELS).topics, fill_value=0.0)
        assert ws.cell(row, 3).value == pytest.approx(full.mean(), rel=0, abs=1e-15)
        assert ws.cell(row, 3).value == evs[name].summary["map"]      # to the last bit
    prov = {r[0]: r[1] for r in wb["provenance"].iter_rows(values_only=True)}
    assert prov["Qrels SHA-256"] == file_sha256(QRELS)
    assert "complete=True" in prov["Options"] and prov["test"] == "t"


def test_pvalues_csv_reproduces_scipy_at_full_precision(report):
    pv = pd.read_csv(report / "Comparison" / "comparison_pvalues.csv")
    csv_means = pd.read_csv(report / "Comparison" / "comparison.csv", index_col="run")
    row = pv[(pv.measure == "P_10") & (pv.run_a == "aplrob03a.run")
             & (pv.run_b == "UIUC03Rd1.run")].iloc[0]
    evs = run_sync(evaluate_runs([read_run(p) for p in RUNS[:2]], read_qrels(QRELS), ["P.10"]))
    topics = read_qrels(QRELS).topics
    a, b = (evs[n].per_topic["P_10"].reindex(topics, fill_value=0.0)
            for n in ("aplrob03a.run", "UIUC03Rd1.run"))
    assert row.p_value == stats.ttest_rel(a, b).pvalue           # exact, not rounded
    assert row.p_value_corrected == min(1.0, 3 * row.p_value)
    # the mean trec_eval prints (topics summed in order), not pandas' pairwise mean
    assert csv_means.loc["aplrob03a.run", "P_10"] == evs["aplrob03a.run"].summary["P_10"]
    assert csv_means.loc["aplrob03a.run", "P_10"] == pytest.approx(a.mean(), abs=1e-15)
    side = json.loads((report / "Comparison" / "comparison.provenance.json").read_text())
    assert [r["tag"] for r in side["runs"]] == ["aplrob03a", "UIUC03Rd1", "pircRBa1"]
    assert side["options"]["complete"] is True


def test_svg_figures_are_vector_with_metadata(report):
    svg = report / "aplrob03a.run" / "recall_precision.svg"
    root = ET.parse(svg).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert root.iter(f"{ns}path") and not list(root.iter(f"{ns}image"))
    text = svg.read_text()
    assert file_sha256(QRELS) in text and "Yardstick" in text
    pdf = (report / "aplrob03a.run" / "recall_precision.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and b"Yardstick" in pdf


def test_report_footer_and_latex_compile(report, tmp_path):
    html = (report / "adhoc_report.html").read_text()
    assert "<footer>" in html and file_sha256(QRELS) in html and "lround(r x R)" in html
    assert ("Computed from qrels robust03.qrels.gz with relevance_level=1, max_docs=None, "
            "complete=True") in html
    tex = (report / "Comparison" / "comparison.tex").read_text()
    assert r"\textbf{" in tex and "% Qrels SHA-256: " + file_sha256(QRELS) in tex
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed (texlive-latex-base; .ci/run installs it)")
    if subprocess.run(["kpsewhich", "booktabs.sty"], capture_output=True).returncode != 0:
        pytest.skip("booktabs.sty not installed (texlive-latex-recommended)")
    doc = ("\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
           + tex + "\\end{document}\n")
    (tmp_path / "d.tex").write_text(doc)
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "d.tex"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-2000:]


def test_unknown_format_and_ambiguous_tag(tmp_path, capsys):
    assert cli_main(["report", "--qrels", str(QRELS), str(RUNS[0]), "--out", str(tmp_path),
                     "--formats", "html,docx"]) == 2
    assert "unknown format 'docx'" in capsys.readouterr().err
    copy = tmp_path / "copy.run.gz"
    shutil.copy(RUNS[0], copy)
    code = cli_main(["report", "--qrels", str(QRELS), str(RUNS[0]), str(copy), "--out",
                     str(tmp_path / "o"), "--run", "aplrob03a", "--formats", "csv"])
    assert code != 0
    assert ("yardstick report: --run: 'aplrob03a' is the run tag of 2 runs (aplrob03a.run, "
            "copy.run); "
            "name one by its file name") in capsys.readouterr().err


def test_baseline_mode_marks_runs_against_the_baseline(tmp_path, capsys):
    out = tmp_path / "b"
    assert cli_main(["report", "--qrels", str(QRELS), *map(str, RUNS), "--out", str(out),
                     "--formats", "csv,tex", "--comparison-table", "--measures", "map,P.10",
                     "--baseline", "UIUC03Rd1", "--per-run", "none"]) == 0
    f = pd.read_csv(out / "Comparison" / "comparison_baselines.csv", keep_default_na=False)
    assert list(f.columns) == ["run", "map", "map_marker", "P_10", "P_10_marker"]
    pv = pd.read_csv(out / "Comparison" / "comparison_baselines_pvalues.csv")
    assert set(pv.baseline) == {"UIUC03Rd1.run"} and len(pv) == 2 * 2   # 2 runs x 2 measures
    # Holm over the two comparisons with the baseline of each measure, not all three pairs
    for _, g in pv.groupby("measure"):
        p = sorted(g.p_value)
        assert sorted(g.p_value_corrected) == pytest.approx(
            list(np.maximum.accumulate([min(1, 2 * p[0]), min(1, p[1])])))
    for _, row in pv.iterrows():
        mark = f.set_index("run").loc[row.run, f"{row.measure}_marker"]
        assert (mark == "†") == bool(row.significantly_better)
    assert not (out / "aplrob03a.run").exists()                       # --per-run none
    tex = (out / "Comparison" / "comparison_baselines.tex").read_text()
    assert r"\dag{} UIUC03Rd1.run" in tex


def test_baseline_just_before_the_run_files_leaves_them_runs(tmp_path, capsys):
    """``--baseline A`` written just before the run files took them all as baselines
    (its nargs="+"), and the report stopped: "the following arguments are required: RUN".
    The files after it are the runs; a comma list names several baselines; --baseline
    brings its comparison table without --comparison-table."""
    out = tmp_path / "b"
    assert cli_main(["report", "--qrels", str(QRELS), "--out", str(out), "--formats", "csv",
                     "--measures", "map", "--per-run", "none",
                     "--baseline", "UIUC03Rd1,aplrob03a", *map(str, RUNS)]) == 0
    assert "the 3 files after it are the runs" in capsys.readouterr().err
    pv = pd.read_csv(out / "Comparison" / "comparison_baselines_pvalues.csv")
    assert set(pv.baseline) == {"UIUC03Rd1.run", "aplrob03a.run"}
    assert set(pd.read_csv(out / "Comparison" / "comparison.csv").run) == \
        {"aplrob03a.run", "UIUC03Rd1.run", "pircRBa1.run"}
    assert cli_main(["report", "--qrels", str(QRELS), "--out", str(out),
                     "--baseline", "UIUC03Rd1", "pircRBa1"]) == 2
    assert "no RUN files: --baseline takes every name after it" in capsys.readouterr().err
