"""What a job runner's pool thread does besides jobs: leave a core for the GUI thread
(pyarrow's reader threads) and import the panels' libraries ahead of use
(:meth:`yardstick.gui.jobs.JobRunner.preload`)."""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, QRunnable, Signal

log = logging.getLogger("yardstick.gui.jobs")

_cores_left = False


def leave_a_core_for_the_gui() -> None:
    """Let pyarrow's reader threads use all cores but one, so the GUI thread always has one.

    pyarrow parses CSV without the GIL on ``cpu_count`` threads; on a 2-core
    machine those threads alone would keep the window from repainting.  Called in a
    worker before its first job (importing pyarrow on the GUI thread would delay the
    first paint).
    """
    import os

    global _cores_left
    if _cores_left:
        return
    _cores_left = True
    try:
        import pyarrow as pa
    except ImportError:
        return
    n = os.cpu_count() or 2
    if pa.cpu_count() >= n:
        pa.set_cpu_count(max(1, n - 1))


class Preloaded(QObject):
    done = Signal()


class PreloadTask(QRunnable):
    """Import modules on a pool thread (see :meth:`yardstick.gui.jobs.JobRunner.preload`)."""

    def __init__(self, modules, signal: Preloaded):
        super().__init__()
        self.setAutoDelete(False)
        self.modules = tuple(modules)
        self.signal = signal

    def run(self) -> None:  # worker thread
        import importlib

        leave_a_core_for_the_gui()
        for name in self.modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - reported elsewhere: the GUI thread's import raises
                log.info("preloading %s failed", name, exc_info=True)
        self.signal.done.emit()
