"""A report's figure and table files written on worker processes while the PDF is laid out.

matplotlib draws one figure at a time, holding the interpreter: a report of 150
runs draws rankings 22 inches tall with a label per run, and its pairwise p-value
table (33,525 rows) is written as CSV, XLSX, LaTeX and Markdown — each of these
seconds of one core.  Each file is plain data (a
:class:`~yardstick.presentation.reports.document.ReportFigure`'s ``draw`` is a
module-level function bound to its frames; a table is its frames), so the files are
written by a pool of ``spawn``-ed processes — a child starts clean, without the
parent's threads (pyarrow's, the reader's) that ``fork`` would copy in an unknown
state — while the parent writes the PDF and the HTML; the longest files go first.
Small reports are written in this process: starting a child costs about a second of
imports (:func:`job_cost`, :data:`MIN_POOLED`).
"""

from __future__ import annotations

import io
import os
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Callable

#: reports whose files cost less than this (:func:`job_cost`: about a quarter of a second
#: of one core a unit) are written in this process
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


@dataclass(frozen=True)
class TableFile:
    """One table file to write: :func:`~yardstick.presentation.export.tables.write_table`'s
    arguments."""

    frame: object
    path: str
    fmt: str
    decimals: object = 4
    markers: object = None
    bold: object = None
    caption: str | None = None
    provenance: object = None


def job_cost(job) -> float:
    """Rough cost of a file in units of about a quarter of a second of one core: a figure
    one unit and one more for every 4 inches of height (a ranking of 150 runs is 22
    inches of labels); a table one unit for every 25,000 cells (XLSX: 5,000, each cell
    an openpyxl object)."""
    if isinstance(job, TableFile):
        frame = job.frame
        cells = len(frame) * (len(getattr(frame, "columns", (0,))) + 1)
        return cells / (5_000 if job.fmt == "xlsx" else 25_000)
    return 1.0 + job.height / 4.0


def run_job(job):
    """A figure file's bytes, or a table file written (its path), in whatever process runs
    it."""
    if isinstance(job, TableFile):
        from yardstick.presentation.export.tables import write_table

        return write_table(job.frame, job.path, job.fmt, decimals=job.decimals,
                           markers=job.markers, bold=job.bold, caption=job.caption,
                           provenance=job.provenance)
    return render(job)


def render(job: FigureFile) -> bytes:
    """The file's bytes (in whatever process runs it)."""
    from yardstick.presentation.reports.figures import new_figure

    fig = new_figure(job.width, job.height, job.dpi)
    job.draw(fig.add_subplot())
    buf = io.BytesIO()
    extra = {"bbox_inches": "tight", "pad_inches": 0.05} if job.tight else {}
    fig.savefig(buf, format=job.fmt, dpi=job.dpi, metadata=job.metadata, **extra)
    return buf.getvalue()


def workers_for(cost: float) -> int:
    """Worker processes for files of total :func:`job_cost` ``cost``: 0 (write here) for a
    small report; else one a CPU but the one this process lays the PDF out on (each worker
    spends some 3 s of CPU importing pandas, matplotlib and openpyxl: on 2 cores a second
    worker only competes with the PDF for the same cores)."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if cost < MIN_POOLED or (cpus or 1) < 2:
        return 0
    return max(1, min(MAX_WORKERS, (cpus or 1) - 1, int(cost // (MIN_POOLED // 2))))


class RenderedFigures:
    """Figure files being rendered and table files being written (:class:`FigureFile`,
    :class:`TableFile`): :meth:`get` waits for one (a figure's bytes, a table's path).

    With ``workers`` 0 each file is made in this process when first asked for.
    Use as a context manager (the pool is shut down on leaving).
    """

    def __init__(self, jobs: dict, workers: int | None = None):
        self.jobs = dict(jobs)
        costs = {k: job_cost(j) for k, j in self.jobs.items()}
        n = workers_for(sum(costs.values())) if workers is None else workers
        self._pool = None
        self._futures: dict = {}
        self._done: dict = {}
        self._executor = _EXECUTOR
        # the longest files first, so that no worker is left with one at the end
        order = sorted(self.jobs, key=lambda k: -costs[k])
        if self._executor is not None:      # a task per figure, on the cluster; the table
            # files are written here (a cluster's workers may not share this file system)
            self._futures = {k: self._executor.submit(run_job, self.jobs[k]) for k in order
                             if not isinstance(self.jobs[k], TableFile)}
        elif n > 0:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(max_workers=n,
                                             mp_context=multiprocessing.get_context("spawn"))
            self._futures = {k: self._pool.submit(run_job, self.jobs[k]) for k in order}

    def get(self, key):
        """A figure file's bytes or a table file's path: made here if no worker has begun
        it yet (this process helps the pool instead of waiting), else the worker's; made
        once however often asked for."""
        if key not in self._done:
            self._done[key] = self._make(key)
        return self._done[key]

    def _make(self, key):
        fut: Future | None = self._futures.get(key)
        if fut is not None and self._pool is not None and fut.cancel():
            fut = None
        if fut is not None and self._executor is not None:
            for _, value, error in self._executor.results([fut]):
                if error is not None:
                    raise error
                return value
        return fut.result() if fut is not None else run_job(self.jobs[key])

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
