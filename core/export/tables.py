"""Tables out to files and the clipboard: CSV, XLSX, LaTeX (booktabs), Markdown, HTML.

>>> write_table(evaluation.per_topic, "per_topic.tex", caption="Per-topic scores",
...             markers=significant)        # boolean frame -> superscript dagger

Numbers keep trec_eval's four decimals unless ``decimals`` says otherwise;
columns that hold counts (``num_ret``, ``num_rel``, ``num_rel_ret``, ``num_q``
and any integer dtype) are written as integers, as trec_eval prints them.

Significance markers
--------------------
``markers`` is a frame parallel to ``frame`` (aligned on index and columns;
missing cells mean "no marker") holding either booleans (``True`` -> the
default symbol ``†``) or strings (the superscript itself, e.g. ``"a"``,
``"†‡"``).  They are rendered as ``\\textsuperscript{...}`` in LaTeX,
``<sup>...</sup>`` in Markdown/HTML, a literal suffix in CSV/TSV, and as part
of the cell's *number format* in XLSX so the cell stays numeric.

Every file is written atomically (:mod:`yardstick.io.atomic`): a failed export never
leaves half a file behind.  No third-party formatter is needed (pandas' own
``to_latex``/``to_markdown`` would pull in jinja2 and tabulate).
"""

from __future__ import annotations

import csv
import html
import io
import os
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from yardstick.export.cells import (DEFAULT_MARKER, _as_frame, _cells, _marker_cells,  # noqa: F401
                                    _n_index, _show_index)
from yardstick.io.atomic import atomic_write, atomic_write_text

__all__ = ["FORMATS", "SUFFIXES", "format_for", "write_table", "table_to_text",
           "DEFAULT_MARKER"]

#: file formats :func:`write_table` writes
FORMATS = ("csv", "xlsx", "latex", "markdown", "html")
#: formats :func:`table_to_text` produces (tsv is what spreadsheets paste)
TEXT_FORMATS = ("tsv", "csv", "latex", "markdown", "html", "text")
#: suffix -> format
SUFFIXES = {".csv": "csv", ".xlsx": "xlsx", ".tex": "latex", ".latex": "latex",
            ".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html",
            ".tsv": "tsv", ".txt": "tsv"}

# unicode symbols LaTeX cannot take raw in text mode (without extra packages)
_LATEX_SYMBOLS = {"†": r"\dag{}", "‡": r"\ddag{}", "§": r"\S{}", "¶": r"\P{}",
                  "▲": r"$\blacktriangle$", "▼": r"$\blacktriangledown$",
                  "↑": r"$\uparrow$", "↓": r"$\downarrow$", "*": r"*"}
_LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$",
                  "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def format_for(path: str | os.PathLike, fmt: str | None = None) -> str:
    """The export format: ``fmt`` if given, else from the file suffix."""
    if fmt is not None:
        fmt = fmt.lower()
        if fmt in ("md",):
            fmt = "markdown"
        if fmt in ("tex",):
            fmt = "latex"
        if fmt not in FORMATS + TEXT_FORMATS:
            raise ValueError(f"unknown table format {fmt!r}; expected one of {FORMATS}")
        return fmt
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"cannot tell the table format from {Path(path).name!r}; "
                         f"use a suffix in {sorted(SUFFIXES)} or pass fmt")
    return SUFFIXES[suffix]


def write_table(frame: pd.DataFrame | pd.Series, path: str | os.PathLike, fmt: str | None = None,
                decimals: int | Mapping[str, int] = 4, markers: pd.DataFrame | None = None,
                caption: str | None = None) -> Path:
    """Write ``frame`` to ``path`` atomically as csv | xlsx | latex | markdown | html.

    Parameters
    ----------
    frame : DataFrame or Series
        The table.  The index is written unless it is a default ``RangeIndex``.
    path : path-like
    fmt : str, optional
        Format; by default from the suffix (``.csv .xlsx .tex .md .html``).
    decimals : int or mapping column -> int
        Decimals for float cells (trec_eval prints 4).
    markers : DataFrame, optional
        Significance markers parallel to ``frame`` (see module docstring).
    caption : str, optional
        Table caption (LaTeX ``\\caption``, HTML ``<caption>``, a Markdown line
        above the table, the XLSX document title).

    Returns
    -------
    pathlib.Path
    """
    path = Path(path)
    fmt = format_for(path, fmt)
    frame = _as_frame(frame)
    if fmt == "xlsx":
        from yardstick.export.xlsx_table import write_xlsx

        atomic_write(path, lambda tmp: write_xlsx(frame, tmp, decimals, markers, caption))
    else:
        atomic_write_text(path, table_to_text(frame, fmt, decimals, markers, caption))
    return path


