"""The files a result table was computed from, carried in ``frame.attrs["sources"]`` as plain
data and turned into the table's :class:`~yardstick.common.provenance.Provenance` when it is
written (what :func:`yardstick.api.export_table` does with the API's tables)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from yardstick.common.provenance import Provenance
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run

__all__ = ["with_sources", "sources_provenance", "decimals_by_column"]


def with_sources(frame: pd.DataFrame, qrels: Qrels, runs: Sequence[Run], measures, options,
                 **extra) -> pd.DataFrame:
    """``frame`` with the files it was computed from in ``frame.attrs["sources"]`` (plain
    data; :func:`sources_provenance` hashes the files into the table's provenance)."""
    frame.attrs["sources"] = {
        "qrels": qrels.path, "runs": [(r.path, r.tag or r.name) for r in runs if r.path],
        "measures": [str(m) for m in measures], "options": options, "extra": extra}
    return frame


def sources_provenance(frame: pd.DataFrame) -> Provenance | None:
    """The provenance of a table :func:`with_sources` marked (its files hashed now), or None."""
    src = frame.attrs.get("sources") if isinstance(frame, pd.DataFrame) else None
    if not src:
        return None
    return Provenance.build(
        src["qrels"], src["runs"], src["measures"], src["options"],
        seeds={"seed": src["extra"]["seed"]} if "seed" in src["extra"] else None,
        extra={k: v for k, v in src["extra"].items() if k != "seed"})


def decimals_by_column(frame: Any, decimals: Mapping[str, int]) -> dict[str, int]:
    """``{"P.10": 3}`` / ``{"P@10": 3}`` keyed by the table's column (``P_10``); a key that
    already names a column stays."""
    from yardstick.evaluation.measures.column_names import column_name

    cols = {str(c) for c in frame.columns} if isinstance(frame, pd.DataFrame) else set()
    return {k if k in cols else column_name(k): v for k, v in decimals.items()}
