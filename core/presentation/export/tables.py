"""Tables out to files and the clipboard: CSV, TSV, XLSX, LaTeX (booktabs), Markdown, HTML.

>>> write_table(evaluation.per_topic, "per_topic.tex", caption="Per-topic scores",
...             markers=significant, provenance=prov)   # boolean frame -> superscript dagger

Formats are looked up in :data:`EXPORTERS` (register a new one with :func:`register`).

Precision: CSV, TSV (the clipboard) and XLSX keep every number at full precision
(CSV/TSV as Python's shortest round-trip text, XLSX as numbers with a display
format of ``decimals`` places), so a file reproduces the values it was written
from.  LaTeX, Markdown, HTML and plain text are for reading and print ``decimals``
places (trec_eval's four by default).  Count columns (``num_*`` holding whole
numbers, integer dtypes) are written as integers.

Column names
------------
CSV, TSV and XLSX, the formats read by programs, get one header row of tidy names
shared by every table (``run``, ``topic``, ``measure``, ``value``, ``p_value`` ...;
:mod:`yardstick.presentation.export.columns`); LaTeX, Markdown and HTML keep the labels the
window shows.

Markers and bold
----------------
``markers`` is a frame parallel to ``frame`` (aligned on index and columns;
missing cells mean "no marker") holding booleans (``True`` -> ``†``) or strings
(the superscript itself, e.g. ``"ab"``).  They become ``\\textsuperscript{...}`` in
LaTeX, ``<sup>...</sup>`` in Markdown/HTML, and in CSV, TSV and XLSX's ``table`` sheet a
``<column>_marker`` column beside every column the markers cover, present even when
empty (:func:`~yardstick.presentation.export.columns.marker_columns`), so the numbers stay
numbers; XLSX's ``formatted`` sheet sets them as real superscripts (rich text).  ``bold`` (a
boolean frame of the same shape) sets cells in bold where the format has bold.

Provenance
----------
With a :class:`~yardstick.common.provenance.Provenance`, XLSX gets a ``provenance``
sheet, LaTeX a ``%`` comment block, HTML a comment, and CSV, TSV and Markdown a
``<name>.provenance.json`` file beside them.

Every file is written atomically (:mod:`yardstick.inputs.io.atomic`): a failed export never
leaves half a file behind.  Text is UTF-8 with ``surrogateescape``: a run tag or docno
read from non-UTF-8 bytes is written back as the same bytes (XLSX, whose XML cannot
hold them, shows them as ``\\xNN`` escapes).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from yardstick.inputs.io.atomic import atomic_write, atomic_write_bytes
from yardstick.presentation.export import text_formats as tf
from yardstick.presentation.export.cells import (
    DEFAULT_MARKER,
    as_frame,
    cells,
    flag_cells,
    marker_cells,
)
from yardstick.presentation.export.columns import marker_columns, tidy_frames

__all__ = ["Exporter", "EXPORTERS", "FORMATS", "TEXT_FORMATS", "SUFFIXES", "register",
           "format_for", "write_table", "table_to_text", "provenance_path", "DEFAULT_MARKER",
           "latex_escape"]

latex_escape = tf.latex_escape


@dataclass(frozen=True)
class Exporter:
    """One table format: its suffixes, whether it keeps full precision, whether its
    provenance goes to a ``.provenance.json`` beside it, and how it is written:
    ``text(frame, header, body, marks, bolds, caption, provenance) -> str`` or, for
    binary formats, ``binary(frame, tmp_path, decimals, markers, caption, bold, provenance)``.
    """

    name: str
    suffixes: tuple[str, ...]
    text: Callable | None = None
    binary: Callable | None = None
    full_precision: bool = False
    sidecar: bool = False
    file: bool = True          # offered as a file format (tsv and text are text only)
    tidy: bool = False         # tidy column names (:mod:`yardstick.presentation.export.columns`)


#: format name -> exporter
EXPORTERS: dict[str, Exporter] = {}
_ALIASES = {"md": "markdown", "tex": "latex", "htm": "html", "txt": "tsv"}


def register(exporter: Exporter) -> Exporter:
    """Add (or replace) a table format."""
    EXPORTERS[exporter.name] = exporter
    return exporter


def _write_xlsx(frame, tmp, decimals, markers, caption, bold, provenance):
    from yardstick.presentation.export import (
        xlsx_table,  # looked up at call time (tests replace it)
    )

    xlsx_table.write_xlsx(frame, tmp, decimals, markers, caption, bold, provenance)


register(Exporter("csv", (".csv",), tf.delimited, full_precision=True, sidecar=True, tidy=True))
register(Exporter("tsv", (".tsv", ".txt"), tf.tsv, full_precision=True, sidecar=True,
                  file=False, tidy=True))
register(Exporter("xlsx", (".xlsx",), binary=_write_xlsx, full_precision=True, tidy=True))
register(Exporter("latex", (".tex", ".latex"), tf.latex))
register(Exporter("markdown", (".md", ".markdown"), tf.markdown, sidecar=True))
register(Exporter("html", (".html", ".htm"), tf.html_table))
register(Exporter("text", (), tf.plain, file=False))

#: file formats :func:`write_table` writes (from the suffix)
FORMATS = tuple(n for n, e in EXPORTERS.items() if e.file)
#: formats :func:`table_to_text` produces (tsv is what spreadsheets paste)
TEXT_FORMATS = tuple(n for n, e in EXPORTERS.items() if e.text is not None)
#: suffix -> format
SUFFIXES = {s: n for n, e in EXPORTERS.items() for s in e.suffixes}


def format_for(path: str | os.PathLike, fmt: str | None = None) -> str:
    """The export format: ``fmt`` if given (``md``/``tex`` accepted), else from the file suffix."""
    if fmt is not None:
        fmt = _ALIASES.get(fmt.lower(), fmt.lower())
        if fmt not in EXPORTERS:
            raise ValueError(f"unknown table format {fmt!r}; expected one of "
                             f"{tuple(EXPORTERS)}")
        return fmt
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"cannot tell the table format from {Path(path).name!r}; "
                         f"use a suffix in {sorted(SUFFIXES)} or pass fmt")
    return SUFFIXES[suffix]


def provenance_path(path: str | os.PathLike) -> Path:
    """``t.csv`` -> ``t.provenance.json`` (the provenance file beside a CSV/TSV/Markdown table)."""
    return Path(path).with_suffix(".provenance.json")


def table_caption(stem: str) -> str:
    """The caption of a table known by its file name only: the name itself, so the
    caption says which file a table in a paper's draft came from and keeps the measure's
    spelling (``pairs_P_10_all``), and no LaTeX table goes without one.

    >>> table_caption("pool_summary.tex")
    'pool_summary'
    """
    return os.path.splitext(os.path.basename(stem))[0]


def write_table(frame: pd.DataFrame | pd.Series, path: str | os.PathLike, fmt: str | None = None,
                decimals: int | Mapping[str, int] = 4, markers: pd.DataFrame | None = None,
                caption: str | None = None, bold: pd.DataFrame | None = None,
                provenance=None) -> Path:
    """Write ``frame`` to ``path`` atomically in ``fmt`` (default: from the suffix).

    Parameters
    ----------
    frame : DataFrame or Series
        The table.  The index is written unless it is a default ``RangeIndex``.
    path : path-like
    fmt : str, optional
        A name in :data:`EXPORTERS`; by default from the suffix (``.csv .xlsx .tex .md .html``).
    decimals : int or mapping column -> int
        Decimals shown by the reading formats and XLSX's display format; CSV/TSV
        ignore it (full precision).
    markers, bold : DataFrame, optional
        Significance markers / bold flags parallel to ``frame`` (module docstring).
    caption : str, optional
        Table caption (LaTeX ``\\caption``, HTML ``<caption>``, a Markdown line
        above the table, the XLSX document title).
    provenance : yardstick.common.provenance.Provenance, optional
        Recorded as the format allows (module docstring).

    Returns
    -------
    pathlib.Path
    """
    path = Path(path)
    exporter = EXPORTERS[format_for(path, fmt)]
    if caption is None and exporter.text is tf.latex:   # no LaTeX table without a caption
        caption = table_caption(path.name)
    frame = as_frame(frame)
    if exporter.tidy:
        frame, markers, bold = tidy_frames(frame, _frame_or_none(markers), _frame_or_none(bold))
    if exporter.binary is not None:
        atomic_write(path, lambda tmp: exporter.binary(frame, tmp, decimals, markers, caption,
                                                       bold, provenance))
    else:
        atomic_write_bytes(path, _encode(_render(exporter, frame, decimals, markers, caption,
                                                 bold, provenance)))
    if provenance is not None and exporter.sidecar:
        atomic_write_bytes(provenance_path(path), _encode(provenance.to_json()))
    return path


def table_to_text(frame: pd.DataFrame | pd.Series, fmt: str = "tsv",
                  decimals: int | Mapping[str, int] = 4, markers: pd.DataFrame | None = None,
                  caption: str | None = None, bold: pd.DataFrame | None = None,
                  provenance=None) -> str:
    """The table as text in ``fmt`` (tsv | csv | latex | markdown | html | text).

    Used for the clipboard (tsv pastes into spreadsheets, full precision) and by the
    report renderer.  ``text`` is plain aligned columns, as trec_eval prints tables.
    """
    exporter = EXPORTERS[format_for("", fmt)]
    if exporter.text is None:
        raise ValueError(f"{exporter.name} is binary; use write_table")
    return _render(exporter, as_frame(frame), decimals, markers, caption, bold, provenance)


def _encode(text: str) -> bytes:
    """UTF-8, with the bytes of undecodable docnos and run tags written back as they were read
    (``surrogateescape``, the project's rule for every file Yardstick writes)."""
    return text.encode("utf-8", "surrogateescape")


def _frame_or_none(x):
    return None if x is None else as_frame(x)


def _render(exporter: Exporter, frame, decimals, markers, caption, bold, provenance) -> str:
    if exporter.tidy:
        frame, markers, bold = tidy_frames(frame, _frame_or_none(markers), _frame_or_none(bold))
        frame, markers = marker_columns(frame, markers), None   # marks in their own columns
    header, body = cells(frame, None if exporter.full_precision else decimals)
    return exporter.text(frame, header, body, marker_cells(frame, markers),
                         flag_cells(frame, bold, "1"), caption, provenance)
