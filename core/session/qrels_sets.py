"""The session's named qrels sets (:attr:`yardstick.session.model.Session.qrels_sets`)
kept in the session file: the sets other than the primary one are recorded, by name
and path, in ``workspace.extras["qrels_sets"]`` and read back when a session is opened.

A set made in memory (no path) cannot be kept; it is left out of the record.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from yardstick.common.progress import Progress

__all__ = ["EXTRA_KEY", "record_sets", "missing_sets", "read_sets"]

#: ``workspace.extras`` key of the recorded sets: ``[{"name": ..., "path": ...}]``
EXTRA_KEY = "qrels_sets"


def record_sets(session) -> list[dict]:
    """The non-primary sets with a file, ``[{"name", "path"}]``, in loading order; also
    written to ``session.workspace.extras`` (no event: the record follows the sets)."""
    out = [{"name": n, "path": str(q.path)} for n, q in session.qrels_sets.items()
           if n != session.primary_qrels and q.path]
    session.workspace.extras[EXTRA_KEY] = out
    return out


def missing_sets(session) -> list[dict]:
    """Recorded sets the session does not hold (after a session file was opened)."""
    held = {str(q.path) for q in session.qrels_sets.values() if q.path}
    return [s for s in session.workspace.extras.get(EXTRA_KEY, [])
            if isinstance(s, dict) and s.get("path") and str(s["path"]) not in held]


def read_sets(sets: Sequence[dict]) -> Generator[Progress, None, list]:
    """Read recorded sets (a job): ``[(name, Qrels or None, error or None)]``."""
    from yardstick.common.errors import FormatError
    from yardstick.inputs.io import read_qrels

    out = []
    for i, s in enumerate(sets):
        yield Progress(i, len(sets), f"reading {s['path']}")
        try:
            out.append((s["name"], read_qrels(s["path"]), None))
        except (OSError, FormatError) as e:
            out.append((s["name"], None, str(getattr(e, "message", e))))
    return out
