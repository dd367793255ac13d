"""What a report is made of, independent of how it is rendered (HTML, PDF, files).

A :class:`ReportDocument` is a title and a list of pages; a :class:`ReportPage`
holds tables (DataFrames) and figures (functions that draw on a matplotlib
``Axes``).  :mod:`yardstick.presentation.reports.render` turns a document into HTML, PDF, PNGs
and CSV tables.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

__all__ = ["ReportTable", "ReportFigure", "ReportPage", "ReportDocument", "slug"]


def slug(text: str) -> str:
    """A file-name-safe version of ``text``."""
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", str(text)).strip("._")
    return s or "item"


@dataclass(frozen=True, eq=False)
class ReportTable:
    """A titled table; ``header=False`` prints it as label/value lines (appendix style);
    ``in_pdf=False`` keeps long per-topic tables out of the PDF pages (HTML and files only);
    ``markers``/``bold`` (frames parallel to ``frame``) and ``caption`` go to the table
    files (:func:`yardstick.presentation.export.tables.write_table`);
    ``max_typeset_rows``: beyond this many rows the table is a data file, not a paper
    table (150 runs' 33,525 pairwise p-values were 1,290 LaTeX pages): it is written as
    CSV/XLSX only, never LaTeX or Markdown, and the report says where
    (:func:`yardstick.presentation.reports.render.with_files_notes`)."""

    name: str
    title: str
    frame: pd.DataFrame
    decimals: int = 4
    header: bool = True
    in_pdf: bool = True
    markers: pd.DataFrame | None = None
    bold: pd.DataFrame | None = None
    caption: str | None = None
    max_typeset_rows: int | None = None

    @property
    def data_only(self) -> bool:
        """Too long to typeset (``max_typeset_rows`` exceeded): CSV/XLSX only."""
        return self.max_typeset_rows is not None and len(self.frame) > self.max_typeset_rows


@dataclass(frozen=True, eq=False)
class ReportFigure:
    """A titled figure drawn by ``draw(ax)``; ``data`` is the frame behind it;
    ``per_topic``: x is one position per row of ``data`` (the PDF splits long ones into rows);
    ``rows``: labelled rows down the y axis (a ranking of runs), which the PDF gives the
    page's width and the height they need."""

    name: str
    title: str
    draw: Callable
    data: pd.DataFrame | None = None
    per_topic: bool = False
    rows: int = 0


@dataclass(frozen=True, eq=False)
class ReportPage:
    title: str
    subtitle: str = ""
    tables: tuple[ReportTable, ...] = ()
    figures: tuple[ReportFigure, ...] = ()


@dataclass(frozen=True, eq=False)
class ReportDocument:
    title: str
    kind: str
    pages: tuple[ReportPage, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = ()
    #: a :class:`yardstick.common.provenance.Provenance`, shown in footers and metadata
    provenance: object = None

    def table(self, page: int, name: str) -> pd.DataFrame:
        """A table by page index and name (for tests and exports)."""
        for t in self.pages[page].tables:
            if t.name == name:
                return t.frame
        raise KeyError(name)

    def to_frame(self) -> pd.DataFrame:
        """Every table cell in long form: ``page``, ``table``, ``row``, ``column``, ``value``."""
        parts = []
        for p in self.pages:
            for t in p.tables:
                f = t.frame.copy()
                f.index = f.index.astype(str)
                long = f.astype(object).stack(future_stack=True).rename("value").reset_index()
                long.columns = ["row", "column", "value"]
                long.insert(0, "table", t.name)
                long.insert(0, "page", p.title)
                parts.append(long)
        if not parts:
            return pd.DataFrame(columns=["page", "table", "row", "column", "value"])
        return pd.concat(parts, ignore_index=True)
