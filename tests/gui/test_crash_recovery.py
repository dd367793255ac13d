"""No lost work: kill -9 a working Yardstick; the next start offers its work back, all of it.

The killed process is ``tests/crash_worker.py``: the real start-up
(:func:`yardstick.gui.app.start`) with qrels, topics and three Robust 2003 runs copied
to a temporary folder, then a rename/regroup/recolour, a hidden run, an
unpooled run, a topic group, a note and a what-if edit in the topic explorer,
and the debounced autosave.  The next start happens here, with pytest-qt,
answering the restore question non-interactively (``--restore``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

from tests.gui_support import QRELS, ROOT, RUNS, TOPICS, engine_or_skip
from yardstick.inputs.io import read_qrels
from yardstick.session import autosave
from yardstick.session.session_file import write_session

NOTE = "looked at topic 303 — the what-if edit is on APL ✓"


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_line(proc: subprocess.Popen, prefix: str, timeout: float) -> str:
    """The first stdout line starting with ``prefix`` (the worker prints nothing else)."""
    box: dict = {}

    def reader():
        for line in proc.stdout:
            if line.startswith(prefix):
                box["line"] = line
                return

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    t.join(timeout)
    if "line" not in box:
        proc.kill()
        raise AssertionError(f"worker did not autosave: {proc.stderr.read()[-3000:]}")
    return box["line"]


def test_killed_yardstick_is_restored_with_every_run_group_topic_group_edit_and_note(
        qtbot, tmp_path, monkeypatch):
    engine_or_skip()
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    files = [Path(shutil.copy(p, inputs)) for p in [QRELS, TOPICS, *RUNS]]
    hashes = {p: sha(p) for p in files}
    q, t, *runs = files
    data = tmp_path / "appdata"
    env = {**os.environ, "YARDSTICK_DATA_DIR": str(data), "QT_QPA_PLATFORM": "offscreen"}
    env.pop("YARDSTICK_RESTORE", None)
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "crash_worker.py"), "--qrels", str(q),
         "--topics", str(t), *map(str, runs)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = read_line(proc, "AUTOSAVED ", timeout=240)
    topic, docno, grade = json.loads(line.split(" ", 1)[1])["edit"]
    assert (data / f"running-{proc.pid}.json").exists()
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait(30) == -signal.SIGKILL

    # ---------------------------------------------------------- the next start
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(data))
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    from yardstick.gui.app import build_parser, start

    win = start(build_parser().parse_args(["--restore"]))
    qtbot.addWidget(win)

    def ws():
        return win.state.workspace

    qtbot.waitUntil(lambda: len(ws().runs) == 3 and ws().qrels is not None, timeout=60000)
    recovered = sorted(data.glob("recovered-*.json"))
    assert len(recovered) == 1 and not (data / f"running-{proc.pid}.json").exists()
    assert [(e.name, e.group, e.color, e.visible, e.pooled, e.path)
            for e in ws().runs.values()] == [
        ("APL", "JHU/APL", "#aa0000", True, True, str(runs[0])),
        # (one run per team: the name guess leaves them ungrouped rather than invent teams)
        ("UIUC03Rd1.run", "", "#ff7f0e", False, True, str(runs[1])),
        ("pircRBa1.run", "", "#2ca02c", True, False, str(runs[2]))]
    assert len(ws().runs["APL"].run) == 10000          # 100 topics x 100 documents
    assert ws().qrels.path == str(q) and len(ws().qrels) == 128796
    assert ws().topics_path == str(t) and len(ws().topics) == 100
    assert ws().topic_groups == {"hard": ["303", "344"]}
    assert ws().notes == NOTE
    assert ws().extras["what_if"] == {"qrels": str(q), "edits": [[topic, docno, grade]]}
    assert win.errors == []

    # the topic explorer replays the edit on a copy; the original judgments stay as they were
    win.build_remaining_panels()
    panel = win.panels["topic_explorer"]
    qtbot.waitUntil(lambda: panel.session is not None and "APL" in panel.session.runs,
                    timeout=60000)
    assert panel.session.overrides == {(topic, docno): grade}
    assert panel.session.original_judgment(topic, docno) != grade
    assert panel.session.original is ws().qrels
    assert read_qrels(q).to_dict() == ws().qrels.to_dict()
    assert {p: sha(p) for p in files} == hashes          # inputs never modified


# ------------------------------------------------------------------ yardstick.session.autosave
# alone


def _session(path: Path, **extra) -> None:
    write_session(path, {"format": "yardstick-session", "version": 1, "qrels": str(QRELS),
                         "runs": [{"path": str(RUNS[0]), "name": "A"}],
                         "notes": "n", **extra})


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_marker_of_a_dead_process_moves_the_autosave_aside(tmp_path):
    (tmp_path / f"running-{_dead_pid()}.json").write_text(json.dumps({"pid": _dead_pid()}))
    _session(tmp_path / autosave.LAST_SESSION,
             topic_groups={"g": ["1", "2"]},
             extras={"what_if": {"qrels": str(QRELS), "edits": [["301", "d", 1], ["x"]]}})
    rec = autosave.begin(tmp_path)
    assert rec is not None and Path(rec.path).name.startswith("recovered-")
    assert not (tmp_path / autosave.LAST_SESSION).exists()   # new autosaves cannot overwrite it
    assert rec.session["notes"] == "n" and rec.session["runs"][0]["name"] == "A"
    assert autosave.summary(rec.session) == "1 run, qrels, 1 topic group, 1 what-if edit, notes"
    markers = sorted(p.name for p in tmp_path.glob("running-*.json"))
    assert markers == [f"running-{os.getpid()}.json"]             # the dead one is gone
    autosave.end(tmp_path)
    assert list(tmp_path.glob("running-*.json")) == []
    assert autosave.begin(tmp_path) is None                  # a normal exit: nothing to offer


def test_live_process_marker_and_normal_exit_offer_nothing(tmp_path):
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (tmp_path / f"running-{sleeper.pid}.json").write_text(json.dumps({"pid": sleeper.pid}))
        _session(tmp_path / autosave.LAST_SESSION)
        assert autosave.begin(tmp_path) is None               # another window is running
        assert (tmp_path / autosave.LAST_SESSION).exists()
        assert (tmp_path / f"running-{sleeper.pid}.json").exists()
    finally:
        sleeper.kill()
        sleeper.wait()


def test_two_crashes_keep_two_recovered_files(tmp_path):
    for _ in range(2):
        (tmp_path / f"running-{_dead_pid()}.json").write_text("{}")   # unreadable pid: dead
        _session(tmp_path / autosave.LAST_SESSION)
        os.utime(tmp_path / autosave.LAST_SESSION, (1e9, 1e9))        # same time stamp twice
        assert autosave.begin(tmp_path) is not None
        autosave.end(tmp_path)
    assert len(list(tmp_path.glob("recovered-*.json"))) == 2


def test_unreadable_autosave_is_kept_and_not_offered(tmp_path):
    (tmp_path / f"running-{_dead_pid()}.json").write_text("{}")
    (tmp_path / autosave.LAST_SESSION).write_text('{"format": "yardstick-session", "version": 1,')
    assert autosave.begin(tmp_path) is None
    assert (tmp_path / autosave.LAST_SESSION).exists()


def test_declining_keeps_the_file_and_opens_the_usual_start(qtbot, tmp_path, monkeypatch):
    data = tmp_path / "appdata"
    data.mkdir()
    (data / f"running-{_dead_pid()}.json").write_text("{}")
    _session(data / autosave.LAST_SESSION)
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(data))
    monkeypatch.setenv("YARDSTICK_RESTORE", "no")
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    from yardstick.gui.app import build_parser, start

    win = start(build_parser().parse_args(["--sample"]))
    qtbot.addWidget(win)
    recovered = list(data.glob("recovered-*.json"))
    assert len(recovered) == 1 and str(recovered[0]) in win.statusBar().currentMessage()
    qtbot.waitUntil(lambda: len(win.state.workspace.runs) > 0, timeout=60000)
    assert "A" not in win.state.workspace.runs               # the sample, not the crashed session


def test_the_restore_question_is_asked_over_the_shown_window(qtbot, tmp_path, monkeypatch):
    """After a crash the question "Restore your work?" stood alone on a black screen (it was
    asked before the window was shown)."""
    from PySide6.QtWidgets import QMessageBox

    from yardstick.gui import app, recovery

    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "settings"))
    monkeypatch.delenv(recovery.ENV, raising=False)

    class Crashed:
        path = tmp_path / "recovered.json"

        def describe(self) -> str:
            return "Yardstick did not close normally."

    monkeypatch.setattr(recovery, "begin", lambda: Crashed())
    asked = []

    def answer_no(box):
        asked.append(box.parent().isVisible())
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "exec", answer_no)
    win = app.start(app.build_parser().parse_args(["--qrels", str(QRELS)]))
    qtbot.addWidget(win)
    assert asked == [True]
    win.close()
