"""Where heavy work runs: in this process (the default) or on a Dask cluster.

An :class:`Executor` runs *tasks* — a module-level function and its arguments,
each worth at least about 100 ms — and hands their results back as they finish.
Two implementations:

* :class:`InProcess` runs each task when it is asked for, here, in order (or, with
  ``threads=N``, on N threads, results still in submission order); it imports nothing
  of Dask.
* :class:`DaskExecutor` wraps a ``distributed.Client`` (Dask's distributed
  scheduler: a ``LocalCluster`` or a running scheduler).  Data every task reads
  (score matrices, judged runs, qrels) goes to the workers once with
  :meth:`Executor.scatter`, and tasks name it; only the small per-task
  arguments travel with each task.

Random streams never depend on where or in which order tasks run: a task draws
from its own ``numpy.random.default_rng`` seeded by the caller (one seed per
(analysis, measure, topic set), or children of
``numpy.random.SeedSequence.spawn``: :func:`task_seeds`), so results are
bit-identical for any number of workers and identical to in-process.

:func:`connect` turns the CLI's ``--dask`` value (``local``, ``local:N``,
``tcp://HOST:PORT``) into an executor; :func:`executor_for` accepts what the
API's ``client=`` takes (None, a ``distributed.Client`` or an executor).
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from yardstick.common.dask_cancel import stoppable
from yardstick.common.data_size import data_size
from yardstick.common.memory import release_freed_memory
from yardstick.common.progress import stop_event
from yardstick.common.shared_memory import shared

__all__ = ["Executor", "InProcess", "DaskExecutor", "TaskStats", "connect", "executor_for",
           "task_seeds", "IN_PROCESS"]


@dataclass
class TaskStats:
    """What an executor has done: tasks submitted, bytes scattered to workers and bytes of
    task arguments sent with tasks (data bytes, about their pickled sizes); of the
    scattered bytes, those a local cluster's workers mapped from shared memory (written
    once, sent to none)."""

    tasks: int = 0
    scattered_bytes: int = 0
    argument_bytes: int = 0
    shared_bytes: int = 0


class Executor:
    """Interface: :meth:`scatter`, :meth:`submit`, :meth:`results` (as completed),
    :meth:`cancel`, :meth:`close`; ``workers`` and ``stats``."""

    workers: int = 1
    #: True when tasks run in this process (callers may then stream fine-grained progress)
    local: bool = True

    def __init__(self) -> None:
        self.stats = TaskStats()

    def scatter(self, value: Any, broadcast: bool = False) -> Any:
        """A handle to ``value`` that tasks can take as an argument (sent once; to every
        worker at once with ``broadcast``, for data every task reads)."""
        raise NotImplementedError

    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        """Start ``fn(*args, **kwargs)``; -> a future (see :meth:`results`)."""
        raise NotImplementedError

    def results(self, futures: Iterable[Any]) -> Iterator[tuple[int, Any, BaseException | None]]:
        """``(position, result, error)`` of every future, in the order they finish."""
        raise NotImplementedError

    def cancel(self, futures: Iterable[Any]) -> None:
        """Cancel futures that have not finished (workers freed)."""

    def close(self) -> None:
        """Release what the executor started (a LocalCluster it made)."""

    def map(self, fn: Callable, items: Iterable[tuple], **common: Any) -> list[Any]:
        """``[fn(*item, **common) for item in items]`` over the executor, in item order;
        the first error is raised after cancelling the rest."""
        futures = [self.submit(fn, *item, **common) for item in items]
        out: list[Any] = [None] * len(futures)
        try:
            for pos, value, error in self.results(futures):
                if error is not None:
                    raise error
                out[pos] = value
        finally:
            self.cancel(futures)
        return out

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Deferred:
    """In-process future: the call, run when its result is first asked for."""

    __slots__ = ("fn", "args", "kwargs")

    def __init__(self, fn: Callable, args: tuple, kwargs: dict):
        self.fn, self.args, self.kwargs = fn, args, kwargs


class _Threaded:
    """In-process future on a thread: a ``concurrent.futures.Future`` and the event that
    asks its task to stop at its next progress point (``run_sync`` checks it)."""

    __slots__ = ("future", "stop")

    def __init__(self, future: Any, stop: threading.Event):
        self.future, self.stop = future, stop


def _on_thread(stop: threading.Event, fn: Callable, args: tuple, kwargs: dict) -> Any:
    # a task may take another's future as an argument, as on Dask (a simulated level
    # reads its strategy's setup): its result, once there (submitted earlier: running)
    args = tuple(a.future.result() if isinstance(a, _Threaded) else a for a in args)
    try:
        with stop_event(stop):
            return fn(*args, **kwargs)
    finally:
        # what the task freed goes back to the system: two tasks' transients freed in
        # two threads' arenas otherwise stay resident (pool on 110 x 250: +300 MB RSS)
        release_freed_memory()


class InProcess(Executor):
    """Runs every task here, in this process.

    ``threads=1`` (the default): one after the other, each when its result is asked for.
    More (``None``: one per core, ``os.cpu_count()``): tasks run on a pool of that many
    threads; their numpy passes run without the interpreter lock (``numpy.bincount``
    included, numpy 2.x), so the stability analyses of two measures run side by side:
    ``run_stability`` without an executor, ``yardstick stability`` and the window's
    Stability job use one thread per core (150 runs × 50 topics, 2 cores, load 1.4–2.3:
    7.6–8.7 s → 5.4–6.8 s for every analysis).  Results are handed back in submission
    order either way, and every task seeds its own generator, so the numbers are the same
    for any ``threads``.  Cancelling sets each task's stop event, which its
    :func:`~yardstick.common.progress.run_sync` checks at the task's next progress point.
    """

    def __init__(self, threads: int | None = 1):
        super().__init__()
        self.threads = max(1, int(threads if threads is not None else os.cpu_count() or 1))
        self._pool: ThreadPoolExecutor | None = None

    @property
    def parallel(self) -> bool:
        """Whether tasks run on threads (so callers should submit them together)."""
        return self.threads > 1

    def scatter(self, value: Any, broadcast: bool = False) -> Any:
        return value

    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> _Deferred | _Threaded:
        self.stats.tasks += 1
        if self.threads == 1:
            return _Deferred(fn, args, kwargs)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="yardstick")
        stop = threading.Event()
        return _Threaded(self._pool.submit(_on_thread, stop, fn, args, kwargs), stop)

    def results(self, futures: Iterable[Any]):
        for pos, f in enumerate(futures):
            try:
                if isinstance(f, _Threaded):
                    yield pos, f.future.result(), None
                else:
                    yield pos, f.fn(*f.args, **f.kwargs), None
            except Exception as e:  # noqa: BLE001 - handed to the caller like a remote error
                yield pos, None, e

    def cancel(self, futures: Iterable[Any]) -> None:
        for f in futures:
            if isinstance(f, _Threaded) and not f.future.done():
                f.stop.set()
                f.future.cancel()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


#: A sequential in-process executor (stateless apart from its counters).
IN_PROCESS = InProcess(threads=1)


class DaskExecutor(Executor):
    """Tasks on a ``distributed.Client`` (a LocalCluster's or a remote scheduler's)."""

    local = False

    def __init__(self, client: Any, owns_cluster: bool = False, same_machine: bool = False):
        super().__init__()
        self.client = client
        self._owns = owns_cluster
        #: the workers are processes of this machine (a LocalCluster started here): data
        #: for every worker goes through shared memory (yardstick.common.shared_memory)
        self.same_machine = same_machine
        self.workers = max(1, len(client.scheduler_info().get("workers", {})))

    def scatter(self, value: Any, broadcast: bool = False) -> Any:
        size = data_size(value)
        self.stats.scattered_bytes += size
        # hash=False: two equal matrices are still two pieces of data with their own keys;
        # in a list, so that a list (a batch of runs) is one piece of data, one handle.
        # direct: straight to the workers when their cluster was started here (they are
        # then reachable from this process), not through the scheduler, which took 0.7-1.6 s
        # more for the pool's 322 MB on 110 x 250 (local:1: 0.74-1.63 -> 0.19-0.31 s;
        # local:2: 1.1-4.0 -> 0.7-1.1 s); a remote scheduler's workers may be out of reach
        direct = getattr(self.client, "cluster", None) is not None
        workers = list(self.client.scheduler_info().get("workers", {})) if direct else []
        if broadcast and self.same_machine and workers:
            held = shared(value)
            if held is not None:
                self.stats.shared_bytes += size
                try:       # (each worker has mapped the file once its copy is sent)
                    return self._to_each(held.value, workers)
                finally:
                    held.remove()
        if broadcast and len(workers) > 1:
            return self._to_each(value, workers)
        return self.client.scatter([value], hash=False, broadcast=broadcast,
                                   direct=direct)[0]

    def _to_each(self, value: Any, workers: list[str]) -> Any:
        """``value`` sent from here to every worker at once, under one key (the scheduler
        told of each copy): Dask's own broadcast sends it to one worker, which then copies
        it to the others while no task can start (local:2, the pool's 322 MB on 110 x 250:
        2.0 s -> 0.5-1.1 s before the first task; 0.15-0.2 s through shared memory)."""
        key = f"shared-{uuid.uuid4()}"
        if len(workers) == 1:
            return self.client.scatter({key: value}, workers=workers, hash=False,
                                       direct=True)[key]
        with ThreadPoolExecutor(len(workers)) as pool:
            sent = list(pool.map(lambda w: self.client.scatter(
                {key: value}, workers=[w], hash=False, direct=True)[key], workers))
        return sent[0]      # (the others name the same key: one future is enough)

    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        self.stats.tasks += 1
        self.stats.argument_bytes += data_size((args, {k: v for k, v in kwargs.items()
                                                   if not _is_future(v)}), skip=_is_future)
        # stoppable: cancelling stops a running task too (yardstick.common.dask_cancel).
        # fifo_timeout=0: tasks start in the order submitted, as in-process (the callers
        # submit the longest first); Dask's default gives every task submitted within
        # 100 ms the same priority, so that a 1 s task could be left to the end (the pool
        # on 110 x 250, local:2: one worker finished 0.65-0.8 s after the other)
        return self.client.submit(stoppable, fn, *args, pure=False, **kwargs,
                                  key=f"{getattr(fn, '__name__', 'task')}-{uuid.uuid4()}",
                                  fifo_timeout=0)

    def results(self, futures: Iterable[Any]):
        from distributed import as_completed

        futures = list(futures)
        where = {f.key: i for i, f in enumerate(futures)}
        for f in as_completed(futures):
            if f.status == "error":
                yield where[f.key], None, f.exception()
            else:
                yield where[f.key], f.result(), None

    def cancel(self, futures: Iterable[Any]) -> None:
        pending = [f for f in futures if not f.done()]
        if pending:
            self.client.cancel(pending)

    def close(self) -> None:
        if self._owns:
            cluster = self.client.cluster
            self.client.close()
            if cluster is not None:
                cluster.close()


def _is_future(value: Any) -> bool:
    return type(value).__name__ == "Future"


def connect(spec: str | None, threads: int | None = 1) -> Executor:
    """The executor for a ``--dask`` value.

    ``None`` or ``""``: in-process.  ``local``: a ``LocalCluster`` with one single-threaded
    worker process per core.  ``local:N``: N such workers.  ``local-threads:N``: N worker
    threads in this process (tests).  ``tcp://HOST:PORT`` (or any scheduler address):
    a running Dask scheduler.  ``threads``: the in-process executor's threads (default 1:
    tasks one after the other; None: one per core).
    """
    if not spec:
        return InProcess(threads)
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise RuntimeError("--dask needs Dask: pip install 'yardstick-ir[dask]'") from e
    kind, _, count = spec.partition(":")
    if kind in ("local", "local-threads"):
        if count and not count.isdigit():
            raise ValueError(f"--dask {spec}: expected local or local:N (N workers)")
        n = int(count) if count else (os.cpu_count() or 1)
        if n < 1:
            raise ValueError("--dask local:N needs N >= 1")
        threads = kind == "local-threads"
        import dask

        # Dask's default MALLOC_TRIM_THRESHOLD_=65536 for worker processes turns off glibc's
        # adaptive mmap threshold: every large numpy temporary is then a fresh mmap (page
        # faults), the pool's and stability's kernels 2-3x slower than here (helper poolspeed)
        # Dask's statistical profiler samples every worker's stack each 10 ms (for its
        # dashboard), taking the interpreter lock from the task: with two workers on two
        # cores their tasks took 25-30% longer in all than one worker's (the pool on 110 x
        # 250: 21.5 s of task time against 16.5), 12% without it.  Its event-loop checks
        # (every 20 ms), memory checks (100 ms) and system monitor (500 ms), in every worker
        # and in this process's scheduler, cost this process 0.6-0.9 s of CPU per pool
        # report on 110 x 250 that the workers' tasks then lacked: a second apart here
        with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_":
                              None, "distributed.worker.profile.enabled": False,
                              "distributed.admin.tick.interval": "1s",
                              "distributed.worker.memory.monitor-interval": "1s",
                              "distributed.admin.system-monitor.interval": "1s"}):
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=not threads,
                                   dashboard_address=":0", silence_logs=40)
        return DaskExecutor(Client(cluster), owns_cluster=True, same_machine=not threads)
    return DaskExecutor(Client(spec), owns_cluster=False)


def executor_for(client: Any = None) -> Executor:
    """An executor for the API's ``client=``: None (in-process), an :class:`Executor`, a
    ``distributed.Client``, or a ``--dask`` string."""
    if client is None:
        return InProcess()
    if isinstance(client, Executor):
        return client
    if isinstance(client, str):
        return connect(client)
    if hasattr(client, "submit") and hasattr(client, "scatter"):
        return DaskExecutor(client)
    raise TypeError(f"client must be None, a distributed.Client or an Executor, not "
                    f"{type(client).__name__}")


def task_seeds(seed: int, n: int) -> list[int]:
    """``n`` independent 63-bit seeds from ``numpy.random.SeedSequence(seed).spawn(n)``:
    one per task, whatever runs it (O'Neill's PCG seeding; numpy's parallel-streams
    recipe)."""
    return [int(s.generate_state(1, np.uint64)[0] >> np.uint64(1))
            for s in np.random.SeedSequence(seed).spawn(n)]
