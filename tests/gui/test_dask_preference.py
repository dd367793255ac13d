"""The window's compute preference (issue 30): Stability and Pool jobs run on the Dask
scheduler the preference names, with the same numbers as in-process; cancelling a job
cancels its futures; an unreachable scheduler stops the job with a message (pytest-qt,
offscreen).  One ``LocalCluster(processes=False, n_workers=1)`` serves the module; the
tests that need no cluster start none."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("pytestqt")
distributed = pytest.importorskip("distributed")

from test_pool_panel import pool_panel  # noqa: E402
from test_stability_panel import stability_panel  # noqa: E402

from yardstick.common.progress import Progress  # noqa: E402


@pytest.fixture(autouse=True)
def _settings_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "settings"))


@pytest.fixture(scope="module")
def cluster():
    c = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                 dashboard_address=":0", silence_logs=40)
    yield c
    c.close()


def _finish(qtbot, jobs, panel, key):
    with qtbot.waitSignal(jobs.finished, timeout=120000, check_params_cb=lambda k: k == key):
        assert panel.run() == key


def _tables(panel) -> dict:
    out = {}
    for i in range(panel.table_choice.count()):
        panel.table_choice.setCurrentIndex(i)
        out[panel.table_choice.itemData(i)] = panel.table.frame()
    return out


@pytest.mark.parametrize("analysis", ["error-rate", "swap"])
def test_stability_on_the_preferred_scheduler_gives_the_in_process_numbers(qtbot, cluster,
                                                                           analysis):
    from yardstick.gui import settings as st
    from yardstick.gui.jobs import JobRunner

    here = JobRunner()
    panel = stability_panel(qtbot, here)
    assert not here.compute.elsewhere and panel.where.text() == "Runs on this machine."
    panel.configure(analysis=analysis, measures=["map", "P_10"], seed=5, samples=60)
    _finish(qtbot, here, panel, "stability")
    expected = _tables(panel)
    here.shutdown()

    st.set_compute_spec(cluster.scheduler_address)          # Edit ▸ Evaluation options
    there = JobRunner()
    panel = stability_panel(qtbot, there)
    assert there.compute.spec == cluster.scheduler_address
    panel.configure(analysis=analysis, measures=["map", "P_10"], seed=5, samples=60)
    _finish(qtbot, there, panel, "stability")
    ex = there.compute._executor
    assert ex is not None and ex.stats.tasks >= 2           # one task per measure at least
    assert f"the Dask scheduler at {cluster.scheduler_address} (1 worker)" in \
        panel.where.text()
    shown = _tables(panel)
    assert list(shown) == list(expected)
    for name, frame in expected.items():
        assert shown[name].equals(frame), name
    there.shutdown()                                         # disconnects; the cluster stays
    assert cluster.scheduler_info["workers"]


def test_pool_on_the_preferred_scheduler_gives_the_in_process_numbers(qtbot, cluster):
    from yardstick.gui.jobs import JobRunner

    results = []
    for spec in ("", cluster.scheduler_address):
        jobs = JobRunner()
        jobs.use_compute(spec)
        w = pool_panel(qtbot, jobs)
        _finish(qtbot, jobs, w, "pool")
        if spec:
            assert jobs.compute._executor.stats.tasks >= 3     # uniques x2, simulations
        results.append(_tables(w))
        jobs.shutdown()
    here, there = results
    assert list(here) == list(there) and "uniques_group" in here
    for name, frame in here.items():
        assert there[name].equals(frame), name


_release = threading.Event()


def _blocked(i: int) -> int:
    _release.wait(60)
    return i


def test_cancelling_a_job_cancels_its_futures(qtbot, cluster):
    from yardstick.gui.jobs import JobRunner

    jobs = JobRunner()
    jobs.use_compute(cluster.scheduler_address)
    sent: list = []

    def job(executor):
        futures = [executor.submit(_blocked, i) for i in range(4)]
        sent.extend(futures)
        yield Progress(0, 4, "sent")
        for done, _ in enumerate(executor.results(futures), 1):
            yield Progress(done, 4, "")
        return "finished"

    got = []
    _release.clear()
    try:
        with qtbot.waitSignal(jobs.progress, timeout=30000):
            jobs.submit("dask-job", job, on_result=got.append, elsewhere=True)
        assert len(sent) == 4 and not any(f.done() for f in sent)
        with qtbot.waitSignal(jobs.cancelled, timeout=5000):
            assert jobs.cancel("dask-job")
        # the one worker thread is busy with the first task; every future is cancelled
        qtbot.waitUntil(lambda: all(f.status == "cancelled" for f in sent), timeout=10000)
        # and the scheduler forgot them: the worker is free for other work
        qtbot.waitUntil(lambda: not any(f.key in cluster.scheduler.tasks for f in sent),
                        timeout=10000)
    finally:
        _release.set()
    assert jobs.wait_for_done(10000) and got == []
    jobs.shutdown()


def _scatter_and_sum(executor):
    data = executor.scatter(list(range(1000)))
    futures = [executor.submit(sum, data) for _ in range(2)]
    yield Progress(0, 2, "sent")
    return [value for _, value, _ in executor.results(futures)]


def test_a_finished_job_leaves_nothing_on_the_cluster(qtbot, cluster):
    """The job's results and scattered data are released once it ends (the job's
    executor kept its futures, so each Stability run left its results on the workers,
    and a cancelled one its score matrices)."""
    import gc

    from yardstick.gui.jobs import JobRunner

    jobs = JobRunner()
    jobs.use_compute(cluster.scheduler_address)
    got = []
    with qtbot.waitSignal(jobs.finished, timeout=30000):
        jobs.submit("sums", _scatter_and_sum, on_result=got.append, elsewhere=True)
    assert got == [[499500, 499500]]
    assert jobs.wait_for_done(10000)
    gc.collect()
    qtbot.waitUntil(lambda: not cluster.scheduler.tasks, timeout=10000)
    jobs.shutdown()


def test_an_unreachable_scheduler_stops_the_job_with_a_message(qtbot, monkeypatch):
    from yardstick.gui import compute_place
    from yardstick.gui.jobs import JobRunner

    monkeypatch.setattr(compute_place, "CONNECT_TIMEOUT", 1)
    jobs = JobRunner()
    jobs.use_compute("tcp://127.0.0.1:9")                   # discard port: nothing listens
    panel = stability_panel(qtbot, jobs)
    panel.configure(analysis="error-rate", samples=20)
    with qtbot.waitSignal(jobs.failed, timeout=30000):
        panel.run()
    text = panel.status.text()
    assert "Could not reach the Dask scheduler at tcp://127.0.0.1:9 within 1 s" in text
    assert "Nothing was computed" in text and panel.run_button.isEnabled()
    assert panel.table_choice.count() == 0
    jobs.shutdown()


def test_the_options_dialog_keeps_the_preference(qtbot):
    from yardstick.common.options import EvalOptions
    from yardstick.gui import settings as st
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.options_dialog import OptionsDialog

    jobs = JobRunner()
    changed = []
    jobs.compute_changed.connect(changed.append)
    dlg = OptionsDialog(EvalOptions(), jobs=jobs)
    qtbot.addWidget(dlg)
    assert dlg.here.isChecked() and not dlg.address.isEnabled()
    dlg.dask.setChecked(True)
    dlg.address.setText("host")                               # no port: refused
    dlg.accept()
    assert dlg.result() == 0 and "tcp://HOST:PORT" in dlg.error.text()
    dlg.address.setText(" local:2 ")
    dlg.accept()
    assert dlg.result() == 1
    assert st.compute_spec() == "local:2" and jobs.compute.spec == "local:2"
    assert changed == ["a local Dask cluster (2 workers, started by Yardstick)"]
    assert jobs.compute._executor is None                     # started on first use only
    again = OptionsDialog(EvalOptions())
    qtbot.addWidget(again)
    assert again.dask.isChecked() and again.address.text() == "local:2"
    again.here.setChecked(True)
    again.accept()
    assert st.compute_spec() == ""
    jobs.shutdown()


def test_check_spec():
    from yardstick.gui.compute_place import check_spec, describe

    assert check_spec("") == "" and check_spec(" tcp://h:1 ") == "tcp://h:1"
    assert check_spec("local") == "local" and check_spec("local:3") == "local:3"
    # the command line's --dask rule: a scheduler address may leave out tcp://
    assert check_spec("h:8786") == "h:8786" and check_spec("[::1]:8786") == "[::1]:8786"
    for bad in ("local:0", "local:x", "tcp://", "h", "h:0", "local:100000",
                "local-threads:2"):
        with pytest.raises(ValueError):
            check_spec(bad)
    assert describe("") == "this machine"
    assert describe("tcp://h:1", 4) == "the Dask scheduler at tcp://h:1 (4 workers)"
    assert describe("tcp://h:1", 1) == "the Dask scheduler at tcp://h:1 (1 worker)"


def test_a_client_that_lost_its_scheduler_is_replaced(monkeypatch):
    """After the scheduler went away the client says "connecting" while it retries; the
    next job connected through it failed with "CommClosedError: ConnectionPool closing"."""
    from types import SimpleNamespace

    from yardstick.gui.compute_place import ComputePlace

    place = ComputePlace("tcp://h:1")
    closed = []
    lost = SimpleNamespace(client=SimpleNamespace(status="connecting",
                                                  close=lambda timeout: closed.append(1)))
    fresh = SimpleNamespace(client=SimpleNamespace(status="running"))
    place._executor = lost
    monkeypatch.setattr(place, "_connect", lambda: fresh)
    assert place.executor() is fresh and closed == [1]
    assert place.executor() is fresh


def _link_breaks(executor):
    from distributed.comm.core import CommClosedError

    yield Progress(0, 1, "sent")
    raise CommClosedError("in <TCP (closed) ConnectionPool.scatter>: Stream is closed")


def _own_error(executor):
    yield Progress(0, 1, "sent")
    raise ValueError("the job's own error")


def test_losing_the_scheduler_during_a_job_is_said_in_words(qtbot, cluster):
    from yardstick.gui.jobs import JobRunner

    jobs = JobRunner()
    jobs.use_compute(cluster.scheduler_address)
    for job, says in ((_link_breaks, f"Lost the Dask scheduler at {cluster.scheduler_address} "
                                     "during the job (CommClosedError). Nothing more was "
                                     "computed"),
                      (_own_error, "the job's own error")):
        with qtbot.waitSignal(jobs.failed, timeout=30000) as failed:
            jobs.submit("link", job, on_error=lambda e: None, elsewhere=True)
        assert says in failed.args[1]
        assert jobs.wait_for_done(10000)
    jobs.shutdown()
