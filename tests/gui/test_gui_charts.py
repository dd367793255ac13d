"""Chart widgets, their exports and the charts panel (offscreen Qt)."""

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pytestqt")
from PySide6.QtCore import QPointF, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage  # noqa: E402
from PySide6.QtWidgets import QToolBar  # noqa: E402
from pytrec_evaluations import evaluation_from_scores  # noqa: E402

from yardstick.inputs.qrels import Qrels  # noqa: E402
from yardstick.inputs.run import Run  # noqa: E402
from yardstick.presentation.charts.median_difference import median_difference  # noqa: E402
from yardstick.presentation.charts.rank_correlation import rank_correlation  # noqa: E402
from yardstick.presentation.charts.recall_precision import (  # noqa: E402
    RecallPrecisionCurves,
    topic_recall_precision,
)
from yardstick.presentation.charts.topic_spread import topic_spread  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
LEVELS = np.round(np.arange(11) / 10, 2)
# the appendix example (relevant at ranks 1, 2, 4, 15) and a second made-up run
APPENDIX = [1, 1, 1, 1, 1, 1, 0.75, 0.75, 4 / 15, 4 / 15, 4 / 15]
OTHER = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05, 0.0]
SCORES = pd.DataFrame({"A": [0.5, 0.2, 0.0, 0.9], "B": [0.3, 0.4, 0.1, 0.6],
                       "C": [0.1, 0.6, 0.2, 0.3]}, index=["1", "2", "3", "10"])


@pytest.fixture(autouse=True)
def _settings_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "settings"))


def shown(qtbot, widget):
    qtbot.addWidget(widget)
    widget.resize(640, 420)
    widget.show()
    qtbot.waitExposed(widget)
    QGuiApplication.processEvents()
    return widget


def rp_chart(qtbot):
    from yardstick.gui.charts.recall_precision_chart import RecallPrecisionChart

    chart = shown(qtbot, RecallPrecisionChart())
    curves = RecallPrecisionCurves(("appendix", "other"), LEVELS,
                                   np.array([APPENDIX, OTHER]), np.array([0.7542, 0.4]))
    chart.set_curves(curves, {"appendix": "#1f77b4", "other": "#d62728"})
    QGuiApplication.processEvents()
    return chart


def scene_point(chart, x, y):
    return chart.plot_item.getViewBox().mapViewToScene(QPointF(x, y))


def svg_line(svg_bytes, color):
    """The vertices of the SVG path stroked in ``color`` with the most vertices."""
    root = ET.fromstring(svg_bytes)
    best = []
    for e in root.iter(SVG + "path"):
        d = e.get("d") or ""
        if f"stroke: {color}" not in (e.get("style") or "") or "C" in d or "z" in d:
            continue                                    # (markers are closed curves)
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", e.get("d") or "")]
        pts = list(zip(nums[0::2], nums[1::2]))
        if len(pts) > len(best):
            best = pts
    return np.array(best)


def test_svg_export_holds_the_plotted_points(qtbot, tmp_path):
    """The exported SVG (matplotlib, from the chart's figure spec) draws each run's curve
    through its 11 points: the vertices are an affine image of the data."""
    from yardstick.gui.export_actions import export_plot

    chart = rp_chart(qtbot)
    data = export_plot(chart, tmp_path / "rp.svg").read_bytes()
    for color, ys in (("#1f77b4", APPENDIX), ("#d62728", OTHER)):
        pts = svg_line(data, color)
        assert len(pts) == 11, color
        ax, bx = np.polyfit(LEVELS, pts[:, 0], 1)
        ay, by = np.polyfit(ys, pts[:, 1], 1)
        assert ay < 0                                   # SVG y grows downwards
        assert np.allclose(ax * LEVELS + bx, pts[:, 0], atol=0.01)
        assert np.allclose(ay * np.array(ys) + by, pts[:, 1], atol=0.01)
    text = data.decode()
    assert "appendix (MAP 0.7542)" in text and "other (MAP 0.4000)" in text
    assert "Recall-Precision Curve" in text


