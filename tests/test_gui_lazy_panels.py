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
