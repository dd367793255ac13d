"""A panel behind another tab does no work until its tab is brought to the front (issue 15
item 4: a tabbed dock stays "visible" to Qt, parked outside the window)."""

from __future__ import annotations

from tests.gui_support import QRELS, RUNS, load, make_window, wait_evaluated


def test_compare_behind_a_tab_computes_only_when_raised(qtbot, tmp_path, monkeypatch):
    win = make_window(qtbot, tmp_path, monkeypatch)
    win.show()
    qtbot.waitExposed(win)
    started: list[str] = []
    win.jobs.started.connect(started.append)
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    wait_evaluated(qtbot, win, list(win.state.workspace.runs))
    compare = win.panels["compare"]
    assert compare.isVisible() and not compare.is_seen()
    assert "compare" not in started and compare._stale
    with qtbot.waitSignal(win.jobs.started, check_params_cb=lambda k: k == "compare"):
        win.raise_panel("compare")
    assert compare.is_seen() and not compare._stale


def test_evaluations_arrive_batch_by_batch(qtbot, tmp_path, monkeypatch):
    """Each batch of runs is shown when it is evaluated, not after the last run."""
    import pytest

    from yardstick.evaluation_service import evaluate
    from yardstick.gui import app_state
    from yardstick.io import read_qrels, read_run

    monkeypatch.setattr(app_state, "EVAL_BATCH", 1)
    win = make_window(qtbot, tmp_path, monkeypatch)
    counts: list[int] = []
    win.state.changed.connect(lambda what: what == "evaluations" and counts.append(
        len(win.state.evaluations(visible_only=False))))
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    names = list(win.state.workspace.runs)
    wait_evaluated(qtbot, win, names)
    assert counts == [1, 2, 3]
    qrels = read_qrels(QRELS)
    for name, path in zip(names, RUNS):
        ref = evaluate(read_run(path), qrels, ["map"]).summary["map"]
        assert win.state.evaluation(name).summary["map"] == pytest.approx(ref, abs=1e-12)
