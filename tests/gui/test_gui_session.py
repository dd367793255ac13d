"""Save a session from one window, open it in another: the same state comes back."""

from __future__ import annotations

import json

from tests.gui_support import QRELS, RUNS, TOPICS, load, make_window


def state_of(win):
    ws = win.state.workspace
    return {
        "qrels": ws.qrels.path if ws.qrels is not None else None,
        "topics": None if ws.topics is None else len(ws.topics),
        "runs": [(e.name, e.group, e.color, e.visible, e.pooled, e.path, len(e.run))
                 for e in ws.runs.values()],
        "measures": ws.measures, "topic_groups": ws.topic_groups, "notes": ws.notes,
    }


def test_session_round_trip_restores_the_same_state(qtbot, tmp_path, monkeypatch):
    win = make_window(qtbot, tmp_path, monkeypatch)
    load(qtbot, win, [(QRELS, "qrels"), (TOPICS, "topics")] + [(r, "run") for r in RUNS])
    s = win.state
    s.update_run("aplrob03a.run", name="APL", group="JHU/APL", color="#aa0000")
    s.update_run("UIUC03Rd1.run", visible=False)
    s.update_run("pircRBa1.run", pooled=False)
    s.set_measures(["map", "P.20"])
    s.set_topic_group("hard", ["303", "344"])
    s.set_notes("looked at topic 303")
    before = state_of(win)
    path = tmp_path / "work.json"
    win.save_session(str(path))
    assert json.loads(path.read_text())["version"] == 1

    other = make_window(qtbot, tmp_path, monkeypatch)
    with qtbot.waitSignal(other.loaded, timeout=60000):
        other.open_session(str(path))
    assert state_of(other) == before
    assert before["runs"][0][:5] == ("APL", "JHU/APL", "#aa0000", True, True)
    assert other.errors == []


def test_session_with_a_missing_file_reports_it_and_loads_the_rest(qtbot, tmp_path, monkeypatch):
    win = make_window(qtbot, tmp_path, monkeypatch)
    data = {"format": "yardstick-session", "version": 1, "qrels": str(QRELS),
            "runs": [{"path": str(RUNS[0]), "name": "A"},
                     {"path": str(tmp_path / "deleted.run"), "name": "B"}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    with qtbot.waitSignal(win.loaded, timeout=60000):
        win.open_session(str(path))
    assert list(win.state.workspace.runs) == ["A"]
    assert "deleted.run" in win.errors[-1] and "not found" in win.errors[-1]


def test_last_session_is_restored_at_start(qtbot, tmp_path, monkeypatch):
    win = make_window(qtbot, tmp_path, monkeypatch)
    win.autosave = True
    load(qtbot, win, [(QRELS, "qrels"), (RUNS[0], "run")])
    win.state.update_run("aplrob03a.run", name="first")
    win.close()  # saves the last session and the layout

    again = make_window(qtbot, tmp_path, monkeypatch)
    with qtbot.waitSignal(again.loaded, timeout=60000):
        assert again.restore_last_session()
    assert list(again.state.workspace.runs) == ["first"]


def test_bad_session_file_is_an_error_not_a_crash(qtbot, tmp_path, monkeypatch):
    win = make_window(qtbot, tmp_path, monkeypatch)
    load(qtbot, win, [(RUNS[0], "run")])
    path = tmp_path / "s.json"
    path.write_text('{"format": "yardstick-session", "version": 7}')
    with qtbot.waitSignal(win.jobs.failed, timeout=10000):
        win.open_session(str(path))
    assert "newer Yardstick" in win.errors[-1]
    assert list(win.state.workspace.runs) == ["aplrob03a.run"]
