"""How wide a LaTeX table comes out, and how to split one that would not fit.

A table must fit the text width of the document it goes into: 345 pt in LaTeX's
``article`` class at 10 pt, on A4 and on US-letter paper alike (the narrower of the
common paper formats; ``\\textwidth`` of ``article.cls``).  Widths are measured with
the metrics of the font pdflatex sets the table in, Computer Modern (``cmr10``,
``cmb10``; the TrueType copies matplotlib ships), so the estimate is the width the
log would report, to a point or two.  A table too wide at the normal size is set
``\\small`` with narrower column gaps; still too wide, its columns are split into
groups, each a tabular of its own under the same caption, the row labels repeated in
each (Mittelbach et al., *The LaTeX Companion*, 2nd ed., 2004, §5.1: a table is cut
into column blocks rather than scaled down or rotated).
"""

from __future__ import annotations

import functools

__all__ = ["TEXT_WIDTH", "text_width", "column_widths", "fit"]

#: ``\\textwidth`` of ``article`` at 10 pt (A4 and US letter), in TeX points
TEXT_WIDTH = 345.0
#: room kept for rounding and the rules' overhang
_SLACK = 6.0
#: (font size in pt, \\tabcolsep in pt, LaTeX size command) tried in turn
SIZES = ((10.0, 6.0, ""), (9.0, 4.0, r"\small"))


@functools.lru_cache(maxsize=4)
def _font(bold: bool):
    import os

    import matplotlib
    from matplotlib.font_manager import FontProperties

    name = "cmr10.ttf"
    return FontProperties(fname=os.path.join(matplotlib.get_data_path(), "fonts", "ttf", name))


@functools.lru_cache(maxsize=65536)
def _width10(s: str, bold: bool) -> float:
    """Width of ``s`` at 10 pt (characters cmr10 lacks count as an ``m``'s 8.3 pt)."""
    from matplotlib.textpath import text_to_path

    font = _font(bold)
    font.set_size(10.0)
    plain = "".join(ch if ord(ch) < 128 else "" for ch in s)
    w = text_to_path.get_text_width_height_descent(plain, font, ismath=False)[0] if plain else 0
    # text_to_path measures in pixels at 72 dpi: points; a TeX point is 72.27 per inch
    return w * 72.27 / 72.0 + 8.3 * (len(s) - len(plain))


#: ``\\textbf`` is bold extended (cmbx10), wider than cmb10: its digits are 5.75 pt, not 5
_BOLD_EXTENDED = 1.15
#: what the measure leaves out (T1-encoded fonts, kerning): a margin on every width
_MARGIN = 1.05


def text_width(s: str, size: float = 10.0, bold: bool = False) -> float:
    """Width of ``s`` in TeX points at ``size`` in Computer Modern (a little over)."""
    w = _width10(str(s), False) * (_BOLD_EXTENDED if bold else 1.0)
    return w * _MARGIN * size / 10.0


def column_widths(header, body, marks, bolds, size: float, sep: float,
                  marked: list[bool]) -> list[float]:
    """Each column's width with its two gaps (a marked ``r@{}l`` pair counts as one)."""
    out = []
    for j, h in enumerate(header):
        w = max([text_width(r[j], size, bool(b[j])) for r, b in zip(body, bolds)]
                + [0.0])
        if marked[j]:
            w += max([text_width(m[j], 0.7 * size) for m in marks] + [0.0])
        out.append(max(w, text_width(h, size)) + 2 * sep)
    return out


def fit(header, body, marks, bolds, marked: list[bool], keys: int,
        width: float = TEXT_WIDTH) -> tuple[str, float, list[list[int]]]:
    """(size command, ``\\tabcolsep``, column groups) that fit ``width``.

    ``keys`` leading columns (the row labels) are repeated in every group; one group
    holding every column means no split.  Rows are measured on at most 2,000 of them
    (the longest cells of a long table are found among its rows anyway for tidy
    tables; the rest are sampled evenly).
    """
    if len(body) > 2000:
        step = len(body) / 2000
        pick = sorted({int(i * step) for i in range(2000)} | {len(body) - 1})
        body = [body[i] for i in pick]
        marks = [marks[i] for i in pick]
        bolds = [bolds[i] for i in pick]
    room = width - _SLACK
    widths = []
    for size, sep, cmd in SIZES:
        widths = column_widths(header, body, marks, bolds, size, sep, marked)
        if sum(widths) <= room:
            return cmd, sep, [list(range(len(header)))]
    fixed = sum(widths[:keys])
    groups: list[list[int]] = [[]]
    used = fixed
    for j in range(keys, len(header)):
        if groups[-1] and used + widths[j] > room:
            groups.append([])
            used = fixed
        groups[-1].append(j)
        used += widths[j]
    return SIZES[-1][2], SIZES[-1][1], [list(range(keys)) + g for g in groups]
