"""A tiny p-value never prints as a false 0.0000 (issue #28: 12,270 times in
``comparison_pvalues.tex``, also from ``ys.export_table``, where p = 1.29e-6).  Reading
formats (text, LaTeX, Markdown, HTML, the PDF report) print it in scientific notation,
CSV keeps the float, XLSX keeps the number with a format that shows it."""

from __future__ import annotations

import shutil
import subprocess

import pandas as pd
import pytest

import yardstick as ys
from yardstick.presentation.export.tables import table_to_text, write_table

P = [1e-6, 1.29e-6, 0.0312, 1.0]


@pytest.fixture
def frame():
    return pd.DataFrame({"measure": ["map"] * 4, "run_a": list("abcd"), "run_b": list("efgh"),
                         "mean_a": [0.3, 0.2, 0.1, 0.4], "p_value": P,
                         "p_value_corrected": [min(1.0, 4 * p) for p in P]})


@pytest.mark.parametrize("fmt", ["text", "latex", "markdown", "html", "tsv"])
def test_reading_formats(frame, fmt):
    text = table_to_text(frame, fmt)
    if fmt == "tsv":                         # full precision: the float itself
        assert "1e-06" in text and "1.29e-06" in text
        return
    assert "1.00e-06" in text and "1.29e-06" in text and "5.16e-06" in text
    assert "0.0312" in text and "1.0000" in text
    assert "0.0000" not in text


@pytest.mark.parametrize("suffix", ["csv", "tex", "md", "html", "xlsx"])
def test_files_and_the_api(tmp_path, frame, suffix):
    for path in (write_table(frame, tmp_path / f"t.{suffix}"),
                 ys.export_table(frame, tmp_path / f"api.{suffix}")):
        if suffix == "xlsx":
            import openpyxl

            ws = openpyxl.load_workbook(path)["table"]
            col = [c.value for c in ws[1]].index("p_value") + 1
            cell = ws.cell(row=3, column=col)
            assert cell.value == 1.29e-6                      # a number, full value
            assert cell.number_format == "[<0.0001]0.00E+00;0.0000"
            continue
        text = open(path).read()
        if suffix == "csv":
            assert pd.read_csv(path)["p_value"].tolist() == P
            continue
        assert "1.29e-06" in text and "0.0000 " not in text and "0.0000<" not in text
        assert "& 0.0000" not in text and "| 0.0000" not in text


def test_pdf_report(tmp_path, frame):
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) not installed")
    from yardstick.presentation.reports.document import ReportDocument, ReportPage, ReportTable
    from yardstick.presentation.reports.render import write_pdf

    doc = ReportDocument("p", "adhoc", (ReportPage("P", "", (ReportTable("p", "p", frame),)),))
    pdf = write_pdf(doc, tmp_path / "r.pdf")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    assert "1.29e-06" in text and "1.00e-06" in text and "0.0000" not in text
