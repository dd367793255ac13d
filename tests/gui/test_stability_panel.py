"""The Stability panel drives yardstick.analysis.stability through the job runner (pytest-qt,
offscreen)."""

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pytestqt")
import pyqtgraph as pg  # noqa: E402
from pytrec_evaluations import evaluation_from_scores  # noqa: E402

from yardstick.analysis.stability.error_rate import error_rate  # noqa: E402
from yardstick.analysis.stability.rank_correlation import compare_rankings  # noqa: E402
from yardstick.common.progress import run_sync  # noqa: E402


@pytest.fixture(autouse=True)
def _settings_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "settings"))


def _scores():
    rng = np.random.default_rng(8)
    topics = [str(t) for t in range(301, 341)]
    ap = pd.DataFrame(np.clip(rng.beta(2, 5, (40, 1)) + rng.normal(0, 0.1, (40, 5))
                              + np.linspace(0, 0.2, 5), 0, 1), index=topics,
                      columns=[f"run{k}" for k in range(5)])
    return ap, (ap * 10).round() / 10


def stability_panel(qtbot, jobs):
    """The panel on the runs of :func:`_scores` (map and P_10), with two topic groups."""
    from yardstick.gui.app_state import AppState
    from yardstick.gui.panels.stability_panel import StabilityPanel

    ap, p10 = _scores()
    evals = {r: evaluation_from_scores(r, {"map": ap[r].to_dict(), "P_10": p10[r].to_dict()})
             for r in ap.columns}

    class State(AppState):
        def evaluations(self, visible_only=True):
            return evals

        def measure_columns(self):
            return ["map", "P_10"]

    state = State(jobs=jobs)
    state.workspace.topic_groups.update({"first": [str(t) for t in range(301, 321)],
                                         "second": [str(t) for t in range(321, 341)]})
    w = StabilityPanel(state, jobs)
    qtbot.addWidget(w)
    w._changed("topic_groups")
    w.jobs_ = jobs
    return w


@pytest.fixture
def panel(qtbot):
    from yardstick.gui.jobs import JobRunner

    return stability_panel(qtbot, JobRunner())


def _run(qtbot, panel, **kw):
    panel.configure(**kw)
    with qtbot.waitSignal(panel.jobs_.finished, timeout=60000,
                          check_params_cb=lambda k: k == "stability"):
        assert panel.run() == "stability"


def test_measures_include_area_from_map(panel):
    names = [panel.measures.item(i).text() for i in range(panel.measures.count())]
    assert names == ["map", "P_10", "area", "map_worst"]
    assert panel.chosen_measures() == ["map", "P_10"]


def test_error_rate_table_equals_core(qtbot, panel):
    _run(qtbot, panel, analysis="error-rate", seed=3, samples=50)
    shown = panel.table.frame().set_index("measure")
    ap, p10 = _scores()
    ref = run_sync(error_rate(p10, samples=50, seed=3, measure="P_10"))
    assert shown.loc["P_10", "error_rate_%"] == pytest.approx(100 * ref.error_rate)
    assert shown.loc["P_10", "ties_%"] == pytest.approx(100 * ref.tie_rate)
    assert "seed: 3" in panel.status.text()


def test_swap_grid_draws_observed_rates_and_fits(qtbot, panel):
    _run(qtbot, panel, analysis="swap", measures=["map"], seed=1, samples=50)
    res = panel.report.results["swap"][("map", "all")]
    plots = [i for i in panel.chart.ci.items if isinstance(i, pg.PlotItem)]
    assert len(plots) == min(20, res.n_bins)
    first = plots[0].listDataItems()
    x, y = first[0].getData()
    ok = np.isfinite(res.rates[:, 0])
    assert np.allclose(x, res.sizes[ok]) and np.allclose(y, res.rates[ok, 0])
    fx, fy = first[1].getData()
    assert np.allclose(fy, res.fits[0](fx))


def test_kendall_between_groups_and_heat_map(qtbot, panel):
    _run(qtbot, panel, analysis="kendall", group="first", versus="second", seed=1, samples=20)
    table = panel.report.table("rank_correlation_groups").set_index("measure")
    ap, _ = _scores()
    ref = compare_rankings(ap.loc[[str(t) for t in range(301, 321)]].mean(),
                           ap.loc[[str(t) for t in range(321, 341)]].mean())
    assert table.loc["map", "kendall_tau"] == pytest.approx(ref.tau)
    _run(qtbot, panel, analysis="kendall", group="All topics", versus="—", seed=1, samples=20)
    matrix = panel.report.table("kendall_matrix")
    # the chart's cells carry the matrix (rows in the order the figure sorted them)
    cells = panel.chart_figure().plot.series[0]
    names = [lb for _, lb in panel.chart_figure().plot.y.ticks]
    want = matrix.loc[names, names].to_numpy()
    got = np.array([float(t) for t in cells.labels]).reshape(len(names), len(names))
    assert np.allclose(got, want, atol=0.005)
    assert sorted(names) == sorted(map(str, matrix.index))


def test_cancel(qtbot, panel):
    panel.configure(analysis="bootstrap", measures=["map", "P_10"], samples=20000)
    with qtbot.waitSignal(panel.jobs_.cancelled, timeout=10000):
        panel.run()
        panel.cancel()
    assert panel.status.text() == "Cancelled." and panel.run_button.isEnabled()
    assert panel.report is None


def test_a_result_says_when_the_runs_have_changed_since(qtbot, panel):
    """An analysis run while 10 of 150 runs were still loading said nothing of it: the
    status says how many runs the result used, and asks to run again once more arrive."""
    evals = panel.state.evaluations()
    _run(qtbot, panel, analysis="kendall", measures=["map"])
    assert panel.status.text().startswith("Assumptions: runs: 5 runs: ")
    extra = dict(evals)
    extra["run5"] = evals["run0"]
    panel.state.evaluations = lambda visible_only=True: extra     # a sixth run arrived
    panel._changed("evaluations")
    assert panel.status.text().startswith("Computed on 5 runs; 6 are loaded and evaluated "
                                          "now: press Run again.")


def test_status_keeps_its_height_while_an_analysis_runs(qtbot, panel, monkeypatch):
    """A shorter "Computing …" line must not let the tabs grow (the last figure would be
    painted again at its new size beside the job: 154 ms of a 20-plot figure on the
    Robust04-sized track); the status may shrink again with the result."""
    import threading

    import yardstick.gui.panels.stability_panel as sp

    release = threading.Event()
    real = sp.run_stability

    def held(*a, **k):            # the analysis waits until the layout was checked
        release.wait(30)
        return (yield from real(*a, **k))

    monkeypatch.setattr(sp, "run_stability", held)
    panel.resize(900, 700)
    panel.show()
    qtbot.waitExposed(panel)
    panel.status.setText("\n".join(["a result said in several lines"] * 4))
    qtbot.wait(50)
    tall = panel.status.height()
    tabs = panel.tabs.height()
    panel.configure(analysis="error-rate", seed=3, samples=50)
    with qtbot.waitSignal(panel.jobs_.finished, timeout=60000,
                          check_params_cb=lambda k: k == "stability"):
        panel.run()
        qtbot.wait(50)            # the layout settles while the job runs
        try:
            assert panel.status.text().startswith("Computing")
            assert panel.status.height() >= tall
            assert panel.tabs.height() == tabs
        finally:
            release.set()
    qtbot.wait(20)
    assert panel.status.minimumHeight() == 0
