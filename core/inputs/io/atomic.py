"""Atomic writes: a temporary file in the same folder, then ``os.replace``.

A crash mid-write never leaves a corrupt file: the old one stays until the new
one is complete (issue: no lost work).  A process killed with ``kill -9``
cannot remove its temporary file, so the name carries the writer's process id
(``.<name>.<pid>.<random>.tmp``) and every later write to the same folder
removes the temporary files of writers that are no longer running
(:func:`sweep_orphans`).

:func:`describe_write_error` turns the ``OSError`` of a failed write into a
sentence a user can act on ("the disk is full"), for the window's status line
and error dialogs.
"""

from __future__ import annotations

import errno
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["atomic_write", "atomic_write_bytes", "atomic_write_text", "describe_write_error",
           "is_write_error", "sweep_orphans"]

_TMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[A-Za-z0-9_]+\.tmp$")


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: someone else's live process
        return True
    return True


def sweep_orphans(folder: str | os.PathLike) -> list[str]:
    """Remove the temporary files that killed writers left in ``folder``; their names.

    Only files named as :func:`atomic_write` names them, whose writer process
    no longer runs, are removed; a write in progress in another live process
    is never touched.
    """
    removed: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for e in entries:
        m = _TMP.match(e.name)
        if m is None or _pid_alive(int(m.group("pid"))):
            continue
        try:
            os.unlink(e.path)
            removed.append(e.path)
        except OSError:
            pass
    return removed


def atomic_write(path: str | os.PathLike, write: Callable[[str], None]) -> None:
    """Call ``write(tmp_path)`` then move the temporary file onto ``path``.

    The temporary file is removed when ``write`` fails (a full disk, an
    exception); one left by a killed process is removed by the next write to the
    same folder.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    sweep_orphans(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp",
                               dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, _mode_for(path))      # mkstemp's 0600 would hide exports from others
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _mode_for(path: Path) -> int:
    """The permissions ``open(path, "w")`` would give: the old file's, else 0666 less umask."""
    import stat

    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    def _w(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

    atomic_write(path, _w)


def atomic_write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    atomic_write_bytes(path, text.encode(encoding))


_WRITE_ERRORS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the disk is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOENT: "the folder does not exist",
    errno.EISDIR: "it is a folder",
    errno.ENAMETOOLONG: "the file name is too long",
    errno.EIO: "the disk reported an input/output error",
}


def describe_write_error(exc: BaseException, path: str | os.PathLike | None = None) -> str:
    """A sentence for a failed write: ``"Could not write F: the disk is full. …"``.

    Disk-full and quota errors say what to do about them; other ``OSError``
    numbers get their name; anything else its message.
    """
    where = str(path if path is not None else getattr(exc, "filename", None) or "the file")
    if isinstance(exc, OSError) and exc.errno in _WRITE_ERRORS:
        why = _WRITE_ERRORS[exc.errno]
        hint = (" Free some space (or choose another folder) and try again;"
                " nothing loaded was lost." if exc.errno in (errno.ENOSPC, errno.EDQUOT) else "")
        return f"Could not write {where}: {why}.{hint}"
    if isinstance(exc, OSError) and exc.strerror:
        return f"Could not write {where}: {exc.strerror.lower()}."
    return f"Could not write {where}: {exc}."


def is_write_error(exc: BaseException) -> bool:
    """True for the OSErrors :func:`describe_write_error` explains (disk full, read-only, …)."""
    return isinstance(exc, OSError) and exc.errno in _WRITE_ERRORS
