"""The report's PDF pages keep every word on the page, and big figures get the room they need.

Legends sit right of their plot (``render_mpl``); on full-width per-topic rows (the
bundled Cranfield sample's 225 topics) they ran off the page's right edge (words at
x = 601 pt on a 595 pt A4 page).  A ranking of 150 runs was drawn into a half-width
slot; per-topic charts of 26-60 topics had unreadable labels at half width.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

import yardstick as ys
from yardstick.presentation.reports import pdf_layout
from yardstick.presentation.reports.document import ReportFigure

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="needs poppler's pdftotext")
PATHS = ys.sample_paths()


def _words(pdf) -> list[tuple[str, float, float]]:
    xml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    return [(w, float(x0), float(x1)) for x0, x1, w in
            re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" '
                       r'yMax="[\d.]+">([^<]*)</word>', xml)]


def test_every_word_is_on_the_page(tmp_path):
    out = tmp_path / "rep"
    subprocess.run([sys.executable, "-m", "yardstick.cli", "report", "--qrels",
                    str(PATHS["qrels"]), "--out", str(out), "--formats", "pdf",
                    "--run", "okBM25", "--run", "shT3", *map(str, PATHS["runs"])],
                   check=True, capture_output=True)
    words = _words(out / "adhoc_report.pdf")
    assert any(w.startswith("okBM25") for w, _, _ in words)       # the legends are there
    assert max(x1 for _, _, x1 in words) <= pdf_layout.PAGE_W - pdf_layout.MARGIN / 2


def test_a_ranking_of_many_runs_gets_the_pages_width(tmp_path):
    """A ranking of 60 runs is drawn across the page (its x-axis title centred on the page),
    not in a half-width slot."""
    from types import SimpleNamespace

    import numpy as np

    from yardstick.presentation.reports import figures
    from yardstick.presentation.reports.document import ReportDocument, ReportPage
    from yardstick.presentation.reports.render import write_report

    k = 60
    mean = np.linspace(0.6, 0.1, k)
    sr = SimpleNamespace(runs=[f"run{i:02d}" for i in range(k)], mean=mean, low=mean - 0.05,
                         high=mean + 0.05, topics=[50] * k, measure="map", confidence=0.95,
                         baseline=None)
    fig = ReportFigure("system_ranking", "ranking", lambda ax: figures.draw_system_ranking(ax, sr),
                       rows=k)
    doc = ReportDocument("t", "adhoc", (ReportPage("All runs", "", (), (fig,)),))
    write_report(doc, tmp_path, formats=("pdf",))
    words = _words(tmp_path / "adhoc_report.pdf")
    title = [(x0, x1) for w, x0, x1 in words if w == "topics"]     # "mean map over topics"
    assert title and (title[0][0] + title[0][1]) / 2 > pdf_layout.PAGE_W / 2 - 40


def test_a_tables_own_caption_is_in_the_pdf(tmp_path):
    """QA on the 150-run track with ``--baseline``: the PDF's "Runs against the baselines"
    table marked runs † and ‡ without saying which baseline each symbol stands for (the
    caption was in the LaTeX, HTML and XLSX files only)."""
    import numpy as np
    import pandas as pd

    from yardstick.presentation.reports.baseline_table import baseline_table
    from yardstick.presentation.reports.document import ReportDocument, ReportPage, ReportTable
    from yardstick.presentation.reports.render import write_report

    rng = np.random.default_rng(1)
    base = rng.uniform(0.1, 0.6, 30)
    mat = pd.DataFrame({f"run{i}": np.clip(base + rng.normal(0.02 * i, 0.03, 30), 0, 1)
                        for i in range(6)})
    bt = baseline_table({"map": mat}, ["run0", "run1"])
    page = ReportPage("Comparison", "Mean scores over 30 topics.", (
        ReportTable("comparison_baselines", "Runs against the baselines", bt.means,
                    markers=bt.markers, bold=bt.best, caption=bt.caption),))
    write_report(ReportDocument("Report", "adhoc", (page,)), tmp_path, formats=("pdf",))
    pdf = next(tmp_path.rglob("*.pdf"))
    text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True,
                                   text=True, check=True).stdout.split())
    assert "† run0, ‡ run1" in text
    assert max(x1 for _, _, x1 in _words(pdf)) <= pdf_layout.PAGE_W - pdf_layout.MARGIN / 2
