"""Run core progress generators on a thread pool, one current job per key.

The pattern is superqt's generator worker (``superqt/utils/_qthreading.py``)
with Orange's "one task per widget" rule (``Orange/widgets/utils/concurrent.py``):

* ``submit(key, make_job, on_result, on_error)`` calls ``make_job()`` *in the
  worker thread* to get a generator yielding :class:`yardstick.common.progress.Progress`
  and returning the result, and iterates it on ``QThreadPool``;
* cancelling sets a flag that the worker checks between yields; it then
  ``close()``\\ s the generator (GeneratorExit at its current ``yield``);
* a new job with the same key cancels the old one; whatever the old one still
  delivers is dropped (each job carries a serial number);
* progress, results and errors come back to the GUI thread through queued
  signals; callbacks run in the GUI thread;
* the runner keeps a reference to every running worker until it ends.

``make_job`` may also return a plain value (not a generator): it is then the
result (for short functions that just must not block the window).

A job submitted with ``elsewhere=True`` takes an executor: ``make_job(executor)``, None
for this machine, else the Dask executor of the preference (:attr:`JobRunner.compute`,
:mod:`yardstick.gui.compute_place`; connected on the worker thread); cancelling the job
cancels its futures as well.

A generator may also yield pieces of its result (anything that is not a
:class:`Progress`): each reaches ``on_partial`` in the GUI thread, in order, as
soon as it is ready (a load shows each run as it is read and evaluated).  A
cancelled or superseded job's pieces are dropped like its result.
"""

from __future__ import annotations

import inspect
import itertools
import logging
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from yardstick.common.progress import Progress
from yardstick.gui.compute_place import ComputePlace, JobExecutor, lost_link
from yardstick.gui.pool_threads import Preloaded, PreloadTask, leave_a_core_for_the_gui

log = logging.getLogger(__name__)

#: Progress signals are sent at most this often per job (seconds), plus the last one.
PROGRESS_INTERVAL = 0.05


class JobError(Exception):
    """What ``on_error`` receives: the exception, its traceback text and the job key."""

    def __init__(self, key: str, exc: BaseException, details: str):
        super().__init__(str(exc))
        self.key = key
        self.exc = exc
        self.details = details

    @property
    def message(self) -> str:
        """A one-paragraph message (FormatError's file/line/reason when there is one)."""
        return getattr(self.exc, "message", None) or f"{type(self.exc).__name__}: {self.exc}"


class _Signals(QObject):
    progress = Signal(int, float, str)
    partial = Signal(int, object)
    result = Signal(int, object)
    error = Signal(int, object, str)
    done = Signal(int, bool)  # serial, cancelled


class _Worker(QRunnable):
    def __init__(self, serial: int, key: str, make_job: Callable[..., Any], signals: _Signals,
                 place: ComputePlace | None = None):
        super().__init__()
        self.setAutoDelete(False)
        self.serial = serial
        self.key = key
        self.make_job = make_job
        self.signals = signals
        self.cancel_event = threading.Event()
        self.place = place                  # where an ``elsewhere`` job runs
        self.executor: JobExecutor | None = None

    def cancel(self) -> None:
        """Flag the job; its Dask futures are cancelled off the GUI thread (a scheduler that
        went away must not block the window)."""
        self.cancel_event.set()
        ex = self.executor
        if ex is not None:
            threading.Thread(target=ex.cancel_all, daemon=True).start()

    def _start(self) -> Any:
        if self.place is None:
            return self.make_job()
        inner = self.place.executor()
        self.executor = JobExecutor(inner) if inner is not None else None
        if self.cancel_event.is_set() and self.executor is not None:
            self.executor.cancelled = True
        return self.make_job(self.executor)

    def run(self) -> None:  # worker thread
        cancelled = False
        sig = self.signals
        try:
            leave_a_core_for_the_gui()
            if self.cancel_event.is_set():
                cancelled = True
                return
            job = self._start()
            if not inspect.isgenerator(job):
                if not self.cancel_event.is_set():
                    sig.result.emit(self.serial, job)
                else:
                    cancelled = True
                return
            last = 0.0
            try:
                while True:
                    p = next(job)
                    if self.cancel_event.is_set():
                        job.close()
                        cancelled = True
                        return
                    if not isinstance(p, Progress):
                        sig.partial.emit(self.serial, p)
                        continue
                    now = time.monotonic()
                    if now - last >= PROGRESS_INTERVAL or p.fraction >= 1.0:
                        last = now
                        sig.progress.emit(self.serial, p.fraction, p.message)
            except StopIteration as stop:
                if self.cancel_event.is_set():
                    cancelled = True
                else:
                    sig.result.emit(self.serial, stop.value)
        except BaseException as exc:  # noqa: BLE001 - every error goes to the GUI
            if not self.cancel_event.is_set():
                told = exc if self.executor is None else lost_link(self.place.spec, exc)
                sig.error.emit(self.serial, told, traceback.format_exc())
            else:
                cancelled = True
        finally:
            # the job's futures let go (their results and scattered data freed on the
            # cluster; a cancelled future's error held every frame of the job)
            self.executor = None
            sig.done.emit(self.serial, cancelled)


