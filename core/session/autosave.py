"""Crash recovery for the autosaved session (Qt-free; the window calls it with its data folder).

The window autosaves its session (debounced) to ``last_session.json`` in the
user's data folder and restores it at the next start.  That alone would lose
work after a crash if the next start were given files: its first autosave
would overwrite the crashed session.  So each running Yardstick leaves a
marker (``running-<pid>.json``); a normal exit removes it.  At
start, :func:`begin` finds a marker whose process is gone, moves the last
autosave aside to ``recovered-<time>.json`` (never overwritten, never deleted
by Yardstick) and returns it as a :class:`Recovery` for the window to offer.

The recovered file is an ordinary session (:mod:`yardstick.session.session_file`: JSON,
schema version, validated), so restoring it is opening a session.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from yardstick.common.errors import FormatError
from yardstick.inputs.io.atomic import atomic_write_text, sweep_orphans

__all__ = ["LAST_SESSION", "MARKER_GLOB", "AutosaveSchedule", "Recovery", "begin", "end",
           "summary"]

#: The autosave the window writes (and restores after a normal exit).
LAST_SESSION = "last_session.json"
#: Present while a Yardstick process runs with this data folder (one per process).
MARKER_GLOB = "running-*.json"


class AutosaveSchedule:
    """When to autosave: ``quiet`` seconds after the last change, but never more
    than ``at_most`` seconds after the first unsaved one.

    A plain debounce (restart the timer on every change) never saves a user who
    keeps working; the cap bounds the work a crash can lose.  Qt-free: the
    window asks :meth:`delay` after each change and starts its timer with it.

    >>> s = AutosaveSchedule(quiet=2.0, at_most=30.0)
    >>> s.delay(now=100.0)            # first change: wait for 2 quiet seconds
    2.0
    >>> s.delay(now=129.0)            # still changing 29 s later: 1 s left of the 30
    1.0
    >>> s.saved(); s.delay(now=140.0)  # after a save the count starts again
    2.0
    """

    def __init__(self, quiet: float = 2.0, at_most: float = 30.0):
        if not 0 < quiet <= at_most:
            raise ValueError("autosave: need 0 < quiet <= at_most")
        self.quiet = quiet
        self.at_most = at_most
        self._first_unsaved: float | None = None

    def delay(self, now: float) -> float:
        """Seconds until the autosave, given a change at ``now`` (monotonic seconds)."""
        if self._first_unsaved is None:
            self._first_unsaved = now
        left = self._first_unsaved + self.at_most - now
        return max(0.0, min(self.quiet, left))

    def saved(self) -> None:
        """The session was written: the next change starts a new count."""
        self._first_unsaved = None

    @property
    def pending(self) -> bool:
        """A change has not been saved yet."""
        return self._first_unsaved is not None


@dataclass(frozen=True)
class Recovery:
    """The session of a Yardstick that did not exit normally.

    Attributes
    ----------
    path : str
        ``recovered-<time>.json`` in the data folder.
    session : dict
        Its validated content (:func:`yardstick.session.session_file.read_session`).
    saved : float
        When it was autosaved (file time, seconds since the epoch).
    pid : int
        Process id of the Yardstick that wrote it.
    """

    path: str
    session: dict[str, Any]
    saved: float
    pid: int

    def describe(self) -> str:
        """One sentence for the restore question."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved))
        return f"Yardstick did not close normally. Its work was autosaved at {when}: " \
               f"{summary(self.session)}."


def _proc_start(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), to tell a reused pid."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return None


def _alive(pid: int, started: str | None) -> bool:
    if pid <= 0 or pid == os.getpid():
        return False  # our own pid in an old marker: the pid was reused after a crash
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        pass
    except OSError:
        return False
    now = _proc_start(pid)
    return started is None or now is None or now == started


def _markers(d: Path) -> list[tuple[Path, int, str | None]]:
    out = []
    for p in sorted(d.glob(MARKER_GLOB)):
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        pid = data.get("pid") if isinstance(data, dict) else None
        started = data.get("proc_start") if isinstance(data, dict) else None
        out.append((p, pid if isinstance(pid, int) and not isinstance(pid, bool) else 0,
                    started if isinstance(started, str) else None))
    return out


def begin(directory: str | os.PathLike) -> Recovery | None:
    """Start of a Yardstick process: detect a crashed predecessor, then mark this one running.

    Every running Yardstick leaves ``running-<pid>.json``.  A marker whose
    process is gone means that process crashed (or was killed): if the last
    autosave holds something (files, notes or topic groups) it is moved to
    ``recovered-<time>.json`` and returned.  Markers of processes still
    running (a second window) are left alone.
    """
    from yardstick.session.session_file import read_session

    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    sweep_orphans(d)  # temporary files of autosaves a kill -9 interrupted
    dead = [(p, pid) for p, pid, started in _markers(d) if not _alive(pid, started)]
    last = d / LAST_SESSION
    recovery = None
    if dead and last.exists():
        try:
            session = read_session(last)
        except FormatError:
            session = None  # unreadable autosave: keep the file, offer nothing
        if session is not None and _has_work(session):
            saved = last.stat().st_mtime
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(saved))
            target = d / f"recovered-{stamp}.json"
            k = 2
            while target.exists():
                target = d / f"recovered-{stamp}-{k}.json"
                k += 1
            os.replace(last, target)
            recovery = Recovery(str(target), read_session(target), saved, dead[0][1])
    for p, _pid in dead:
        try:
            p.unlink()
        except OSError:
            pass
    atomic_write_text(_own_marker(d), json.dumps({"pid": os.getpid(), "started": time.time(),
                                                  "proc_start": _proc_start(os.getpid())}))
    return recovery


def end(directory: str | os.PathLike) -> None:
    """Normal exit: remove this process's marker (a later start will not offer a restore)."""
    try:
        _own_marker(Path(directory)).unlink()
    except OSError:
        pass


def _own_marker(d: Path) -> Path:
    return d / f"running-{os.getpid()}.json"


def _has_work(session: dict[str, Any]) -> bool:
    return bool(session.get("runs") or session.get("qrels") or session.get("notes")
                or session.get("topic_groups"))


def summary(session: dict[str, Any]) -> str:
    """What a session holds: ``"3 runs, qrels, topics, 2 topic groups, 4 what-if edits, notes"``."""
    parts = []
    n = len(session.get("runs", []))
    if n:
        parts.append(f"{n} run{'s' if n != 1 else ''}")
    for key in ("qrels", "topics", "documents"):
        if session.get(key):
            parts.append(key)
    g = len(session.get("topic_groups", {}))
    if g:
        parts.append(f"{g} topic group{'s' if g != 1 else ''}")
    from yardstick.session.what_if_state import saved_edit_count

    e = saved_edit_count(session.get("extras", {}))
    if e:
        parts.append(f"{e} what-if edit{'s' if e != 1 else ''}")
    if session.get("notes"):
        parts.append("notes")
    return ", ".join(parts) or "nothing loaded"
