"""XLSX tables (openpyxl): numbers stay numbers, provenance on its own sheet.

Float cells hold the full value with the display format ``0.0000`` (``decimals``
places), count columns ``0``, p-value columns ``[<0.0001]0.00E+00;0.0000`` (never a
false 0.0000).  The ``table`` sheet is tidy, like the CSV: the numbers in their
columns, the significance markers of a column in a ``<column>_marker`` column (the
caller's :func:`~yardstick.presentation.export.columns.tidy_frames` and
:func:`marker_columns` put them there).  When there are markers or bold cells, a
``formatted`` sheet shows the table as a paper prints it: each value with its markers
as a real superscript (openpyxl rich text) and the best values bold.  With a
provenance or a caption, a last sheet ``provenance`` lists them as label/value rows
(``Caption``, then :meth:`~yardstick.common.provenance.Provenance.items`, then the
provenance as JSON), so the ``table`` sheet keeps one header row.
"""

from __future__ import annotations

import contextlib
import math
import threading

import numpy as np
import pandas as pd

from yardstick.presentation.export.cells import (
    cells,
    decimals_for,
    flag_cells,
    fmt_value,
    is_count_column,
    is_pvalue_column,
    marker_cells,
    n_index,
)
from yardstick.presentation.export.columns import marker_columns

__all__ = ["write_xlsx"]

_SAVE_LOCK = threading.Lock()


def write_xlsx(frame: pd.DataFrame, tmp: str, decimals, markers, caption, bold=None,
               provenance=None) -> None:
    """Write ``frame`` to the file ``tmp`` as a workbook (sheet ``table``, ``formatted`` when
    there are markers or bold cells, ``provenance`` when there is a caption or provenance)."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "table"
    if caption:
        wb.properties.title = caption
    _sheet(ws, marker_columns(frame, markers), decimals, None, bold)
    has_bold = bold is not None and bool(np.any(as_bool(bold)))
    if markers is not None or has_bold:
        _sheet(wb.create_sheet("formatted"), frame, decimals, markers, bold)
    if provenance is not None or caption:
        ps = wb.create_sheet("provenance")
        ps.append(["item", "value"])
        if caption:
            ps.append(["Caption", _xml_safe(caption)])
        for item in provenance.items() if provenance is not None else ():
            ps.append([_xml_safe(x) for x in item])
        if provenance is not None:
            ps.append(["json", _xml_safe(provenance.to_json())])
    with _round_trip_floats():
        wb.save(tmp)


def as_bool(flags: pd.DataFrame) -> np.ndarray:
    """A bold frame as booleans (strings: non-empty)."""
    v = flags.to_numpy(dtype=object)
    return np.vectorize(lambda x: bool(x) if not isinstance(x, float) or x == x else False,
                        otypes=[bool])(v) if v.size else np.zeros(v.shape, bool)


def _sheet(ws, frame: pd.DataFrame, decimals, markers, bold) -> None:
    """One header row, then the rows.  Without ``markers`` every value is a number cell;
    with them a marked value is rich text, the number followed by its marks as a
    superscript (what a paper's table shows)."""
    from openpyxl.styles import Font

    header, _ = cells(frame, decimals)
    marks = marker_cells(frame, markers)
    bolds = flag_cells(frame, bold, "1")
    k = n_index(frame)
    ws.append([_xml_safe(h) for h in header])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    counts = [is_count_column(c, frame.iloc[:, j]) for j, c in enumerate(frame.columns)]
    pcols = [is_pvalue_column(c) for c in frame.columns]
    values = frame.to_numpy(dtype=object)      # one conversion, not a pandas row per row
    decs = [decimals_for(decimals, name) for name in frame.columns]
    for i, key in enumerate(frame.index):
        row: list = []
        if k:
            parts = key if isinstance(key, tuple) else (key,)
            row = [_xlsx_value(p) for p in parts]
        row += [_xlsx_value(v) for v in values[i].tolist()]
        ws.append(row)
        for j, _name in enumerate(frame.columns):
            cell = ws.cell(row=i + 2, column=k + j + 1)
            d = decs[j]
            cell.number_format = _number_format(cell.value, counts[j], d,
                                                pcols[j]) or cell.number_format
            b = bool(bolds[i][k + j])
            if marks[i][k + j] and cell.value is not None:
                cell.value = _rich(cell.value, counts[j], d, marks[i][k + j], b, pcols[j])
            elif b:
                cell.font = Font(bold=True)


def _rich(value, count: bool, d: int | None, mark: str, bold: bool, pvalue: bool):
    """The value as text in its display format, then ``mark`` as a superscript."""
    from openpyxl.cell.rich_text import CellRichText, TextBlock
    from openpyxl.cell.text import InlineFont

    text = fmt_value(value, 4 if d is None else d, count, pvalue) \
        if isinstance(value, (int, float)) else str(value)
    base = InlineFont(b=True) if bold else InlineFont()
    sup = InlineFont(vertAlign="superscript", b=True if bold else None)
    return CellRichText(TextBlock(base, text), TextBlock(sup, _xml_safe(mark)))


@contextlib.contextmanager
def _round_trip_floats():
    """openpyxl writes numbers with ``"%.16g"``, which loses the 17th digit some doubles
    need (``0.1 + 0.2`` comes back as ``0.3``).  While saving, its cell writer formats
    floats with ``repr`` (the shortest text that reads back to the same double)."""
    from openpyxl.cell import _writer

    original = _writer.safe_string

    def safe_string(value):
        if isinstance(value, float) and math.isfinite(value):
            return repr(value)
        return original(value)

    with _SAVE_LOCK:
        _writer.safe_string = safe_string
        try:
            yield
        finally:
            _writer.safe_string = original


#: a p-value below 0.0001 in scientific notation, never a false 0.0000
P_FORMAT = "[<0.0001]0.00E+00;0.0000"


def _number_format(value, count: bool, d: int | None, pvalue: bool = False) -> str | None:
    if isinstance(value, float) and not count:
        if pvalue and (d is None or d == 4):
            return P_FORMAT
        d = 4 if d is None else d
        return "0" + ("." + "0" * d if d > 0 else "")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "0"
    return None


def _xlsx_value(v):
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, str):
        return _xml_safe(v)
    if isinstance(v, (int, float)):
        return v
    return _xml_safe(str(v))


def _xml_safe(s: str) -> str:
    """Undecodable bytes (``surrogateescape``) as visible ``\\xNN`` escapes (not in XML)."""
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return s.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