def test_png_export_size_and_dpi(qtbot, tmp_path):
    from yardstick.gui.export_actions import export_plot

    chart = rp_chart(qtbot)
    path = export_plot(chart, tmp_path / "rp.png", width=1200, dpi=300)
    img = QImage(str(path))
    assert img.width() == 1200
    assert round(img.dotsPerMeterX() * 0.0254) == 300
    ratio = chart.height() / chart.width()             # the on-screen proportions
    assert abs(img.height() - round(1200 * ratio)) <= 1
    # the plotted curve's colour is in the image
    rgb = {(img.pixelColor(x, y).red(), img.pixelColor(x, y).green(), img.pixelColor(x, y).blue())
           for x in range(0, img.width(), 2) for y in range(0, img.height(), 2)}
    assert (0x1f, 0x77, 0xb4) in rgb


def test_pdf_export_renders(qtbot, tmp_path):
    from yardstick.gui.export_actions import export_plot

    chart = rp_chart(qtbot)
    path = export_plot(chart, tmp_path / "rp.pdf")
    assert path.read_bytes()[:5] == b"%PDF-"
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm not installed")
    r = subprocess.run(["pdftoppm", "-r", "30", "-png", str(path), str(tmp_path / "p")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    pages = list(tmp_path.glob("p*.png"))
    assert len(pages) == 1
    img = QImage(str(pages[0]))
    assert img.width() > 100


def test_hover_shows_exact_values_and_hidden_runs_are_skipped(qtbot):
    chart = rp_chart(qtbot)
    assert chart.hover_text_at(0.6, 0.75) == "appendix\nrecall 0.60: precision 0.7500"
    assert chart.hover_text_at(0.8, 0.2667) == "appendix\nrecall 0.80: precision 0.2667"
    # a real mouse move over the point shows the read-out
    with qtbot.waitSignal(chart.hovered) as sig:
        chart.plot.scene().sigMouseMoved.emit(scene_point(chart, 0.3, 0.6))
    assert sig.args == ["other\nrecall 0.30: precision 0.6000"]
    assert chart._readout.isVisible()
    assert chart.legend_names() == ["appendix (MAP 0.7542)", "other (MAP 0.4000)"]
    chart.set_run_visible("other (MAP 0.4000)", False)
    assert chart.hover_text_at(0.3, 0.6) == ""
    assert chart.hover_text_at(0.5, 0.5) == ""          # nowhere near a point


def test_legend_untick_hides_run_and_export_follows(qtbot, tmp_path):
    from yardstick.gui.export_actions import export_plot

    chart = rp_chart(qtbot)
    item = chart.legend.item(1)
    assert item.text() == "other (MAP 0.4000)"
    item.setCheckState(Qt.CheckState.Unchecked)          # what a click on the box does
    assert chart.hover_text_at(0.5, 0.4) == ""
    assert [s.run for s in chart.figure_spec().plot.series] == ["appendix"]
    svg = export_plot(chart, tmp_path / "one.svg").read_text()
    assert "appendix (MAP 0.7542)" in svg and "other (MAP" not in svg
    item.setCheckState(Qt.CheckState.Checked)
    assert chart.hover_text_at(0.5, 0.4) == "other\nrecall 0.50: precision 0.4000"


def test_hover_fades_the_other_runs_until_the_mouse_leaves(qtbot):
    """Hovering a run's point (or its legend entry) fades the other runs; the spec and
    so the export are untouched; moving off every point or leaving the legend ends it."""
    chart = rp_chart(qtbot)
    spec_before = chart.figure_spec()
    chart.plot.scene().sigMouseMoved.emit(scene_point(chart, 0.3, 0.6))      # "other"
    assert chart.hover_run == "other"
    assert all(it.opacity() == 1.0 for it in chart._run_items["other"])
    assert all(it.opacity() < 0.5 for it in chart._run_items["appendix"])
    assert chart.figure_spec() == spec_before                 # nothing redrawn or exported
    chart.plot.scene().sigMouseMoved.emit(scene_point(chart, 0.5, 0.5))      # empty space
    assert chart.hover_run is None
    assert all(it.opacity() == 1.0 for items in chart._run_items.values() for it in items)
    chart.legend.itemEntered.emit(chart.legend.item(0))                       # "appendix"
    assert chart.hover_run == "appendix"
    assert all(it.opacity() < 0.5 for it in chart._run_items["other"])
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication
    QApplication.sendEvent(chart.legend.viewport(), QEvent(QEvent.Type.Leave))
    assert chart.hover_run is None


def test_click_highlights_one_run_and_greys_the_rest(qtbot):
    from yardstick.presentation.charts.figure_spec import GREY

    chart = rp_chart(qtbot)
    view = chart.plot
    pos = view.mapFromScene(scene_point(chart, 0.5, 0.4))
    with qtbot.waitSignal(chart.runHighlighted) as sig:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert sig.args == ["other"]
    colors = {s.run: s.style.color for s in chart.figure_spec().plot.series}
    assert colors == {"appendix": GREY, "other": "#d62728"}
    # the legend list highlights too; clicking the highlighted run again ends it
    chart._legend_clicked(chart.legend.item(0))
    assert chart.highlight == "appendix"
    chart._legend_clicked(chart.legend.item(0))
    assert chart.highlight is None
    colors = {s.run: s.style.color for s in chart.figure_spec().plot.series}
    assert colors == {"appendix": "#1f77b4", "other": "#d62728"}


def test_median_chart_click_opens_topic(qtbot):
    from yardstick.gui.charts.median_difference_chart import MedianDifferenceChart

    chart = shown(qtbot, MedianDifferenceChart())
    md = median_difference(SCORES, "A")
    chart.set_data(md)
    QGuiApplication.processEvents()
    # bar 3 is topic "10": A 0.9, median 0.6
    assert chart.hover_text_at(3.2, 0.1) == ("topic 10\nA: 0.9000\nmedian: 0.6000\n"
                                             "difference: +0.3000\nbest: 0.9000")
    pos = chart.plot.mapFromScene(scene_point(chart, 1.0, -0.1))
    with qtbot.waitSignal(chart.topicClicked) as sig:
        qtbot.mouseClick(chart.plot.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert sig.args == ["2"]


def test_topic_chart_and_spread_and_heatmap_hover(qtbot):
    from yardstick.gui.charts.rank_correlation_chart import RankCorrelationChart
    from yardstick.gui.charts.recall_precision_chart import RecallPrecisionChart
    from yardstick.gui.charts.topic_spread_chart import TopicSpreadChart

    rp = shown(qtbot, RecallPrecisionChart())
    rp.set_topic(topic_recall_precision(np.isin(np.arange(1, 21), [1, 2, 4, 15]), 4, "r", "t"))
    QGuiApplication.processEvents()
    assert rp.hover_text_at(1.0, 4 / 15).startswith("relevant #4 at rank 15\nrecall 1.0000, "
                                                    "precision 0.2667")
    assert rp.hover_text_at(0.7, 0.75) == "recall level 0.70\ninterpolated precision 0.7500"

    sp = shown(qtbot, TopicSpreadChart())
    spread = topic_spread(SCORES)
    sp.set_data(spread, boxes=True, highlight=["3"])
    QGuiApplication.processEvents()
    i = spread.topics.index("10")
    assert sp.hover_text_at(i, spread.median[i]).startswith("topic 10\nmedian 0.6000  max 0.9000")
    assert sp.topic_at(i, spread.median[i]) == "10"

    evals = {n: evaluation_from_scores(n, {"map": SCORES[n].to_dict(),
                                           "P_10": (SCORES[n] ** 2).to_dict()}) for n in SCORES}
    hm = shown(qtbot, RankCorrelationChart())
    rc = rank_correlation(evals, ["map", "P_10"])
    hm.set_data(rc)
    QGuiApplication.processEvents()
    assert hm.hover_text_at(1.3, 0.2).startswith(f"map vs P_10\nτ = {rc.tau[0, 1]:.4f}")


def test_table_export_actions_and_remembered_folder(qtbot, tmp_path):
    from yardstick.gui import export_actions as ea

    frame = SCORES.rename_axis("topic")
    tb = QToolBar()
    qtbot.addWidget(tb)
    menu = ea.add_table_export(lambda: frame, tb)
    labels = [a.text() for a in menu.actions() if a.text()]
    assert labels[:5] == ["CSV…", "Excel (XLSX)…", "LaTeX…", "Markdown…", "HTML…"]
    p = ea.export_table(lambda: frame, tmp_path / "t.xlsx")
    back = pd.read_excel(p, index_col=0)
    assert back.loc[10, "A"] == 0.9
    text = ea.copy_table(lambda: frame, "latex")
    assert r"\toprule" in text and "0.9000" in text
    assert QGuiApplication.clipboard().text() == text
    ea.remember_export("table", tmp_path / "t.xlsx", "xlsx")
    assert ea.last_export("table") == (str(tmp_path.resolve()), "xlsx")
    pmenu = ea.add_plot_export(rp_chart(qtbot), tb)
    assert [a.text() for a in pmenu.actions()] == ["PNG image…", "SVG image…", "PDF…",
                                                   "Copy image"]


def _small_state(qtbot):
    from yardstick.gui.app_state import AppState

    qrels = Qrels.from_dict({t: {f"d{t}{i}": int(i % 3 == 0) for i in range(12)}
                             for t in ("1", "2", "3", "4")})
    runs = []
    for k, shift in enumerate((0, 1, 2)):
        runs.append(Run.from_dict({t: {f"d{t}{(i + shift * (j + 1)) % 12}": 12.0 - i
                                       for i in range(12)} for j, t in enumerate(("1", "2", "3",
                                                                                 "4"))},
                                  name=f"run{k}"))
    state = AppState()            # no job runner: evaluates in place
    state.set_qrels(qrels)
    state.add_runs(runs)
    assert len(state.evaluations()) == 3
    return state


def test_charts_panel_draws_every_chart(qtbot):
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels.charts_panel import CHARTS, MEDIAN, ChartsPanel

    state = _small_state(qtbot)
    jobs = JobRunner()
    panel = ChartsPanel(state, jobs)
    shown(qtbot, panel)
    seen = {}
    for name in CHARTS:
        panel.chart_box.setCurrentText(name)
        panel.data = None
        panel.refresh()
        qtbot.waitUntil(lambda: panel.data is not None or bool(panel.status.text()), timeout=20000)
        assert panel.status.text() == "", (name, panel.status.text())
        seen[name] = type(panel.data).__name__
        frame = panel.current_frame()
        assert len(frame) > 0
        # the figure the job built is the one the widget's own set_data builds from the
        # same data on the GUI thread
        with np.printoptions(threshold=sys.maxsize, floatmode="unique"):
            drawn = repr(panel.current_chart().spec)
            panel.show_data(panel.data)
            assert repr(panel.current_chart().spec) == drawn, name
    assert seen[MEDIAN] == "MedianDifference"
    # the per-topic chart shows the run's AP minus the median over the three runs
    panel.chart_box.setCurrentText(MEDIAN)
    panel.data = None
    panel.run_box.setCurrentText("run1")
    qtbot.waitUntil(lambda: panel.data is not None and panel.data.run == "run1", timeout=20000)
    evs = state.evaluations()
    aps = pd.DataFrame({n: e.per_topic["map"] for n, e in evs.items()})
    want = (aps["run1"] - aps.median(axis=1)).loc[list(panel.data.topics)]
    assert panel.data.difference == pytest.approx(want.to_numpy())
    with qtbot.waitSignal(state.topic_requested) as sig:
        panel.widgets[MEDIAN].topicClicked.emit("3")
    assert sig.args == ["3"]
    jobs.shutdown()


def test_select_difficult_topics_makes_a_group(qtbot):
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels.charts_panel import SPREAD, ChartsPanel

    state = _small_state(qtbot)
    jobs = JobRunner()
    panel = ChartsPanel(state, jobs)
    qtbot.addWidget(panel)
    panel.chart_box.setCurrentText(SPREAD)
    chosen = panel.select_difficult_topics()
    from yardstick.presentation.charts.topic_spread import difficult_topics as pick
    assert chosen == pick(topic_spread(state.evaluations(), "map"))
    assert state.workspace.topic_groups["difficult (map)"] == chosen
    jobs.shutdown()


def test_stability_and_pool_figures_fade_other_series_on_hover(qtbot):
    """A figure drawn by draw_figure (the Stability and Pool panels): the mouse near a
    point of one named line fades the other named lines of that plot, not the other
    plots' lines; away from every point all are back."""
    import pyqtgraph as pg

    from yardstick.gui.charts.render_pg import draw_figure
    from yardstick.presentation.charts.figure_spec import FigureSpec, Line, Plot, Style

    view = pg.GraphicsLayoutWidget()
    qtbot.addWidget(view)
    view.resize(700, 400)
    view.show()
    qtbot.waitExposed(view)
    a = Line([0, 1, 2], [0.0, 0.5, 1.0], Style("#1f77b4", 1.5, marker="o"), name="map vs P_10")
    b = Line([0, 1, 2], [1.0, 0.5, 0.0], Style("#d62728", 1.5, marker="o"), name="map vs bpref")
    c = Line([0, 1, 2], [0.2, 0.2, 0.2], Style("#2ca02c", 1.5), name="depth")
    spec = FigureSpec("ASL curves", (Plot("left", series=(a, b)), Plot("right", series=(c,))),
                      columns=2)
    drawn = dict((s.name, item) for s, item in draw_figure(view, spec))
    hover = view._yardstick_hover
    vb = hover.plots[0][0].getViewBox()
    view.scene().sigMouseMoved.emit(vb.mapViewToScene(pg.Point(2.0, 0.0)))   # b's last point
    assert hover.current == (0, "map vs bpref")
    assert drawn["map vs bpref"].opacity() == 1.0 and drawn["map vs P_10"].opacity() < 0.5
    assert drawn["depth"].opacity() == 1.0                   # another plot: untouched
    view.scene().sigMouseMoved.emit(vb.mapViewToScene(pg.Point(1.0, 0.9)))   # near nothing
    assert hover.current is None and drawn["map vs P_10"].opacity() == 1.0



def test_plots_taken_off_a_figure_are_destroyed_on_the_gui_thread(qtbot):
    """Drawing a figure again destroys the plots it replaces at once (their Qt objects),
    so that no worker thread's cycle collection destroys them later; the new figure's
    plots are alive."""
    import pyqtgraph as pg
    import shiboken6

    from yardstick.gui.charts.render_pg import draw_figure
    from yardstick.presentation.charts.figure_spec import FigureSpec, Line, Plot, Style

    view = pg.GraphicsLayoutWidget()
    qtbot.addWidget(view)
    spec = FigureSpec("swap rates", tuple(Plot(f"bin {k}", series=(
        Line([0, 1], [k, k + 1.0], Style("#1f77b4", 1.0), name=f"run {k}"),)) for k in range(3)),
        columns=3)
    first = [item for _, item in draw_figure(view, spec)]
    plots = [i for i in view.ci.items if isinstance(i, pg.PlotItem)]
    assert len(plots) == 3 and all(shiboken6.isValid(i) for i in first + plots)
    second = [item for _, item in draw_figure(view, spec)]
    assert not any(shiboken6.isValid(i) for i in first + plots)
    assert all(shiboken6.isValid(i) for i in second)
    view.grab()                                         # the scene paints what is left


def test_small_multiples_have_no_context_menus(qtbot):
    """A figure of many plots (the swap-rate grid) builds them without pyqtgraph's
    right-click menus; a figure of a few keeps them."""
    import pyqtgraph as pg

    from yardstick.gui.charts.render_pg import MENU_PLOTS, draw_figure
    from yardstick.presentation.charts.figure_spec import FigureSpec, Line, Plot, Style

    def plots(n):
        view = pg.GraphicsLayoutWidget()
        qtbot.addWidget(view)
        spec = FigureSpec("bins", tuple(Plot(f"bin {k}", series=(
            Line([0, 1], [k, k + 1.0], Style("#1f77b4", 1.0), name="run"),))
            for k in range(n)), columns=4)
        draw_figure(view, spec)
        return [i for i in view.ci.items if isinstance(i, pg.PlotItem)]

    few, many = plots(MENU_PLOTS), plots(MENU_PLOTS + 1)
    assert all(p.getViewBox().menuEnabled() and p.getViewBox().menu is not None for p in few)
    assert not any(p.getViewBox().menuEnabled() or p.getViewBox().menu is not None
                   for p in many)
    assert len(many) == MENU_PLOTS + 1


def test_chart_redraw_deletes_its_own_items_only(qtbot):
    """Redrawing a chart deletes the items the previous drawing made (on the GUI thread),
    not the topic selection's marks, which keep working after the redraw."""
    import shiboken6

    from yardstick.gui.charts.median_difference_chart import MedianDifferenceChart
    from yardstick.gui.charts.topic_selection import install

    chart = shown(qtbot, MedianDifferenceChart())
    chart.set_data(median_difference(SCORES, "A"))
    selection = install(chart)
    selection.set_selected(["2"])
    old = list(chart._drawn)
    assert old and all(shiboken6.isValid(i) for i in old)
    chart._draw()                                      # e.g. a legend entry unticked
    assert not any(shiboken6.isValid(i) for i in old)
    assert all(shiboken6.isValid(i) for i in chart._drawn)
    selection.set_selected(["10"])                     # its marks are still usable
    assert selection.selected == ["10"]


def test_a_chart_brought_to_the_front_is_painted_once_its_figure_is_drawn(qtbot, monkeypatch):
    """Not before (its empty plot's paints competed with its job for the GIL), and always
    after: when drawn, when its job fails or is cancelled, and when there is nothing to
    draw."""
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels import charts_panel
    from yardstick.gui.panels.charts_panel import CHARTS, CORR, ChartsPanel

    state = _small_state(qtbot)
    jobs = JobRunner()
    panel = ChartsPanel(state, jobs)
    shown(qtbot, panel)
    qtbot.waitUntil(lambda: not jobs.is_busy(), timeout=20000)
    assert panel.chart_box.currentText() == CHARTS[0]
    for name in (*CHARTS[1:], CHARTS[0]):          # each one brought to the front
        panel.chart_box.setCurrentText(name)
        w = panel.current_chart()
        assert jobs.is_running("charts") and not w.updatesEnabled(), name
        qtbot.waitUntil(lambda: not jobs.is_busy(), timeout=20000)
        assert w.updatesEnabled() and w.spec is not None, name
    real = charts_panel.chart_figure

    def broken(*args):
        raise RuntimeError("no figure")

    monkeypatch.setattr(charts_panel, "chart_figure", broken)
    panel.chart_box.setCurrentText(CHARTS[1])
    assert not panel.current_chart().updatesEnabled()
    qtbot.waitUntil(lambda: not jobs.is_busy(), timeout=20000)
    assert panel.current_chart().updatesEnabled() and "no figure" in panel.status.text()
    monkeypatch.setattr(charts_panel, "chart_figure", real)
    panel.chart_box.setCurrentText(CHARTS[2])
    assert not panel.current_chart().updatesEnabled()
    jobs.cancel_all()                       # the status bar's Cancel
    qtbot.waitUntil(lambda: panel.current_chart().updatesEnabled(), timeout=5000)
    state.remove_runs(["run1", "run2"])     # one run: the heat map has nothing to draw
    panel.chart_box.setCurrentText(CORR)
    assert panel.current_chart().updatesEnabled()
    assert panel.status.text() == "This chart needs at least two runs."
    jobs.shutdown()


def _grid(n, shift=0.0):
    from yardstick.presentation.charts.figure_spec import FigureSpec, Line, Plot, Style

    return FigureSpec("bins", tuple(Plot(f"bin {k}", series=tuple(
        Line(np.arange(5.0), np.arange(5.0) * k + m + shift, Style(c, 1.0), name=f"m{m}")
        for m, c in enumerate(("#1f77b4", "#d62728")))) for k in range(n)), columns=4)


def _plots(view):
    import pyqtgraph as pg

    return [i for i in view.ci.items if isinstance(i, pg.PlotItem)]


def test_a_figure_drawn_a_few_plots_per_turn_ends_with_every_plot_drawn(qtbot):
    """Staged drawing (the Stability panel's 20-plot grids): the view is not painted until
    the last plot is built, then holds the same plots and data as drawing at once."""
    import pyqtgraph as pg

    from yardstick.gui.charts.render_pg import draw_figure, still_drawing
    from yardstick.gui.charts.staged_figure import any_drawing

    at_once, staged = pg.GraphicsLayoutWidget(), pg.GraphicsLayoutWidget()
    for v in (at_once, staged):
        shown(qtbot, v)
    spec = _grid(10)
    draw_figure(at_once, spec)
    assert draw_figure(staged, spec, per_turn=3) == []     # built over the next turns
    assert still_drawing(staged) and not staged.updatesEnabled() and not _plots(staged)
    assert any_drawing()                                   # what --screenshot waits for
    qtbot.waitUntil(lambda: not still_drawing(staged), timeout=10000)
    assert not any_drawing()
    assert staged.updatesEnabled()
    want = [[c.getData()[1].tolist() for c in p.listDataItems()] for p in _plots(at_once)]
    got = [[c.getData()[1].tolist() for c in p.listDataItems()] for p in _plots(staged)]
    assert got == want and len(got) == 10
    assert len(staged._yardstick_hover.plots) == 10     # hover knows every plot
    # shown: every plot opaque, its axes free to widen again (fixed while shown in turns)
    assert all(p.opacity() == 1.0 for p in _plots(staged))
    assert all(p.getAxis("left").style["autoExpandTextSpace"] for p in _plots(staged))
    assert [p.getAxis("left").width() for p in _plots(staged)] == \
        [p.getAxis("left").width() for p in _plots(at_once)]


def test_a_figure_replaced_while_drawn_in_turns_stops_and_the_new_one_is_whole(qtbot):
    """Drawing again (another analysis chosen) while a figure is still being built: the
    old drawing stops, its plots are gone, the new figure is complete; nothing crashes
    when the scene is painted in between (25 replacements)."""
    import pyqtgraph as pg
    import shiboken6

    from yardstick.gui.charts.render_pg import draw_figure, still_drawing

    view = shown(qtbot, pg.GraphicsLayoutWidget())
    old = []
    for k in range(25):
        draw_figure(view, _grid(20, shift=k), per_turn=3)
        old += _plots(view)
        for _ in range(k % 4):                    # a few turns, then replaced mid-way
            QGuiApplication.processEvents()
        view.grab()
    draw_figure(view, _grid(7, shift=100.0), per_turn=3)
    assert not any(shiboken6.isValid(p) for p in old)
    qtbot.waitUntil(lambda: not still_drawing(view), timeout=10000)
    plots = _plots(view)
    assert len(plots) == 7
    assert plots[6].listDataItems()[1].getData()[1].tolist() == [101.0 + 6 * x for x in range(5)]
    draw_figure(view, None)                          # cleared: nothing left under way
    assert not still_drawing(view) and view.updatesEnabled() and not _plots(view)
    from yardstick.gui.charts.staged_figure import any_drawing

    assert not any_drawing()                         # the 25 replaced ones included


def test_a_chart_is_sized_to_its_tick_labels_before_its_first_paint(qtbot):
    """Its left axis is as wide before the first paint as the paint makes it (a plot whose
    axis widened in its first paint moved, and was painted again)."""
    from yardstick.gui.charts.base import ChartWidget
    from yardstick.presentation.charts.figure_spec import Axis, FigureSpec, Line, Plot, Style

    chart = shown(qtbot, ChartWidget())
    x = np.arange(10.0)
    spec = FigureSpec("wide labels", (Plot(x=Axis("x"), y=Axis("y"), series=(
        Line(x, 123456.0 + x * 1000.0, Style("#1f77b4", 1.0), name="a"),)),))
    chart.show_figure(spec)
    axis = chart.plot_item.getAxis("left")
    before = axis.minimumWidth()                       # what the layout will give it
    chart.grab()                                       # painted
    QGuiApplication.processEvents()
    assert axis.minimumWidth() == before == axis.width()
    assert before > 40                                 # room for "130000"-wide labels


def test_a_figure_drawn_at_once_on_screen_is_painted_in_the_next_turn(qtbot):
    """Not in the turn that built it (two paints of a one-plot figure came with it); a
    staged drawing started meanwhile keeps the view unpainted until it shows its plots."""
    import pyqtgraph as pg

    from yardstick.gui.charts.render_pg import draw_figure, still_drawing

    view = shown(qtbot, pg.GraphicsLayoutWidget())
    draw_figure(view, _grid(1))
    assert len(_plots(view)) == 1 and not view.updatesEnabled()
    qtbot.waitUntil(view.updatesEnabled, timeout=5000)
    draw_figure(view, _grid(1))
    draw_figure(view, _grid(6), per_turn=2)           # before the first one's paint
    QGuiApplication.processEvents()
    assert still_drawing(view) and not view.updatesEnabled()
    qtbot.waitUntil(lambda: not still_drawing(view), timeout=10000)
    assert view.updatesEnabled() and len(_plots(view)) == 6
    hidden = pg.GraphicsLayoutWidget()                # not shown (tests, exports): at once
    qtbot.addWidget(hidden)
    draw_figure(hidden, _grid(1))
    assert hidden.updatesEnabled()


def test_per_team_median_says_groups_are_guessed_until_a_groups_file_names_them(qtbot):
    """#27: a chart using the runs' teams names the groups as a guess from run names
    unless they come from a groups file (Workspace.apply_groups)."""
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels.charts_panel import MEDIAN, PER_TEAM, ChartsPanel
    from yardstick.inputs.run_names import groups_are_guess, guess_groups

    state = _small_state(qtbot)
    ws = state.workspace
    names = list(ws.runs)
    tags = [ws.runs[n].run.tag or n for n in names]
    guess = guess_groups(tags)
    assert [ws.runs[n].group or n for n in names] == [g or n for n, g in zip(names, guess)]
    jobs = JobRunner()
    panel = ChartsPanel(state, jobs)
    shown(qtbot, panel)
    panel.chart_box.setCurrentText(MEDIAN)
    panel.median_box.setCurrentText(PER_TEAM)

    def drawn():
        panel.data = None
        panel.refresh()
        qtbot.waitUntil(lambda: panel.data is not None or not jobs.is_busy(), timeout=20000)
        assert panel.data is not None, panel.status.text()
        return panel.status.text()

    text = drawn()
    assert "groups guessed from run names" in text
    assert f"({len({g or n for n, g in zip(names, guess)})} groups)" in text
    ws.apply_groups({"run0": "A", "run1": "A", "run2": "B"})       # as from a groups file
    assert not groups_are_guess(names, tags, [ws.runs[n].group for n in names])
    assert panel.groups_note(MEDIAN) == ""
    ws.apply_groups({n: g for n, g in zip(names, guess)})           # the guess again
    assert "groups guessed" in panel.groups_note(MEDIAN)
    panel.median_box.setCurrentIndex(0)                             # all shown runs
    assert panel.groups_note(MEDIAN) == ""
    jobs.shutdown()
