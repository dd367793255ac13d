"""What a diagnostic assumed, stated once on its answer.

A pool, stability or comparison result depends on choices the data may not make:
which runs and topics (dropped, zero-filled), which runs were pooled and to what depth
(given, inferred from the judged depths, or assumed), the groups (a file, or a guess
from run names), the measure, the seed and the number of resamples.  One
:class:`Assumptions` holds them; the window shows :meth:`Assumptions.text` above the
result, the CLI prints it before its tables, ``--out`` writes :meth:`to_frame` beside
them, and reports print it once.  Notes that hold for every measure are kept here,
once, rather than repeated per measure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import pandas as pd

__all__ = ["Assumptions", "groups_statement", "runs_statement"]

#: the order (and labels) of the lines
FIELDS = (("runs", "runs"), ("topics", "topics"), ("pooled", "pooled runs"),
          ("depth", "pool depth"), ("groups", "groups"), ("measure", "measure"),
          ("seed", "seed"), ("resamples", "B (resamples)"))


@dataclass(frozen=True)
class Assumptions:
    """The assumptions behind one result (None: not part of this result)."""

    runs: str | None = None
    topics: str | None = None
    pooled: str | None = None
    depth: str | None = None
    groups: str | None = None
    measure: str | None = None
    seed: int | None = None
    resamples: int | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    def items(self) -> list[tuple[str, str]]:
        """``(label, text)`` of every stated assumption, then ``("note", ...)`` lines."""
        out = [(label, str(getattr(self, name))) for name, label in FIELDS
               if getattr(self, name) is not None]
        return out + [("note", n) for n in dict.fromkeys(self.notes)]

    def text(self, indent: str = "  ") -> str:
        """``Assumptions:`` and one ``label: text`` line each (the CLI, reports)."""
        lines = [f"{indent}{label}: {value}" for label, value in self.items()]
        return "\n".join(["Assumptions:"] + lines)

    def html(self) -> str:
        """The same as a compact block for the window (rich text)."""
        from html import escape

        rows = "".join(f"<b>{escape(label)}</b>: {escape(value)}<br>"
                       for label, value in self.items())
        return f"<div><b>Assumptions</b><br>{rows}</div>"

    def to_frame(self) -> pd.DataFrame:
        """Two columns, assumption and value (``--out``'s ``assumptions`` table)."""
        items = self.items()
        return pd.DataFrame({"assumption": [k for k, _ in items],
                             "value": [v for _, v in items]}).set_index("assumption")

    def with_notes(self, notes: Sequence[str]) -> "Assumptions":
        return replace(self, notes=tuple(dict.fromkeys(tuple(self.notes) + tuple(notes))))

    def updated(self, **changes) -> "Assumptions":
        return replace(self, **changes)


def runs_statement(names: Sequence[str], limit: int = 6) -> str:
    """``3 runs: a, b, c`` or ``150 runs: a, b, … and 144 more``."""
    shown = ", ".join(names[:limit])
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return f"{len(names)} runs: {shown}{more}"


def groups_statement(group_of: Mapping[str, str], source: str) -> str:
    """How the runs were grouped: ``source`` is ``file NAME``, ``guess`` or ``none``.

    A guess is named as one, with how many groups of several runs it made and how many
    runs it left alone (a group of their own)."""
    sizes: dict[str, int] = {}
    for g in group_of.values():
        sizes[g] = sizes.get(g, 0) + 1
    several = sum(1 for n in sizes.values() if n > 1)
    alone = sum(1 for n in sizes.values() if n == 1)
    if source == "none":
        return f"none: each of the {len(group_of)} runs is its own group"
    if source == "guess":
        return (f"a guess from run names (give a groups file to replace it): {several} "
                f"groups of several runs, {alone} runs alone")
    return f"{source}: {len(sizes)} groups"
