"""yardstick.gui.jobs.JobRunner: results, progress, cancellation and stale results (signals, no
sleeps)."""

from __future__ import annotations

import threading

import pytest

from yardstick.common.progress import Progress
from yardstick.gui.jobs import JobRunner


@pytest.fixture
def runner(qtbot):
    r = JobRunner()
    yield r
    r.shutdown()


def counting(n):
    total = 0
    for i in range(n):
        total += i
        yield Progress(i + 1, n, f"step {i + 1}")
    return total


def test_result_and_progress_come_back_on_the_gui_thread(qtbot, runner):
    got = []
    main = threading.get_ident()
    with qtbot.waitSignal(runner.finished, timeout=10000) as blk:
        runner.submit("sum", lambda: counting(100),
                      on_result=lambda v: got.append((v, threading.get_ident())))
    assert blk.args == ["sum"]
    assert got == [(sum(range(100)), main)]  # 0 + 1 + ... + 99 = 4950
    assert not runner.is_busy()


def test_plain_function_result(qtbot, runner):
    got = []
    with qtbot.waitSignal(runner.finished, timeout=10000):
        runner.submit("f", lambda: 6 * 7, on_result=got.append)
    assert got == [42]


def test_cancel_closes_the_generator_and_drops_the_result(qtbot, runner):
    closed = threading.Event()
    results = []

    def endless():
        try:
            i = 0
            while True:
                i += 1
                yield Progress(i, 0, "working")
        finally:
            closed.set()

    with qtbot.waitSignal(runner.progress, timeout=10000):
        runner.submit("long", endless, on_result=results.append)
    assert runner.is_running("long")
    with qtbot.waitSignal(runner.cancelled, timeout=10000) as blk:
        assert runner.cancel("long")
    assert blk.args == ["long"]
    assert runner.wait_for_done(10000)
    assert closed.is_set()  # GeneratorExit reached the generator's finally
    from PySide6.QtCore import QCoreApplication

    with qtbot.assertNotEmitted(runner.finished):
        QCoreApplication.processEvents()  # deliver anything the worker still queued
    assert results == [] and not runner.is_busy()


def test_newer_job_with_same_key_makes_the_older_stale(qtbot, runner):
    release = threading.Event()
    results = []

    def slow(value):
        yield Progress(0, 1, "waiting")
        release.wait(10)
        return value

    runner.submit("panel", lambda: slow("old"), on_result=results.append)
    with qtbot.waitSignal(runner.finished, timeout=10000):
        runner.submit("panel", lambda: counting(3), on_result=results.append)
        release.set()
    assert runner.wait_for_done(10000)
    qtbot.waitUntil(lambda: not runner._running, timeout=5000)
    assert results == [3]  # 0 + 1 + 2; the stale "old" never arrives


def test_error_goes_to_on_error_with_traceback(qtbot, runner):
    errors = []

    def bad():
        yield Progress(0, 1)
        raise ZeroDivisionError("division by zero in core")

    with qtbot.waitSignal(runner.failed, timeout=10000) as blk:
        runner.submit("bad", bad, on_error=errors.append)
    assert blk.args[0] == "bad" and "division by zero" in blk.args[1]
    assert isinstance(errors[0].exc, ZeroDivisionError)
    assert "Traceback" in errors[0].details and "bad" in errors[0].details


def test_different_keys_run_side_by_side(qtbot, runner):
    got = {}
    with qtbot.waitSignals([runner.finished, runner.finished], timeout=10000):
        runner.submit("a", lambda: counting(10), on_result=lambda v: got.setdefault("a", v))
        runner.submit("b", lambda: counting(20), on_result=lambda v: got.setdefault("b", v))
    assert got == {"a": 45, "b": 190}
