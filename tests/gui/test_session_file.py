"""core.workspace / yardstick.session.session_file: versioned, validated, atomic sessions (no
Qt)."""

from __future__ import annotations

import json

import pytest

from tests.gui_support import QRELS, RUNS, TOPICS
from yardstick.common.errors import FormatError
from yardstick.common.options import EvalOptions
from yardstick.inputs.io import read_qrels, read_run
from yardstick.session.session_file import read_session, validate_session, write_session
from yardstick.session.workspace import Workspace, guess_groups


def workspace() -> Workspace:
    ws = Workspace()
    ws.qrels = read_qrels(QRELS)
    for p in RUNS:
        ws.add_run(read_run(p))
    ws.update_run("aplrob03a.run", name="APL", group="JHU/APL", color="#123456")
    ws.update_run("UIUC03Rd1.run", visible=False)
    ws.update_run("pircRBa1.run", pooled=False)
    ws.measures = ["map", "P.5,10"]
    ws.topic_groups = {"hard": ["303", "307"]}
    ws.notes = "Robust 2003 — notes ✓"
    ws.options = EvalOptions(relevance_level=2, complete=True)
    ws.topics_path = str(TOPICS)
    return ws


def test_round_trip_through_a_file(tmp_path):
    ws = workspace()
    path = tmp_path / "s.json"
    write_session(path, ws.to_session())
    data = read_session(path)
    assert data["version"] == 1
    ws2 = Workspace.from_session(data)
    assert ws2.extras.pop("load_problems") == []
    assert list(ws2.runs) == ["APL", "UIUC03Rd1.run", "pircRBa1.run"]
    e = ws2.runs["APL"]
    assert (e.group, e.color, e.visible, e.pooled) == ("JHU/APL", "#123456", True, True)
    assert e.run.name == "APL" and e.run.group == "JHU/APL"
    assert not ws2.runs["UIUC03Rd1.run"].visible
    assert not ws2.runs["pircRBa1.run"].pooled
    assert len(ws2.runs["APL"].run) == 10000
    assert len(ws2.qrels) == 128796
    assert ws2.measures == ["map", "P.5,10"]
    assert ws2.topic_groups == {"hard": ["303", "307"]}
    assert ws2.notes == "Robust 2003 — notes ✓"
    assert ws2.options == EvalOptions(relevance_level=2, complete=True)
    assert ws2.topics is not None and len(ws2.topics) == 100


def test_missing_files_are_reported_and_skipped(tmp_path):
    data = workspace().to_session()
    data["runs"][1]["path"] = str(tmp_path / "gone.run")
    data["qrels"] = str(tmp_path / "gone.qrels")
    ws = Workspace.from_session(data)
    problems = ws.extras["load_problems"]
    assert len(problems) == 2
    assert any("gone.run" in p and "not found" in p for p in problems)
    assert ws.qrels is None
    assert list(ws.runs) == ["APL", "pircRBa1.run"]


def test_relative_paths_are_taken_from_the_session_folder(tmp_path):
    import shutil

    shutil.copy(RUNS[0], tmp_path / "a.run.gz")
    (tmp_path / "s.json").write_text(json.dumps({
        "format": "yardstick-session", "version": 1,
        "runs": [{"path": "a.run.gz", "name": "A"}]}))
    data = read_session(tmp_path / "s.json")
    assert data["runs"][0]["path"] == str(tmp_path / "a.run.gz")
    assert data["runs"][0]["visible"] is True and data["measures"] == []


@pytest.mark.parametrize("bad, why", [
    ([], "expected a JSON object"),
    ({"format": "other", "version": 1}, "format"),
    ({"format": "yardstick-session", "version": 99}, "newer Yardstick"),
    ({"format": "yardstick-session", "version": 1, "runs": [{"path": 3}]}, "'path'"),
    ({"format": "yardstick-session", "version": 1,
      "runs": [{"path": "x", "color": "red"}]}, "#rrggbb"),
    ({"format": "yardstick-session", "version": 1, "measures": "map"}, "measures"),
    ({"format": "yardstick-session", "version": 1, "topic_groups": {"g": [1]}}, "topic_groups"),
    ({"format": "yardstick-session", "version": 1, "options": {"complete": "yes"}}, "complete"),
    ({"format": "yardstick-session", "version": 1, "runs": [{"path": "x", "visible": 1}]},
     "true or false"),
])
def test_validation_rejects_bad_sessions(bad, why):
    with pytest.raises(FormatError) as e:
        validate_session(bad, "s.json")
    assert why in e.value.message and "s.json" in e.value.message


def test_not_json_names_the_line(tmp_path):
    p = tmp_path / "s.json"
    p.write_text('{\n "format": "yardstick-session",\n "version": 1,\n oops\n}')
    with pytest.raises(FormatError) as e:
        read_session(p)
    assert e.value.line == 4
    p.write_text('{"format": "yardstick-session", "version": 1, "notes": NaN}')
    with pytest.raises(FormatError):
        read_session(p)


def test_write_is_atomic_and_validated(tmp_path):
    p = tmp_path / "s.json"
    write_session(p, workspace().to_session())
    before = p.read_bytes()
    with pytest.raises(FormatError):
        write_session(p, {"format": "yardstick-session", "version": 1, "notes": 5})
    assert p.read_bytes() == before
    assert [f.name for f in tmp_path.iterdir()] == ["s.json"]  # no temp file left


def test_workspace_names_and_order():
    ws = workspace()
    r = read_run(RUNS[0])
    e = ws.add_run(r, replace_same_path=False)
    assert e.name == "aplrob03a.run"  # the renamed one freed the name
    e2 = ws.add_run(r, replace_same_path=False)
    assert e2.name == "aplrob03a.run (2)"
    with pytest.raises(ValueError):
        ws.update_run("aplrob03a.run (2)", name="APL")
    ws.move_run("aplrob03a.run (2)", 0)
    assert list(ws.runs)[0] == "aplrob03a.run (2)"
    # re-loading the same file replaces the entry and keeps its settings
    n = len(ws.runs)
    e3 = ws.add_run(read_run(RUNS[2]))
    assert len(ws.runs) == n and e3.name == "pircRBa1.run" and not e3.pooled


def test_guess_groups_from_tag_prefixes():
    assert guess_groups(["pircRB04t1", "pircRB04d2", "uogRobDBase", "uogRobSWR10", "x1"]) == [
        "pircRB", "pircRB", "uogRob", "uogRob", ""]
    assert guess_groups(["aplrob03a", "aplrob03b", "aplrob03c"]) == ["aplrob"] * 3
