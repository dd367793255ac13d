"""The XLSX half of :mod:`yardstick.export.tables` (openpyxl): numbers stay numbers.

Float cells get the number format ``0.0000`` (``decimals`` places), count
columns ``0``; a significance marker becomes a literal in the cell's number
format (``0.0000"†"``), so the value is still numeric in the spreadsheet.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from yardstick.export.cells import _cells, _decimals_for, _is_count_column, _marker_cells, _n_index

__all__ = ["write_xlsx"]


def write_xlsx(frame: pd.DataFrame, tmp: str, decimals, markers, caption) -> None:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    """Write ``frame`` to the file ``tmp`` as a one-sheet workbook."""
    header, _ = _cells(frame, decimals)
    marks = _marker_cells(frame, markers)
    n_idx = _n_index(frame)
    wb = Workbook()
    ws = wb.active
    ws.title = "table"
    if caption:
        wb.properties.title = caption
    ws.append(header)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    counts = [_is_count_column(c, frame.iloc[:, j]) for j, c in enumerate(frame.columns)]
    for i, key in enumerate(frame.index):
        row: list = []
        if n_idx:
            parts = key if isinstance(key, tuple) else (key,)
            row = [_xlsx_value(p) for p in parts]
        row += [_xlsx_value(v) for v in frame.iloc[i].tolist()]
        ws.append(row)
        for j, name in enumerate(frame.columns):
            cell = ws.cell(row=i + 2, column=n_idx + j + 1)
            mark = marks[i][n_idx + j]
            if isinstance(cell.value, float) and not counts[j]:
                d = _decimals_for(decimals, name)
                fmt = "0" + ("." + "0" * d if d > 0 else "")
            elif isinstance(cell.value, (int, float)):
                fmt = "0"
            else:
                fmt = None
            if mark:
                lit = mark.replace('"', "")
                fmt = (fmt or "@") + f'"{lit}"'
            if fmt:
                cell.number_format = fmt
    wb.save(tmp)


def _xlsx_value(v):
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, (int, float, str)):
        return v
    return str(v)
