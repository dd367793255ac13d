"""Hover targets of a chart: the points, bars and cells a drawn series can be hovered
and clicked at, and the search for the one nearest the mouse.

A :class:`HoverTarget` holds view coordinates, a text per point and optionally a
topic per point; :func:`nearest_target` measures distances in screen pixels (so a
hit means the same on a zoomed-in and a zoomed-out plot).  No Qt: numpy only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["HOVER_PIXELS", "HoverTarget", "nearest_target"]

#: how near (screen pixels) the mouse must be to a point to hover it
HOVER_PIXELS = 12


@dataclass
class HoverTarget:
    x: np.ndarray
    y: np.ndarray
    texts: list[str]
    item: object | None
    topics: list[str] | None
    mode: str   # "nearest" (2-D distance), "x" / "y" (same column / row: bars), "cell"
    run: str | None = None


def _visible(t: HoverTarget) -> bool:
    return t.item is None or not hasattr(t.item, "isVisible") or t.item.isVisible()


def nearest_target(targets: list[HoverTarget], x: float, y: float, px: float,
                   py: float) -> tuple[HoverTarget, int] | None:
    """The point of a visible target nearest to view position (x, y), within
    :data:`HOVER_PIXELS`; ``px``/``py`` are the view units of one screen pixel.
    Bars ("x"/"y") count as hit anywhere inside their column (row); cells inside
    their square."""
    best, best_d = None, float("inf")
    for t in targets:
        if not _visible(t) or not len(t.x):
            continue
        if t.mode == "cell":
            inside = np.flatnonzero((np.abs(t.x - x) <= 0.5) & (np.abs(t.y - y) <= 0.5))
            if not len(inside):
                continue
            i, d = int(inside[0]), 0.0
        elif t.mode in ("x", "y"):
            pos, at, unit = (t.x, x, px) if t.mode == "x" else (t.y, y, py)
            i = int(np.argmin(np.abs(pos - at)))
            d = abs(pos[i] - at) / unit
            if abs(pos[i] - at) > 0.5:
                continue
            d = min(d, HOVER_PIXELS - 1e-6)      # inside the column counts as a hit
        else:
            dd = np.hypot((t.x - x) / px, (t.y - y) / py)
            dd = np.where(np.isfinite(dd), dd, np.inf)
            i = int(np.argmin(dd))
            d = float(dd[i])
        if d < best_d:
            best, best_d = (t, i), d
    if best is None or best_d > HOVER_PIXELS:
        return None
    return best
