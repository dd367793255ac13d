"""Plain events: a callback list with ``connect``/``disconnect``/``emit`` — no Qt.

The pattern is napari's ``EmitterGroup`` (``src/napari/utils/events/``) cut to what
a Qt-free model needs: a model holds :class:`Event` attributes, listeners connect
callables, ``emit(*args)`` calls them in the order they connected, on the emitting
thread.  The GUI turns them into Qt signals (``yardstick.gui.app_state.AppState``);
scripts and tests connect plain functions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["Event"]


class Event:
    """One kind of event: listeners called with the emitted arguments, in connection order.

    A listener connected twice is called once; a listener that raises stops the
    emission (the error reaches the emitter, as a Qt direct connection's would not:
    a model's listeners are its own code, and a bug should show).
    """

    def __init__(self, name: str):
        self.name = name
        self._listeners: list[Callable[..., Any]] = []
        self._lock = threading.Lock()

    def connect(self, listener: Callable[..., Any]) -> Callable[..., Any]:
        """Call ``listener(*args)`` on every :meth:`emit`; returns it (usable as a decorator)."""
        with self._lock:
            if listener not in self._listeners:
                self._listeners.append(listener)
        return listener

    def disconnect(self, listener: Callable[..., Any]) -> None:
        """Stop calling ``listener`` (one not connected is ignored)."""
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def emit(self, *args: Any) -> None:
        """Call every listener with ``args`` (a listener added meanwhile waits for the next)."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(*args)

    def __len__(self) -> int:
        return len(self._listeners)

    def __repr__(self) -> str:
        return f"Event({self.name!r}, {len(self._listeners)} listener(s))"
