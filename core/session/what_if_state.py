"""What-if edits in the session: saved as plain JSON, validated when read back.

The topic explorer's what-if edits (:class:`yardstick.analysis.explain.what_if.WhatIfSession`)
live in ``Workspace.extras["what_if"]`` so the session (and its autosave)
keeps them::

    {"qrels": "/path/of/the/original.qrels",
     "edits": [["301", "FBIS3-10082", 1], ["301", "LA010189-0018", null], ...]}

Each edit is ``[topic, docno, new grade]`` (``null``: removed from the judged
set), in the order they were made (undone edits are not kept).  The original
qrels file is never written: replaying the edits on a fresh
:class:`~yardstick.analysis.explain.what_if.WhatIfSession` rebuilds the same edited copy.
Nothing read from a session is trusted: malformed entries are dropped, and
edits saved for another qrels file are not applied.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

__all__ = ["KEY", "MAX_EDITS", "SavedEdit", "edits_for", "saved_edit_count", "to_json"]

KEY = "what_if"
#: More edits than this in a session file is not something a person made: ignored.
MAX_EDITS = 100_000


class SavedEdit(NamedTuple):
    """One saved edit: replay with ``WhatIfSession.mark(topic, docno, new)``."""

    topic: str
    docno: str
    new: int | None


def to_json(qrels_path: str | None, edits: Iterable[Any]) -> dict[str, Any]:
    """The ``extras["what_if"]`` value for edits with ``.topic``, ``.docno``, ``.new``."""
    return {"qrels": None if qrels_path is None else os.path.abspath(qrels_path),
            "edits": [[str(e.topic), str(e.docno), None if e.new is None else int(e.new)]
                      for e in edits]}


def _valid(item: Any) -> bool:
    if not isinstance(item, list) or len(item) != 3:
        return False
    t, d, g = item
    return (isinstance(t, str) and isinstance(d, str) and t.strip() == t and d.strip() == d
            and t != "" and d != "" and (g is None or (isinstance(g, int)
                                                     and not isinstance(g, bool)
                                                     and -(2**31) <= g < 2**31)))


def edits_for(extras: Mapping[str, Any], qrels_path: str | None) -> list[SavedEdit]:
    """The saved edits that apply to the qrels read from ``qrels_path``, in order.

    Empty when none are saved, when they were made on another qrels file, or
    when the saved value is not what :func:`to_json` writes; malformed
    entries are skipped.
    """
    saved = extras.get(KEY) if isinstance(extras, Mapping) else None
    if not isinstance(saved, Mapping) or qrels_path is None:
        return []
    where = saved.get("qrels")
    if not isinstance(where, str) or os.path.abspath(where) != os.path.abspath(qrels_path):
        return []
    items = saved.get("edits")
    if not isinstance(items, list) or len(items) > MAX_EDITS:
        return []
    return [SavedEdit(*i) for i in items if _valid(i)]


def saved_edit_count(extras: Mapping[str, Any]) -> int:
    """How many well-formed what-if edits ``extras`` holds (for a restore summary)."""
    saved = extras.get(KEY) if isinstance(extras, Mapping) else None
    items = saved.get("edits") if isinstance(saved, Mapping) else None
    return sum(map(_valid, items)) if isinstance(items, list) else 0
