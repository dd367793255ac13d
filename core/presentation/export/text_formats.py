"""Text renderers of a table: CSV/TSV, Markdown, plain text, LaTeX (booktabs), HTML.

Each takes the frame, its header and body cells (:func:`yardstick.presentation.export.cells.cells`),
the significance marker and bold flag of each cell, a caption and an optional
:class:`~yardstick.common.provenance.Provenance`, and returns the text.  LaTeX needs only
``booktabs``: markers are ``\\textsuperscript`` of symbols every LaTeX kernel has
(``\\dag``, ``\\ddag``, ``$\\bigtriangleup$`` for ▲ ...), the provenance is a ``%``
comment block.  HTML carries the provenance as a comment; CSV, TSV and Markdown
get a ``.provenance.json`` file beside them (written by
:mod:`yardstick.presentation.export.tables`, which also puts the markers of a CSV/TSV
column in a ``<column>_marker`` column beside it before :func:`delimited` sees them).
"""

from __future__ import annotations

import csv
import html
import io

from yardstick.presentation.export.cells import n_index, numeric_columns

__all__ = ["delimited", "markdown", "plain", "latex", "html_table", "latex_escape"]

# symbols pdflatex takes without any package (▲/▼ were amssymb's \blacktriangle: not any more)
_LATEX_SYMBOLS = {"†": r"\dag{}", "‡": r"\ddag{}", "§": r"\S{}", "¶": r"\P{}", "–": "--",
                  "▲": r"$\bigtriangleup$", "▼": r"$\bigtriangledown$",
                  "△": r"$\bigtriangleup$", "▽": r"$\bigtriangledown$",
                  "↑": r"$\uparrow$", "↓": r"$\downarrow$", "*": r"*",
                  "≤": r"$\leq$", "≥": r"$\geq$", "±": r"$\pm$", "α": r"$\alpha$",
                  # what titles and notes hold (captions of stability's and pool's tables)
                  "—": "---", "−": "$-$", "×": r"$\times$", "·": r"$\cdot$", "…": r"\dots{}",
                  "²": r"$^2$", "≈": r"$\approx$", "→": r"$\rightarrow$", "√": r"$\surd$",
                  "“": "``", "”": "''", "τ": r"$\tau$", "σ": r"$\sigma$",
                  "λ": r"$\lambda$", "β": r"$\beta$", "δ": r"$\delta$", "Δ": r"$\Delta$",
                  "Σ": r"$\Sigma$", "Γ": r"$\Gamma$", "ρ": r"$\rho$", "μ": r"$\mu$"}
_LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$",
                  "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


_LATEX_TABLE = str.maketrans({**_LATEX_SYMBOLS, **_LATEX_ESCAPES})


def latex_escape(text: str) -> str:
    """Escape LaTeX special characters (and the symbols above) in plain text; bytes that
    are not UTF-8 (a docno read with ``surrogateescape``) as visible ``\\xNN`` (raw, they
    stopped pdflatex: "Invalid UTF-8 byte")."""
    s = str(text)
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        s = s.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return s.translate(_LATEX_TABLE)


def delimited(frame, header, body, marks, bolds, caption, provenance, sep: str = ",") -> str:
    """One header row, then the rows (markers arrive as ``<column>_marker`` columns of
    the frame: :func:`yardstick.presentation.export.columns.marker_columns`)."""
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator="\n")
    w.writerow(header)
    w.writerows(body)
    return buf.getvalue()


def tsv(frame, header, body, marks, bolds, caption, provenance) -> str:
    """Tab-separated (what spreadsheets paste from the clipboard)."""
    return delimited(frame, header, body, marks, bolds, caption, provenance, "\t")


def markdown(frame, header, body, marks, bolds, caption, provenance) -> str:
    """A pipe table, columns padded, numbers right-aligned, markers as ``<sup>``."""
    def esc(s: str) -> str:
        return s.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")

    def cell(c, m, b):
        text = esc(c) + (f"<sup>{html.escape(m)}</sup>" if m else "")
        return f"**{text}**" if b and c else text

    rows = [[cell(c, m, b) for c, m, b in zip(r, mr, br)]
            for r, mr, br in zip(body, marks, bolds)]
    head = [esc(h) for h in header]
    right = numeric_columns(frame)
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


def plain(frame, header, body, marks, bolds, caption, provenance) -> str:
    """Aligned columns, as trec_eval and the TREC appendix print tables."""
    rows = [[c + m for c, m in zip(r, mr)] for r, mr in zip(body, marks)]
    right = numeric_columns(frame)
    widths = [max([len(header[j])] + [len(r[j]) for r in rows]) for j in range(len(header))]

    def line(cells):
        return "  ".join(c.rjust(w) if r else c.ljust(w)
                         for c, w, r in zip(cells, widths, right)).rstrip()

    out = [caption] if caption else []
    if any(header):
        out.append(line(header))
    out += [line(r) for r in rows]
    return "\n".join(out) + "\n"


def _latex_marker(m: str) -> str:
    return r"\textsuperscript{" + latex_escape(m) + "}"


#: tables longer than this many rows become a ``longtable`` (breaks across pages)
LONG_TABLE_ROWS = 40


