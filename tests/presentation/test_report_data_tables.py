"""A table too long to typeset is a data file (issue #28, round five: 150 runs' 33,525
pairwise p-values were a 1,290-page ``comparison_pvalues.tex``): beyond its
``max_typeset_rows`` it goes to CSV/XLSX only, never LaTeX or Markdown, and the report
(HTML, PDF, the CLI's notes) says where it is — nothing is left out without a word."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from yardstick.cli import main as cli_main
from yardstick.presentation.reports.document import ReportDocument, ReportPage, ReportTable
from yardstick.presentation.reports.render import write_report
from yardstick.presentation.reports.table_placement import PAPER_TABLE_ROWS, formats_for


def _pvalues(n: int) -> pd.DataFrame:
    return pd.DataFrame({"run_a": [f"r{i}" for i in range(n)], "run_b": "z",
                         "p_value": np.linspace(0.001, 1, n)})


def _doc(n: int) -> ReportDocument:
    means = pd.DataFrame({"map": [0.25, 0.2]}, index=pd.Index(["a", "b"], name="run"))
    return ReportDocument("r", "adhoc", (ReportPage("Comparison", "The caption.", (
        ReportTable("comparison", "Comparison of runs", means, caption="The caption."),
        ReportTable("comparison_pvalues", "Pairwise p-values", _pvalues(n), in_pdf=False,
                    max_typeset_rows=PAPER_TABLE_ROWS))),))


def test_a_table_at_the_limit_is_typeset_one_row_more_is_not(tmp_path):
    at, over = tmp_path / "at", tmp_path / "over"
    write_report(_doc(PAPER_TABLE_ROWS), at, ("csv", "tex"))
    write_report(_doc(PAPER_TABLE_ROWS + 1), over, ("csv", "xlsx", "tex", "md"))
    assert (at / "Comparison" / "comparison_pvalues.tex").exists()
    files = sorted(p.name for p in (over / "Comparison").iterdir()
                   if not p.name.endswith(".json"))
    assert files == ["comparison.csv", "comparison.md", "comparison.tex", "comparison.xlsx",
                     "comparison_pvalues.csv", "comparison_pvalues.xlsx"]
    back = pd.read_csv(over / "Comparison" / "comparison_pvalues.csv")
    assert len(back) == PAPER_TABLE_ROWS + 1                       # every row, full precision
    assert back.p_value.tolist() == _pvalues(PAPER_TABLE_ROWS + 1).p_value.tolist()


def test_latex_alone_asked_writes_the_rows_as_csv_and_says_so(tmp_path):
    write_report(_doc(PAPER_TABLE_ROWS + 1), tmp_path, ("html", "tex"))
    assert not (tmp_path / "Comparison" / "comparison_pvalues.tex").exists()
    assert len(pd.read_csv(tmp_path / "Comparison" / "comparison_pvalues.csv")) \
        == PAPER_TABLE_ROWS + 1
    html = (tmp_path / "adhoc_report.html").read_text()
    assert (f"Pairwise p-values: {PAPER_TABLE_ROWS + 1:,} rows in "
            "Comparison/comparison_pvalues.csv, not as LaTeX") in html
    assert f"more than {PAPER_TABLE_ROWS:,} rows make a data file" in html


def test_no_table_format_asked_says_how_to_get_the_rows():
    t = _doc(PAPER_TABLE_ROWS + 1).pages[0].tables[1]
    assert formats_for(t, []) == []
    from yardstick.presentation.reports.table_placement import files_note

    assert "not written: add csv or xlsx to --formats" in files_note(t, "Comparison", [])


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext not installed")
def test_the_pdf_page_says_where_the_pvalues_are(tmp_path):
    write_report(_doc(PAPER_TABLE_ROWS + 1), tmp_path, ("pdf", "csv", "xlsx"))
    text = subprocess.run(["pdftotext", str(tmp_path / "adhoc_report.pdf"), "-"],
                          capture_output=True, text=True).stdout
    flat = " ".join(text.split())
    assert "Comparison/comparison_pvalues.csv and Comparison/comparison_pvalues.xlsx" in flat
    assert flat.count("The caption.") == 1        # the page's words, not again the table's


def _track(folder, n_runs: int, n_topics: int = 4):
    rng = np.random.default_rng(3)
    qrels = folder / "qrels.txt"
    qrels.write_text("".join(f"{t} 0 d{d} {int(rng.random() < 0.4)}\n"
                             for t in range(1, n_topics + 1) for d in range(12)))
    runs = []
    for r in range(n_runs):
        p = folder / f"run{r:02d}"
        p.write_text("".join(f"{t} Q0 d{d} {k + 1} {10 - k} run{r:02d}\n"
                             for t in range(1, n_topics + 1)
                             for k, d in enumerate(rng.permutation(12)[:8])))
        runs.append(str(p))
    return str(qrels), runs


def test_the_cli_keeps_26_runs_pvalues_out_of_latex(tmp_path, capsys):
    """26 runs, one measure: 325 pairs, over the limit; the comparison table itself is
    still LaTeX and the CLI says where the p-values went."""
    qrels, runs = _track(tmp_path, 26)
    out = tmp_path / "out"
    assert cli_main(["report", "--qrels", qrels, *runs, "--out", str(out), "--formats",
                     "html,tex", "--comparison-table", "--measures", "map"]) == 0
    assert (out / "Comparison" / "comparison.tex").exists()
    assert not (out / "Comparison" / "comparison_pvalues.tex").exists()
    assert len(pd.read_csv(out / "Comparison" / "comparison_pvalues.csv")) == 325
    err = capsys.readouterr().err
    assert ("note: Pairwise p-values: 325 rows in Comparison/comparison_pvalues.csv, "
            "not as LaTeX") in err
    assert "comparison_pvalues.csv" in (out / "adhoc_report.html").read_text()
