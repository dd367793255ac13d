"""Table cells as text: labels, counts, decimals and significance markers.

Shared by every table writer (:mod:`yardstick.export.tables` for the text formats,
:mod:`yardstick.export.xlsx_table` for spreadsheets), so neither imports the other.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

DEFAULT_MARKER = "†"
_COUNT_PREFIXES = ("num_",)


def _as_frame(frame: pd.DataFrame | pd.Series) -> pd.DataFrame:
    if isinstance(frame, pd.Series):
        return frame.to_frame(name=frame.name if frame.name is not None else "value")
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"expected a DataFrame, got {type(frame).__name__}")
    return frame


def _show_index(frame: pd.DataFrame) -> bool:
    idx = frame.index
    if isinstance(idx, pd.RangeIndex) and idx.name is None:
        return False
    return True


def _n_index(frame: pd.DataFrame) -> int:
    return frame.index.nlevels if _show_index(frame) else 0


def _label(x) -> str:
    if isinstance(x, tuple):
        return " / ".join(str(p) for p in x)
    return "" if x is None else str(x)


def _is_count_column(name, series: pd.Series) -> bool:
    if pd.api.types.is_integer_dtype(series.dtype) or pd.api.types.is_bool_dtype(series.dtype):
        return True
    if not (str(_label(name)).startswith(_COUNT_PREFIXES)
            and pd.api.types.is_numeric_dtype(series.dtype)):
        return False
    v = series.to_numpy(dtype=float)
    v = v[np.isfinite(v)]
    return bool(np.all(v == np.round(v)))


def _decimals_for(decimals: int | Mapping[str, int], name) -> int:
    if isinstance(decimals, Mapping):
        return int(decimals.get(_label(name), decimals.get(name, 4)))
    return int(decimals)


def _fmt_value(v, d: int, count: bool) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA or v is pd.NaT:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        if count and float(v).is_integer():
            return str(int(v))
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return f"{float(v):.{d}f}"
    return str(v)


def _cells(frame: pd.DataFrame, decimals) -> tuple[list[str], list[list[str]]]:
    """Header labels and body cells (index first), all as strings."""
    index_names = [_label(n) for n in frame.index.names] if _show_index(frame) else []
    header = index_names + [_label(c) for c in frame.columns]
    cols = []
    for j, name in enumerate(frame.columns):
        s = frame.iloc[:, j]
        count = _is_count_column(name, s)
        d = _decimals_for(decimals, name)
        cols.append([_fmt_value(v, d, count) for v in s.tolist()])
    body = []
    for i, key in enumerate(frame.index):
        row = []
        if index_names:
            parts = key if isinstance(key, tuple) else (key,)
            row = [_label(p) for p in parts]
        body.append(row + [c[i] for c in cols])
    return header, body


def _marker_cells(frame: pd.DataFrame, markers: pd.DataFrame | None) -> list[list[str]]:
    """Marker strings per body cell (index cells get ``""``)."""
    n_idx = _n_index(frame)
    empty = [[""] * (n_idx + frame.shape[1]) for _ in range(frame.shape[0])]
    if markers is None:
        return empty
    m = _as_frame(markers)
    if m.index.equals(frame.index) and m.columns.equals(frame.columns):
        aligned = m
    else:
        aligned = m.reindex(index=frame.index, columns=frame.columns)
    for i in range(frame.shape[0]):
        for j in range(frame.shape[1]):
            v = aligned.iat[i, j]
            if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
                continue
            if isinstance(v, (bool, np.bool_)):
                s = DEFAULT_MARKER if v else ""
            else:
                s = str(v)
            empty[i][n_idx + j] = s
    return empty
