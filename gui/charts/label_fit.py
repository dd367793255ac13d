"""Point labels kept inside the plot on screen and apart (issue 28: "labels of scatter and
legend never overlap or clip").

The figure's labels are placed for a figure of a nominal size
(:func:`yardstick.presentation.charts.label_placement.place_labels`); the window's plot
may be narrower — a dock beside a widened Collection — and a label drawn in pixels then
ran out at the plot's right edge.  Here, with the plot's real size, each label (most
important first) keeps its corner if it lies inside the plot and crosses no label kept
before, else takes the first of the other three corners that does (the same four-position
model), else is hidden — its point keeps its hover text with the whole name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pyqtgraph as pg

__all__ = ["fit_labels", "labelled_note"]
#: the figure's note of how many points are labelled (measure_scatter_figure's caption)
_NOTE = re.compile(r"\d+ of \d+ labelled \(hover for the others\)")

#: anchors tried after a label's own: mirrored left-right, top-bottom, both
_FLIPS = ((1, 0), (0, 1), (1, 1))


def fit_labels(view_box: pg.ViewBox, labels: Sequence[tuple[pg.TextItem, tuple[float, float]]]
               ) -> int:
    """Show, move or hide ``labels`` — (text item, its anchor as placed) in priority order —
    so that every shown one lies inside ``view_box`` and none crosses another; returns how
    many are shown."""
    box = view_box.sceneBoundingRect().adjusted(1, 1, -1, -1)
    if box.width() <= 2 or box.height() <= 2:
        return 0
    kept = []
    for item, (ax, ay) in labels:
        item.show()
        item.updateTransform(force=True)        # as drawn at the plot's present scale
        for fx, fy in ((0, 0), *_FLIPS):
            item.setAnchor((abs(fx - ax), abs(fy - ay)))
            rect = item.sceneBoundingRect()
            if box.contains(rect) and not any(rect.intersects(k) for k in kept):
                kept.append(rect)
                break
        else:
            item.setAnchor((ax, ay))
            item.hide()
    return len(kept)


def labelled_note(caption: str, shown: int, placed: int, points: int) -> str:
    """``caption`` saying ``shown`` of ``points`` are labelled, when fewer than the figure
    ``placed`` show on screen (else as it is)."""
    if shown >= placed:
        return caption
    note = f"{shown} of {points} labelled (hover for the others)"
    if _NOTE.search(caption):
        return _NOTE.sub(note, caption, count=1)
    return f"{caption}; {note}" if caption else note
