"""Natural order for topic ids and run names: ``"2" < "10" < "100"``, ``"a9" < "a10"``.

trec_eval lists topics in ``strcmp`` order (``"100" < "2"``), which its text
output keeps; wherever a person reads a list of topics (tables, menus, chart
axes) they come in natural order instead: runs of digits compare by value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pandas as pd

__all__ = ["natural_key", "natural_sorted", "in_natural_order"]

_DIGITS = re.compile(r"\d+")


def natural_key(text: object) -> str:
    """A text key under which digit runs sort by value (each padded to 20 digits)."""
    return _DIGITS.sub(lambda m: m.group().zfill(20), str(text))


def natural_sorted(items: Iterable[object]) -> list[str]:
    """``items`` as strings, in natural order (ties between equal keys in text order)."""
    return sorted((str(t) for t in items), key=lambda t: (natural_key(t), t))


def in_natural_order(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its rows in natural order of its index (for topic-indexed tables)."""
    if frame.empty:
        return frame
    keys = [(natural_key(t), str(t)) for t in frame.index]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    return frame.iloc[order]
