"""Render a :class:`~core.reports.document.ReportDocument` to HTML, PDF, PNGs and CSVs.

* HTML: one self-contained file — tables as HTML, figures as inline SVG.
* PDF: one page per report page, laid out like the TREC appendix pages (title,
  the tables side by side as fixed-width text, the graphs below), written with
  matplotlib's ``PdfPages`` — no browser or LaTeX needed.
* Assets: every figure as PNG and every table as CSV, in one folder per page.

Everything is written atomically (:mod:`yardstick.io.atomic`).
"""

from __future__ import annotations

import html
import io
import os
from pathlib import Path

from yardstick.export.tables import table_to_text, write_table
from yardstick.io.atomic import atomic_write, atomic_write_bytes, atomic_write_text
from yardstick.reports.document import ReportDocument, ReportPage, ReportTable, slug
from yardstick.reports.figures import new_figure

__all__ = ["render_html", "write_html", "write_pdf", "write_assets", "write_report"]

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
"""


def _svg(fig_spec, width=5.5, height=3.8) -> str:
    fig = new_figure(width, height)
    fig_spec.draw(fig.add_subplot())
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    text = buf.getvalue()
    return text[text.find("<svg"):]


def _table_html(t: ReportTable) -> str:
    body = table_to_text(t.frame, "html", decimals=t.decimals, caption=t.title)
    if not t.header:
        body = body.replace("<thead>", '<thead style="display:none">', 1)
    cls = "long" if len(t.frame) > 30 else ""
    return f'<div class="{cls}">{body}</div>'


def render_html(doc: ReportDocument) -> str:
    """The whole report as one HTML string (figures inline as SVG)."""
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(doc.title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>{e(doc.title)}</h1>"]
    out += [f"<p>{e(n)}</p>" for n in doc.notes]
    for page in doc.pages:
        out.append(f'<section id="{e(slug(page.title))}"><h2>{e(page.title)}</h2>')
        if page.subtitle:
            out.append(f"<p>{e(page.subtitle)}</p>")
        out.append('<div class="tables">' + "".join(_table_html(t) for t in page.tables)
                   + "</div>")
        out.append('<div class="figures">')
        for f in page.figures:
            out.append(f"<figure>{_svg(f)}<figcaption>{e(f.title)}</figcaption></figure>")
        out.append("</div></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_html(doc: ReportDocument, path: str | os.PathLike) -> Path:
    atomic_write_text(path, render_html(doc))
    return Path(path)


_CHAR_W = 0.6 * 7 / 72 / 8.27     # width of one 7-pt monospace character, as a page fraction
_LINE_H = 1.35 * 7 / 72 / 11.69   # height of one line of it


def _table_lines(t: ReportTable) -> list[str]:
    frame = t.frame
    if not t.header:
        frame = frame.rename_axis(None).set_axis([""] * frame.shape[1], axis=1)
    return table_to_text(frame, "text", decimals=t.decimals).rstrip("\n").splitlines()


def _page_figure(doc: ReportDocument, page: ReportPage):
    """One A4 portrait page: title, tables as monospace text blocks, figures below."""
    fig = new_figure(8.27, 11.69)
    fig.set_layout_engine(None)
    fig.text(0.5, 0.975, doc.title, ha="center", va="top", fontsize=11, color="#555")
    fig.text(0.5, 0.955, page.title, ha="center", va="top", fontsize=14, weight="bold")
    if page.subtitle:
        fig.text(0.5, 0.93, page.subtitle, ha="center", va="top", fontsize=9)
    x, y, row_h = 0.05, 0.9, 0.0
    for t in (t for t in page.tables if t.in_pdf):
        lines = _table_lines(t)
        w = max([len(t.title) * 1.3] + [len(s) for s in lines]) * _CHAR_W
        h = 0.02 + _LINE_H * len(lines)
        if x > 0.05 and x + w > 0.97:          # wrap to a new row of tables
            x, y, row_h = 0.05, y - row_h - 0.03, 0.0
        fig.text(x, y, t.title, fontsize=9, weight="bold", va="top")
        fig.text(x, y - 0.02, "\n".join(lines), fontsize=7, family="monospace", va="top",
                 linespacing=1.35)
        x += w + 0.04
        row_h = max(row_h, h)
    figs = page.figures
    if figs:
        top = min(y - row_h - 0.05, 0.62)
        n_rows = (len(figs) + 1) // 2
        cell_h = (top - 0.04) / n_rows
        for i, f in enumerate(figs):
            row, col = divmod(i, 2)
            if len(figs) > 1:
                rect = (0.08 + col * 0.5, top - (row + 1) * cell_h + 0.06, 0.38, cell_h - 0.1)
            else:
                rect = (0.12, top - cell_h + 0.06, 0.76, min(cell_h - 0.1, 0.45))
            f.draw(fig.add_axes(rect))
    return fig


def write_pdf(doc: ReportDocument, path: str | os.PathLike) -> Path:
    """One PDF page per report page (matplotlib PdfPages)."""
    from matplotlib.backends.backend_pdf import PdfPages

    def _write(tmp: str) -> None:
        with PdfPages(tmp, metadata={"Title": doc.title, "Creator": "Yardstick"}) as pdf:
            for page in doc.pages:
                pdf.savefig(_page_figure(doc, page))

    atomic_write(path, _write)
    return Path(path)


def write_assets(doc: ReportDocument, folder: str | os.PathLike, dpi: int = 150,
                 table_format: str = "csv") -> list[Path]:
    """Every figure as ``<page>/<figure>.png`` (+ its data as CSV) and every table as
    ``<page>/<table>.csv``; returns the written paths."""
    folder = Path(folder)
    written = []
    for page in doc.pages:
        d = folder / slug(page.title)
        for t in page.tables:
            written.append(write_table(t.frame, d / f"{slug(t.name)}.{table_format}",
                                       decimals=t.decimals))
        for f in page.figures:
            fig = new_figure(6, 4, dpi)
            f.draw(fig.add_subplot())
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=dpi)
            p = d / f"{slug(f.name)}.png"
            atomic_write_bytes(p, buf.getvalue())
            written.append(p)
            if f.data is not None:
                written.append(write_table(f.data, d / f"{slug(f.name)}.{table_format}"))
    return written


def write_report(doc: ReportDocument, folder: str | os.PathLike,
                 formats: tuple[str, ...] = ("html", "pdf", "assets")) -> list[Path]:
    """Write ``<kind>_report.html``, ``<kind>_report.pdf`` and the assets into ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    base = f"{slug(doc.kind)}_report"
    if "html" in formats:
        out.append(write_html(doc, folder / f"{base}.html"))
    if "pdf" in formats:
        out.append(write_pdf(doc, folder / f"{base}.pdf"))
    if "assets" in formats:
        out += write_assets(doc, folder)
    return out
