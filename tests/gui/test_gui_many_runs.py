"""The window with 200 runs (issue 15 item 1): Compare, Stability and Pool work, topics sort
naturally.  The track is generated here: 200 runs x 12 topics x 30 documents (pytest-qt)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from yardstick.analysis.stability.rank_correlation import compare_rankings
from yardstick.evaluation.results import score_matrix
from yardstick.inputs.topic_order import in_natural_order, natural_key, natural_sorted

N_RUNS, TOPICS, DEPTH = 200, [str(t) for t in range(1, 13)], 30


@pytest.fixture(scope="module")
def track(tmp_path_factory):
    """qrels and 200 run files; each run ranks its documents by a noisy quality score."""
    d = tmp_path_factory.mktemp("track200")
    rng = np.random.default_rng(15)
    rel = {t: rng.random(60) < 0.25 for t in TOPICS}
    (d / "qrels.txt").write_text("".join(
        f"{t} 0 D{t}-{k} {int(r)}\n" for t in TOPICS for k, r in enumerate(rel[t])))
    paths = []
    for i in range(N_RUNS):
        lines = []
        skill = i / N_RUNS
        for t in TOPICS:
            score = rel[t] * skill + rng.random(60)
            top = np.argsort(-score, kind="stable")[:DEPTH]
            lines += [f"{t} Q0 D{t}-{k} {r + 1} {score[k]:.6f} r{i:03d}\n"
                      for r, k in enumerate(top)]
        p = d / f"r{i:03d}"
        p.write_text("".join(lines))
        paths.append(str(p))
    return d / "qrels.txt", paths


@pytest.fixture(scope="module")
def win(qapp, track, tmp_path_factory):
    """One window with the 200 runs loaded and evaluated (shared by the tests below)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("YARDSTICK_DATA_DIR", str(tmp_path_factory.mktemp("appdata")))
    from yardstick.gui.main_window import MainWindow

    w = MainWindow(autosave=False)
    w.show()  # panels behind a tab wait (as for a user) instead of recomputing per batch
    qrels, runs = track
    w.open_items([(str(qrels), "qrels")] + [(r, "run") for r in runs])
    w.jobs.wait_for_done(120000)
    yield w
    w.jobs.shutdown()
    w.close()
    mp.undo()


def _settle(qtbot, win, names):
    want = set(names)
    qtbot.waitUntil(lambda: want <= set(win.state.evaluations(visible_only=False)),
                    timeout=300000)


def test_natural_order_key():
    assert natural_sorted(["100", "2", "10", "1", "a10", "a9"]) == ["1", "2", "10", "100",
                                                                     "a9", "a10"]
    assert natural_key("2") < natural_key("100")


def test_two_hundred_runs_load_and_evaluate(qtbot, win, track):
    names = [f"r{i:03d}" for i in range(N_RUNS)]
    _settle(qtbot, win, names)
    assert list(win.state.workspace.runs) == names
    assert len(win.state.evaluations(visible_only=False)) == N_RUNS


def test_topic_lists_in_natural_order(qtbot, win):
    _settle(qtbot, win, [f"r{i:03d}" for i in range(N_RUNS)])
    topic = win.panels["topic"]
    topic._changed("runs")
    shown = [topic.topic.itemText(i) for i in range(topic.topic.count())]
    assert shown == TOPICS  # 1, 2, ..., 10, 11, 12 (trec_eval's strcmp order: 1, 10, 11 ...)
    coll = win.panels["collection"]
    # a shown panel hears of a load's steps a paced turn after the session has them
    qtbot.waitUntil(lambda: list(coll.topics_view.frame().index) == TOPICS, timeout=5000)


def test_compare_all_two_hundred_runs_with_a_baseline(qtbot, win):
    _settle(qtbot, win, [f"r{i:03d}" for i in range(N_RUNS)])
    panel = win.panels["compare"]
    others = [f"r{i:03d}" for i in range(1, N_RUNS)]
    with qtbot.waitSignal(win.jobs.finished, timeout=120000,
                          check_params_cb=lambda k: k == "compare"):
        panel.configure(baseline="r000", runs=others, measure="map", test="t")
    assert panel.compared_runs() == others
    # the shown window fills the three tables one per turn of the event loop
    qtbot.waitUntil(lambda: list(panel.topic_table.frame().index) == TOPICS, timeout=5000)
    summary = panel.comparison.to_frame()
    assert len(summary) == N_RUNS - 1
    # one row checked against scipy's paired t-test on the window's own scores
    scores = score_matrix(win.state.evaluations(), "map")
    ref = stats.ttest_rel(scores["r199"], scores["r000"]).pvalue
    assert summary.loc["r199", "p t-test"] == pytest.approx(ref, rel=1e-9)


def test_stability_kendall_over_two_hundred_runs(qtbot, win):
    _settle(qtbot, win, [f"r{i:03d}" for i in range(N_RUNS)])
    win.build_remaining_panels()
    panel = win.panels["stability"]
    measures = panel.chosen_measures() or [panel.measures.item(i).text() for i in range(2)]
    a, b = measures[:2]
    panel.configure(analysis="kendall", measures=[a, b], group="All topics", seed=1,
                    samples=10)
    assert panel.run() == "stability"
    qtbot.waitUntil(lambda: not win.jobs.is_running("stability"), timeout=180000)
    assert not win.errors, win.errors
    assert panel.report is not None, panel.status.text()
    matrix = panel.report.table("kendall_matrix")
    evals = win.state.evaluations()
    assert len(score_matrix(evals, a).columns) == N_RUNS
    # the panel scores a topic a run lacks as 0 and breaks ties in the means by MAP
    ma = score_matrix(evals, a).fillna(0.0).mean()
    mb = score_matrix(evals, b).fillna(0.0).mean()
    tb = score_matrix(evals, "map").fillna(0.0).mean()
    ref = compare_rankings(ma, mb, tie_break_a=tb, tie_break_b=tb)
    assert matrix.loc[a, b] == pytest.approx(ref.tau)
    if ma.is_unique and mb.is_unique:  # no ties: Kendall's tau is scipy's, computed directly
        assert matrix.loc[a, b] == pytest.approx(stats.kendalltau(ma, mb).statistic)
    strings = panel.report.table("ranking_strings")
    assert len(strings["ranking"].iloc[0].split(" ")) == N_RUNS  # two-character codes


def test_pool_report_over_two_hundred_runs(qtbot, win):
    _settle(qtbot, win, [f"r{i:03d}" for i in range(N_RUNS)])
    win.build_remaining_panels()
    panel = win.panels["pool"]
    with qtbot.waitSignal(win.jobs.finished, timeout=180000,
                          check_params_cb=lambda k: k == "pool"):
        assert panel.run() == "pool"
    assert "200" in panel.status.text() or panel.table.frame().shape[0] > 0


def test_in_natural_order_keeps_rows():
    import pandas as pd

    f = pd.DataFrame({"v": [1, 2, 3]}, index=pd.Index(["10", "9", "100"], name="topic"))
    assert list(in_natural_order(f)["v"]) == [2, 1, 3]
