"""Opening files in the window: each load is a :class:`~yardstick.session.session_load.SessionLoad`
of the session, its job run by the window's job runner.

Files are read (and each run evaluated) on a worker thread; the runs reach the session a
few at a time on a timer (:data:`LOAD_FLUSH_MS`), so 150 runs are a handful of
announcements and the tables fill while the rest is read.  Whatever fails is reported
(file, line, reason) and nothing loaded before is dropped.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Qt, QTimer

from yardstick.gui import heap
from yardstick.gui import settings as st
from yardstick.gui.gil_sharing import paced
from yardstick.gui.sample_files import sample_items
from yardstick.session.loading import LoadResult, expand
from yardstick.session.session_load import SessionLoad, apply_load_result

#: Runs read by a load reach the session this long after the first of them (milliseconds),
#: then at most every LOAD_FLUSH_MS[1]: each addition refreshes every panel in view.
LOAD_FLUSH_MS = (250, 1000)


class LoadActions:
    """The file-opening half of :class:`~yardstick.gui.main_window.MainWindow` (a mixin: it
    uses the window's ``state``, ``jobs``, ``loaded`` signal, ``show_error`` and
    ``open_session``)."""

    def _build_loading(self) -> None:
        self._load_serial = 0
        # runs read by a load reach the session a few at a time, not one signal each
        self._flush_timer = QTimer(self, singleShot=True, interval=LOAD_FLUSH_MS[0])
        self._flush_timer.timeout.connect(self._flush_loaded_runs)

    def open_items(self, items: list[tuple[str, str | None]], key: str | None = None) -> str:
        """Load ``[(path, kind or None)]`` in the background; returns the job key.

        The session's load reads qrels, groups, topics and documents first, then each
        run, evaluating each as soon as it is read (:meth:`Session.start_load
        <yardstick.session.model.Session.start_load>`).
        """
        expanded: list[tuple[str, str | None]] = []
        for path, kind in items:
            if kind is None and os.path.isdir(path):
                expanded.extend(expand([path]))
            else:
                expanded.append((str(path), kind))
        self._load_serial += 1
        key = key or f"load-{self._load_serial}"
        st.add_recents([(kind, path) for path, kind in expanded if kind])
        load = self.state.session.start_load(expanded, key)

        def failed(err) -> None:
            load.cancel()
            self._job_error(err)

        def submit() -> None:
            self.jobs.submit(key, load.job, on_result=lambda res: self._load_done(load, res),
                             on_error=failed, on_partial=lambda p: self._load_piece(load, p))

        if getattr(self, "_pending", None):
            # the panels first (their libraries are imported on a worker): a track's runs
            # read on every core would keep the window at "Opening…" for seconds
            self.panels_ready.connect(submit, Qt.ConnectionType.SingleShotConnection)
            self.build_panels_in_turns()
        else:
            submit()
        return key

    def open_qrels(self, path: str) -> str:
        return self.open_items([(path, "qrels")])

    def open_runs(self, paths: list[str]) -> str:
        return self.open_items([(p, "run") for p in paths])

    def open_topics(self, path: str) -> str:
        return self.open_items([(path, "topics")])

    def open_documents(self, path: str) -> str:
        return self.open_items([(path, "documents")])

    def open_groups(self, path: str) -> str:
        return self.open_items([(path, "groups")])

    def open_folder(self, path: str) -> str:
        st.add_recent("folder", path)
        return self.open_items(expand([path]))

    def open_files(self, paths: list[str]) -> str:
        """Files and folders, each classified by content (drag and drop, command line)."""
        return self.open_items([(p, None) for p in paths])

    def open_sample(self) -> str:
        """The bundled sample (``yardstick.inputs.sample``), or the fallback subset in
        ``resources/``."""
        return self.open_items(sample_items(), key="load-sample")

    def apply_load_result(self, res: LoadResult) -> None:
        """Put what a (not streamed) load read into the session; report what failed."""
        apply_load_result(self.state.session, res)
        self._load_finished(res)

    def _load_piece(self, load: SessionLoad, piece: LoadResult) -> None:
        if load.receive(piece) and not self._flush_timer.isActive():
            self._flush_timer.start()

    def _flush_loaded_runs(self) -> None:
        session = self.state.session
        self._flush_timer.setInterval(LOAD_FLUSH_MS[1] if session.loads_under_way()
                                      else LOAD_FLUSH_MS[0])
        session.flush_loads()
        heap.freeze()                  # runs and evaluations so far: kept, not walked again

    def _load_done(self, load: SessionLoad, res: LoadResult) -> None:
        """The load's end, one step a turn of the event loop (the last runs added, the
        groups guessed, the evaluations' errors told; then ``loaded``), each after what
        the previous one changed has been painted and the panels have heard of it
        (:func:`~yardstick.gui.gil_sharing.paced`) while the window is shown."""
        steps = load.finishing(res)

        def step() -> None:
            steps.pop(0)()
            if not steps:
                self._load_ended(res)
            elif self.isVisible():
                paced(step)
            else:
                step()

        step()

    def _load_ended(self, res: LoadResult) -> None:
        if not self.state.session.loads_under_way():
            self._flush_timer.stop()
            self._flush_timer.setInterval(LOAD_FLUSH_MS[0])
        heap.freeze()                  # the runs and evaluations just loaded
        self._load_finished(res)

    def _load_finished(self, res: LoadResult) -> None:
        for path in res.sessions:
            self.open_session(path)
        if res.errors:
            self.show_error("Some files were not loaded",
                            "\n\n".join(e.message for e in res.errors),
                            "Everything loaded before is still loaded.")
        self.statusBar().showMessage(loaded_message(res), 8000)
        self.loaded.emit(res)


def loaded_message(res: LoadResult) -> str:
    """The status bar's words for a load: what it read ("Loaded 150 runs and qrels",
    "Loaded run groups (150 runs)"; a groups file alone said "Loaded 0 runs")."""
    n = len(res.runs)
    parts = [f"{n} run{'s' if n != 1 else ''}"] if n or res.qrels is not None else []
    parts += ["qrels"] * (res.qrels is not None)
    if res.groups:
        k = len(res.groups)
        parts.append(f"run groups ({k} run{'s' if k != 1 else ''})")
    parts += ["topics"] * (res.topics is not None) + ["documents"] * (res.documents is not None)
    parts += ["a session"] * bool(res.sessions)
    said = "Loaded " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1
                        else parts[0] if parts else "nothing")
    return said + (f"; {len(res.errors)} file(s) failed" if res.errors else "")
