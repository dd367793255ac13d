"""The PDF report stays readable at a real track's size (issue 16, item 7): 150-row tables
continue on further sheets with every row printed, long titles wrap, a 250-topic per-topic
chart is split into rows of at most 60 topics, text is in a proportional font."""

import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from yardstick.presentation.reports.document import (
    ReportDocument,
    ReportFigure,
    ReportPage,
    ReportTable,
)
from yardstick.presentation.reports.pdf_layout import TOPICS_PER_ROW
from yardstick.presentation.reports.render import write_pdf

pytestmark = pytest.mark.skipif(
    shutil.which("pdftotext") is None or shutil.which("pdffonts") is None,
    reason="pdftotext and pdffonts (poppler-utils) not installed; .ci/run installs them")

RUNS = [f"team{i // 3 + 1:02d}{'abc'[i % 3]}" for i in range(150)]
TOPICS = [str(301 + i) for i in range(250)]
TITLE = ("Per-topic difference from the median of one run per team over all the topics of "
         "the track, with the best run of each topic marked, for the run team01a")


def _draw(ax, data):
    ax.bar(np.arange(len(data)), data["difference"].to_numpy())
    ax.set_title(TITLE)


@pytest.fixture(scope="module")
def pdf_text(tmp_path_factory):
    rng = np.random.default_rng(3)
    table = pd.DataFrame({"map": rng.random(150), "P_10": rng.random(150)},
                         index=pd.Index(RUNS, name="run"))
    per_topic = pd.DataFrame({"difference": rng.uniform(-1, 1, 250)},
                             index=pd.Index(TOPICS, name="topic"))
    page = ReportPage(TITLE, "subtitle", (ReportTable("overview", TITLE, table),),
                      (ReportFigure("md", TITLE, lambda ax: _draw(ax, per_topic), per_topic,
                                    per_topic=True),))
    pdf = write_pdf(ReportDocument("Large track report", "adhoc", (page,)),
                    tmp_path_factory.mktemp("large") / "r.pdf")
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
    return text, fonts


def test_long_table_continues_with_every_row(pdf_text):
    text, _ = pdf_text
    sheets = [s for s in text.split("\f") if s.strip()]
    assert len(sheets) >= 3
    assert "(continued)" in text
    for run in RUNS:                 # no row lost at a page break
        assert f" {run} " in f" {text} ".replace("\n", " ")


def test_long_titles_wrap_without_losing_words(pdf_text):
    text, _ = pdf_text
    words = " ".join(text.split())
    for w in TITLE.split():
        assert w in words
    lines = [ln for ln in text.splitlines() if "Per-topic difference" in ln]
    assert lines and all("team01a" not in ln for ln in lines)   # the title took two lines


def test_250_topics_are_split_into_rows(pdf_text):
    text, _ = pdf_text
    words = " ".join(text.split())
    per = -(-250 // -(-250 // TOPICS_PER_ROW))
    assert per <= TOPICS_PER_ROW
    for i0 in range(0, 250, per):
        assert f"topics {i0 + 1}-{min(250, i0 + per)} of 250" in words
    for t in ("301", "425", "550"):  # every topic labelled on its row
        assert t in words


def test_proportional_font(pdf_text):
    _, fonts = pdf_text
    assert "DejaVuSans" in fonts and "Mono" not in fonts


def test_all_runs_page_draws_the_best_curves_of_many_runs():
    """With more than MAX_CURVES runs the overview curves are those of the best runs by MAP
    (the engine's values), and the figure says so."""
    from pathlib import Path

    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from yardstick.common.progress import run_sync
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.inputs.run import Run
    from yardstick.presentation.reports.adhoc import ADHOC_MEASURES, MAX_CURVES, adhoc_report
    from yardstick.session.evaluating import evaluate_runs

    sample = Path(__file__).resolve().parents[2] / "resources" / "sample_fallback"
    base = [read_run(p) for p in sorted(sample.glob("*.run.gz"))]
    runs = [r.renamed(f"{r.name}-{k}") for k in range(3) for r in base]   # 15 runs
    assert len(runs) > MAX_CURVES and isinstance(runs[0], Run)
    evs = run_sync(evaluate_runs(runs, read_qrels(sample / "robust03.qrels.gz"),
                                 list(ADHOC_MEASURES)))
    doc = adhoc_report(evs)
    fig = doc.pages[0].figures[0]
    best = sorted(evs, key=lambda n: -float(evs[n].summary["map"]))[:MAX_CURVES]
    assert sorted(fig.data.columns) == sorted(best)
    assert fig.title == f"Recall-Precision Curves of the {MAX_CURVES} runs with the highest " \
                        "MAP (of 15)"
    ax = Figure().add_subplot()
    fig.draw(ax)
    assert ax.get_title() == fig.title
    assert len(doc.pages[0].tables[0].frame) == 15


def test_html_leaves_huge_tables_to_the_files():
    from yardstick.presentation.reports.render import HTML_MAX_ROWS, render_html

    big = pd.DataFrame({"p_value": np.linspace(0, 1, HTML_MAX_ROWS + 1)})
    small = pd.DataFrame({"map": [0.25]}, index=pd.Index(["a"], name="run"))
    html = render_html(ReportDocument("r", "adhoc", (ReportPage("p", "", (
        ReportTable("comparison_pvalues", "Pairwise p-values", big),
        ReportTable("overview", "Runs", small))),)))
    assert f"Pairwise p-values</b>: {HTML_MAX_ROWS + 1:,} rows" in html
    assert "comparison_pvalues.csv" in html and html.count("<tr>") == 2     # small: head + row


def test_per_topic_figure_files_widen_with_the_topics(tmp_path):
    """A 250-topic chart file is 15 in. wide (0.06 in. a topic), a small one 6 in.; nothing
    is cut off (tight bounding box)."""
    from PIL import Image

    from yardstick.presentation.reports.render import write_assets

    def doc(n):
        data = pd.DataFrame({"difference": np.linspace(-1, 1, n)},
                            index=pd.Index([str(301 + i) for i in range(n)], name="topic"))
        def draw(ax):
            ax.bar(np.arange(n), data["difference"].to_numpy())
            ax.set_xticks(np.arange(n)[::10], data.index[::10], rotation=90)
            ax.set_title("difference from the median")

        fig = ReportFigure("md", "t", draw, data, per_topic=True)
        return ReportDocument("r", "adhoc", (ReportPage(f"p{n}", "", (), (fig,)),))

    for n, inches in ((250, 15.0), (50, 6.0)):
        png = [p for p in write_assets(doc(n), tmp_path, 100, (), ("png",))
               if p.parent.name == f"p{n}"][0]
        w, h = Image.open(png).size
        assert abs(w - inches * 100) <= 0.12 * inches * 100 and h <= 420
