"""How wide a LaTeX table comes out, and how to fit one that would not.

A table must fit the text width of the document it goes into: 345 pt in LaTeX's
``article`` class at 10 pt, on A4 and on US-letter paper alike (``\\textwidth`` of
``article.cls``), whether the document sets its text in OT1 (the default) or T1
(``\\usepackage[T1]{fontenc}``, as acmart and most paper templates do).  Widths are
summed from the fonts' own metrics (:mod:`yardstick.presentation.export.tex_metrics`:
the wider of the two encodings' glyph, at the very size each cell is set in —
``cmr9`` for ``\\small``, ``cmr7``/``cmr6`` for superscripts, ``cmbx`` for bold), so the
estimate is the width pdflatex's log would report, a little over.

A table too wide at the normal size is set ``\\small`` with narrower column gaps.  A
text column still too wide (a sentence, a ranking, a list of runs) becomes a ``p``
column that wraps, ragged right, in the room the other columns leave.  A table wider
still has its columns split into groups, each a tabular of its own under the same
caption, the row labels repeated in each (Mittelbach et al., *The LaTeX Companion*,
2nd ed., 2004, §5.1: a table is cut into column blocks rather than scaled down).  A
two-column template's column (acmart's 241 pt, IEEEtran's 252 pt) is narrower: there
the table goes in a ``table*`` spanning both columns, as the written file says.
"""

from __future__ import annotations

import re

from yardstick.presentation.export import tex_metrics

__all__ = ["TEXT_WIDTH", "text_width", "column_widths", "fit", "Fit"]

#: ``\\textwidth`` of ``article`` at 10 pt (A4 and US letter), in TeX points
TEXT_WIDTH = 345.0
#: room kept for the rules' overhang and rounding
_SLACK = 4.0
#: what the per-character sum leaves out (positive kerns): a margin on every width
_MARGIN = 1.01
#: (font size in pt, \\tabcolsep in pt, LaTeX size command) tried in turn
SIZES = ((10.0, 6.0, ""), (9.0, 4.0, r"\small"))
#: ``\\textsuperscript``'s size at each text size (LaTeX's ``\\sf@size``)
_SCRIPT = {10.0: 7.0, 9.0: 6.0}
#: a text column this wide or wider may wrap; it never wraps narrower than this
_WRAP_MIN = 100.0


def _unbreakable(header: str, cells, size: float, bold) -> float:
    """Width of the widest piece of a wrapped column that cannot break: its header, or a
    word of a cell (a cell breaks at spaces and after ``/``, ``_`` and ``,``)."""
    widest = text_width(header, size)
    for c, b in zip(cells, bold):
        for word in re.split(r"(?<=[/_,])| ", str(c)):
            widest = max(widest, text_width(word, size, bool(b)))
    return widest


def _key(size: float, bold: bool) -> str:
    k = f"{size:g}"
    return ("b" + k) if bold and k in ("10", "9") else k


def text_width(s: str, size: float = 10.0, bold: bool = False) -> float:
    """Width of ``s`` in TeX points at ``size`` (10, 9, 7 or 6) in Computer Modern,
    under OT1 or T1, whichever is wider (a character the tables lack counts as ``M``)."""
    key = _key(size, bold)
    if key not in tex_metrics.SIZES:
        return text_width(s, 10.0, bold) * size / 10.0
    w = tex_metrics.em_widths(key)
    em = w["M"]
    return sum(w.get(ch, em) for ch in str(s)) * size * _MARGIN


def column_widths(header, body, marks, bolds, size: float, sep: float,
                  marked: list[bool]) -> list[float]:
    """Each column's width with its two gaps (a marked ``r@{}l`` pair counts as one)."""
    script = _SCRIPT.get(size, 0.7 * size)
    out = []
    for j, h in enumerate(header):
        w = max([text_width(r[j], size, bool(b[j])) for r, b in zip(body, bolds)]
                + [0.0])
        if marked[j]:
            w += max([text_width(m[j], script) for m in marks] + [0.0])
        else:
            w = max([text_width(r[j], size, bool(b[j])) + text_width(m[j], script)
                     for r, m, b in zip(body, marks, bolds)] + [w])
        out.append(max(w, text_width(h, size)) + 2 * sep)
    return out


class Fit(tuple):
    """(size command, ``\\tabcolsep``, column groups, wrapped columns ``{j: width pt}``)."""

    __slots__ = ()

    def __new__(cls, size: str, sep: float, groups: list[list[int]], wraps: dict):
        return super().__new__(cls, (size, sep, groups, wraps))


def _sample(body, marks, bolds, limit: int = 2000):
    """At most ``limit`` rows, evenly spread, and the longest text of every column and of
    its marks (a fitted rate of 8.8e19 in one row of 5,096 was missed, and the table
    said it fit a page it overran by 38 pt)."""
    if len(body) <= limit:
        return body, marks, bolds
    step = len(body) / limit
    pick = {int(i * step) for i in range(limit)} | {len(body) - 1}
    for rows in (body, marks):
        for j in range(len(rows[0]) if rows else 0):
            lengths = [len(r[j]) for r in rows]
            pick.add(lengths.index(max(lengths)))
    pick = sorted(pick)
    return [body[i] for i in pick], [marks[i] for i in pick], [bolds[i] for i in pick]


def fit(header, body, marks, bolds, marked: list[bool], keys: int,
        width: float = TEXT_WIDTH, right: list[bool] | None = None) -> Fit:
    """The size, gaps, column groups and wrapped columns that fit ``width``.

    ``keys`` leading columns (the row labels) are repeated in every group; one group
    holding every column means no split.  ``right`` flags the numeric columns (the
    others may wrap).  Rows are measured on at most 2,000 of them, sampled evenly.
    """
    body, marks, bolds = _sample(body, marks, bolds)
    right = list(right) if right is not None else list(marked)
    room = width - _SLACK
    widths = []
    for size, sep, cmd in SIZES:
        widths = column_widths(header, body, marks, bolds, size, sep, marked)
        if sum(widths) <= room:
            return Fit(cmd, sep, [list(range(len(header)))], {})
    size, sep, cmd = SIZES[-1]
    wraps: dict[int, float] = {}
    text_cols = sorted((j for j in range(len(header)) if not right[j]),
                       key=lambda j: -widths[j])
    for j in text_cols:
        over = sum(widths) - room
        if over <= 0 or widths[j] <= _WRAP_MIN:
            break
        least = _unbreakable(header[j], [r[j] for r in body], size,
                             [b[j] for b in bolds]) + 2 * sep
        new = max(widths[j] - over, _WRAP_MIN, least)
        if new < widths[j]:
            widths[j] = new
            wraps[j] = new - 2 * sep
    fixed = sum(widths[:keys])
    groups: list[list[int]] = [[]]
    used = fixed
    for j in range(keys, len(header)):
        if groups[-1] and used + widths[j] > room:
            groups.append([])
            used = fixed
        groups[-1].append(j)
        used += widths[j]
    return Fit(cmd, sep, [list(range(keys)) + g for g in groups], wraps)
