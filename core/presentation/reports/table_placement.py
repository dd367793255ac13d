"""Which files a report table goes to, and the words that say so.

A table a paper can print (the runs x measures comparison) is written in every table
format asked for.  A table too long to typeset (its
:attr:`~yardstick.presentation.reports.document.ReportTable.max_typeset_rows` exceeded:
150 runs' 33,525 pairwise p-values were a 67,000-line ``.tex`` of 1,290 pages) is a data
file: it goes to CSV and/or XLSX only — to CSV in place of LaTeX/Markdown when only those
were asked — and the page it belongs to says where it is and why, in the HTML and the PDF
report alike: nothing is left out without a word.
"""

from __future__ import annotations

from dataclasses import replace

from yardstick.presentation.reports.document import ReportDocument, ReportTable, slug

__all__ = ["PAPER_TABLE_ROWS", "DATA_FORMATS", "formats_for", "files_note", "files_notes",
           "with_files_notes"]

#: the most rows of a pairwise p-value table written as LaTeX/Markdown (about six pages
#: of a two-part longtable; 10 runs x 3 measures are 135 rows, 150 runs x 3 are 33,525)
PAPER_TABLE_ROWS = 300
#: the table formats a data file is written in
DATA_FORMATS = ("csv", "xlsx")
_SUFFIX = {"csv": "csv", "xlsx": "xlsx", "latex": "tex", "markdown": "md"}


def formats_for(t: ReportTable, table_formats) -> list[str]:
    """The formats of ``table_formats`` ``t`` is written in: all of them, or for a table
    too long to typeset (``t.data_only``) the data formats among them — CSV if there
    were none (LaTeX or Markdown only were asked: the rows still go somewhere)."""
    table_formats = list(table_formats)
    if not t.data_only:
        return table_formats
    data = [f for f in table_formats if f in DATA_FORMATS]
    return data or (["csv"] if table_formats else [])


def files_note(t: ReportTable, page_title: str, table_formats) -> str:
    """What a report says of a table too long to typeset: its rows, the files it is in
    (``<page>/<table>.csv``, relative to the report's folder) and why not LaTeX; ``""``
    for any other table."""
    if not t.data_only:
        return ""
    rows = f"{t.title}: {len(t.frame):,} rows"
    why = (f"more than {t.max_typeset_rows:,} rows make a data file, not a paper table")
    got = formats_for(t, table_formats)
    if not got:
        return (f"{rows} ({why}), not written: add csv or xlsx to --formats for "
                f"{slug(page_title)}/{slug(t.name)}.csv.")
    files = " and ".join(f"{slug(page_title)}/{slug(t.name)}.{_SUFFIX[f]}" for f in got)
    skipped = [f for f in table_formats if f not in got]
    instead = (f", not as {' or '.join('LaTeX' if f == 'latex' else 'Markdown' for f in skipped)}"
               if skipped else "")
    return f"{rows} in {files}{instead} ({why})."


def files_notes(doc: ReportDocument, formats) -> list[str]:
    """:func:`files_note` of every table of ``doc`` too long to typeset, for the report
    written in ``formats`` (table formats among them count; ``tex``/``md`` accepted)."""
    tables = _table_formats(formats)
    return [n for page in doc.pages for t in page.tables
            if (n := files_note(t, page.title, tables))]


def with_files_notes(doc: ReportDocument, formats) -> ReportDocument:
    """``doc`` with each page that holds a table too long to typeset saying where it is
    (:func:`files_note`, after the page's subtitle: the HTML and the PDF report print
    it)."""
    tables = _table_formats(formats)
    pages = []
    for page in doc.pages:
        said = [n for n in (files_note(t, page.title, tables) for t in page.tables) if n]
        pages.append(replace(page, subtitle=" ".join([page.subtitle, *said]).strip())
                     if said else page)
    return replace(doc, pages=tuple(pages))


def _table_formats(formats) -> list[str]:
    aliases = {"tex": "latex", "md": "markdown"}
    return [f for f in (aliases.get(f, f) for f in formats) if f in _SUFFIX]
