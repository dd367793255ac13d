"""One measure name in any spelling to its trec_eval column and back: ``P.10``, ``P@10``,
``precision@10`` and the column ``P_10`` all name ``P_10`` (what the API's functions that
take measures accept; :mod:`yardstick.evaluation.measures.spec` parses the spellings)."""

from __future__ import annotations

import re

from yardstick.evaluation.measures.registry import parse_requests
from yardstick.evaluation.measures.spec import parse_measure

__all__ = ["column_name", "request_name", "asked_names"]


def column_name(text: str) -> str:
    """The trec_eval column one measure name gives, in any spelling: ``P.10``, ``P@10``,
    ``precision@10`` and the column itself, ``P_10``, all give ``P_10``.

    A name giving several columns (``P.5,10``), carrying its own options
    (``P(rel=2)@5``) or not parsed (``area``, ``map_worst``: the stability
    aggregates) is returned unchanged, for the caller to judge.
    """
    return _named(text)[1]


def request_name(text: str) -> str:
    """The name to ask the engine for: ``P_10`` (a column) gives ``P.10``; a name that
    parses (``P@10``, ``P.10``) or does not (``area``) is returned unchanged."""
    return _named(text)[0]


def _named(text: str) -> tuple[str, str]:
    """(request, column) of one measure name (see :func:`column_name`)."""
    t = str(text).strip()
    candidates = [t]
    head, sep, tail = t.rpartition("_")
    if sep and head and re.fullmatch(r"\d+(\.\d+)?", tail):
        candidates.append(f"{head}.{tail}")
    for c in candidates:
        try:
            spec = parse_measure(c)
            cols = [n for r in parse_requests([spec.trec_eval]) for n in r.output_names()]
        except Exception:  # noqa: BLE001, S112 - an unparsed name is the caller's to judge
            continue
        if len(cols) == 1 and not spec.has_own_options:
            return c, cols[0]
        return c, t
    return t, t


def asked_names(specs) -> dict[str, str]:
    """trec_eval column -> the name the user asked it by (one-column specs only)."""
    out = {}
    for s in specs:
        if s.dialect == "trec_eval" or s.has_own_options:
            continue
        cols = [n for r in parse_requests([s.trec_eval]) for n in r.output_names()]
        if len(cols) == 1:
            out[cols[0]] = s.text
    return out
