"""Render a :class:`~yardstick.presentation.reports.document.ReportDocument` to HTML, PDF and files.

* HTML: one self-contained file — tables as HTML, figures as inline SVG, the
  provenance (:class:`~yardstick.common.provenance.Provenance`) in the footer.
* PDF: A4 sheets laid out by :mod:`yardstick.presentation.reports.pdf_layout` (proportional
  fonts, wrapped titles, tables continued across sheets, long per-topic charts in
  rows), the provenance in every sheet's footer, on a last sheet (every run file,
  tag and SHA-256) and in the PDF's metadata; written
  with matplotlib's ``PdfPages`` — no browser or LaTeX needed.
* Files: every figure as PNG, SVG and/or PDF (provenance in the SVG/PDF metadata)
  and every table as CSV, XLSX, LaTeX and/or Markdown (provenance as each table
  format allows), one folder per page.  ``assets`` means PNG + CSV.

Everything is written atomically (:mod:`yardstick.inputs.io.atomic`).
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from yardstick.inputs.io.atomic import atomic_write, atomic_write_bytes
from yardstick.presentation.export.tables import table_to_text
from yardstick.presentation.reports.document import ReportDocument, ReportTable, slug
from yardstick.presentation.reports.figure_pool import (
    FigureFile,
    RenderedFigures,
    TableFile,
    job_cost,
    render,
    run_job,
)
from yardstick.presentation.reports.table_placement import formats_for, with_files_notes

__all__ = ["REPORT_FORMATS", "FIGURE_FORMATS", "TABLE_FORMATS", "parse_formats",
           "render_html", "write_html", "write_pdf", "write_assets", "write_report", "figure_files",
           "table_files"]

REPORT_FORMATS = ("html", "pdf")
FIGURE_FORMATS = ("png", "svg", "pdf")
#: table format -> file suffix
TABLE_FORMATS = {"csv": "csv", "xlsx": "xlsx", "latex": "tex", "markdown": "md"}
_ALIASES = {"tex": "latex", "md": "markdown"}


def parse_formats(text: str) -> tuple[str, ...]:
    """``"html,pdf,svg,tex"`` -> the canonical names; ``assets`` = ``png,csv``.

    ``pdf`` is the PDF report *and* each figure as PDF.  Raises ``ValueError`` naming an
    unknown format.
    """
    out: list[str] = []
    for f in (x.strip().lower() for x in text.split(",")):
        if not f:
            continue
        f = _ALIASES.get(f, f)
        names = ["png", "csv"] if f == "assets" else [f]
        for n in names:
            if n not in REPORT_FORMATS + FIGURE_FORMATS + tuple(TABLE_FORMATS):
                raise ValueError(f"unknown format {f!r} (html, pdf, png, svg, csv, xlsx, tex, "
                                 f"md, assets)")
            if n not in out:
                out.append(n)
    return tuple(out)


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2em;color:#222}
section{page-break-after:always;border-top:2px solid #888;margin-top:2em;padding-top:1em}
.tables{display:flex;flex-wrap:wrap;gap:2em;align-items:flex-start}
table.yardstick-table{border-collapse:collapse;font-size:0.85em}
table.yardstick-table th,table.yardstick-table td{padding:2px 8px;border-bottom:1px solid #ddd}
table.yardstick-table td{text-align:right;font-variant-numeric:tabular-nums}
table.yardstick-table caption{font-weight:bold;text-align:left;padding-bottom:4px}
.long{max-height:24em;overflow:auto}
.figures{display:flex;flex-wrap:wrap;gap:1em}
figure{margin:0}
figcaption{font-size:0.85em;color:#555;text-align:center}
footer{font-size:0.75em;color:#555;border-top:1px solid #aaa;margin-top:2em;padding-top:0.5em}
.caption{font-size:0.8em;color:#444;max-width:50em}
h1,h2,figcaption{overflow-wrap:anywhere}
@media print{.long{max-height:none;overflow:visible}thead{display:table-header-group}
tr,figure{break-inside:avoid}}
"""


def _html_figure(f) -> FigureFile:
    """A figure as the HTML report shows it: inline SVG, 5.5 × 3.8 inches (a ranking of
    many runs as tall as its runs need)."""
    return FigureFile(f.draw, 5.5, max(3.8, _figure_height(f)), "svg")


def _svg(svg: bytes) -> str:
    text = svg.decode("utf-8")
    return text[text.find("<svg"):]


def _asset_figure(f, fmt: str, dpi: int, prov) -> FigureFile:
    """A figure as its own file (``<page>/<figure>.<fmt>``)."""
    return FigureFile(f.draw, _figure_width(f), _figure_height(f), fmt, dpi,
                      prov.matplotlib_metadata(fmt) if prov is not None else None, tight=True)


