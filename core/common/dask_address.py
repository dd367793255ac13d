"""Where a user says Dask work should go, checked and reached within a few seconds.

The CLI's ``--dask WHERE`` and the API's ``client="..."`` take ``local`` (a
``LocalCluster``, one worker per core), ``local:N`` (N workers) or a scheduler's address
(``tcp://HOST:PORT``, as ``dask scheduler`` prints it).  :func:`why_not` refuses anything
else before work starts; :func:`connect_within` reaches the place within
:data:`CONNECT_TIMEOUT_S` seconds (Dask waits 30 s, then raises its own ``OSError``), and
an address where nothing answers — or where something that is not a Dask scheduler
answers, whose bytes Dask reads as a frame length of exabytes (``MemoryError``) — is a
:class:`DaskUnavailable` that says what to do.
"""

from __future__ import annotations

import re

from yardstick.common.executor import Executor, connect

__all__ = ["CONNECT_TIMEOUT_S", "DaskUnavailable", "why_not", "unreachable", "connect_within",
           "lost_scheduler"]

#: how long a scheduler has to answer (Dask's own default: 30 s)
CONNECT_TIMEOUT_S = 10

_ADDRESS = re.compile(r"(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):"
                      r"(\d{1,5})")
"""A scheduler address: ``[tcp|tls|ws|wss|ucx://]HOST:PORT`` (IPv6 hosts in brackets)."""


#: Dask's errors of the link to a scheduler (not of a task's own work)
_LINK_ERRORS = ("CommClosedError", "StreamClosedError", "FutureCancelledError")


#: local:N starts at most this many worker processes a core (local:1000 would start 1000)
MAX_LOCAL_PER_CORE = 4


def _cores() -> int:
    import os

    return os.cpu_count() or 1


class DaskUnavailable(ConnectionError):
    """No Dask scheduler answered at the address given; the message says what to do."""


def why_not(where: str) -> str | None:
    """Why ``where`` is neither ``local``, ``local:N`` (N >= 1) nor a scheduler address
    (``local-threads:N``, N worker threads in this process, is for tests); None if it is."""
    kind, colon, count = where.partition(":")
    if kind in ("local", "local-threads") and not count.startswith("//"):
        if (colon and not count.isdigit()) or (count.isdigit() and int(count) < 1) or \
                (kind == "local-threads" and not colon):
            return f"{where!r}: expected local (one worker per core) or local:N (N workers, N >= 1)"
        if count.isdigit() and int(count) > MAX_LOCAL_PER_CORE * _cores():
            return (f"{where!r}: local:N starts N worker processes here, and this machine has "
                    f"{_cores()} cores: at most {MAX_LOCAL_PER_CORE * _cores()} (for more "
                    f"workers, start a scheduler and workers on other machines)")
        return None
    m = _ADDRESS.fullmatch(where)
    if m is None or not 0 < int(m.group(3)) < 65536:
        return (f"{where!r} is neither local, local:N nor a scheduler address tcp://HOST:PORT "
                f"('dask scheduler' prints it: 'Scheduler at: tcp://...')")
    return None


def unreachable(where: str, seconds: float | None = None) -> str | None:
    """Why nothing accepts a connection at the scheduler address ``where`` (a plain TCP
    connection, tried within ``seconds``, default :data:`CONNECT_TIMEOUT_S`: no Dask
    imported), or None (also for ``local`` and for ``ucx://``, not tried).  Lets a command
    refuse a wrong address before it reads a single file."""
    import socket

    if where.partition(":")[0] in ("local", "local-threads"):
        return None
    m = _ADDRESS.fullmatch(where)
    if m is None or m.group(1) == "ucx":
        return None
    host = m.group(2).strip("[]")
    try:
        with socket.create_connection((host, int(m.group(3))),
                                      CONNECT_TIMEOUT_S if seconds is None else seconds):
            return None
    except OSError as e:
        said = e.strerror or str(e) or type(e).__name__
        return (f"no Dask scheduler answers at {where} ({said}); start one with 'dask "
                f"scheduler' and 'dask worker ADDRESS', or use local")


def connect_within(where: str, threads: int | None = 1,
                   seconds: float | None = None) -> Executor:
    """:func:`yardstick.common.executor.connect`, giving up after ``seconds`` (default
    :data:`CONNECT_TIMEOUT_S`) with a :class:`DaskUnavailable` naming the address;
    ``ValueError`` for a ``where`` that :func:`why_not` refuses."""
    why = why_not(where)
    if why:
        raise ValueError(why)
    try:
        import dask
        import distributed  # noqa: F401 - its config defaults, before they are overridden
    except ImportError as e:
        raise ImportError("Dask is not installed here: pip install 'yardstick-ir[dask]' "
                          "(dask and distributed)") from e

    limit = CONNECT_TIMEOUT_S if seconds is None else seconds
    try:
        with dask.config.set({"distributed.comm.timeouts.connect": f"{limit}s"}):
            return connect(where, threads=threads)
    except Exception as e:  # noqa: BLE001 - OSError, TimeoutError, a garbled reply...
        said = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise DaskUnavailable(f"no Dask scheduler answered at {where} ({said}); start one "
                              f"with 'dask scheduler' and 'dask worker ADDRESS', or use "
                              f"local") from None


def lost_scheduler(where: str, exc: BaseException) -> str | None:
    """What to tell the user when ``exc`` is the link to the scheduler at ``where`` failing
    during the work (Dask's "CommClosedError: in <TCP (closed) ConnectionPool.scatter
    ...>: Stream is closed"); None for any other error."""
    if type(exc).__name__ not in _LINK_ERRORS:
        return None
    return (f"lost the Dask scheduler at {where} during the work ({type(exc).__name__}); "
            f"nothing more was computed: start it again, then run the command again")
