"""Table cells as text, shared by every table exporter (:mod:`yardstick.presentation.export.tables`,
:mod:`yardstick.presentation.export.xlsx_table`, :mod:`yardstick.presentation.export.text_formats`).

A p-value smaller than the last decimal shown is written in scientific notation
(``1.29e-06``), never as a false ``0.0000`` (:func:`is_pvalue_column` tells the columns).

``decimals=None`` means full precision: a float is written as Python's shortest
round-trip text (``repr``), so ``float(text) == value`` bit for bit.  Columns that
hold counts (``num_*`` with whole values, or any integer dtype) are written as
integers, as trec_eval prints them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

__all__ = ["DEFAULT_MARKER", "as_frame", "show_index", "n_index", "label", "is_count_name",
           "is_count_column",
           "decimals_for", "fmt_value", "is_pvalue_column", "fmt_pvalue", "cells", "flag_cells",
           "marker_cells", "numeric_columns", "console_text"]

DEFAULT_MARKER = "†"
_COUNT_PREFIXES = ("num_",)
#: a rank is a count too (``earliest_rank``: float only for the documents no run retrieved)
_COUNT_SUFFIXES = ("rank",)


def as_frame(frame: pd.DataFrame | pd.Series) -> pd.DataFrame:
    """``frame`` as a DataFrame (a Series becomes one column)."""
    if isinstance(frame, pd.Series):
        return frame.to_frame(name=frame.name if frame.name is not None else "value")
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"expected a DataFrame, got {type(frame).__name__}")
    if any(pd.api.types.is_object_dtype(dt) for dt in frame.dtypes):
        frame = _numbers_as_numbers(frame)
    return frame


def _kind(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "b"
    if isinstance(v, (int, np.integer)):
        return "i"
    return "f" if isinstance(v, (float, np.floating)) else "o"


def _numbers_as_numbers(frame: pd.DataFrame) -> pd.DataFrame:
    """Object columns holding numbers of one kind (a transposed row: ``row.to_frame().T``)
    as numeric columns; a column mixing counts and fractions (a summary's ``value``) stays
    as it is, so its counts print as integers."""
    out = frame.copy(deep=False)
    for j in range(frame.shape[1]):
        col = frame.iloc[:, j]
        if pd.api.types.is_object_dtype(col.dtype):
            kinds = {_kind(v) for v in col.dropna()}
            if len(kinds) == 1 and kinds <= {"i", "f"}:
                out.isetitem(j, pd.to_numeric(col))
    return out


def show_index(frame: pd.DataFrame) -> bool:
    """The index is written unless it is an unnamed ``RangeIndex``."""
    idx = frame.index
    return not (isinstance(idx, pd.RangeIndex) and idx.name is None)


def n_index(frame: pd.DataFrame) -> int:
    """How many leading columns the index takes."""
    return frame.index.nlevels if show_index(frame) else 0


def label(x) -> str:
    """A header label: tuples (MultiIndex) joined with `` / ``."""
    if isinstance(x, tuple):
        return " / ".join(str(p) for p in x)
    return "" if x is None else str(x)


def is_count_name(name) -> bool:
    """A name of counts, as trec_eval prints them: ``num_*`` (``num_ret``, ``num_rel`` ...)
    or ``*rank``."""
    name = label(name)
    return name.startswith(_COUNT_PREFIXES) or (name.endswith(_COUNT_SUFFIXES)
                                                and "recip" not in name)  # recip_rank: 1/rank


def is_count_column(name, series: pd.Series) -> bool:
    """Integer or boolean dtype, or a ``num_*`` or ``*rank`` column holding whole numbers."""
    if pd.api.types.is_integer_dtype(series.dtype) or pd.api.types.is_bool_dtype(series.dtype):
        return True
    if not (is_count_name(name) and pd.api.types.is_numeric_dtype(series.dtype)):
        return False
    v = series.to_numpy(dtype=float)
    v = v[np.isfinite(v)]
    return bool(np.all(v == np.round(v)))


def decimals_for(decimals: int | Mapping[str, int] | None, name) -> int | None:
    """Decimals of column ``name`` (``None``: full precision)."""
    if isinstance(decimals, Mapping):
        d = decimals.get(label(name), decimals.get(name, 4))
        return None if d is None else int(d)
    return None if decimals is None else int(decimals)


def is_pvalue_column(name) -> bool:
    """A column of p-values (``p``, ``p_value*``, ``*_p_value``, ``p t-test``, ``ASL`` ...),
    told by its tidy name (:func:`yardstick.presentation.export.columns.tidy_name`)."""
    from yardstick.presentation.export.columns import tidy_name

    t = tidy_name(label(name)).lower()
    return t.startswith("p_value") or "_p_value" in t or t in ("asl", "p") \
        or t.startswith("asl_")


def fmt_pvalue(v: float, d: int) -> str:
    """A p-value with ``d`` decimals, or in scientific notation (three significant digits)
    below ``10**-d``, so no p under 0.0001 reads as 0.0001 or as zero: ``1.29e-06``, not
    ``0.0000``; an exact 0 (no resample as extreme) as ``0``.  The one p-value format of
    files and the window."""
    if v == 0:
        return "0"
    if abs(v) < 10.0 ** -d:
        return f"{v:.2e}"
    return f"{v:.{d}f}"


def fmt_value(v, d: int | None, count: bool, pvalue: bool = False) -> str:
    """One cell as text: blank for missing, integers for counts, ``d`` decimals or full;
    ``pvalue``: :func:`fmt_pvalue`."""
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
        if d is None:
            return repr(float(v))
        return fmt_pvalue(float(v), d) if pvalue else fmt_decimals(float(v), d)
    return str(v)


def fmt_decimals(x: float, d: int) -> str:
    """``x`` with ``d`` decimals, never a signed zero: 0 (and -0.0) as ``0.0000``; a value
    that is not zero but rounds to zero in its real digits (``-1.2e-05``: a confidence
    interval's end just below zero is not ``-0.0000``, nor the ``0.0000`` of a zero)."""
    text = f"{x:.{d}f}"
    if x == 0:
        return f"{0.0:.{d}f}"
    if float(text) == 0:
        return f"{x:.2g}"
    return text


def is_p_column(name) -> bool:
    """True for a column of p-values or achieved significance levels (``p t-test``,
    ``p t (holm)``, ``p_value``, ``p_vs_best``, ``asl``)."""
    raw = label(name).strip()
    if raw == "P" or (raw.startswith("P_") and not raw.lower().startswith("p_value")):
        return False               # trec_eval's precision (P_10: a topic's 0 is 0.0000)
    n = raw.lower()
    return (n in {"p", "asl", "p_value", "p-value", "corrected p"} or n.startswith(("p ", "p_"))
            or "p-value" in n or "p_value" in n)


def format_p(v, decimals: int = 4) -> str:
    """A p-value cell as text (:func:`fmt_pvalue`), blank if missing."""
    if v is None or v is pd.NA:
        return ""
    x = float(v)
    return "" if math.isnan(x) else fmt_pvalue(x, decimals)


def cells(frame: pd.DataFrame, decimals) -> tuple[list[str], list[list[str]]]:
    """Header labels and body cells (index first), all as strings."""
    index_names = [label(n) for n in frame.index.names] if show_index(frame) else []
    header = index_names + [label(c) for c in frame.columns]
    cols = []
    for j, name in enumerate(frame.columns):
        s = frame.iloc[:, j]
        count = is_count_column(name, s)
        d = decimals_for(decimals, name)
        p = is_pvalue_column(name)
        cols.append([fmt_value(v, d, count, p) for v in s.tolist()])
    body = []
    for i, key in enumerate(frame.index):
        row = []
        if index_names:
            parts = key if isinstance(key, tuple) else (key,)
            row = [label(p) for p in parts]
        body.append(row + [c[i] for c in cols])
    return header, body


def flag_cells(frame: pd.DataFrame, flags: pd.DataFrame | None, true_text: str) -> list[list[str]]:
    """Per body cell (index cells ``""``): the text of ``flags`` parallel to ``frame``.

    ``flags`` holds booleans (``True`` -> ``true_text``) or strings (the text itself);
    it is aligned on index and columns, missing cells give ``""``.
    """
    k = n_index(frame)
    out = [[""] * (k + frame.shape[1]) for _ in range(frame.shape[0])]
    if flags is None:
        return out
    m = as_frame(flags)
    if not (m.index.equals(frame.index) and m.columns.equals(frame.columns)):
        m = m.reindex(index=frame.index, columns=frame.columns)
    values = m.to_numpy(dtype=object)
    for i, j in zip(*np.nonzero(pd.notna(values))):
        v = values[i, j]
        out[i][k + j] = (true_text if v else "") if isinstance(v, (bool, np.bool_)) else str(v)
    return out


def marker_cells(frame: pd.DataFrame, markers: pd.DataFrame | None) -> list[list[str]]:
    """Significance marker per body cell (``True`` -> :data:`DEFAULT_MARKER`)."""
    return flag_cells(frame, markers, DEFAULT_MARKER)


def numeric_columns(frame: pd.DataFrame) -> list[bool]:
    """Right-align flags for header/body columns (index first)."""
    idx = [False] * n_index(frame)
    return idx + [_is_numbers(frame.iloc[:, j]) for j in range(frame.shape[1])]


def _is_numbers(col: pd.Series) -> bool:
    """A numeric column, or an object one of numbers only (a summary's ``value``: counts
    as ints beside fractions), right-aligned like one."""
    if pd.api.types.is_bool_dtype(col.dtype):
        return False
    if pd.api.types.is_numeric_dtype(col.dtype):
        return True
    kinds = {_kind(v) for v in col.dropna().tolist()} if \
        pd.api.types.is_object_dtype(col.dtype) else {"o"}
    return bool(kinds) and kinds <= {"i", "f"}


def console_text(frame: pd.DataFrame, decimals: int = 4, index: bool = True) -> str:
    """``frame`` as pandas' aligned console text, its cells written as the files write them
    (:func:`fmt_value`): p-value columns through :func:`fmt_pvalue` (``1.29e-06``, never a
    false ``0.0000``), counts as integers, other numbers with ``decimals`` decimals.  The one
    console table format of the CLI."""
    formatters = []
    for j, name in enumerate(frame.columns):
        s = frame.iloc[:, j]
        if pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
            count, p = is_count_column(name, s), is_pvalue_column(name)
            formatters.append(lambda v, c=count, p=p: fmt_value(v, decimals, c, p) or "NaN")
        elif pd.api.types.is_object_dtype(s.dtype):   # mixed (a summary's value, a row):
            p = is_pvalue_column(name)                  # each number in its own kind
            formatters.append(lambda v, p=p: v if isinstance(v, str) else
                              fmt_value(v, decimals, False, p) or "NaN")
        else:
            formatters.append(None)
    return frame.to_string(index=index, formatters=formatters)
