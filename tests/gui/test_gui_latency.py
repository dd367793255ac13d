"""The window stays responsive while runs load in the background (issues 3, 28).

A QTimer ticks every 10 ms in the GUI thread while runs are read, evaluated and shown;
between two ticks (one turn of the event loop, or a few) the GUI thread's own CPU time
(``time.thread_time``: the work the window's code and Qt did on that thread) must stay
under 50 ms.  CPU time, not the wall clock: the wall-clock gap also holds the time the
thread waited for a core or the GIL, which another job on a busy machine inflates (a
CI machine's neighbours must not fail the test), so the stall figures by wall clock
are ``benchmarks/bench_gui_track.py``'s.  The cases: a million-line run; a published
track's shape (150 xz-compressed runs of ~50 teams, the window shown, its panels
tabbed as a user has them); and a check that the measure does catch a turn that
works too long.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6.QtCore import QTimer

from tests.gui_support import RUNS, load, make_window
from yardstick.gui.gil_sharing import pacing

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


def gui_turns(qtbot, win, start, done, timeout=120000) -> np.ndarray:
    """The GUI thread's own CPU time (s) in each 10 ms turn of its event loop from
    ``start()`` until ``done()`` is true and no job runs (what a load's end starts
    counts too)."""
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.thread_time()))
    timer.start()
    try:
        start()
        qtbot.waitUntil(lambda: done() and not win.jobs.is_busy(), timeout=timeout)
        qtbot.wait(300)                    # what the last result queued (a refresh) runs too
    finally:
        timer.stop()
    return np.diff(ticks)


def write_track(folder, runs=150, topics=25, depth=50):
    """A track shaped as TREC publishes one: qrels and ``runs`` xz-compressed runs named
    as teams name theirs (``team07a``: 50 teams of 3), ``topics`` topics ``depth`` deep."""
    import lzma

    rng = np.random.default_rng(28)
    folder.mkdir(parents=True, exist_ok=True)
    docs = [f"D{d:05d}" for d in range(4 * depth)]
    with open(folder / "qrels.txt", "w") as f:
        for t in range(1, topics + 1):
            for d in rng.choice(len(docs), 2 * depth, replace=False):
                f.write(f"{t} 0 {docs[d]} {int(rng.random() < 0.3)}\n")
    paths = []
    for i in range(runs):
        tag = f"team{i // 3 + 1:02d}{'abc'[i % 3]}"
        lines = []
        for t in range(1, topics + 1):
            picked = rng.choice(len(docs), depth, replace=False)
            lines += [f"{t} Q0 {docs[d]} {r + 1} {depth - r:.4f} {tag}\n"
                      for r, d in enumerate(picked)]
        path = folder / f"{tag}.xz"
        path.write_bytes(lzma.compress("".join(lines).encode()))
        paths.append(path)
    return folder / "qrels.txt", paths


def over_budget(work: np.ndarray) -> str:
    return f"the GUI thread worked {work.max() * 1000:.0f} ms in one turn of the event loop " \
           f"({int((work > GUI_WORK_LIMIT).sum())} turns over {GUI_WORK_LIMIT * 1000:.0f} ms)"


@pytest.fixture(scope="module")
def track(tmp_path_factory):
    return write_track(tmp_path_factory.mktemp("track"))


@pytest.fixture(scope="module")
def big_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "big.run"
    return path, write_big_run(path)


def test_event_loop_keeps_ticking_while_a_million_line_run_loads(qtbot, tmp_path, monkeypatch,
                                                                 big_run):
    path, n = big_run
    win = make_window(qtbot, tmp_path, monkeypatch)
    win.show()
    qtbot.waitExposed(win)
    # the window's own start (the topic explorer's worked example) is not the load's work
    qtbot.waitUntil(lambda: not win.jobs.is_busy(), timeout=60000)
    results = []
    win.loaded.connect(results.append)
    work = gui_turns(qtbot, win, lambda: win.open_items([(str(path), "run")]),
                     lambda: bool(results))
    assert results[0].errors == ()
    assert len(win.state.workspace.runs["big.run"].run) == n == 1_000_000
    assert len(work) > 5
    assert work.max() < GUI_WORK_LIMIT, over_budget(work)


def open_track(qtbot, tmp_path, monkeypatch, track):
    """The window (shown, Measures in front) opening ``track``; the GUI thread's turns."""
    qrels, runs = track
    win = make_window(qtbot, tmp_path, monkeypatch)
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    win.raise_panel("measures")
    qtbot.waitUntil(lambda: not win.jobs.is_busy(), timeout=60000)
    names = {p.stem for p in runs}         # (team07b.xz is run team07b)
    ended = []
    win.loaded.connect(ended.append)       # the load's end (its steps) has run

    def done() -> bool:                    # (and the panels' paced answers given)
        return bool(ended) and names <= set(win.state.evaluations(visible_only=False)) \
            and win.panels["measures"].table.model().rowCount() == len(runs) \
            and not pacing()

    work = gui_turns(qtbot, win, lambda: win.open_items(
        [(str(qrels), "qrels"), *((str(p), "run") for p in runs)]), done, timeout=180000)
    return win, work


def test_no_turn_goes_over_50ms_while_a_compressed_track_loads(qtbot, tmp_path, monkeypatch,
                                                               track):
    """Issue 28's case: 150 xz-compressed runs of 50 teams, shown as they are evaluated,
    their groups guessed when the load ends; the window shown at 1280x800."""
    win, work = open_track(qtbot, tmp_path, monkeypatch, track)
    assert len(win.state.workspace.runs) == 150
    assert win.state.workspace.runs["team07b"].group == "team07"  # the load's end ran
    assert len(work) > 20
    assert work.max() < GUI_WORK_LIMIT, over_budget(work)


def test_the_measure_catches_a_turn_that_works_too_long(qtbot, tmp_path, monkeypatch, track):
    """The same load with the groups' guess made to take 80 ms of the GUI thread's CPU:
    the turns measured show it (the test above can fail)."""
    from yardstick.session.model import Session

    real = Session.settle_groups

    def slow(self, *args, **kwargs):
        end = time.thread_time() + 0.080
        while time.thread_time() < end:
            pass
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Session, "settle_groups", slow)
    qrels, runs = track
    _, work = open_track(qtbot, tmp_path, monkeypatch, (qrels, runs[:6]))
    assert work.max() >= 0.080, over_budget(work)


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
