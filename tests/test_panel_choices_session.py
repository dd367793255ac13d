"""Panels keep their choices in the session file (issue 15 item 3): save, open, same choices."""

from __future__ import annotations

import json

from tests.gui_support import QRELS, RUNS, load, make_window, wait_evaluated
from yardstick.workspace import PANEL_STATE_KEY, PANEL_STATE_VERSION


def test_session_round_trip_keeps_each_panels_choices(qtbot, tmp_path, monkeypatch):
    win = make_window(qtbot, tmp_path, monkeypatch)
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    names = list(win.state.workspace.runs)
    wait_evaluated(qtbot, win, names)
    win.build_remaining_panels()
    cmp_, stab, pool = win.panels["compare"], win.panels["stability"], win.panels["pool"]
    cmp_._changed("evaluations")
    cmp_.configure(baseline=names[1], runs=[names[2]], test="wilcoxon", alpha=0.01, seed=7)
    stab.configure(analysis="swap", seed=11, samples=250)
    pool.depth.setValue(37)
    pool.levels.setText("5, 9")
    chosen = {"compare": {"baseline": names[1], "runs_list": [names[2]], "alpha": 0.01,
                          "seed": 7},
              "stability": {"analysis": stab.analysis.currentText(), "seed": 11,
                            "samples": 250},
              "pool": {"depth": 37, "levels": "5, 9"}}
    path = tmp_path / "s.json"
    win.save_session(str(path))
    saved = json.loads(path.read_text())["extras"][PANEL_STATE_KEY]
    assert saved["version"] == PANEL_STATE_VERSION
    for key, want in chosen.items():
        for name, value in want.items():
            assert saved["states"][key][name] == value, (key, name)
    win.close()

    again = make_window(qtbot, tmp_path, monkeypatch)
    with qtbot.waitSignal(again.loaded, timeout=60000):
        again.open_session(str(path))
    again.build_remaining_panels()
    wait_evaluated(qtbot, again, names)
    from yardstick.gui.panel_choices import capture

    for key, want in chosen.items():
        now = capture(again.panels[key])
        for name, value in want.items():
            assert now[name] == value, (key, name, now[name])
