"""A report's figure files rendered on worker processes while the PDF is laid out.

matplotlib draws one figure at a time, holding the interpreter: a report of 150
runs draws some 600 figure files (an inline SVG for the HTML and a PNG per
figure, beside the PDF's sheets), minutes on one core.  Each figure is plain
data (a :class:`~yardstick.presentation.reports.document.ReportFigure`'s ``draw`` is a
module-level function bound to its frames), so the files are rendered by a pool
of ``spawn``-ed processes — a child starts clean, without the parent's threads
(pyarrow's, the reader's) that ``fork`` would copy in an unknown state — while
the parent writes the PDF.  Small reports are rendered in this process: starting
a child costs about a second of imports.
"""

from __future__ import annotations

import io
import os
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Callable

#: reports with fewer figure files than this are rendered in this process
MIN_POOLED = 24
#: at most this many worker processes
MAX_WORKERS = 8
#: an executor (:mod:`yardstick.common.executor`) that renders the figure files instead of
#: the process pool, set by ``yardstick report --dask`` with :func:`use_executor`
_EXECUTOR = None


def use_executor(executor) -> None:
    """Render figure files as tasks on ``executor`` (a Dask one) from now on; None: the
    process pool again."""
    global _EXECUTOR
    _EXECUTOR = None if executor is None or executor.local else executor


@dataclass(frozen=True)
class FigureFile:
    """One figure file to render: ``draw(ax)`` on a ``width`` × ``height`` inch figure."""

    draw: Callable
    width: float
    height: float
    fmt: str
    dpi: int = 100
    metadata: dict | None = None
    tight: bool = False


def render(job: FigureFile) -> bytes:
    """The file's bytes (in whatever process runs it)."""
    from yardstick.presentation.reports.figures import new_figure

    fig = new_figure(job.width, job.height, job.dpi)
    job.draw(fig.add_subplot())
    buf = io.BytesIO()
    extra = {"bbox_inches": "tight", "pad_inches": 0.05} if job.tight else {}
    fig.savefig(buf, format=job.fmt, dpi=job.dpi, metadata=job.metadata, **extra)
    return buf.getvalue()


def workers_for(n_files: int) -> int:
    """Worker processes for ``n_files`` figure files: 0 (render here) for a small report."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if n_files < MIN_POOLED or (cpus or 1) < 2:
        return 0
    return min(MAX_WORKERS, cpus or 1, n_files // (MIN_POOLED // 2))


class RenderedFigures:
    """Figure files being rendered: :meth:`get` waits for one.

    With ``workers`` 0 each file is rendered in this process when first asked for.
    Use as a context manager (the pool is shut down on leaving).
    """

    def __init__(self, jobs: dict, workers: int | None = None):
        self.jobs = dict(jobs)
        n = workers_for(len(self.jobs)) if workers is None else workers
        self._pool = None
        self._futures: dict = {}
        self._executor = _EXECUTOR
        if self._executor is not None:      # a task per figure file, on the cluster
            self._futures = {k: self._executor.submit(render, j) for k, j in self.jobs.items()}
        elif n > 0:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(max_workers=n,
                                             mp_context=multiprocessing.get_context("spawn"))
            self._futures = {k: self._pool.submit(render, j) for k, j in self.jobs.items()}

    def get(self, key) -> bytes:
        fut: Future | None = self._futures.get(key)
        if fut is not None and self._executor is not None:
            for _, value, error in self._executor.results([fut]):
                if error is not None:
                    raise error
                return value
        return fut.result() if fut is not None else render(self.jobs[key])

    def close(self) -> None:
        if self._executor is not None:
            self._executor.cancel(list(self._futures.values()))
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> "RenderedFigures":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
