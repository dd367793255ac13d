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
    compare = win.docks["compare"].widget().widget()    # (not win.panels[...]: see below)
    assert compare.isVisible() and not compare.is_seen()
    assert "compare" not in started
    # the changes wait for it (gui.app_state.PanelState), each kind once
    held = compare.state.held_changes()
    assert {"runs", "evaluations"} <= set(held) and len(held) == len(set(held))
    # taken by key, a panel has heard them (its lists are current), and still waits to
    # compute until it is seen
    assert win.panels["compare"] is compare and compare.state.held_changes() == []
    assert "compare" not in started and compare._stale
    with qtbot.waitSignal(win.jobs.started, check_params_cb=lambda k: k == "compare"):
        win.raise_panel("compare")
    assert compare.is_seen() and not compare._stale and compare.state.held_changes() == []


def test_evaluations_arrive_batch_by_batch(qtbot, tmp_path, monkeypatch):
    """Runs loaded before the qrels are evaluated when the qrels come, each batch shown
    when it is evaluated, not after the last run."""
    import pytest

    from yardstick.evaluation.evaluation_service import evaluate_run
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.session import session_evaluations

    monkeypatch.setattr(session_evaluations, "EVAL_BATCH", 1)
    win = make_window(qtbot, tmp_path, monkeypatch)
    load(qtbot, win, [(r, "run") for r in RUNS])
    counts: list[int] = []
    win.state.changed.connect(lambda what: what == "evaluations" and counts.append(
        len(win.state.evaluations(visible_only=False))))
    load(qtbot, win, [(QRELS, "qrels")])
    names = list(win.state.workspace.runs)
    wait_evaluated(qtbot, win, names)
    assert counts == [1, 2, 3]
    qrels = read_qrels(QRELS)
    for name, path in zip(names, RUNS):
        ref = evaluate_run(read_run(path), qrels, ["map"]).summary["map"]
        assert win.state.evaluation(name).summary["map"] == pytest.approx(ref, abs=1e-12)


def test_each_run_is_shown_evaluated_while_the_rest_are_read(qtbot, tmp_path, monkeypatch):
    """Opening qrels and runs together: a run is in the Measures table, with the numbers
    core computes, while the next one is still being read (issue 15 item 4)."""
    import threading

    import pytest

    import yardstick.inputs.io
    from yardstick.evaluation.evaluation_service import evaluate_run
    from yardstick.gui import load_actions
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.session.workspace import DEFAULT_MEASURES

    monkeypatch.setattr(load_actions, "LOAD_FLUSH_MS", (0, 0))
    real, gate = yardstick.inputs.io.read_run, threading.Event()

    def held(path, *args, **kwargs):  # every run after the first waits for the test
        if str(path) != str(RUNS[0]):
            gate.wait(60)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(yardstick.inputs.io, "read_run", held)
    win = make_window(qtbot, tmp_path, monkeypatch)
    try:
        key = win.open_items([(str(QRELS), "qrels")] + [(str(r), "run") for r in RUNS])
        qtbot.waitUntil(lambda: len(win.state.evaluations(visible_only=False)) == 1,
                        timeout=60000)
        assert win.jobs.is_running(key)
        assert list(win.state.workspace.runs) == ["aplrob03a.run"]
        table = win.panels["measures"].current_frame()
        assert list(table.index) == ["aplrob03a.run"]
        ref = evaluate_run(read_run(RUNS[0]), read_qrels(QRELS), DEFAULT_MEASURES)
        for col in ("map", "P_10", "ndcg_cut_10", "Rprec", "recip_rank", "bpref"):
            assert table.loc["aplrob03a.run", col] == pytest.approx(ref.summary[col], abs=1e-12)
        assert "gm_map" in win.state.evaluation("aplrob03a.run").summary  # official too
    finally:
        gate.set()
    with qtbot.waitSignal(win.loaded, timeout=60000):
        pass
    assert list(win.state.workspace.runs) == ["aplrob03a.run", "UIUC03Rd1.run", "pircRBa1.run"]
    assert len(win.panels["measures"].current_frame()) == 3


def test_panel_titles_are_the_panels_own():
    """The tab titles the window shows before importing a panel are its class's TITLE."""
    import importlib

    from yardstick.gui.panels import PANEL_MODULES, PANEL_TITLES, find_panel_class, panel_key

    for module in PANEL_MODULES:
        cls = find_panel_class(importlib.import_module(module))
        assert PANEL_TITLES[panel_key(module)] == cls.TITLE, module


def test_the_window_shows_every_tab_first_then_builds_every_panel(qtbot, tmp_path, monkeypatch):
    """Deferred (as the app starts): every dock with its title and no panel yet; after
    build_panels_in_turns, every panel is in its dock and panels_ready is emitted."""
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "appdata"))
    from yardstick.gui.main_window import MainWindow
    from yardstick.gui.panels import PANEL_TITLES

    win = MainWindow(autosave=False, deferred_panels=True)
    qtbot.addWidget(win)
    assert win.panels == {}
    assert {k: d.windowTitle() for k, d in win.docks.items()} == PANEL_TITLES
    win.show()
    qtbot.waitExposed(win)
    with qtbot.waitSignal(win.panels_ready, timeout=120000):
        win.build_panels_in_turns()
    assert set(win.panels) == set(PANEL_TITLES)
    for key, panel in win.panels.items():
        assert win.docks[key].widget().widget() is panel  # in its dock's scroll area


def test_a_panel_behind_a_tab_hears_of_the_changes_once_when_raised(qtbot, tmp_path,
                                                                       monkeypatch):
    """A load's many announcements reach a panel behind a tab as one of each kind, in the
    order of their last announcement, when its tab comes to the front (issue 28: hidden
    panels rebuilt their controls on every batch of a 150-run load); a panel in view and
    the window's own listeners hear every one at once."""
    win = make_window(qtbot, tmp_path, monkeypatch)
    win.show()
    qtbot.waitExposed(win)
    win.raise_panel("measures")
    everyone: list[str] = []
    win.state.changed.connect(everyone.append)
    heard = {k: [] for k in ("compare", "measures")}
    for k, got in heard.items():
        win.panels[k].state.changed.connect(got.append)
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    wait_evaluated(qtbot, win, list(win.state.workspace.runs))
    assert heard["measures"] == everyone and len(everyone) > len(set(everyone))
    assert heard["compare"] == []
    last = {w: i for i, w in enumerate(everyone)}
    with qtbot.waitSignal(win.jobs.started, check_params_cb=lambda k: k == "compare"):
        win.raise_panel("compare")
    assert heard["compare"] == sorted(set(everyone), key=last.get)
    # a panel's own announcement reaches everyone, its own tab in view or not
    win.panels["measures"].state.changed.emit("notes")
    assert everyone[-1] == "notes" and heard["compare"][-1] == "notes"
    assert heard["measures"] == everyone[:-1]            # measures is behind compare now


def test_every_change_is_heard_at_once_while_the_window_is_not_shown(qtbot, tmp_path,
                                                                       monkeypatch):
    """Not shown (tests, scripts): nothing is held back, so a panel's state can be read."""
    win = make_window(qtbot, tmp_path, monkeypatch)
    heard: list[str] = []
    win.panels["compare"].state.changed.connect(heard.append)
    everyone: list[str] = []
    win.state.changed.connect(everyone.append)
    load(qtbot, win, [(QRELS, "qrels"), (RUNS[0], "run")])
    wait_evaluated(qtbot, win, list(win.state.workspace.runs))
    assert heard == everyone and heard