def latex(frame, header, body, marks, bolds, caption, provenance) -> str:
    """A ``table`` float with a booktabs ``tabular``; past :data:`LONG_TABLE_ROWS` rows a
    ``longtable`` whose header repeats on every page.  The provenance as ``%`` comments.

    A column with significance markers is set as two, ``r@{}l``: the numbers stay
    aligned on their last digit and the superscripts follow them, left-aligned.  The
    table fits a 345 pt text width (A4 and US letter,
    :mod:`yardstick.presentation.export.latex_width`): set
    ``\\small`` when it must, and a table wider still is split into groups of columns,
    the row labels repeated in each, under one caption; a comment says so.
    """
    from yardstick.presentation.export import latex_width

    right = numeric_columns(frame)
    marked = [r and any(m[j] for m in marks) for j, r in enumerate(right)]
    keys = n_index(frame) or next((j for j, r in enumerate(right) if r), 0)
    keys = min(keys, max(len(header) - 1, 0), 3)
    size, sep, groups, wraps = latex_width.fit(header, body, marks, bolds, marked, keys,
                                               right=right)
    long = len(body) * len(groups) > LONG_TABLE_ROWS
    lines = [r"% requires \usepackage{booktabs}" + (r" and \usepackage{longtable}" if long
                                                   else "")]
    lines.append(f"% fits a {latex_width.TEXT_WIDTH:g} pt text width (article at 10 pt, "
                 "A4 and US letter, OT1 or T1 fonts)"
                 + (f"; split into {len(groups)} groups of columns" if len(groups) > 1 else "")
                 + ("; long text wraps" if wraps else ""))
    lines.append("% in a two-column class (acmart, IEEEtran) it is wider than a column: "
                 + (r"put it in \onecolumn pages" if long else r"use table* for table"))
    if long:
        lines.append("% a longtable settles its column widths when pdflatex runs two or three "
                     "times")
    if provenance is not None:
        lines += ["% " + x.replace("\n", " ") for x in provenance.lines()]
    setup = ([size] if size else []) + ([rf"\setlength{{\tabcolsep}}{{{sep:g}pt}}"]
                                        if sep != 6 else [])
    cap = latex_escape(caption) if caption else ""
    if not long:
        lines += [r"\begin{table}[htbp]", r"\centering"] + setup
        lines += [r"\caption{" + cap + "}"] if caption else []
    elif setup:
        lines.append("{" + "".join(setup))
    for g, cols in enumerate(groups):
        part = _latex_part([header[j] for j in cols], [[r[j] for j in cols] for r in body],
                           [[m[j] for j in cols] for m in marks],
                           [[b[j] for j in cols] for b in bolds],
                           [right[j] for j in cols], [marked[j] for j in cols],
                           [wraps.get(j) for j in cols])
        spec, head, rows = part
        if long:
            c = cap if g == 0 else latex_escape(
                f"(continued: {', '.join(header[j] for j in cols[keys:])})")
            cap_line = ([(r"\caption{" if g == 0 else r"\caption*{") + c + r"} \\"]
                        if caption or g else [])
            lines += [r"\begin{longtable}{" + spec + "}"] + cap_line + head
            lines += [r"\endfirsthead"] + head + [r"\endhead", r"\bottomrule",
                                                   r"\endlastfoot"]
            lines += rows + [r"\end{longtable}"]
        else:
            if g:
                lines.append(r"\par\medskip")
            lines += [r"\begin{tabular}{" + spec + "}"] + head + rows
            lines += [r"\bottomrule", r"\end{tabular}"]
    if not long:
        lines.append(r"\end{table}")
    elif setup:
        lines.append("}")
    return "\n".join(lines) + "\n"


def _breakable(text: str) -> str:
    """Escaped text that may break after a slash, an underscore or a comma."""
    return (text.replace("/", r"/\allowbreak{}").replace(r"\_", r"\_\allowbreak{}")
            .replace(",", r",\allowbreak{}"))


def _latex_part(header, body, marks, bolds, right, marked, wraps):
    """(column spec, header lines, body lines) of one tabular; a column with a width in
    ``wraps`` is a ragged-right ``p`` column (rows then end in ``\\tabularnewline``,
    which ``\\raggedright`` leaves alone)."""
    spec = "".join((f"p{{{int(w)}pt}}" if w else ("r@{}l" if mk else "r") if r else "l")
                   for r, mk, w in zip(right, marked, wraps))
    end = r" \tabularnewline" if any(wraps) else r" \\"
    head_cells = [r"\multicolumn{2}{c}{" + latex_escape(h) + "}" if mk else latex_escape(h)
                  for h, mk in zip(header, marked)]
    head = [r"\toprule", " & ".join(head_cells) + end, r"\midrule"]
    rows = []
    for r, mr, br in zip(body, marks, bolds):
        cells = []
        for c, m, b, mk, w in zip(r, mr, br, marked, wraps):
            text = latex_escape(c)
            if w:
                text = _breakable(text)
            if b and c:
                text = r"\textbf{" + text + "}"
            if w:
                text = r"\raggedright " + text
            if mk:
                cells.append(text + " & " + (_latex_marker(m) if m else ""))
            else:
                cells.append(text + (_latex_marker(m) if m else ""))
        rows.append(" & ".join(cells) + end)
    return spec, head, rows


def html_table(frame, header, body, marks, bolds, caption, provenance) -> str:
    """An HTML ``<table>`` (index cells as ``<th>``); the provenance as a comment."""
    e = html.escape
    k = n_index(frame)
    out = []
    if provenance is not None:
        out.append("<!-- " + e(" | ".join(provenance.lines())).replace("--", "- -") + " -->")
    out.append('<table class="yardstick-table">')
    if caption:
        out.append(f"<caption>{e(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr></thead>")
    out.append("<tbody>")
    for r, mr, br in zip(body, marks, bolds):
        cells = []
        for j, (c, m, b) in enumerate(zip(r, mr, br)):
            tag = "th" if j < k else "td"
            sup = f"<sup>{e(m)}</sup>" if m else ""
            text = f"<b>{e(c)}</b>" if b and c else e(c)
            cells.append(f"<{tag}>{text}{sup}</{tag}>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out) + "\n"
