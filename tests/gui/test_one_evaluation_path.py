"""The window, ``yardstick eval``, ``yardstick report`` and the Python API compute their
numbers through one function, the session's :func:`yardstick.session.evaluating.measure`
(issue #29: the answer must not depend on the front end that asked)."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("pytestqt")

from tests.gui_support import QRELS, RUNS, load, make_window, wait_evaluated  # noqa: E402


@pytest.fixture
def calls(monkeypatch):
    """Every call of the session's evaluation function: (thread name, run tag, map)."""
    from yardstick.session import evaluating

    seen: list[tuple[str, str, float]] = []
    real = evaluating.measure

    def recorded(run, qrels, measures, options, *args, **kwargs):
        jr, cols, summary = real(run, qrels, measures, options, *args, **kwargs)
        seen.append((threading.current_thread().name, run.tag, summary.get("map")))
        return jr, cols, summary

    monkeypatch.setattr(evaluating, "measure", recorded)
    return seen


def test_window_cli_report_and_api_reach_the_session_evaluation(qtbot, tmp_path, monkeypatch,
                                                                 calls, capsys):
    import yardstick as ys
    from yardstick.cli import main

    win = make_window(qtbot, tmp_path, monkeypatch)
    load(qtbot, win, [(QRELS, "qrels"), (RUNS[0], "run")])
    wait_evaluated(qtbot, win, ["aplrob03a.run"])
    window = win.state.evaluation("aplrob03a.run").summary["map"]
    assert len(calls) >= 1 and calls[-1][0] != threading.main_thread().name  # in a job
    n = len(calls)

    assert main(["eval", "-m", "map", str(QRELS), str(RUNS[0])]) == 0
    cli_text = capsys.readouterr().out
    assert len(calls) == n + 1
    cli = calls[-1][2]

    api = ys.evaluate(QRELS, RUNS[0], ["map"], per_topic=False)
    assert len(calls) == n + 2

    assert main(["report", "--qrels", str(QRELS), "--out", str(tmp_path / "rep"),
                 "--formats", "csv", str(RUNS[0])]) == 0
    assert len(calls) == n + 3

    tags = {tag for _, tag, _ in calls}
    assert tags == {"aplrob03a"}
    assert window == cli == api["value"].iloc[0] == calls[-1][2]
    assert f"{window:.4f}" in cli_text
