"""The Pool panel drives yardstick.analysis.pool through the job runner (pytest-qt, offscreen)."""

import numpy as np
import pytest

pytest.importorskip("pytestqt")
import pyqtgraph as pg  # noqa: E402
from pool_fixtures import HAND_DOCS, HAND_TOPICS, hand_qrels, hand_runs  # noqa: E402

from yardstick.analysis.pool.uniques import leave_out_uniques  # noqa: E402
from yardstick.judging.judged_runs_build import build_judged_runs  # noqa: E402


@pytest.fixture(autouse=True)
def _settings_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "settings"))


def pool_panel(qtbot, jobs):
    """The panel on the hand pool of :mod:`pool_fixtures` (depth 2, the runs' flags)."""
    from yardstick.gui.app_state import AppState
    from yardstick.gui.panels.pool_panel import PoolPanel

    state = AppState()            # no job runner: nothing evaluates in the background
    state.set_qrels(hand_qrels())
    runs = hand_runs()
    state.add_runs(runs, groups={r.name: r.group for r in runs})
    state.set_documents(HAND_DOCS)
    state.set_topics(HAND_TOPICS)
    w = PoolPanel(state, jobs)
    qtbot.addWidget(w)
    w.infer_depth.setChecked(False)     # the hand pool: depth 2 over the runs' pooled flags
    w.pool_source.setCurrentIndex(1)
    w.depth.setValue(2)
    w.levels.setText("2, 4")
    w.jobs_ = jobs
    return w


@pytest.fixture
def panel(qtbot):
    from yardstick.gui.jobs import JobRunner

    jobs = JobRunner()
    yield pool_panel(qtbot, jobs)
    jobs.shutdown()


def _run(qtbot, panel):
    with qtbot.waitSignal(panel.jobs_.finished, timeout=60000,
                          check_params_cb=lambda k: k == "pool"):
        assert panel.run() == "pool"


def _plot(panel):
    return [i for i in panel.chart.ci.items if isinstance(i, pg.PlotItem)][0]


def test_info_counts_pooled_runs(panel):
    assert panel.info.text().startswith("3 of 3 runs pooled (2 groups)")
    # qrels and pooled runs are there: the panel asks for Run, not for files
    assert panel.status.text() == "Choose the analyses and press Run."


def test_uniques_table_and_bars_equal_core(qtbot, panel):
    _run(qtbot, panel)
    core = leave_out_uniques(build_judged_runs(hand_runs(), hand_qrels()), 2, unit="group")
    panel.show_table("uniques_group")
    shown = panel.table.frame().set_index("run")
    assert shown["percent"].to_numpy() == pytest.approx(core.frame["percent"].to_numpy())
    assert shown.loc["A", "percent"] == pytest.approx(-40.0)     # counted in test_pool_uniques
    panel.show_chart("uniques_groups")
    bars = [i for i in _plot(panel).items if isinstance(i, pg.BarGraphItem)][0]
    assert sorted(bars.opts["x1"].tolist()) == [1, 2]              # G2: d6; G1: d4, e5
    assert "Uniques by group" in panel.status.text()


def test_titlestat_rank_chart_has_both_curves_and_the_depth_line(qtbot, panel):
    _run(qtbot, panel)
    panel.show_chart("titlestat_rank")
    p = _plot(panel)
    curves = p.listDataItems()
    x, y = curves[0].getData()
    # rank 1: (1/2 + 2/3) / 2, rank 2: (2/3 + 1/3) / 2 (see test_pool_titlestat)
    assert y[:2] == pytest.approx([(0.5 + 2 / 3) / 2, 0.5])
    _, p_rel = curves[1].getData()
    assert p_rel[:2] == pytest.approx([0.5, 2 / 3])
    lines = [i for i in p.items if isinstance(i, pg.InfiniteLine)]
    assert [ln.value() for ln in lines] == [2]


def test_not_pooled_flag_shrinks_the_pool(qtbot, panel):
    panel.state.update_run("C", pooled=False)
    _run(qtbot, panel)
    panel.show_table("pool_per_topic")
    shown = panel.table.frame().set_index("topic")
    assert shown["pool_size"].tolist() == [3, 4]       # without C: {d1 d2 d4}, {e2 e1 e4 e5}


def test_simulation_chart_plots_tau_against_judged(qtbot, panel):
    _run(qtbot, panel)
    panel.show_chart("simulation")
    sims = panel.report.simulations
    first = sims["depth"].levels[sims["depth"].levels["measure"] == "map"]
    plots = [i for i in panel.chart.ci.items if isinstance(i, pg.PlotItem)]
    assert len(plots) == len(sims)                      # one plot per strategy
    x, y = plots[0].listDataItems()[0].getData()
    assert np.allclose(x, first["judged"]) and np.allclose(y, first["kendall_tau"])


