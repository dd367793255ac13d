"""Nothing trusted: no code from data, sessions validated, missing files skipped, qrels untouched.

(Schema version, field validation, NaN and missing-file reporting of sessions
are in ``tests/test_session_file.py``; these are the gaps issue 9 adds.)
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from tests.gui_support import QRELS, ROOT, RUNS
from yardstick.common.errors import FormatError
from yardstick.session.session_file import read_session
from yardstick.session.what_if_state import KEY, SavedEdit, edits_for, saved_edit_count, to_json
from yardstick.session.workspace import Workspace

#: Calls and modules that turn data into code or objects.
_CALLS = {"eval", "exec", "compile", "__import__"}
_MODULES = {"pickle", "cPickle", "marshal", "shelve", "dill", "cloudpickle", "joblib", "yaml"}
_ATTRS = {"load", "loads", "Unpickler"}
#: Modules that may be imported to *write* (pickle.dumps: the sizes of and the checks on
#: what the Dask executor sends to its own workers); reading with them is still caught
#: (``pickle.loads(...)`` by the call check, ``from pickle import loads`` here).
_WRITE_ONLY = {"pickle"}


def _unsafe(path: Path) -> list[str]:
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] + ([node.module] if getattr(node, "module", None)
                                                    else [])
            bad = {n.split(".")[0] for n in names} & _MODULES
            if bad <= _WRITE_ONLY and not (isinstance(node, ast.ImportFrom)
                                           and {a.name for a in node.names} & _ATTRS):
                bad = set()
            if bad:
                found.append(f"{path}:{node.lineno} imports {sorted(bad)}")
        elif isinstance(node, ast.Call):
            f = node.func
            owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(
                f.value, ast.Name) else None
            if isinstance(f, ast.Name) and f.id in _CALLS:
                found.append(f"{path}:{node.lineno} calls {f.id}()")
            elif owner in _MODULES and f.attr in _ATTRS:
                found.append(f"{path}:{node.lineno} calls {owner}.{f.attr}()")
            elif owner == "np" and f.attr == "load" and not any(
                    k.arg == "allow_pickle" and getattr(k.value, "value", True) is False
                    for k in node.keywords):
                found.append(f"{path}:{node.lineno} calls np.load()")
            elif isinstance(f, ast.Attribute) and f.attr == "read_pickle":
                found.append(f"{path}:{node.lineno} calls read_pickle()")
    return found


def test_no_pickle_eval_or_exec_anywhere_in_the_application():
    files = sorted((ROOT / "core").rglob("*.py")) + sorted((ROOT / "gui").rglob("*.py"))
    assert len(files) > 50
    assert [f for p in files for f in _unsafe(p)] == []


def test_the_scanner_finds_what_it_looks_for(tmp_path):
    p = tmp_path / "bad.py"
    p.write_text("import marshal\nimport numpy as np\nx = eval('1')\ny = pickle.loads(b'')\n"
                 "z = np.load('a.npy')\nw = np.load('a.npy', allow_pickle=False)\n"
                 "from pickle import loads\nimport pickle\nv = pickle.dumps(1)\n")
    assert sorted(_unsafe(p)) == [f"{p}:1 imports ['marshal']", f"{p}:3 calls eval()",
                                  f"{p}:4 calls pickle.loads()", f"{p}:5 calls np.load()",
                                  f"{p}:7 imports ['pickle']"]


def _session_file(tmp_path, **fields) -> Path:
    p = tmp_path / "s.json"
    p.write_text(json.dumps({"format": "yardstick-session", "version": 1, **fields}))
    return p


@pytest.mark.parametrize("options, why", [
    ({"max_docs": -1}, "max_docs"),
    ({"max_docs": True}, "max_docs"),
    ({"relevance_level": "1"}, "relevance_level"),
])
def test_options_out_of_range_are_refused(tmp_path, options, why):
    with pytest.raises(FormatError) as e:
        read_session(_session_file(tmp_path, options=options))
    assert why in e.value.message and e.value.path == str(tmp_path / "s.json")


def test_one_file_listed_twice_restores_two_runs(tmp_path):
    """A session restores every run it lists (the file was loaded twice under two names)."""
    data = read_session(_session_file(tmp_path, runs=[
        {"path": str(RUNS[0]), "name": "A", "color": "#111111"},
        {"path": str(RUNS[0]), "name": "A again", "color": "#222222", "visible": False}]))
    ws = Workspace.from_session(data)
    assert ws.extras["load_problems"] == []
    assert [(e.name, e.color, e.visible) for e in ws.runs.values()] == [
        ("A", "#111111", True), ("A again", "#222222", False)]


def test_unreadable_or_vanished_files_are_reported_and_skipped(tmp_path):
    (tmp_path / "folder.run").mkdir()
    (tmp_path / "binary.run").write_bytes(b"\x00\x01\x02" * 10)
    data = read_session(_session_file(tmp_path, qrels=str(tmp_path / "gone.qrels"), runs=[
        {"path": "folder.run"}, {"path": "binary.run"}, {"path": str(RUNS[1]), "name": "ok"},
        {"path": "../nowhere/x.run"}]))
    ws = Workspace.from_session(data)
    problems = ws.extras["load_problems"]
    assert list(ws.runs) == ["ok"] and ws.qrels is None
    assert len(problems) == 4
    assert "gone.qrels: file not found" in problems[0]
    assert "folder.run" in problems[1] and "is a directory" in problems[1]
    assert "binary.run" in problems[2] and "NUL bytes" in problems[2]
    assert "x.run: file not found" in problems[3]


# ------------------------------------------------------------------ what-if edits


def test_saved_edits_are_validated_and_tied_to_their_qrels(tmp_path):
    q = str(QRELS)
    extras = {KEY: {"qrels": q, "edits": [
        ["301", "d1", 1], ["301", "d2", None], ["301", "d3", True], ["301", 5, 1],
        ["301", "d4", 1.5], ["301", "d5"], "301 d6 1", ["", "d7", 1], ["301", "d8", 2**40],
        [" 301", "d9", 1]]}}
    assert edits_for(extras, q) == [SavedEdit("301", "d1", 1), SavedEdit("301", "d2", None)]
    assert saved_edit_count(extras) == 2
    assert edits_for(extras, str(tmp_path / "other.qrels")) == []
    assert edits_for({KEY: {"qrels": q, "edits": "301 d1 1"}}, q) == []
    assert edits_for({KEY: [1, 2]}, q) == [] and edits_for({}, q) == []
    assert edits_for(extras, None) == []
    assert to_json(q, [SavedEdit("301", "d1", 1)]) == {"qrels": q, "edits": [["301", "d1", 1]]}


def test_what_if_edits_never_touch_the_original_qrels(tmp_path):
    from tests.gui_support import engine_or_skip

    engine_or_skip()
    import hashlib
    import shutil

    from yardstick.analysis.explain.what_if import WhatIfSession
    from yardstick.inputs.io import read_qrels, read_run

    qpath = Path(shutil.copy(QRELS, tmp_path))
    digest = hashlib.sha256(qpath.read_bytes()).hexdigest()
    qrels = read_qrels(qpath)
    frame = qrels.frame.copy()
    s = WhatIfSession(qrels, [read_run(RUNS[0])], ["map"])
    assert s.original_judgment("303", "FT921-7107") == 1
    s.mark_nonrelevant("303", "FT921-7107")
    s.mark_relevant("303", "LA011990-0173", 2)
    s.mark_unjudged("344", next(iter(qrels.to_dict()["344"])))
    s.undo()
    s.redo()
    edited = s.qrels
    assert edited is not qrels and edited.to_dict()["303"]["FT921-7107"] == 0
    s.export(tmp_path / "edited.qrels")
    s.reset()
    assert qrels.frame.equals(frame) and s.qrels is qrels
    assert hashlib.sha256(qpath.read_bytes()).hexdigest() == digest
    assert read_qrels(tmp_path / "edited.qrels").to_dict()["303"]["LA011990-0173"] == 2
    assert read_qrels(qpath).to_dict()["303"]["FT921-7107"] == 1


@pytest.mark.parametrize("content, opened", [
    ("[]", False), ('"a string"', False), ("{not json", False),
    ('{"format": "yardstick-session", "version": 1, "runs": 5}', True),
])
def test_a_tampered_last_session_never_breaks_the_start(qtbot, tmp_path, monkeypatch,
                                                        content, opened):
    from tests.gui_support import make_window
    from yardstick.gui import settings as st

    win = make_window(qtbot, tmp_path, monkeypatch)
    st.last_session_path().write_text(content)
    if not opened:
        assert win.restore_last_session() is False
        return
    with qtbot.waitSignal(win.jobs.failed, timeout=10000):
        assert win.restore_last_session() is True
    assert "'runs' must be a list" in win.errors[-1] and win.state.workspace.runs == {}
