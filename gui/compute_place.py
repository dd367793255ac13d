"""Where the window's heavy analyses run: this machine, or Dask (a preference).

The preference (Edit ▸ Evaluation options, kept by
:func:`yardstick.gui.settings.compute_spec`) is a ``--dask`` value
(:func:`yardstick.common.executor.connect`): ``""`` for this machine, ``local`` /
``local:N`` for a ``LocalCluster`` that Yardstick starts on first use and closes on exit,
or a scheduler address (``tcp://HOST:PORT``).  :class:`ComputePlace` connects lazily, on a
job's worker thread and within :data:`CONNECT_TIMEOUT` seconds, so the window never waits
for a scheduler; a failed connection stops the job with :class:`ComputeUnavailable`
(nothing is computed here instead: the user asked for the cluster, and a B = 10,000 study
may not fit this machine) and the next Run tries again.

Each job sees the shared executor through a :class:`JobExecutor`, which records the job's
futures so that cancelling the job cancels them (workers freed;
:meth:`yardstick.common.executor.DaskExecutor.cancel`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable
from typing import Any

from yardstick.common.executor import Executor

#: seconds to reach a scheduler before the job stops with a message
CONNECT_TIMEOUT = 10
_LOCAL = re.compile(r"local(:[1-9]\d*)?")


class ComputeUnavailable(RuntimeError):
    """The chosen Dask scheduler cannot be used; ``message`` says why and what to do."""

    @property
    def message(self) -> str:
        return str(self)


def check_spec(spec: str) -> str:
    """The preference ``spec`` tidied (``""`` for this machine); ValueError when it is neither
    ``local``, ``local:N`` nor a scheduler address (``[tcp://]HOST:PORT``): the rule of the
    command line's ``--dask`` (:func:`yardstick.common.dask_address.why_not`)."""
    from yardstick.common.dask_address import why_not

    spec = (spec or "").strip()
    if spec.startswith("local-threads"):                 # (the tests' in-process cluster)
        raise ValueError(f"{spec!r}: expected local, local:N or a scheduler address")
    problem = why_not(spec) if spec else None           # local:1000: 1000 processes here
    if problem and (_LOCAL.fullmatch(spec) or not re.fullmatch(r"[a-z]+://\S+", spec)):
        raise ValueError(problem)       # (any other scheme://…: Dask's to judge, inproc too)
    return spec


def describe(spec: str, workers: int | None = None) -> str:
    """Where ``spec`` runs the work, in words ("this machine", "the Dask scheduler at …")."""
    n = f" ({workers} worker{'s' * (workers != 1)})" if workers else ""
    if not spec:
        return "this machine"
    if _LOCAL.fullmatch(spec):
        count = spec.partition(":")[2] or "one a core"
        return f"a local Dask cluster ({count} workers, started by Yardstick)"
    return f"the Dask scheduler at {spec}{n}"


class ComputePlace:
    """One preference's executor: None for this machine, else a Dask executor made on first
    use (:meth:`executor`, called on a worker thread) and closed by :meth:`close`."""

    def __init__(self, spec: str = ""):
        self.spec = check_spec(spec)
        self._executor = None
        self._lock = threading.Lock()

    @property
    def elsewhere(self) -> bool:
        return bool(self.spec)

    def describe(self) -> str:
        ex = self._executor
        return describe(self.spec, ex.workers if ex is not None else None)

    def executor(self) -> Executor | None:
        """The executor (connecting the first time, within :data:`CONNECT_TIMEOUT` s);
        None for this machine.  Raises :class:`ComputeUnavailable`."""
        if not self.spec:
            return None
        with self._lock:
            ex = self._executor
            # a client that lost its scheduler says "connecting" while it tries again (10 s)
            # and then closes: a job sent then failed with "CommClosedError: ConnectionPool
            # closing"; connect afresh instead (or say the scheduler cannot be reached)
            if ex is None or getattr(ex.client, "status", "running") != "running":
                if ex is not None:
                    _close_quietly(ex)
                self._executor = ex = self._connect()
            return ex

    def _connect(self) -> Executor:
        try:
            from distributed import Client
        except ImportError as e:
            raise ComputeUnavailable(
                "Computing on Dask needs dask and distributed (pip install "
                "'yardstick-ir[dask]'). Nothing was computed: install them, or choose "
                "'Compute on this machine' in Edit ▸ Evaluation options.") from e
        from yardstick.common.executor import DaskExecutor, connect

        try:
            if _LOCAL.fullmatch(self.spec):
                return connect(self.spec)
            # the default client: the executor's as_completed finds its loop through it
            return DaskExecutor(Client(self.spec, timeout=CONNECT_TIMEOUT))
        except Exception as e:  # noqa: BLE001 - also a stranger's reply (a MemoryError)
            raise ComputeUnavailable(
                f"Could not reach the Dask scheduler at {self.spec} within {CONNECT_TIMEOUT} s "
                f"({type(e).__name__}: {e}). Nothing was computed: start the scheduler or "
                "choose 'Compute on this machine' in Edit ▸ Evaluation options, then press Run "
                "again.") from e

    def close(self) -> None:
        """Close what this place started (a LocalCluster) and disconnect from a scheduler."""
        with self._lock:
            ex, self._executor = self._executor, None
        if ex is None:
            return
        try:
            ex.close()                     # a LocalCluster it started: client and cluster
            ex.client.close()              # a remote scheduler: disconnect only
        except Exception:  # noqa: BLE001 - closing on exit must not raise
            pass


def lost_link(spec: str, exc: BaseException) -> BaseException:
    """``exc`` said in words when it is the link to the scheduler at ``spec`` that failed
    during a job (:func:`yardstick.common.dask_address.lost_scheduler`); any other error
    unchanged."""
    from yardstick.common.dask_address import lost_scheduler

    if lost_scheduler(spec, exc) is None:
        return exc
    return ComputeUnavailable(
        f"Lost the Dask scheduler at {spec} during the job ({type(exc).__name__}). Nothing "
        "more was computed: start the scheduler again, or choose 'Compute on this machine' "
        "in Edit ▸ Evaluation options, then press Run again.")


def _close_quietly(ex: Executor) -> None:
    try:
        ex.client.close(timeout=2)
    except Exception:  # noqa: BLE001 - a client that lost its scheduler may not close cleanly
        pass


class JobExecutor(Executor):
    """One job's view of the shared executor: its futures are recorded, and
    :meth:`cancel_all` (the job cancelled) cancels those not finished."""

    local = False

    def __init__(self, inner: Executor):
        super().__init__()
        self.inner = inner
        self.workers = inner.workers
        self.stats = inner.stats
        self.futures: list[Any] = []
        self.cancelled = False
        self._lock = threading.Lock()

    def scatter(self, value: Any, broadcast: bool = False) -> Any:
        return self.inner.scatter(value, broadcast)

    def submit(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        future = self.inner.submit(fn, *args, **kwargs)
        with self._lock:
            self.futures.append(future)
            late = self.cancelled
        if late:                                   # submitted while the job was cancelled
            self.inner.cancel([future])
        return future

    def results(self, futures: Iterable[Any]):
        return self.inner.results(futures)

    def cancel(self, futures: Iterable[Any]) -> None:
        self.inner.cancel(futures)

    def cancel_all(self) -> None:
        """Cancel every future of the job that has not finished."""
        with self._lock:
            self.cancelled = True
            futures = list(self.futures)
        self.inner.cancel(futures)
