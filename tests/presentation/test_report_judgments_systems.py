"""``yardstick report --qrels-also … --systems …``: the "Judgment sets" and "Systems"
pages (issue #31) on ``resources/systems_example`` (40 runs, 8 systems of 5 seeds, two
qrels).  The pages hold the numbers ``ys.compare_qrels`` and ``ys.compare_systems``
return, in every format the report writes (HTML, PDF read back with pdftotext, CSV,
XLSX, Markdown, LaTeX); the LaTeX tables compile within the text width (pdflatex's log
names no overfull box).  pdftotext and pdflatex: skipped where absent."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import yardstick as ys
from yardstick.cli import main as cli_main
from yardstick.presentation.export.cells import fmt_pvalue

EX = Path(__file__).resolve().parents[2] / "resources" / "systems_example"
RUNS = sorted(str(p) for p in (EX / "runs").iterdir())
QRELS, SECOND, SYSTEMS = EX / "qrels.nist.txt", EX / "qrels.second.txt", EX / "systems.tsv"


def _args(out):
    return ["report", "--qrels", str(QRELS), *RUNS, "--qrels-also", str(SECOND),
            "--systems", str(SYSTEMS), "--out", str(out),
            "--formats", "html,pdf,csv,xlsx,tex,md"]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("judgereport")
    assert cli_main(_args(out)) == 0
    return out


@pytest.fixture(scope="module")
def document():
    from yardstick.cli import build_parser
    from yardstick.cli.report_cmd import build_document

    args = build_parser().parse_args(_args("unused"))
    return build_document(args)


def _page(doc, title):
    return next(p for p in doc.pages if p.title == title)


def _table(page, name):
    return next(t.frame for t in page.tables if t.name == name)


def test_judgment_page_equals_compare_qrels(document):
    page = _page(document, "Judgment sets")
    agree = _table(page, "judgment_agreement")
    names = agree.index[0].split(" vs ")
    want = ys.compare_qrels([QRELS, SECOND], RUNS, "map", 1, names=names)
    overall = want["agreement"][want["agreement"]["topic"] == "all"].iloc[0]
    for col in ("n_topics", "judged_both", "only_a", "only_b", "kappa", "kappa_linear",
                "kappa_quadratic", "overlap"):
        assert agree.iloc[0][col] == pytest.approx(overall[col], abs=1e-12), col
    corr = _table(page, "judgment_rank_correlation").iloc[0]
    w = want["correlations"].iloc[0]
    for col in ("tau", "tau_ap", "swaps", "n_pairs", "max_rank_change", "p_value"):
        assert corr[col] == pytest.approx(w[col], abs=1e-12), col
    assert corr["max_rank_change_run"] == w["max_rank_change_run"]
    # tau is scipy's tau-b of the mean scores under the two sets
    from scipy import stats

    s = want["scores"].pivot(index="run", columns="qrels", values="score")
    assert corr["tau"] == pytest.approx(stats.kendalltau(s[names[0]], s[names[1]]).statistic)
    assert {f.name for f in page.figures} == {"ranking_vs_overlap", "qrels_scatter"}
    prov = dict(document.provenance.items())
    assert any("qrels.second.txt sha256" in str(v) for v in prov.values()), prov
    assert any("qrels.nist.txt sha256" in str(v) for v in prov.values()), prov


def test_systems_page_equals_compare_systems(document):
    page = _page(document, "Systems")
    want = ys.compare_systems(QRELS, RUNS, systems=SYSTEMS, measure="map", correction="holm")
    got = _table(page, "systems")
    ws = want["systems"].set_index("system").loc[got.index]
    for col in ("n_runs", "mean", "run_sd", "run_min", "run_max", "ci_low", "ci_high"):
        np.testing.assert_allclose(got[col].to_numpy(float), ws[col].to_numpy(float),
                                   rtol=0, atol=1e-12, err_msg=col)
    pairs = _table(page, "system_pairs")
    wp = want["system_pairs"]
    wp.index = [f"{a} vs {b}" for a, b in zip(wp["system_a"], wp["system_b"])]
    wp = wp.loc[pairs.index]
    for col in ("mean_difference", "p_value_mixed_corrected", "p_value_averaged_corrected",
                "p_value_pooled_corrected"):
        np.testing.assert_allclose(pairs[col].to_numpy(float), wp[col].to_numpy(float),
                                   rtol=1e-9, atol=1e-12, err_msg=col)
    assert len(pairs) == 8 * 7 // 2
    assert "holm" in page.subtitle and "assumes the runs are interchangeable" in page.subtitle


def test_every_format_holds_both_pages(report, document):
    html = (report / "adhoc_report.html").read_text()
    for section in ("Judgment_sets", "Systems"):
        assert f'id="{section}"' in html
    pairs = _table(_page(document, "Systems"), "system_pairs")
    p = fmt_pvalue(float(pairs["p_value_mixed_corrected"].iloc[0]), 4)
    for page, table in (("Judgment_sets", "judgment_agreement"),
                        ("Judgment_sets", "judgment_rank_correlation"),
                        ("Systems", "systems"), ("Systems", "system_pairs")):
        for ext in ("csv", "xlsx", "tex", "md"):
            assert (report / page / f"{table}.{ext}").stat().st_size > 0, (table, ext)
    md = (report / "Systems" / "system_pairs.md").read_text()
    assert p in md                               # p-values as fmt_pvalue writes them
    assert pairs.index[0] in md
    csv = pd.read_csv(report / "Judgment_sets" / "judgment_agreement.csv", comment="#")
    kappa = _table(_page(document, "Judgment sets"), "judgment_agreement")["kappa"].iloc[0]
    assert float(csv["kappa"].iloc[0]) == pytest.approx(kappa, abs=5e-5)
    xlsx = pd.read_excel(report / "Systems" / "systems.xlsx", header=None)
    systems = _table(_page(document, "Systems"), "systems")
    assert list(xlsx.iloc[0, :2]) == ["system", "n_runs"]      # the table, not the chart data
    assert list(xlsx.iloc[1:, 0].astype(str)) == list(systems.index)
    np.testing.assert_allclose(xlsx.iloc[1:, 3].to_numpy(float), systems["mean"], atol=5e-5)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext not installed")
def test_pdf_holds_both_pages(report, document):
    text = subprocess.run(["pdftotext", str(report / "adhoc_report.pdf"), "-"],
                          capture_output=True, text=True).stdout
    for words in ("Judgment sets", "Agreement of the judgment sets",
                  "System rankings under each set", "Systems by mean map",
                  "System pairs", "qrels.second.txt"):
        assert words in text, words
    corr = _table(_page(document, "Judgment sets"), "judgment_rank_correlation").iloc[0]
    assert f"{corr['tau']:.4f}" in text
    sysmean = _table(_page(document, "Systems"), "systems")["mean"].iloc[0]
    assert f"{sysmean:.4f}" in text


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_latex_tables_fit_the_text_width(report, tmp_path):
    tables = [(report / page / f"{t}.tex").read_text()
              for page, t in (("Judgment_sets", "judgment_agreement"),
                              ("Judgment_sets", "judgment_rank_correlation"),
                              ("Judgment_sets", "judgment_scores"),
                              ("Systems", "systems"), ("Systems", "system_pairs"))]
    doc = ("\\documentclass[a4paper]{article}\n\\usepackage[T1]{fontenc}\n"
           "\\usepackage[utf8]{inputenc}\n\\usepackage{booktabs}\n\\usepackage{longtable}\n"
           "\\begin{document}\n" + "\n\\clearpage\n".join(tables) + "\n\\end{document}\n")
    (tmp_path / "t.tex").write_text(doc)
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
                       cwd=tmp_path, capture_output=True, timeout=300)
    log = (tmp_path / "t.log").read_text(errors="replace")
    assert (tmp_path / "t.pdf").exists(), log[-2000:]
    assert re.findall(r"Overfull \\hbox \((\d+\.\d+)pt too wide\)", log) == []
