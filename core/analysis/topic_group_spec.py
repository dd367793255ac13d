"""Topic groups as the workbench makes them: from typed ranges, a file, or a table's rows.

Issue 5 §8 asks for topic groups that are first-class across the app: made from
ranges (``"301-350, 601-650"``), from a file (one topic per line), from a
selection in any table or chart, or from a diagnostic (the robust 2003
overview's "difficult topics", Voorhees 2003 §1).  The parsing of
range specs and group files lives in :mod:`yardstick.analysis.stability.topic_groups`; this
module adds what the GUI needs on top, Qt-free:

* :func:`parse_group_text` -- a typed spec, checked against the collection's
  topics (unknown topics reported, not silently kept);
* :func:`read_group_file` -- a file: bare topic ids one per line (a group named
  after the file) or the ``name: spec`` / ``name<TAB>topic`` lines of
  :func:`yardstick.analysis.stability.topic_groups.read_topic_groups`;
* :func:`topics_in_rows` -- the topic ids of some rows of a displayed table
  (its index when named ``topic``, else a ``topic`` column);
* :func:`unique_group_name`, :func:`check_group_name` and :func:`groups_frame`
  (the list of groups the GUI shows).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

__all__ = [
    "GroupSpec",
    "check_group_name",
    "groups_frame",
    "parse_group_text",
    "read_group_file",
    "topics_in_rows",
    "unique_group_name",
]


@dataclass(frozen=True)
class GroupSpec:
    """A parsed topic spec.

    Attributes
    ----------
    spec : str
        The text as typed.
    topics : tuple of str
        The topics of the group, in the spec's order (ranges ascending), unique;
        with known topics, only those in the collection.
    unknown : tuple of str
        Topics the spec named that the collection does not have (left out).
    """

    spec: str
    topics: tuple[str, ...]
    unknown: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line for the dialog's preview: how many topics, and what was left out."""
        n = len(self.topics)
        text = f"{n} topic{'s' if n != 1 else ''}"
        if n:
            shown = ", ".join(self.topics[:8]) + (", …" if n > 8 else "")
            text += f": {shown}"
        if self.unknown:
            k = len(self.unknown)
            text += (f" ({k} not in the collection, left out: "
                     + ", ".join(self.unknown[:5]) + (", …" if k > 5 else "") + ")")
        return text

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"topic": list(self.topics)})


def parse_group_text(text: str, known: Iterable[str] | None = None) -> GroupSpec:
    """Parse ``"301-350, 601-650"`` (commas or spaces separate; ``a-b`` is a range).

    Ranges expand to every integer in them
    (:func:`yardstick.analysis.stability.topic_groups.parse_topic_spec`); with ``known`` (the
    collection's topics) only known topics are kept and the others are listed
    in :attr:`GroupSpec.unknown`.

    Raises
    ------
    ValueError
        For a reversed range, an empty spec, or a spec none of whose topics is known.
    """
    from yardstick.analysis.stability.topic_groups import (
        parse_topic_spec,  # (scipy: not at start-up)
    )

    topics = parse_topic_spec(text)
    if known is None:
        return GroupSpec(text, tuple(topics))
    known_set = {str(t) for t in known}
    if not known_set:
        return GroupSpec(text, tuple(topics))
    keep = tuple(t for t in topics if t in known_set)
    unknown = tuple(t for t in topics if t not in known_set)
    if not keep:
        raise ValueError(f"none of the topics of {text!r} is in the collection")
    return GroupSpec(text, keep, unknown)


def read_group_file(path: str | Path, known: Iterable[str] | None = None
                    ) -> dict[str, list[str]]:
    """Topic groups from a text file (see
    :func:`yardstick.analysis.stability.topic_groups.read_topic_groups`).

    A file with one topic id per line gives one group named after the file's
    stem.  With ``known``, ranges keep only known topics and a single unknown
    id is an error (with its line number).

    Raises
    ------
    yardstick.common.errors.FormatError
    """
    from yardstick.analysis.stability.topic_groups import read_topic_groups

    return read_topic_groups(path, None if known is None else list(known))


def topics_in_rows(frame: pd.DataFrame, rows: Sequence[int]) -> list[str]:
    """Topic ids of the (positional) ``rows`` of a table, unique, in row order.

    The topics are the frame's index when it is named ``topic``, else its
    ``topic`` column; a table without topics gives ``[]``.
    """
    if frame.index.name == "topic":
        values = frame.index
    elif "topic" in frame.columns:
        values = frame["topic"]
    else:
        return []
    n = len(frame)
    picked = [str(values[r]) for r in rows if 0 <= r < n]
    return list(dict.fromkeys(t for t in picked if t and t != "nan"))


def unique_group_name(base: str, existing: Iterable[str]) -> str:
    """``base``, or ``base (2)``, ``base (3)`` ... whichever is not taken yet."""
    taken = set(existing)
    base = base.strip() or "group"
    if base not in taken:
        return base
    k = 2
    while f"{base} ({k})" in taken:
        k += 1
    return f"{base} ({k})"


def check_group_name(name: str, existing: Iterable[str], old: str | None = None) -> str:
    """The stripped name, or ValueError when it is empty or another group has it."""
    name = name.strip()
    if not name:
        raise ValueError("a topic group needs a name")
    if name != old and name in set(existing):
        raise ValueError(f"there is already a topic group named {name!r}")
    return name


def groups_frame(groups: Mapping[str, Sequence[str]], known: Iterable[str] | None = None,
                 preview: int = 12) -> pd.DataFrame:
    """One row per group (index ``group``): ``topics`` (count), ``in collection`` (how many
    are known topics, when ``known`` is given) and ``members`` (the first ``preview``)."""
    known_set = None if known is None else {str(t) for t in known}
    rows = []
    for name, topics in groups.items():
        topics = [str(t) for t in topics]
        row = {"group": name, "topics": len(topics)}
        if known_set is not None:
            row["in collection"] = sum(t in known_set for t in topics)
        row["members"] = ", ".join(topics[:preview]) + (", …" if len(topics) > preview else "")
        rows.append(row)
    cols = ["group", "topics"] + (["in collection"] if known_set is not None else []) \
        + ["members"]
    return pd.DataFrame(rows, columns=cols).set_index("group")
