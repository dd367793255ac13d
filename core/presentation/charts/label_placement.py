"""Point labels that never overlap one another nor run out of the plot (the measure scatter).

A greedy placement in the manner of cartographic label placement (Christensen, Marks &
Shieber, "An empirical study of algorithms for point-feature label placement", ACM
Transactions on Graphics 14(3), 1995: the four-position model — four candidate positions
around each point —, labels placed one by one in priority order, a label that fits
nowhere left out).
Here the priority is the order given (the measure scatter passes the best runs first);
each label takes the first of its four corners (up right, up left, down right, down left)
where its box lies inside the plot and crosses no label placed before; a label with no
such corner is thinned out — its point keeps its hover text with the whole name.

Sizes are estimated from the figure's size in inches and the font size in points (text
about 0.6 em wide per character), so the same placement serves the window and the files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["LabelPlace", "place_labels"]

#: (ha, va) of the four corners tried, in order
CORNERS = (("left", "bottom"), ("right", "bottom"), ("left", "top"), ("right", "top"))
#: share of the figure's width and height the axes box takes (title, ticks and labels around)
PLOT_SHARE = (0.78, 0.72)


@dataclass(frozen=True)
class LabelPlace:
    """Label ``index`` (into the points given) drawn with alignment ``ha`` / ``va``."""

    index: int
    ha: str
    va: str


def place_labels(x: Sequence[float], y: Sequence[float], texts: Sequence[str],
                 x_range: tuple[float, float], y_range: tuple[float, float],
                 width_in: float = 6.4, height_in: float = 4.2, font_pt: float = 7.0,
                 dpi: float = 96.0) -> list[LabelPlace]:
    """Where to put each label, in priority order; labels that fit nowhere are left out.

    Parameters
    ----------
    x, y, texts
        The points and their labels, most important first.
    x_range, y_range
        The axes' limits (data units).
    width_in, height_in, font_pt, dpi
        The figure's size, the labels' font size and the pixels per inch.
    """
    w_px = width_in * dpi * PLOT_SHARE[0]
    h_px = height_in * dpi * PLOT_SHARE[1]
    (x0, x1), (y0, y1) = x_range, y_range
    if not (x1 > x0 and y1 > y0):
        return []
    sx, sy = w_px / (x1 - x0), h_px / (y1 - y0)
    font_px = font_pt * dpi / 72
    gap = 3.0
    placed: list[tuple[float, float, float, float]] = []
    out: list[LabelPlace] = []
    for i, (xv, yv, text) in enumerate(zip(x, y, texts, strict=True)):
        if not (np.isfinite(xv) and np.isfinite(yv)):
            continue
        px, py = (xv - x0) * sx, (yv - y0) * sy           # pixels, y upwards
        tw, th = 0.6 * font_px * len(text) + 2, 1.3 * font_px
        for ha, va in CORNERS:
            left = px + gap if ha == "left" else px - gap - tw
            bottom = py + gap if va == "bottom" else py - gap - th
            box = (left, bottom, left + tw, bottom + th)
            if box[0] < 0 or box[1] < 0 or box[2] > w_px or box[3] > h_px:
                continue
            if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
                   for b in placed):
                continue
            placed.append(box)
            out.append(LabelPlace(i, ha, va))
            break
    return out
