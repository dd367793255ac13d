"""Panels keep their choices in the session file (issue 15 item 3): save, open, same choices."""

from __future__ import annotations

import json

from tests.gui_support import QRELS, RUNS, load, make_window, wait_evaluated
from yardstick.session.workspace import PANEL_STATE_KEY, PANEL_STATE_VERSION


def _reopened(qtbot, tmp_path, monkeypatch, path, names):
    """A new window with the session at ``path`` opened, every panel built, runs evaluated."""
    again = make_window(qtbot, tmp_path, monkeypatch)
    with qtbot.waitSignal(again.loaded, timeout=60000):
        again.open_session(str(path))
    again.build_remaining_panels()
    wait_evaluated(qtbot, again, names)
    return again


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

    again = _reopened(qtbot, tmp_path, monkeypatch, path, names)
    from yardstick.gui.panel_choices import capture

    for key, want in chosen.items():
        now = capture(again.panels[key])
        for name, value in want.items():
            assert now[name] == value, (key, name, now[name])


def _choose_another(w):
    """Set a choice widget to a value other than its current one (if it has another)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import (
        QAbstractButton,
        QComboBox,
        QDoubleSpinBox,
        QLineEdit,
        QListWidget,
        QSpinBox,
    )

    if isinstance(w, QComboBox) and w.count() > 1:
        w.setCurrentIndex((w.currentIndex() + 1) % w.count())
    elif isinstance(w, (QSpinBox, QDoubleSpinBox)):
        up = w.value() + w.singleStep()
        w.setValue(up if up <= w.maximum() else w.value() - w.singleStep())
    elif isinstance(w, QLineEdit):
        w.setText("3, 7")
    elif isinstance(w, QAbstractButton) and w.isCheckable():
        w.setChecked(not w.isChecked())
    elif isinstance(w, QListWidget) and w.count() > 1:
        it = w.item(w.count() - 1)
        it.setCheckState(Qt.CheckState.Unchecked if it.checkState() == Qt.CheckState.Checked
                         else Qt.CheckState.Checked)


def test_every_choice_of_every_panel_survives_a_session_round_trip(qtbot, tmp_path, monkeypatch):
    """Every panel that lists CHOICES: each choice moved off its default, the session
    saved and opened in a new window, every choice as it was (any panel that adds
    CHOICES is covered without a change here)."""
    from yardstick.gui.panel_choices import capture

    win = make_window(qtbot, tmp_path, monkeypatch)
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    names = list(win.state.workspace.runs)
    wait_evaluated(qtbot, win, names)
    win.build_remaining_panels()
    chosen = {}
    for key, panel in win.panels.items():
        if not getattr(panel, "CHOICES", ()):
            continue
        before = capture(panel)
        for name in panel.CHOICES:
            _choose_another(getattr(panel, name))
        qtbot.waitUntil(lambda: not win.jobs.is_busy(), timeout=60000)  # lists it fills
        chosen[key] = capture(panel)
        assert chosen[key] != before, key  # the test did move something
    assert {"measures", "compare", "stability", "pool"} <= set(chosen)
    path = tmp_path / "s.json"
    win.save_session(str(path))
    win.jobs.wait_for_done(60000)
    win.close()

    again = _reopened(qtbot, tmp_path, monkeypatch, path, names)
    qtbot.waitUntil(lambda: not again.jobs.is_busy(), timeout=60000)
    assert not again._choices_left, again._choices_left
    for key, want in chosen.items():
        assert capture(again.panels[key]) == want, key
