"""Cancelling a Dask future stops its running task (issue 30: "futures cancelled, workers
freed").  ``Client.cancel`` alone made the scheduler forget the future while the worker's
thread ran the task to its end; a task submitted through the executor now stops at its
next progress point (:mod:`yardstick.common.dask_cancel`)."""

from __future__ import annotations

import time

import pytest

from yardstick.common.executor import DaskExecutor
from yardstick.common.progress import Progress, run_sync

distributed = pytest.importorskip("distributed")

_steps: list[int] = []


def _long(n: int) -> int:
    def job():
        for i in range(n):
            _steps.append(i)
            time.sleep(0.01)
            yield Progress(i, n)
        return n
    return run_sync(job())


def _executing(client) -> int:
    return sum(client.run(lambda dask_worker: len(dask_worker.state.executing)).values())


def test_a_cancelled_running_task_stops_and_frees_its_worker():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0", silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        ex = DaskExecutor(client)
        _steps.clear()
        future = ex.submit(_long, 3000)                # 30 s if left alone
        deadline = time.monotonic() + 20
        while len(_steps) < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _executing(client) == 1
        ex.cancel([future])
        deadline = time.monotonic() + 10
        while _executing(client) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _executing(client) == 0                 # the worker's thread is free
        ran = len(_steps)
        time.sleep(0.5)
        assert len(_steps) == ran < 3000               # and the task does not go on
        # an uncancelled task still runs to its end, with its result
        assert ex.map(_long, [(5,)]) == [5]