@dataclass
class _Job:
    serial: int
    key: str
    worker: _Worker
    on_result: Callable[[Any], None] | None
    on_error: Callable[[JobError], None] | None
    on_progress: Callable[[float, str], None] | None
    on_partial: Callable[[Any], None] | None = None
    fraction: float = 0.0
    message: str = ""


class JobRunner(QObject):
    """Runs long core work off the GUI thread (see module docstring).

    Signals
    -------
    started(str key)
    progress(str key, float fraction, str message)
    finished(str key)
        The job ended with a result (after ``on_result`` ran).
    failed(str key, str message)
        The job raised (after ``on_error`` ran, or the ``unhandled_error`` signal
        if there is no ``on_error``).
    cancelled(str key)
    unhandled_error(object JobError)
        A job without ``on_error`` failed: the main window shows it.
    busy_changed(bool)
    compute_changed(str)
        The preference of where ``elsewhere`` jobs run changed (its description).
    """

    started = Signal(str)
    progress = Signal(str, float, str)
    finished = Signal(str)
    failed = Signal(str, str)
    cancelled = Signal(str)
    unhandled_error = Signal(object)
    busy_changed = Signal(bool)
    compute_changed = Signal(str)

    def __init__(self, parent: QObject | None = None, max_threads: int | None = None):
        super().__init__(parent)
        self.pool = QThreadPool(self)
        if max_threads:
            self.pool.setMaxThreadCount(max_threads)
        self._signals = _Signals(self)
        self._signals.progress.connect(self._on_progress)
        self._signals.partial.connect(self._on_partial)
        self._signals.result.connect(self._on_result)
        self._signals.error.connect(self._on_error)
        self._signals.done.connect(self._on_done)
        self._serials = itertools.count(1)
        self._current: dict[str, _Job] = {}  # key -> newest job
        self._running: dict[int, _Job] = {}  # serial -> job (references kept while running)
        self._preloads: list[PreloadTask] = []
        self._compute: ComputePlace | None = None

    @property
    def compute(self) -> ComputePlace:
        """Where ``elsewhere`` jobs run: the saved preference until :meth:`use_compute`."""
        if self._compute is None:
            from yardstick.gui.settings import compute_spec

            try:
                self._compute = ComputePlace(compute_spec())
            except ValueError:                  # a hand-edited settings file
                self._compute = ComputePlace()
        return self._compute

    def use_compute(self, spec: str) -> None:
        """Run ``elsewhere`` jobs on ``spec`` from now on (a running job stays where it is);
        what the old preference started is closed off the GUI thread."""
        old, self._compute = self._compute, ComputePlace(spec)
        if old is not None and old.spec != self._compute.spec:
            threading.Thread(target=old.close, daemon=True).start()
        self.compute_changed.emit(self._compute.describe())

    # ------------------------------------------------------------------ API
    def submit(self, key: str, make_job: Callable[[], Any],
               on_result: Callable[[Any], None] | None = None,
               on_error: Callable[[JobError], None] | None = None,
               on_progress: Callable[[float, str], None] | None = None,
               on_partial: Callable[[Any], None] | None = None,
               elsewhere: bool = False) -> int:
        """Start a job; returns its serial number. An older job with ``key`` is cancelled.
        ``elsewhere``: ``make_job`` takes the executor of :attr:`compute` (or None)."""
        self.cancel(key)
        serial = next(self._serials)
        worker = _Worker(serial, key, make_job, self._signals,
                         self.compute if elsewhere else None)
        job = _Job(serial, key, worker, on_result, on_error, on_progress, on_partial)
        was_busy = self.is_busy()
        self._current[key] = job
        self._running[serial] = job
        self.started.emit(key)
        if not was_busy:
            self.busy_changed.emit(True)
        self.pool.start(worker)
        return serial

    def preload(self, modules, then: Callable[[], None] | None = None) -> None:
        """Import ``modules`` on a pool thread, then call ``then`` on the GUI thread.

        Not a job (nothing to show or cancel, the window is not "busy"): the libraries
        the panels need are imported while the window already answers the user, so
        building a panel afterwards costs only its widgets.  An import that fails here
        is left for the GUI thread's own import to report.
        """
        signal = Preloaded(self)
        if then is not None:
            signal.done.connect(then)
        signal.done.connect(signal.deleteLater)
        task = PreloadTask(modules, signal)
        self._preloads.append(task)
        signal.done.connect(lambda: self._preloads.remove(task))
        self.pool.start(task)

    def cancel(self, key: str) -> bool:
        """Cancel the current job with ``key``; its result will be dropped."""
        job = self._current.pop(key, None)
        if job is None:
            return False
        job.worker.cancel()
        self.cancelled.emit(key)
        if not self._current:
            self.busy_changed.emit(False)
        return True

    def cancel_all(self) -> None:
        for key in list(self._current):
            self.cancel(key)

    def is_running(self, key: str) -> bool:
        return key in self._current

    def is_busy(self) -> bool:
        return bool(self._current)

    def keys(self) -> list[str]:
        return list(self._current)

    def overall_progress(self) -> tuple[float, str]:
        """Mean fraction of the current jobs and the newest message (for the status bar)."""
        jobs = list(self._current.values())
        if not jobs:
            return 1.0, ""
        last = jobs[-1]
        return sum(j.fraction for j in jobs) / len(jobs), last.message or f"{last.key}…"

    def wait_for_done(self, msecs: int = -1) -> bool:
        """Block until the pool is idle (tests and shutdown only)."""
        return self.pool.waitForDone(msecs)

    def shutdown(self, msecs: int = 3000) -> None:
        """Cancel every job, wait for the pool, close a LocalCluster the preference started."""
        self.cancel_all()
        self.pool.clear()
        self.pool.waitForDone(msecs)
        if self._compute is not None:
            self._compute.close()

    # ------------------------------------------------------------ slots (GUI thread)
    def _live(self, serial: int) -> _Job | None:
        job = self._running.get(serial)
        if job is None or self._current.get(job.key) is not job:
            return None  # stale: cancelled or superseded
        return job

    @Slot(int, float, str)
    def _on_progress(self, serial: int, fraction: float, message: str) -> None:
        job = self._live(serial)
        if job is None:
            return
        job.fraction, job.message = fraction, message
        if job.on_progress is not None:
            job.on_progress(fraction, message)
        self.progress.emit(job.key, fraction, message)

    @Slot(int, object)
    def _on_partial(self, serial: int, piece: Any) -> None:
        job = self._live(serial)
        if job is None or job.on_partial is None:
            return
        try:
            job.on_partial(piece)
        except Exception as exc:  # noqa: BLE001 - a broken callback must not kill the app
            self.unhandled_error.emit(JobError(job.key, exc, traceback.format_exc()))

    @Slot(int, object)
    def _on_result(self, serial: int, value: Any) -> None:
        job = self._live(serial)
        if job is None:
            return
        self._current.pop(job.key, None)
        try:
            if job.on_result is not None:
                job.on_result(value)
        except Exception as exc:  # noqa: BLE001 - a broken callback must not kill the app
            err = JobError(job.key, exc, traceback.format_exc())
            self.unhandled_error.emit(err)
            self.failed.emit(job.key, err.message)
        else:
            self.finished.emit(job.key)
        finally:
            if not self._current:
                self.busy_changed.emit(False)

    @Slot(int, object, str)
    def _on_error(self, serial: int, exc: BaseException, details: str) -> None:
        job = self._live(serial)
        if job is None:
            return
        self._current.pop(job.key, None)
        err = JobError(job.key, exc, details)
        log.info("job %s failed: %s", job.key, err.message)
        try:
            if job.on_error is not None:
                job.on_error(err)
            else:
                self.unhandled_error.emit(err)
        except Exception as exc2:  # noqa: BLE001
            self.unhandled_error.emit(JobError(job.key, exc2, traceback.format_exc()))
        self.failed.emit(job.key, err.message)
        if not self._current:
            self.busy_changed.emit(False)

    @Slot(int, bool)
    def _on_done(self, serial: int, cancelled: bool) -> None:
        self._running.pop(serial, None)