def test_cancel(qtbot, panel):
    with qtbot.waitSignal(panel.jobs_.cancelled, timeout=10000):
        panel.run()
        panel.cancel()
    assert panel.status.text() == "Cancelled." and panel.run_button.isEnabled()
    assert panel.report is None


def test_second_judgment_set_and_collection_rows(qtbot, panel, tmp_path):
    # b: topic 1 relevant {d2, d3}, topic 2 {e4} (see test_pool_titlestat: diff 0.5, -2/3)
    other = tmp_path / "b.qrels"
    other.write_text("1 0 d2 1\n1 0 d3 1\n2 0 e4 1\n")
    panel.set_compare_qrels(str(other))
    _run(qtbot, panel)
    panel.show_table("titlestat_compare")
    shown = panel.table.frame().set_index("topic")
    assert shown["diff"].to_numpy() == pytest.approx([0.5, -2 / 3])
    panel.show_chart("titlestat_compare")
    x, y = _plot(panel).listDataItems()[0].getData()
    assert x.tolist() == [4, 3] and y == pytest.approx([0.5, -2 / 3])
    panel.show_table("characteristics_all_collections")
    rows = panel.table.frame()
    assert len(rows) == 1 and rows["mean_pool_size"].iloc[0] == pytest.approx(4.5)


def test_unpooling_a_run_reuses_the_judged_runs(qtbot, panel):
    """Judged once per (runs, qrels): a changed pooled flag re-runs the analyses on the
    kept index (same arrays), and the pool is the one of the remaining runs."""
    _run(qtbot, panel)
    first = panel._cache["index"][1]
    panel.state.update_run("C", pooled=False)
    _run(qtbot, panel)
    again = panel._cache["index"][1]
    assert again.e_rel is first.e_rel and again.e_doc is first.e_doc
    assert again.pooled.tolist() == [True, True, False]
    panel.show_table("pool_per_topic")
    shown = panel.table.frame().set_index("topic")
    assert shown["pool_size"].tolist() == [3, 4]       # as test_not_pooled_flag_shrinks_the_pool


def test_a_list_of_pooled_runs_sets_the_pool_and_a_stale_result_says_so(qtbot, panel, tmp_path):
    """The window had no way to say which runs made the pool but one tick per run (150 runs,
    47 pooled); a list file does it.  A result computed before the pooled runs changed says
    so, not silently standing for the new pool."""
    _run(qtbot, panel)
    assert "changed since" not in panel.status.text()
    listed = tmp_path / "pooled.txt"
    listed.write_text("# the runs judged to depth 2\nA\nB\nZ\n")
    panel.pool_listed(str(listed))
    pooled = {e.name: e.pooled for e in panel.state.workspace.runs.values()}
    assert pooled == {"A": True, "B": True, "C": False}
    assert panel.status.text() == ("2 runs pooled, as pooled.txt lists; 1 name(s) match no "
                                   "loaded run (Z); the pool now comes from the runs' pooled "
                                   "flags. Press Run.")
    assert panel.info.text().startswith("2 of 3 runs pooled")
    panel.state.update_run("A", group="G9")            # any later change: the result is stale
    assert panel.status.text().startswith("The runs, their pooled flags or groups changed")
    _run(qtbot, panel)
    panel.show_table("pool_per_topic")
    shown = panel.table.frame().set_index("topic")
    assert shown["pool_size"].tolist() == [3, 4]       # as with C unticked above
    assert "changed since" not in panel.status.text()


def test_the_inferred_pool_is_the_default_with_its_evidence_and_one_click_to_correct(qtbot):
    """On a generated track (12 pooled of 33 runs, depth 50) the panel, left at its
    defaults, analyses the inferred pool, shows its evidence first and says what it assumed;
    one click checks the inferred runs as pooled for correction by hand."""
    from pool_tracks import make_track

    from yardstick.gui.app_state import AppState
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels.pool_panel import PoolPanel

    runs, qrels, truth = make_track()
    jobs = JobRunner()
    state = AppState()
    state.set_qrels(qrels)
    state.add_runs(runs)
    w = PoolPanel(state, jobs)
    qtbot.addWidget(w)
    for name, box in w.analysis_boxes.items():
        box.setChecked(name == "stats")
    w.jobs_ = jobs
    try:
        _run(qtbot, w)
        assert w.table_choice.currentData() == "inferred_pool_runs"
        shown = w.table.frame().set_index("run")
        assert set(shown.index[shown["contributing"] == "yes"]) == set(truth)
        text = w.status.text()
        assert f"pooled runs: inferred from the judged depths: {len(truth)} runs" in text
        assert "pool depth: inferred per topic: 50" in text
        assert w.report.stats.summary["pooled_runs"] == len(truth)
        assert w.use_inferred.isEnabled()
        assert w.use_inferred_pool() == len(truth)
        assert {e.name for e in state.workspace.runs.values() if e.pooled} == set(truth)
        assert w.pool_source.currentIndex() == 1
    finally:
        jobs.shutdown()