def figure_files(doc: ReportDocument, formats: tuple[str, ...], dpi: int = 150) -> dict:
    """Every figure file ``formats`` ask for: ``("html", page, figure)`` (the HTML's inline
    SVGs; with ``svg`` among the formats the HTML inlines the SVG files instead, one
    drawing less a figure) and ``(fmt, page, figure)`` for the figure files, each a
    :class:`~yardstick.presentation.reports.figure_pool.FigureFile`."""
    jobs: dict = {}
    for i, page in enumerate(doc.pages):
        for j, f in enumerate(page.figures):
            if "html" in formats and "svg" not in formats:
                jobs["html", i, j] = _html_figure(f)
            for fmt in FIGURE_FORMATS:
                if fmt in formats:
                    jobs[fmt, i, j] = _asset_figure(f, fmt, dpi, doc.provenance)
    return jobs


#: tables longer than this are left to the table files (the 33,525 pairwise p-values of
#: 150 runs and 3 measures made the HTML report 27 MB)
HTML_MAX_ROWS = 2000


def _table_html(t: ReportTable) -> str:
    if len(t.frame) > HTML_MAX_ROWS:
        kinds = ".csv / .xlsx" if t.data_only else ".csv / .xlsx / .tex / .md"
        stem = html.escape(slug(t.name))
        return (f'<div><p class="caption"><b>{html.escape(t.title)}</b>: {len(t.frame):,} rows, '
                f'left to the table files ({stem}{kinds} with --formats).</p></div>')
    body = table_to_text(t.frame, "html", decimals=t.decimals, caption=t.title,
                         markers=t.markers, bold=t.bold)
    if t.caption:
        body += f'<p class="caption">{html.escape(t.caption)}</p>'

    if not t.header:
        body = body.replace("<thead>", '<thead style="display:none">', 1)
    cls = "long" if len(t.frame) > 30 else ""
    return f'<div class="{cls}">{body}</div>'


