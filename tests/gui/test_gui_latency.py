"""The window stays responsive while a large run loads in the background (issues 3, 28).

A QTimer ticks every 10 ms in the GUI thread while a 1,000,000-line run is read by
the job runner; between two ticks the GUI thread's own CPU time (``time.thread_time``:
the work it did itself in that turn of the event loop) must stay under 50 ms.  The
thread's CPU time is what the window's code decides; the wall-clock gap also holds
the time the thread waited for a core or the GIL, which another job on a busy
machine inflates, so it is measured by ``benchmarks/bench_gui_track.py`` instead.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6.QtCore import QTimer

from tests.gui_support import RUNS, load, make_window

# timing-sensitive: `make test` runs it on its own after the parallel suite
pytestmark = pytest.mark.serial
#: The most CPU time the GUI thread may spend in one turn of its event loop (issue 28).
GUI_WORK_LIMIT = 0.050


def write_big_run(path, topics=500, per_topic=2000):
    rng = np.random.default_rng(0)
    scores = np.sort(rng.random((topics, per_topic)), axis=1)[:, ::-1]
    with open(path, "w") as f:
        for t in range(topics):
            f.write("".join(f"{t + 1} Q0 DOC-{(t * 7919 + d * 104729) % 3_000_000:07d} {d + 1} "
                            f"{scores[t, d]:.6f} big\n" for d in range(per_topic)))
    return topics * per_topic


@pytest.fixture(scope="module")
def big_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "big.run"
    return path, write_big_run(path)


def test_event_loop_keeps_ticking_while_a_million_line_run_loads(qtbot, tmp_path, monkeypatch,
                                                                 big_run):
    path, n = big_run
    win = make_window(qtbot, tmp_path, monkeypatch)
    # the window's own start (the topic explorer's worked example) is not the load's work
    qtbot.waitUntil(lambda: not win.jobs.is_busy(), timeout=60000)
    ticks: list[float] = []   # the GUI thread's CPU time at each tick
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.thread_time()))
    timer.start()
    try:
        res = load(qtbot, win, [(path, "run")], timeout=120000)
    finally:
        timer.stop()
    assert res.errors == ()
    assert len(win.state.workspace.runs["big.run"].run) == n == 1_000_000
    work = np.diff(ticks)
    assert len(work) > 5
    assert work.max() < GUI_WORK_LIMIT, \
        f"the GUI thread worked {work.max() * 1000:.0f} ms in one turn of the event loop"


def test_cancel_button_stops_a_load_and_nothing_half_loaded_remains(qtbot, tmp_path, monkeypatch,
                                                                    big_run):
    path, _ = big_run
    win = make_window(qtbot, tmp_path, monkeypatch)
    load(qtbot, win, [(RUNS[0], "run")])
    with qtbot.waitSignal(win.jobs.progress, timeout=60000):
        key = win.open_items([(str(path), "run"), (str(RUNS[1]), "run")])
    assert win.jobs.is_running(key) and not win.cancel_button.isHidden()
    with qtbot.waitSignal(win.jobs.cancelled, timeout=10000,
                          check_params_cb=lambda k: k == key):
        win.cancel_button.click()
    assert win.jobs.wait_for_done(120000)
    from PySide6.QtCore import QCoreApplication

    with qtbot.assertNotEmitted(win.loaded):
        QCoreApplication.processEvents()
    assert list(win.state.workspace.runs) == ["aplrob03a.run"]  # only what was there before
    assert not win.jobs.is_busy()
