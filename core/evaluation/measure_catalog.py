"""Names and one-line descriptions of the measures a user can pick.

A thin view over the measure registry (:mod:`yardstick.evaluation.measures.registry`) for the
measure picker and table-header tooltips: each entry is a trec_eval measure
name, its description and its default parameters (``P`` -> ``5,10,...,1000``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from yardstick.evaluation.measures.registry import all_measures

__all__ = ["MeasureInfo", "catalog", "describe", "search"]


@dataclass(frozen=True)
class MeasureInfo:
    """One pickable measure: trec_eval name, description, default parameters."""

    name: str
    description: str = ""
    params: str = ""

    @property
    def spec(self) -> str:
        """What to ask the engine for: ``name`` or ``name.params``."""
        return f"{self.name}.{self.params}" if self.params else self.name


def _params_text(params: tuple) -> str:
    if params and isinstance(params[0], tuple):          # name=value pairs
        return ",".join(f"{k}={v:g}" for k, v in params)
    return ",".join(f"{p:g}" if isinstance(p, float) else str(p) for p in params)


_CACHE: list[MeasureInfo] | None = None


def catalog(refresh: bool = False) -> list[MeasureInfo]:
    """Every measure usable with plain qrels, in trec_eval's order."""
    global _CACHE
    if _CACHE is None or refresh:
        _CACHE = [MeasureInfo(d.name, " ".join(d.description.split()),
                              _params_text(d.default_params))
                  for d in all_measures("qrels")]
    return _CACHE


def describe(column: str) -> str:
    """A tooltip for a per-topic column name (``P_10`` -> precision at cutoff 10 ...)."""
    by_name = {m.name: m for m in catalog()}
    if column in by_name:
        return f"{column}: {by_name[column].description}".strip(": ")
    m = re.match(r"^(.*?)_([0-9.]+)$", column)
    if m and m.group(1) in by_name:
        base = by_name[m.group(1)]
        return f"{column}: {base.description} (k = {m.group(2)})"
    return column


def search(text: str) -> list[MeasureInfo]:
    """Measures whose name or description contains every word of ``text`` (case-insensitive)."""
    words = text.lower().split()
    return [m for m in catalog()
            if all(w in (m.name + " " + m.description).lower() for w in words)]