def table_to_text(frame: pd.DataFrame | pd.Series, fmt: str = "tsv",
                  decimals: int | Mapping[str, int] = 4, markers: pd.DataFrame | None = None,
                  caption: str | None = None) -> str:
    """The table as text in ``fmt`` (tsv | csv | latex | markdown | html | text).

    Used for the clipboard (tsv pastes into spreadsheets) and by the report renderer.

    ``text`` is plain aligned columns, as trec_eval and the appendix print tables.
    """
    fmt = format_for("", fmt)
    frame = _as_frame(frame)
    if fmt == "xlsx":
        raise ValueError("xlsx is binary; use write_table")
    header, body = _cells(frame, decimals)
    marks = _marker_cells(frame, markers)
    if fmt in ("csv", "tsv"):
        return _delimited(header, body, marks, "," if fmt == "csv" else "\t")
    if fmt == "markdown":
        return _markdown(frame, header, body, marks, caption)
    if fmt == "text":
        return _plain(frame, header, body, marks, caption)
    if fmt == "latex":
        return _latex(frame, header, body, marks, caption)
    return _html(header, body, marks, caption, _n_index(frame))


# ---------------------------------------------------------------------------
# renderers


def _delimited(header, body, marks, sep: str) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator="\n")
    w.writerow(header)
    for row, mrow in zip(body, marks):
        w.writerow([c + m for c, m in zip(row, mrow)])
    return buf.getvalue()


def _numeric_columns(frame: pd.DataFrame) -> list[bool]:
    """Right-align flags for header/body columns (index first)."""
    idx = [False] * _n_index(frame)
    return idx + [pd.api.types.is_numeric_dtype(frame.iloc[:, j].dtype)
                  and not pd.api.types.is_bool_dtype(frame.iloc[:, j].dtype)
                  for j in range(frame.shape[1])]


def _markdown(frame, header, body, marks, caption) -> str:
    def esc(s: str) -> str:
        return s.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")

    rows = [[esc(c) + (f"<sup>{html.escape(m)}</sup>" if m else "") for c, m in zip(r, mr)]
            for r, mr in zip(body, marks)]
    head = [esc(h) for h in header]
    right = _numeric_columns(frame)
    widths = [max([len(head[j])] + [len(r[j]) for r in rows] + [3]) for j in range(len(head))]

    def line(cells):
        return "| " + " | ".join(c.rjust(w) if r else c.ljust(w)
                                 for c, w, r in zip(cells, widths, right)) + " |"

    rule = "| " + " | ".join(("-" * (w - 1) + ":") if r else ("-" * w)
                             for w, r in zip(widths, right)) + " |"
    out = []
    if caption:
        out += [f"**{esc(caption)}**", ""]
    out += [line(head), rule] + [line(r) for r in rows]
    return "\n".join(out) + "\n"


def _plain(frame, header, body, marks, caption) -> str:
    rows = [[c + m for c, m in zip(r, mr)] for r, mr in zip(body, marks)]
    right = _numeric_columns(frame)
    widths = [max([len(header[j])] + [len(r[j]) for r in rows]) for j in range(len(header))]

    def line(cells):
        return "  ".join(c.rjust(w) if r else c.ljust(w)
                         for c, w, r in zip(cells, widths, right)).rstrip()

    out = [caption] if caption else []
    if any(header):
        out.append(line(header))
    out += [line(r) for r in rows]
    return "\n".join(out) + "\n"


def latex_escape(text: str) -> str:
    """Escape LaTeX special characters in plain text."""
    return "".join(_LATEX_ESCAPES.get(ch, ch) for ch in str(text))


def _latex_marker(m: str) -> str:
    inner = "".join(_LATEX_SYMBOLS.get(ch) or latex_escape(ch) for ch in m)
    return r"\textsuperscript{" + inner + "}"


def _latex(frame, header, body, marks, caption) -> str:
    right = _numeric_columns(frame)
    spec = "".join("r" if r else "l" for r in right)
    lines = [r"% requires \usepackage{booktabs}", r"\begin{table}[htbp]", r"\centering"]
    if caption:
        lines.append(r"\caption{" + latex_escape(caption) + "}")
    lines += [r"\begin{tabular}{" + spec + "}", r"\toprule",
              " & ".join(latex_escape(h) for h in header) + r" \\", r"\midrule"]
    for r, mr in zip(body, marks):
        lines.append(" & ".join(latex_escape(c) + (_latex_marker(m) if m else "")
                                for c, m in zip(r, mr)) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def _html(header, body, marks, caption, n_index: int) -> str:
    e = html.escape
    out = ['<table class="yardstick-table">']
    if caption:
        out.append(f"<caption>{e(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr></thead>")
    out.append("<tbody>")
    for r, mr in zip(body, marks):
        cells = []
        for j, (c, m) in enumerate(zip(r, mr)):
            tag = "th" if j < n_index else "td"
            sup = f"<sup>{e(m)}</sup>" if m else ""
            cells.append(f"<{tag}>{e(c)}{sup}</{tag}>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out) + "\n"
