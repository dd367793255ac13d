"""A 150-run report's PDF is a document a person reads (issue #28): every measure of every
table is in its text (the comparison table silently dropped ndcg_cut_10), no word lies
outside the page box, every run of the ranking is labelled, fonts are TrueType (Type 42),
and the table files are tidy (run names only, marks in their own columns)."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from yardstick.presentation.charts.system_ranking import ranked_means
from yardstick.presentation.reports import figures
from yardstick.presentation.reports.comparison_table import comparison_table
from yardstick.presentation.reports.document import (
    ReportDocument,
    ReportFigure,
    ReportPage,
    ReportTable,
)
from yardstick.presentation.reports.render import write_report

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="pdftotext (poppler-utils) not installed")
MEASURES = ["map", "P_10", "ndcg_cut_10", "recip_rank", "bpref", "iprec_at_recall_0.00"]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    from functools import partial

    rng = np.random.default_rng(11)
    k, n = 150, 50
    runs = [f"team{i % 47:02d}.{'a-rather-long-run-name' if i % 7 == 0 else 'run'}{i}"
            for i in range(k)]
    topic = rng.beta(2, 5, n)[:, None]
    base = np.clip(topic + np.linspace(0.3, 0, k)[None, :] + rng.normal(0, 0.1, (n, k)), 0, 1)
    idx = pd.Index([str(401 + t) for t in range(n)], name="topic")
    mats = {m: pd.DataFrame(base ** (1 + 0.2 * j), index=idx, columns=runs)
            for j, m in enumerate(MEASURES)}
    t = comparison_table(mats, order="score")
    f = t.display_frame()
    sr = ranked_means(mats["map"])
    page = ReportPage("Comparison", t.caption, (
        ReportTable("comparison", "Comparison of runs", f, markers=t.markers.set_axis(f.index),
                    bold=t.best.set_axis(f.index), caption=t.caption),),
        (ReportFigure("system_ranking", "Runs by mean map",
                      partial(figures.draw_system_ranking, sr=sr), sr.to_frame(), rows=k),))
    out = tmp_path_factory.mktemp("report150")
    write_report(ReportDocument("150 runs", "adhoc", (page,)), out, ("pdf", "csv", "png"))
    return out, runs


def _bbox_words(pdf):
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                          text=True).stdout
    pages = re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', html, re.S)
    for w, h, body in pages:
        for x0, y0, x1, y1, word in re.findall(
                r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">'
                r"(.*?)</word>", body):
            yield float(w), float(h), float(x0), float(y0), float(x1), float(y1), word


def test_every_measure_and_every_run_is_in_the_pdf(report):
    out, runs = report
    pdf = out / "adhoc_report.pdf"
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    for m in MEASURES:
        assert m in text, m
    words = [w for *_, w in _bbox_words(pdf)]
    for r in runs:      # in the table and labelled in the ranking
        assert words.count(r) >= 2, r


def test_no_word_outside_the_page(report):
    out, _ = report
    bad = [(w, x0, x1) for pw, ph, x0, y0, x1, y1, w in _bbox_words(out / "adhoc_report.pdf")
           if x0 < 0 or y0 < 0 or x1 > pw + 0.5 or y1 > ph + 0.5]
    assert bad == []


def test_fonts_are_truetype(report):
    if shutil.which("pdffonts") is None:
        pytest.skip("pdffonts (poppler-utils) not installed")
    out, _ = report
    fonts = subprocess.run(["pdffonts", str(out / "adhoc_report.pdf")], capture_output=True,
                           text=True).stdout
    assert "Type 3" not in fonts and "TrueType" in fonts, fonts


def test_table_files_are_tidy(report):
    out, runs = report
    f = pd.read_csv(out / "Comparison" / "comparison.csv", keep_default_na=False)
    assert list(f.columns[:3]) == ["letter", "run", "map"]
    assert sorted(f["run"]) == sorted(runs)                  # names only, no "(a) "
    for m in MEASURES:
        assert f"{m}_marker" in f.columns
    assert (out / "Comparison" / "system_ranking.png").stat().st_size > 0