def render_html(doc: ReportDocument, rendered: RenderedFigures | None = None) -> str:
    """The whole report as one HTML string (figures inline as SVG; ``rendered``: the
    SVGs rendered already, keyed as :func:`figure_files` keys them)."""
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(doc.title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>{e(doc.title)}</h1>"]
    out += [f"<p>{e(n)}</p>" for n in doc.notes]
    for i, page in enumerate(doc.pages):
        out.append(f'<section id="{e(slug(page.title))}"><h2>{e(page.title)}</h2>')
        if page.subtitle:
            out.append(f"<p>{e(page.subtitle)}</p>")
        out.append('<div class="tables">' + "".join(_table_html(t) for t in page.tables)
                   + "</div>")
        out.append('<div class="figures">')
        for j, f in enumerate(page.figures):
            key = next((k for k in (("html", i, j), ("svg", i, j))
                        if rendered is not None and k in rendered.jobs), None)
            svg = rendered.get(key) if key is not None else render(_html_figure(f))
            out.append(f"<figure>{_svg(svg)}<figcaption>{e(f.title)}</figcaption></figure>")
        out.append("</div></section>")
    if doc.provenance is not None:
        out.append("<footer><p>Computed from:</p><ul>"
                   + "".join(f"<li>{e(k)}: {e(v)}</li>" for k, v in doc.provenance.items())
                   + "</ul></footer>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_html(doc: ReportDocument, path: str | os.PathLike,
               rendered: RenderedFigures | None = None) -> Path:
    atomic_write_bytes(path, render_html(doc, rendered).encode("utf-8", "surrogateescape"))
    return Path(path)


def write_pdf(doc: ReportDocument, path: str | os.PathLike) -> Path:
    """The report as A4 sheets (:class:`~yardstick.presentation.reports.pdf_layout.PdfLayout`)."""
    from matplotlib.backends.backend_pdf import PdfPages

    from yardstick.presentation.reports.pdf_layout import PdfLayout

    prov = doc.provenance
    meta = {"Title": doc.title, "Creator": "Yardstick"}
    if prov is not None:
        meta.update(prov.matplotlib_metadata("pdf"))

    def _write(tmp: str) -> None:
        with PdfPages(tmp, metadata=meta) as pdf:
            layout = PdfLayout(pdf, doc.title, prov.summary() if prov is not None else "")
            for page in doc.pages:
                layout.new_sheet(page.title, page.subtitle)
                for t in page.tables:
                    if t.in_pdf:
                        layout.table(t)
                if page.figures:
                    layout.figures(page.figures)
            if prov is not None:
                layout.new_sheet("Provenance", "What every number in this report was computed "
                                 "from")
                layout.table(_provenance_table(prov))
            layout.close_sheet()

    atomic_write(path, _write)
    return Path(path)


def _provenance_table(prov) -> ReportTable:
    """The provenance as a label/value table (the PDF report's last sheet)."""
    import pandas as pd

    items = [(k, v) for k, v in prov.items()]
    frame = pd.DataFrame({"value": [v for _, v in items]},
                         index=pd.Index([k for k, _ in items], name="item"), dtype=object)
    return ReportTable("provenance", "Computed from", frame, header=False)


def write_assets(doc: ReportDocument, folder: str | os.PathLike, dpi: int = 150,
                 table_formats=("csv",), figure_formats=("png",),
                 rendered: RenderedFigures | None = None) -> list[Path]:
    """Every figure as ``<page>/<figure>.<png|svg|pdf>`` (+ its data as tables) and every
    table as ``<page>/<table>.<csv|xlsx|tex|md>``; returns the written paths.
    ``rendered``: the figure files rendered already (:func:`figure_files`' keys)."""
    folder = Path(folder)
    prov = doc.provenance
    jobs = table_files(doc, folder, table_formats)
    paths = {}
    for i, page in enumerate(doc.pages):
        d = folder / slug(page.title)
        for j, f in enumerate(page.figures):
            for fmt in figure_formats:
                jobs[fmt, i, j] = _asset_figure(f, fmt, dpi, prov)
                paths[fmt, i, j] = d / f"{slug(f.name)}.{fmt}"
    written = {}
    # the cheapest first: what the workers (which take the longest first) have not begun
    # is made here meanwhile
    for key in sorted(jobs, key=lambda k: job_cost(jobs[k])):
        got = rendered.get(key) if rendered is not None and key in rendered.jobs \
            else run_job(jobs[key])
        if key in paths:
            atomic_write_bytes(paths[key], got)
            got = paths[key]
        written[key] = Path(got)
    return [written[k] for k in jobs]


def table_files(doc: ReportDocument, folder: str | os.PathLike, table_formats) -> dict:
    """Every table file: ``("table", page number, file name, fmt)`` -> a
    :class:`~yardstick.presentation.reports.figure_pool.TableFile` — each table of a page
    as ``<page>/<table>.<csv|xlsx|tex|md>`` (one too long to typeset as CSV/XLSX only:
    :func:`~yardstick.presentation.reports.table_placement.formats_for`) and each figure's
    data beside its figure."""
    folder, prov, jobs = Path(folder), doc.provenance, {}
    for i, page in enumerate(doc.pages):
        d = folder / slug(page.title)
        for t in page.tables:          # one too long to typeset: CSV/XLSX only
            for fmt in formats_for(t, table_formats):
                name = f"{slug(t.name)}.{TABLE_FORMATS[fmt]}"
                jobs["table", i, name, fmt] = TableFile(
                    t.frame, str(d / name), fmt, t.decimals, t.markers, t.bold, t.caption,
                    prov)
        for fmt in table_formats:
            for f in page.figures:
                if f.data is not None:
                    name = f"{slug(f.name)}.{TABLE_FORMATS[fmt]}"
                    jobs["table", i, name, fmt] = TableFile(f.data, str(d / name), fmt,
                                                            provenance=prov)
    return jobs


def _figure_width(f) -> float:
    """Inches of a figure file: 6, wider for a per-topic chart of many topics (0.06 in. a
    topic, at most 24) so that its bars and topic labels stay apart."""
    n = len(f.data) if f.per_topic and f.data is not None else 0
    return min(24.0, max(6.0, 0.06 * n))


def _figure_height(f) -> float:
    """Inches of a figure file: 4, or 0.14 in. a run for a ranking of many runs, so that
    every run's name is written (150 runs: 22 in.)."""
    return max(4.0, 1.2 + 0.14 * f.rows) if f.rows else 4.0


def write_report(doc: ReportDocument, folder: str | os.PathLike,
                 formats: tuple[str, ...] = ("html", "pdf", "png", "csv"),
                 dpi: int = 150) -> list[Path]:
    """Write ``<kind>_report.html``/``.pdf`` and the figure and table files into ``folder``.

    ``formats`` as :func:`parse_formats` gives them (``"assets"`` is accepted too).
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    formats = parse_formats(",".join(formats))
    base = f"{slug(doc.kind)}_report"
    # the HTML's and the files' figures and the table files are made on worker processes
    # (a large report) while this process lays out the PDF, whose sheets draw their own
    tables = [f for f in TABLE_FORMATS if f in formats]
    # a table too long to typeset goes to CSV/XLSX only: its page says where
    doc = with_files_notes(doc, tables)
    jobs = {**figure_files(doc, formats, dpi), **table_files(doc, folder, tables)}
    with RenderedFigures(jobs) as rendered:
        pdf = write_pdf(doc, folder / f"{base}.pdf") if "pdf" in formats else None
        out = [write_html(doc, folder / f"{base}.html", rendered)] if "html" in formats else []
        out += [pdf] if pdf is not None else []
        out += write_assets(doc, folder, dpi, tables,
                            [f for f in FIGURE_FORMATS if f in formats], rendered)
    return out
