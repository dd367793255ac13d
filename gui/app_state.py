"""The session as the window sees it: Qt signals for the session's plain events.

All the state and every rule live in :class:`yardstick.session.model.Session` (Qt-free;
the CLI, the API and tests use it directly).  :class:`AppState` holds one, gives it the
window's job runner to evaluate on, and re-emits its events as Qt signals, which panels
connect to; panels change things through the methods here, which are the session's.
Besides, it carries what only the window has: the topic and the explanation a panel
asked the others to show.

The window gives each panel a :class:`PanelState`: the same state, whose ``changed``
is held back while the panel's tab is behind another and replayed (each kind of
change once) when it comes to the front, so that a load's dozens of announcements
do not rebuild the controls of eight panels nobody sees (issue 28).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication

from yardstick.gui import heap
from yardstick.gui.gil_sharing import paced
from yardstick.session.changes import WHATS, Change
from yardstick.session.model import Session
from yardstick.session.workspace import Workspace

__all__ = ["AppState", "Change", "WHATS", "JobsExecutor", "PanelState"]


class JobsExecutor:
    """The session's :class:`~yardstick.session.changes.Executor` on the window's
    :class:`~yardstick.gui.jobs.JobRunner` (errors handed on as their message)."""

    def __init__(self, jobs):
        self.jobs = jobs

    def submit(self, key: str, make_job: Callable[[], Any], on_result: Callable[[Any], None],
               on_error: Callable[[str], None]) -> None:
        self.jobs.submit(key, make_job, on_result=on_result,
                         on_error=lambda err: on_error(err.message))

    def is_running(self, key: str) -> bool:
        return self.jobs.is_running(key)


def _to_session(name: str):
    """A method of :class:`AppState` that is the session's method ``name``."""
    def method(self, *args, **kwargs):
        return getattr(self.session, name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = getattr(Session, name).__doc__
    return method


class AppState(QObject):
    """A :class:`~yardstick.session.model.Session` with Qt signals (see module docstring).

    Signals
    -------
    changed(Change what)
        The session's ``events.changed``.
    status(str message)
        The session's ``events.status`` and the panels' own messages.
    topic_requested(str topic)
    explain_requested(str run, str topic, str measure)
    """

    changed = Signal(object)   # a Change
    topic_requested = Signal(str)
    explain_requested = Signal(str, str, str)
    status = Signal(str)

    def __init__(self, workspace: Workspace | None = None, jobs=None,
                 parent: QObject | None = None, session: Session | None = None):
        super().__init__(parent)
        self.jobs = jobs
        self.session = session or Session(workspace,
                                          JobsExecutor(jobs) if jobs is not None else None)
        self.current_topic: str | None = None
        self.session.events.changed.connect(self.changed.emit)
        self.session.events.status.connect(self.status.emit)

    # ------------------------------------------------------------ the session's state
    @property
    def workspace(self) -> Workspace:
        return self.session.workspace

    @property
    def evaluation_error(self) -> str | None:
        """What the last evaluation could not do (a measure left out, a failure)."""
        return self.session.evaluation_error

    @property
    def topic_notes(self) -> list[str]:
        """Topics the runs and qrels do not share, in words."""
        return self.session.topic_notes

    evaluations = _to_session("evaluations")
    evaluation = _to_session("evaluation")
    is_evaluating = _to_session("is_evaluating")
    measure_columns = _to_session("measure_columns")
    entry = _to_session("entry")
    wanted_measures = _to_session("wanted_measures")
    schedule_evaluation = _to_session("schedule_evaluation")

    set_qrels = _to_session("set_qrels")
    add_qrels = _to_session("add_qrels")
    add_runs = _to_session("add_runs")
    add_evaluated_runs = _to_session("add_evaluated_runs")
    settle_groups = _to_session("settle_groups")
    update_run = _to_session("update_run")
    pool_listed_runs = _to_session("pool_listed_runs")
    apply_groups = _to_session("apply_groups")
    set_topics = _to_session("set_topics")
    set_documents = _to_session("set_documents")
    set_measures = _to_session("set_measures")
    set_options = _to_session("set_options")
    set_topic_group = _to_session("set_topic_group")
    set_notes = _to_session("set_notes")
    set_extra = _to_session("set_extra")

    def set_workspace(self, ws: Workspace) -> None:
        self.session.set_workspace(ws)
        heap.thaw()                    # what the old workspace held may now be collected

    def remove_runs(self, names) -> None:
        self.session.remove_runs(names)
        heap.thaw()

    # ------------------------------------------------------------ the window's own
    def show_topic(self, topic: str) -> None:
        self.current_topic = str(topic)
        self.topic_requested.emit(str(topic))

    def show_explanation(self, run: str, topic: str, measure: str) -> None:
        self.explain_requested.emit(run, str(topic), measure)


class _Relay(QObject):
    changed = Signal(object)   # a Change


class _HeldSignal:
    """``changed`` as a panel sees it: ``connect`` / ``disconnect`` to the panel's relay;
    ``emit`` announces to everyone (the window's own ``changed``)."""

    def __init__(self, relay: _Relay, state: AppState):
        self._relay, self._state = relay, state

    def connect(self, *args, **kwargs):
        return self._relay.changed.connect(*args, **kwargs)

    def disconnect(self, *args, **kwargs):
        return self._relay.changed.disconnect(*args, **kwargs)

    def emit(self, what) -> None:
        self._state.changed.emit(what)


class PanelState:
    """An :class:`AppState` as one panel sees it: every attribute is the state's, except
    that ``changed`` reaches the panel only while ``held()`` is false; changes made
    meanwhile wait, each kind once in the order of its last announcement, until
    :meth:`release` (its dock came to the front).  A panel needs no code for it.
    """

    def __init__(self, state: AppState, held: Callable[[], bool]):
        relay = _Relay(state)
        own = {"_state": state, "_held": held, "_waiting": {}, "_relay": relay,
               "changed": _HeldSignal(relay, state)}
        for k, v in own.items():
            object.__setattr__(self, k, v)
        state.changed.connect(self._announced)

    def __getattr__(self, name: str):        # everything but the above is the state's
        return getattr(self._state, name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._state, name, value)

    def _announced(self, what) -> None:
        if self._held() or self._after_load_step():
            self._waiting.pop(what, None)     # (re)placed last: the order of last change
            self._waiting[what] = True
            return
        self.release()
        self._relay.changed.emit(what)

    def _after_load_step(self) -> bool:
        """While a load adds runs to a shown window, a panel hears of it in a turn of the
        event loop of its own, after the addition has been painted
        (:func:`~yardstick.gui.gil_sharing.paced`), not in the turn that added them: the
        addition and the panels' answers took 40-65 ms together.  Returns True if so."""
        if not self._state.session.loads_under_way() or \
                not any(w.isVisible() for w in QApplication.topLevelWidgets()):
            return False
        if self not in _soon:
            _soon.append(self)
            paced(_announce_soon)
        return True

    def release(self) -> None:
        """Announce the changes held back (the panel can be seen now)."""
        while self._waiting:
            what = next(iter(self._waiting))
            del self._waiting[what]
            self._relay.changed.emit(what)

    def detach(self) -> None:
        """Stop relaying (the panel could not be made, or its window is gone)."""
        try:
            self._state.changed.disconnect(self._announced)
        except (RuntimeError, TypeError):
            pass                        # (already disconnected)
        self._waiting.clear()
        if self in _soon:
            _soon.remove(self)

    def held_changes(self) -> list:
        """The changes waiting for the panel to be seen."""
        return list(self._waiting)


#: panels to tell of a load's additions, one a turn (:meth:`PanelState._after_load_step`)
_soon: list[PanelState] = []


def _announce_soon() -> None:
    """Tell the first panel waiting of a load's additions (the next hears in a paced step
    of its own: the Measures and Collection panels shown side by side painted 30-45 ms
    together)."""
    if not _soon:
        return                          # (detached meanwhile)
    panel = _soon.pop(0)
    try:
        if not panel._held():
            panel.release()
    except RuntimeError:                # its window was closed (and deleted) meanwhile
        panel.detach()
