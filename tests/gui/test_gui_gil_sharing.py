"""The window shares the GIL with its jobs (issue 15: the event loop blocked at most 100 ms).

Behaviour, not timings: the window's start shortens the GIL's switch interval, and the
Compare job works out its experiment table only after the GUI thread has drawn the
comparison (the two at once kept the GUI thread waiting for the GIL), with the same
numbers as the core's ``experiment_table``.
"""

from __future__ import annotations

import sys

import pytest

from tests.gui_support import QRELS, RUNS, engine_or_skip, load, make_window, wait_evaluated
from yardstick.analysis.significance import experiment_table
from yardstick.evaluation.evaluation_service import score_matrix


@pytest.fixture
def default_interval():
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)                    # CPython's default
    yield
    sys.setswitchinterval(before)


def test_the_window_start_shortens_the_gil_switch_interval(qtbot, tmp_path, monkeypatch,
                                                         default_interval):
    from yardstick.gui.gil_sharing import GIL_SWITCH_INTERVAL

    assert sys.getswitchinterval() == pytest.approx(0.005)
    make_window(qtbot, tmp_path, monkeypatch)
    assert sys.getswitchinterval() == pytest.approx(GIL_SWITCH_INTERVAL)
    assert GIL_SWITCH_INTERVAL < 0.005


def test_compare_works_out_the_experiment_table_after_drawing_the_comparison(
        qtbot, tmp_path, monkeypatch):
    engine_or_skip()
    from yardstick.gui.panels import compare_panel

    seen = []                                       # (comparison drawn?, per-topic rows)
    real = compare_panel.experiment_table_job

    def spy(*args, **kw):                           # called in the job's thread
        panel = win.panels["compare"]
        seen.append((panel._drawn.is_set(), panel.comparison is not None))
        return real(*args, **kw)

    monkeypatch.setattr(compare_panel, "experiment_table_job", spy)
    win = make_window(qtbot, tmp_path, monkeypatch)
    win.show()                                      # drawn a turn at a time, as on screen
    win.state.set_measures(["map", "P.10"])
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    evals = wait_evaluated(qtbot, win, win.state.workspace.runs)
    panel = win.panels["compare"]
    runs = ["UIUC03Rd1.run", "pircRBa1.run"]
    seen.clear()
    with qtbot.waitSignal(win.jobs.finished, timeout=60000,
                          check_params_cb=lambda k: k == "compare"):
        panel.configure(baseline="aplrob03a.run", runs=runs, measure="map", test="t",
                        correction="holm")
    assert seen == [(True, True)]
    assert len(panel.topic_table.frame()) == len(score_matrix(evals, "map"))
    assert panel.chart.figure_spec() is not None
    expect = experiment_table({c: score_matrix(evals, c) for c in win.state.measure_columns()},
                              "aplrob03a.run", runs, test="t", correction="holm")
    shown = panel.experiment_table.frame()
    assert list(shown.columns) == list(expect.columns)
    for col in ("map", "map p-value", "map p-value (holm)", "P_10"):
        assert shown[col].to_numpy() == pytest.approx(expect[col].to_numpy(), nan_ok=True)


def test_after_paints_runs_once_the_requested_paints_are_done(qtbot):
    """What Compare and the topic explorer's what-if tests wait for before their jobs
    compete with the GUI thread: a repaint requested before is delivered first."""
    from PySide6.QtWidgets import QLabel

    from yardstick.gui.gil_sharing import after_paints

    order = []

    class Label(QLabel):
        def paintEvent(self, ev):  # noqa: N802 - Qt name
            order.append("paint")
            super().paintEvent(ev)

    label = Label("a")
    qtbot.addWidget(label)
    label.show()
    qtbot.waitUntil(lambda: "paint" in order, timeout=5000)     # its first paint, on show
    for k in range(3):
        order.clear()
        label.setText(str(k))                       # asks for a repaint
        after_paints(lambda: order.append("after"))
        assert order == []                          # nothing at once
        qtbot.waitUntil(lambda: "after" in order, timeout=5000)
        assert order[0] == "paint" and order[-1] == "after", order
