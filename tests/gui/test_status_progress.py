"""The status bar says what runs now: a job's last word (not one dropped by the 4-a-second
limit), and for a job that has said nothing yet its name, never an ended job's message
(issue 30's walk-through: "read 144 of 150 runs 0%" stood beside a running Stability job)."""

from __future__ import annotations

import threading

import pytest

from yardstick.common.progress import Progress


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path))
    from yardstick.gui.main_window import MainWindow

    w = MainWindow(autosave=False)
    qtbot.addWidget(w)
    yield w
    w.jobs.shutdown()


def talking(n, release):
    import time

    for i in range(n):
        time.sleep(0.06)        # past the job runner's own 50 ms limit: each one is sent
        yield Progress(i + 1, 150, f"read {i + 1} of 150 runs")
    release.wait(10)
    return n


def silent(release):
    release.wait(10)
    yield Progress(1, 1, "done")


def test_the_last_message_is_shown_and_an_ended_job_s_is_not(qtbot, win):
    first, second = threading.Event(), threading.Event()
    win.jobs.submit("load", lambda: talking(12, first))
    # 12 reports 60 ms apart, then silence: the bar's 250 ms limit shows the last one late
    qtbot.waitUntil(lambda: win.progress_label.toolTip() == "read 12 of 150 runs",
                    timeout=5000)
    with qtbot.waitSignal(win.jobs.finished, timeout=5000):
        first.set()
    win.jobs.submit("stability", lambda: silent(second))
    qtbot.waitUntil(lambda: win.progress_label.toolTip() == "stability…", timeout=5000)
    assert "read" not in win.progress_label.text()
    with qtbot.waitSignal(win.jobs.finished, timeout=5000):
        second.set()
