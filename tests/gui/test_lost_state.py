"""No lost or hidden state: autosave that a busy user still gets, full disks said plainly,
drag-and-drop batches that survive a hostile file, no orphan temporary files after
``kill -9``, and sessions that cannot be used to show another file's text."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from yardstick.common.errors import FormatError
from yardstick.inputs.io.atomic import atomic_write_text, describe_write_error, sweep_orphans
from yardstick.session import autosave
from yardstick.session.autosave import AutosaveSchedule
from yardstick.session.loading import expand, load_files
from yardstick.session.session_file import read_session
from yardstick.session.workspace import Workspace, load_session

ROOT = Path(__file__).resolve().parents[2]
RUN = "1 Q0 D1 1 3.0 t\n1 Q0 D2 2 2.0 t\n"


def drain(gen):
    try:
        while True:
            next(gen)
    except StopIteration as e:
        return e.value


# ----------------------------------------------------------------- autosave schedule
def test_autosave_comes_at_most_30_s_after_the_first_change_of_a_busy_user():
    """A change every second for a minute: the plain debounce (restart a 2 s timer on
    every change) never fires; the schedule fires 30 s after the first change."""
    s = AutosaveSchedule(quiet=2.0, at_most=30.0)
    saves = []
    due = None
    for tenth in range(600):  # 60 s in steps of 0.1 s
        now = tenth / 10
        if due is not None and now >= due - 1e-9:
            saves.append(now)
            s.saved()
            due = None
        if tenth % 10 == 0:  # a change every second
            due = now + s.delay(now)
    assert saves == [30.0]


def test_autosave_schedule_refuses_nonsense():
    with pytest.raises(ValueError):
        AutosaveSchedule(quiet=5, at_most=1)


# ----------------------------------------------------------------- full disk
def test_describe_write_error_on_a_real_enospc():
    with pytest.raises(OSError) as info:
        with open("/dev/full", "wb", buffering=0) as f:
            f.write(b"x")
    msg = describe_write_error(info.value, "/data/session.json")
    assert msg == ("Could not write /data/session.json: the disk is full. Free some space "
                   "(or choose another folder) and try again; nothing loaded was lost.")


def test_window_autosave_on_a_full_disk_is_shown_once_and_cleared(qtbot, monkeypatch):
    from yardstick.gui.main_window import MainWindow

    win = MainWindow(autosave=True)
    qtbot.addWidget(win)
    full = OSError(errno.ENOSPC, "No space left on device")

    def fail(path):
        raise full

    monkeypatch.setattr(win, "save_session_quietly", fail)
    win.save_last_session()
    win.save_last_session()
    assert win.autosave_problem is not None
    assert "the disk is full" in win.autosave_problem
    assert "the disk is full" in win.statusBar().currentMessage()
    assert sum("Autosave failed" in m for m in win.errors) == 1  # one dialog, not one a try
    monkeypatch.setattr(win, "save_session_quietly", lambda path: None)
    win.save_last_session()
    assert win.autosave_problem is None
    assert win.statusBar().currentMessage() == "Autosaved again."


def test_disk_full_escaping_a_slot_is_reported_as_disk_full(qtbot, monkeypatch):
    from yardstick.gui import error_dialog
    from yardstick.gui.main_window import MainWindow

    win = MainWindow(autosave=False)
    qtbot.addWidget(win)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    error_dialog.install_excepthook(win)
    try:
        raise OSError(errno.ENOSPC, "No space left on device", "/out/table.xlsx")
    except OSError:
        sys.excepthook(*sys.exc_info())
    assert win.errors[-1] == ("Could not write /out/table.xlsx: the disk is full. Free some "
                              "space (or choose another folder) and try again; nothing loaded "
                              "was lost.")
    assert "please report" not in win.errors[-1]


# ----------------------------------------------------------------- nested JSON
def test_deeply_nested_json_in_a_batch_does_not_lose_the_other_files(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"a": ' * 100_000 + "1" + "}" * 100_000)
    deep_session = tmp_path / "deep_session.json"
    deep_session.write_text('{"format": "yardstick-session", "x": ' + '{"a": ' * 100_000 + "1"
                            + "}" * 100_001)
    run = tmp_path / "run.txt"
    run.write_text(RUN)
    res = drain(load_files(expand([deep, deep_session, run])))
    assert [r.name for r in res.runs] == ["run.txt"]
    assert res.sessions == (str(deep_session),)
    assert [e.path for e in res.errors] == [str(deep)]
    with pytest.raises(FormatError) as info:
        read_session(deep_session)
    assert info.value.reason == ("not a Yardstick session: its JSON is nested too deeply "
                                 f"(more than {sys.getrecursionlimit()} levels)")


# ----------------------------------------------------------------- orphan temporary files
WRITER = textwrap.dedent("""
    import sys, time
    from yardstick.inputs.io.atomic import atomic_write

    def write(tmp):
        with open(tmp, "w") as f:
            f.write("half a session")
            f.flush()
            print("WRITING", flush=True)
            time.sleep(600)

    atomic_write(sys.argv[1], write)
""")


def test_kill_9_during_a_write_leaves_no_orphan_after_the_next_write(tmp_path):
    target = tmp_path / "last_session.json"
    target.write_text('{"old": true}')
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(target)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "WRITING"
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait(30) == -signal.SIGKILL
    orphans = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(orphans) == 1 and orphans[0].startswith(f".last_session.json.{proc.pid}.")
    assert target.read_text() == '{"old": true}'  # the old file is intact
    atomic_write_text(target, '{"new": true}')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["last_session.json"]
    assert target.read_text() == '{"new": true}'


def test_startup_sweeps_orphans_but_not_a_live_writers_file(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    orphan = tmp_path / f".last_session.json.{dead}.abc123.tmp"
    live = tmp_path / f".last_session.json.{os.getpid()}.xyz789.tmp"
    orphan.write_text("x")
    live.write_text("y")
    autosave.begin(tmp_path)
    assert not orphan.exists() and live.exists()
    assert sweep_orphans(tmp_path) == []
    autosave.end(tmp_path)


# ----------------------------------------------------------------- sessions are untrusted
def test_a_session_naming_a_system_file_does_not_show_its_text(tmp_path):
    secret = tmp_path / "shadow"
    secret.write_text("root:$6$saltsalt$hashhashhash:19000:0:99999:7:::\n")
    (tmp_path / "a" / "b").mkdir(parents=True)
    s = Workspace().to_session()
    s["qrels"] = "../../shadow"
    s["runs"] = [{"path": "../../shadow", "name": "x", "group": "g", "color": "#000000",
                  "visible": True, "pooled": True},
                 {"path": str(tmp_path), "name": "y", "group": "g", "color": "#000000",
                  "visible": True, "pooled": True}]
    _ws, problems = drain(load_session(s, base_dir=str(tmp_path / "a" / "b")))
    assert problems == [
        f"qrels {secret}, line 1: expected 4 columns (topic iter docno rel), found 1 (skipped)",
        f"run {secret}, line 1: expected 6 columns (topic Q0 docno rank score tag), found 1 "
        "(skipped)",
        f"run {tmp_path}: is a directory, not a run file (topic Q0 docno rank score tag) "
        "(skipped)",
    ]
    assert not any("saltsalt" in p or "root:" in p for p in problems)
