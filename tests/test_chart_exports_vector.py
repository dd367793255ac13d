"""Every chart exports as vector SVG and PDF that look like its PNG (issue #16).

The window's PDF export once rendered the scene straight into a ``QPdfWriter``:
axes and labels about 3× too big, markers embedded as JPEG, and colour operators
that PDF readers reported as syntax errors.  For each chart kind: the SVG is
valid XML with vector paths and text and no embedded image; the PDF has no
raster image, no syntax error, and rasterised by ``pdftoppm`` at 96 dpi matches
the PNG export of the same chart within a small mean pixel difference (text is
anti-aliased differently by the two renderers).
"""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pytestqt")
from PySide6.QtGui import QGuiApplication, QImage  # noqa: E402

from pytrec_evaluations import evaluation_from_scores  # noqa: E402
from yardstick.charts.median_difference import median_difference  # noqa: E402
from yardstick.charts.rank_correlation import rank_correlation  # noqa: E402
from yardstick.charts.recall_precision import RecallPrecisionCurves  # noqa: E402
from yardstick.charts.topic_spread import topic_spread  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
SCORES = pd.DataFrame({"A": [0.5, 0.2, 0.0, 0.9, 0.4], "B": [0.3, 0.4, 0.1, 0.6, 0.5],
                       "C": [0.1, 0.6, 0.2, 0.3, 0.7]}, index=["1", "2", "3", "10", "11"])
#: mean absolute difference (0-255, grey levels) allowed between the PDF's raster and the PNG
TOLERANCE = 12.0


@pytest.fixture(autouse=True)
def _settings_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "settings"))


def _recall_precision():
    from yardstick.gui.charts.recall_precision_chart import RecallPrecisionChart

    c = RecallPrecisionChart()
    levels = np.round(np.arange(11) / 10, 2)
    c._fill = lambda: c.set_curves(RecallPrecisionCurves(
        ("appendix", "other"), levels,
        np.array([[1, 1, 1, 1, 1, 1, 0.75, 0.75, 4 / 15, 4 / 15, 4 / 15],
                  np.linspace(0.9, 0.0, 11)]), np.array([0.7542, 0.4])),
        {"appendix": "#1f77b4", "other": "#d62728"})
    return c


def _median():
    from yardstick.gui.charts.median_difference_chart import MedianDifferenceChart

    c = MedianDifferenceChart()
    c._fill = lambda: c.set_data(median_difference(SCORES, "A"))
    return c


def _spread():
    from yardstick.gui.charts.topic_spread_chart import TopicSpreadChart

    c = TopicSpreadChart()
    c._fill = lambda: c.set_data(topic_spread(SCORES), boxes=True, highlight=["3"])
    return c


def _heat_map():
    from yardstick.gui.charts.rank_correlation_chart import RankCorrelationChart

    evals = {n: evaluation_from_scores(n, {"map": SCORES[n].to_dict(),
                                           "P_10": (SCORES[n] ** 2).to_dict(),
                                           "ndcg": (1 - SCORES[n]).to_dict()}) for n in SCORES}
    c = RankCorrelationChart()
    c._fill = lambda: c.set_data(rank_correlation(evals, ["map", "P_10", "ndcg"]))
    return c


def _system_ranking():
    from yardstick.charts.system_ranking import system_ranking
    from yardstick.gui.charts.system_ranking_chart import SystemRankingChart

    c = SystemRankingChart()
    c._fill = lambda: c.set_data(system_ranking(SCORES, "map", baseline="B"))
    return c


CHARTS = {"recall-precision": _recall_precision, "median difference": _median,
          "topic spread": _spread, "heat map": _heat_map, "system ranking": _system_ranking}


def _grey(img: QImage) -> np.ndarray:
    img = img.convertToFormat(QImage.Format.Format_Grayscale8)
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    return np.frombuffer(bytes(img.constBits()), np.uint8).reshape(h, bpl)[:, :w].astype(float)


@pytest.mark.parametrize("kind", list(CHARTS))
def test_svg_and_pdf_are_vector_and_match_the_png(qtbot, tmp_path, kind):
    from yardstick.gui.export_actions import export_plot

    chart = CHARTS[kind]()
    qtbot.addWidget(chart)
    chart.resize(640, 420)
    chart.show()
    qtbot.waitExposed(chart)
    chart._fill()
    for _ in range(3):
        QGuiApplication.processEvents()

    svg = export_plot(chart, tmp_path / "c.svg").read_bytes()
    root = ET.fromstring(svg)
    tags = {e.tag.replace(SVG, "") for e in root.iter()}
    assert "image" not in tags
    assert tags & {"path", "polyline", "polygon", "rect"} and "text" in tags

    png = export_plot(chart, tmp_path / "c.png")
    pdf = export_plot(chart, tmp_path / "c.pdf")
    assert pdf.read_bytes()[:5] == b"%PDF-"
    if shutil.which("pdftoppm") is None or shutil.which("pdfimages") is None:
        pytest.skip("poppler (pdftoppm, pdfimages) not installed")
    images = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True)
    assert images.returncode == 0 and len(images.stdout.strip().splitlines()) == 2  # header
    r = subprocess.run(["pdftoppm", "-r", "96", "-png", "-singlefile", str(pdf),
                        str(tmp_path / "raster")], capture_output=True, text=True)
    assert r.returncode == 0 and "Error" not in r.stderr, r.stderr
    a, b = _grey(QImage(str(png))), _grey(QImage(str(tmp_path / "raster.png")))
    assert abs(a.shape[0] - b.shape[0]) <= 1 and abs(a.shape[1] - b.shape[1]) <= 1
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    diff = np.abs(a[:h, :w] - b[:h, :w]).mean()
    assert diff < TOLERANCE, f"{kind}: mean grey difference {diff:.1f}"
