"""Every chart exports as vector SVG and PDF that look like its PNG (issue #16).

Every chart kind is covered: the ten charts of the Charts panel, the teaching
views, every Stability chart (computed headless by ``run_stability``) and every
Pool chart (through the Pool panel's own chart view and export menu function).

The window's PDF export once rendered the scene straight into a ``QPdfWriter``:
axes and labels about 3× too big, markers embedded as JPEG, and colour operators
that PDF readers reported as syntax errors.  For each chart kind: the SVG is
valid XML with vector paths and text and no embedded image; the PDF has no
raster image, no syntax error, and rasterised by ``pdftoppm`` at 96 dpi matches
the PNG export of the same chart within a small mean difference of 3×3-pixel block
means (text is anti-aliased differently by the two renderers).
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

from yardstick.presentation.charts.median_difference import median_difference  # noqa: E402
from yardstick.presentation.charts.rank_correlation import rank_correlation  # noqa: E402
from yardstick.presentation.charts.recall_precision import RecallPrecisionCurves  # noqa: E402
from yardstick.presentation.charts.topic_spread import topic_spread  # noqa: E402

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
    from yardstick.gui.charts.system_ranking_chart import SystemRankingChart
    from yardstick.presentation.charts.system_ranking import ranked_means

    c = SystemRankingChart()
    c._fill = lambda: c.set_data(ranked_means(SCORES, "map", baseline="B"))
    return c


def _widget(cls_path, fill):
    def make():
        mod, name = cls_path.rsplit(".", 1)
        import importlib

        c = getattr(importlib.import_module(mod), name)()
        c._fill = lambda: fill(c)
        return c
    return make


def _evals():
    return {n: evaluation_from_scores(n, {"map": SCORES[n].to_dict(),
                                          "P_10": (SCORES[n] ** 2).to_dict(),
                                          "ndcg": (1 - SCORES[n]).to_dict()}) for n in SCORES}


def _fill_topic_rp(c):
    from yardstick.inputs.qrels import Qrels
    from yardstick.inputs.run import Run
    from yardstick.presentation.charts.recall_precision import topic_recall_precision_of_run

    qrels = Qrels.from_dict({"1": {f"d{i}": int(i in (1, 2, 4, 15)) for i in range(1, 21)}})
    run = Run.from_dict({"1": {f"d{i}": 100.0 - i for i in range(1, 21)}}, name="appendix")
    c.set_topic(topic_recall_precision_of_run(run, qrels, "1"))


def _fill_lesson(c):
    from yardstick.analysis.explain.topic_lesson import topic_lesson
    from yardstick.inputs.qrels import Qrels
    from yardstick.inputs.run import Run

    qrels = Qrels.from_dict({"1": {f"d{i}": int(i in (1, 2, 4, 15)) for i in range(1, 21)}})
    run = Run.from_dict({"1": {f"d{i}": 100.0 - i for i in range(1, 21)}}, name="appendix")
    c.set_lesson(topic_lesson(run, qrels, "1"), 10)


G = "yardstick.gui.charts."
CHARTS = {
    "recall-precision": _recall_precision, "median difference": _median,
    "topic spread": _spread, "heat map": _heat_map, "system ranking": _system_ranking,
    "topic recall-precision": _widget(G + "recall_precision_chart.RecallPrecisionChart",
                                      _fill_topic_rp),
    "median and maximum": _widget(G + "topic_spread_chart.TopicSpreadChart",
                                  lambda c: c.set_data(topic_spread(SCORES))),
    "MAP(X)": _widget(G + "map_at_x_chart.MapAtXChart", lambda c: c.set_data(
        __import__("yardstick.presentation.charts.map_at_x", fromlist=["x"])
        .map_at_x(_evals(), "map"))),
    "precision at cutoffs": _widget(
        G + "precision_cutoffs_chart.PrecisionCutoffsChart",
        lambda c: c.set_data(__import__("yardstick.presentation.charts.precision_cutoffs",
                                        fromlist=["x"])
                             .PrecisionAtCutoffs(("A", "B"), np.array([5, 10, 100, 1000]),
                                                 np.array([[0.6, 0.5, 0.2, 0.05],
                                                           [0.4, 0.45, 0.3, 0.1]])))),
    "measure scatter": _widget(G + "measure_scatter_chart.MeasureScatterChart",
                               lambda c: c.set_data(__import__(
                                   "yardstick.presentation.charts.measure_scatter", fromlist=["x"])
                                   .measure_scatter(_evals(), "map", "P_10"))),
    "lesson curve": _widget(G + "lesson_charts.LessonCurveChart", _fill_lesson),
}
def _grey(img: QImage) -> np.ndarray:
    img = img.convertToFormat(QImage.Format.Format_Grayscale8)
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    return np.frombuffer(bytes(img.constBits()), np.uint8).reshape(h, bpl)[:, :w].astype(float)


def _check_vector(export, tmp_path, kind, want_texts=()):
    """``export(path)`` writes the chart; its SVG and PDF are vector and the PDF's
    raster matches the PNG."""
    svg = export(tmp_path / "c.svg").read_bytes()
    root = ET.fromstring(svg)
    tags = {e.tag.replace(SVG, "") for e in root.iter()}
    assert "image" not in tags
    assert tags & {"path", "polyline", "polygon", "rect"} and "text" in tags
    text = " ".join("".join(e.itertext()) for e in root.iter(SVG + "text"))
    for want in want_texts:
        assert want in " ".join(text.split()), (kind, want)
    png = export(tmp_path / "c.png")
    pdf = export(tmp_path / "c.pdf")
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
    h, w = min(a.shape[0], b.shape[0]) // 3 * 3, min(a.shape[1], b.shape[1]) // 3 * 3
    diff = np.abs(_blocks(a[:h, :w]) - _blocks(b[:h, :w])).mean()
    assert diff < TOLERANCE, f"{kind}: mean grey difference {diff:.1f}"


def _blocks(g: np.ndarray) -> np.ndarray:
    """Means of 3×3 pixel blocks: the two rasterisers place anti-aliased text and small
    markers up to a pixel apart; a wrong scale or a missing series still shows."""
    h, w = g.shape
    return g.reshape(h // 3, 3, w // 3, 3).mean(axis=(1, 3))


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
    title = chart.spec.title.split(":")[0][:20]
    _check_vector(lambda p: export_plot(chart, p), tmp_path, kind, [title])


# ---------------------------------------------------------------- stability charts

@pytest.fixture(scope="module")
def stability_report():
    from yardstick.analysis.stability.report import ANALYSES, StabilitySettings, run_stability
    from yardstick.common.progress import run_sync

    rng = np.random.default_rng(8)
    topics = [str(t) for t in range(1, 31)]
    ap = pd.DataFrame(np.clip(rng.beta(2, 5, (30, 1)) + rng.normal(0, 0.1, (30, 6))
                              + np.linspace(0, 0.2, 6), 0, 1), index=topics,
                      columns=[f"run{k}" for k in range(6)])
    matrices = {"map": ap, "P_10": (ap * 10).round() / 10}
    return run_sync(run_stability(matrices, ANALYSES, {"all": topics},
                                  StabilitySettings(samples=40, seed=1)))


def _stability_keys():
    from yardstick.analysis.stability.report import ANALYSES

    return [(a, "map") for a in ANALYSES if a not in ("kendall", "taup")] + \
        [("kendall", None), ("taup", None), ("discriminative", "all"), ("error-rate", "all")]


@pytest.mark.parametrize("analysis,measure", _stability_keys())
def test_every_stability_chart_exports_vector(qapp, tmp_path, stability_report, analysis,
                                              measure):
    from yardstick.presentation.charts.render_mpl import write_figure
    from yardstick.presentation.charts.stability_specs import stability_figure

    results = stability_report.results[analysis]
    if measure == "all":
        key = None
    elif measure is None:
        key = next(k for k, v in results.items() if isinstance(v, pd.DataFrame))
    else:
        key = (measure, "all")
    spec = stability_figure(stability_report, analysis, key)
    assert spec is not None, analysis
    _check_vector(lambda p: write_figure(spec, p, dpi=96), tmp_path,
                  analysis, [spec.title.split(",")[0][:18]])


def test_stability_panel_exports_the_chart_it_shows(qtbot, tmp_path, stability_report):
    import pyqtgraph as pg

    from yardstick.gui.charts.render_pg import draw_figure
    from yardstick.gui.export_actions import export_plot
    from yardstick.presentation.charts.stability_specs import stability_figure

    view = pg.GraphicsLayoutWidget()
    qtbot.addWidget(view)
    spec = stability_figure(stability_report, "tukey", ("map", "all"))
    draw_figure(view, spec)
    svg = export_plot(view, tmp_path / "t.svg").read_text()
    for run in stability_report.results["tukey"][("map", "all")].runs:
        assert f">{run}<" in svg


# ---------------------------------------------------------------- pool charts

@pytest.fixture
def pool_panel(qtbot, tmp_path):
    from pool_fixtures import HAND_DOCS, HAND_TOPICS, hand_qrels, hand_runs

    from yardstick.gui.app_state import AppState
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels.pool_panel import PoolPanel

    jobs = JobRunner()
    state = AppState()
    state.set_qrels(hand_qrels())
    runs = hand_runs()
    state.add_runs(runs, groups={r.name: r.group for r in runs})
    state.set_documents(HAND_DOCS)
    state.set_topics(HAND_TOPICS)
    w = PoolPanel(state, jobs)
    qtbot.addWidget(w)
    w.resize(900, 600)
    w.show()
    w.depth.setValue(2)
    w.levels.setText("2, 4")
    other = tmp_path / "b.qrels"
    other.write_text("1 0 d2 1\n1 0 d3 1\n2 0 e4 1\n")
    w.set_compare_qrels(str(other))
    with qtbot.waitSignal(jobs.finished, timeout=60000, check_params_cb=lambda k: k == "pool"):
        assert w.run() == "pool"
    yield w
    jobs.shutdown()


def test_every_pool_chart_exports_vector(qtbot, tmp_path, pool_panel):
    from yardstick.gui.export_actions import export_plot
    from yardstick.presentation.charts.pool_specs import CHARTS as POOL_CHARTS

    for key, title in POOL_CHARTS.items():
        pool_panel.show_chart(key)
        QGuiApplication.processEvents()
        assert pool_panel.chart_choice.currentData() == key, key
        d = tmp_path / key
        d.mkdir()
        _check_vector(lambda p: export_plot(pool_panel.chart, p), d, key,
                      [title.split(" ")[0]])
