"""XLSX tables (openpyxl): numbers stay numbers, provenance on its own sheet.

Float cells hold the full value with the display format ``0.0000`` (``decimals``
places), count columns ``0``; a significance marker becomes a literal in the
cell's number format (``0.0000"†"``), so the value is still numeric in the
spreadsheet.  ``bold`` cells get a bold font.  With a provenance or a caption, a second
sheet ``provenance`` lists them as label/value rows (``Caption``, then
:meth:`~yardstick.common.provenance.Provenance.items`, then the provenance as JSON), so the
``table`` sheet
keeps one header row.
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
    is_count_column,
    marker_cells,
    n_index,
)

__all__ = ["write_xlsx"]

_SAVE_LOCK = threading.Lock()


def write_xlsx(frame: pd.DataFrame, tmp: str, decimals, markers, caption, bold=None,
               provenance=None) -> None:
    """Write ``frame`` to the file ``tmp`` as a workbook (sheet ``table`` [+ ``provenance``])."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    header, _ = cells(frame, decimals)
    marks = marker_cells(frame, markers)
    bolds = flag_cells(frame, bold, "1")
    k = n_index(frame)
    wb = Workbook()
    ws = wb.active
    ws.title = "table"
    if caption:
        wb.properties.title = caption
    ws.append([_xml_safe(h) for h in header])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    counts = [is_count_column(c, frame.iloc[:, j]) for j, c in enumerate(frame.columns)]
    for i, key in enumerate(frame.index):
        row: list = []
        if k:
            parts = key if isinstance(key, tuple) else (key,)
            row = [_xlsx_value(p) for p in parts]
        row += [_xlsx_value(v) for v in frame.iloc[i].tolist()]
        ws.append(row)
        for j, name in enumerate(frame.columns):
            cell = ws.cell(row=i + 2, column=k + j + 1)
            cell.number_format = _number_format(cell.value, counts[j],
                                                decimals_for(decimals, name),
                                                marks[i][k + j]) or cell.number_format
            if bolds[i][k + j]:
                cell.font = Font(bold=True)
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


def _number_format(value, count: bool, d: int | None, mark: str) -> str | None:
    if isinstance(value, float) and not count:
        d = 4 if d is None else d
        fmt = "0" + ("." + "0" * d if d > 0 else "")
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        fmt = "0"
    else:
        fmt = None
    if mark:
        fmt = (fmt or "@") + '"' + mark.replace('"', "") + '"'
    return fmt


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
    """Undecodable bytes (``surrogateescape``) as visible ``\\xNN`` escapes: XML cannot hold
    them."""
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return s.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
