"""A heat map's cell texts drawn by one pyqtgraph item (the window's rank-correlation and
Kendall tau maps; exports draw the same :class:`~yardstick.presentation.charts.figure_spec.Cells`
with matplotlib)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFont

__all__ = ["CellLabels"]


class CellLabels(pg.GraphicsObject):
    """A heat map's cell texts, all in one item: each centred on its cell, in a fixed
    point size whatever the zoom (as a ``TextItem`` would be; building 100 of those took
    ~30 ms of the GUI thread for a 10 x 10 map)."""

    def __init__(self, x: np.ndarray, y: np.ndarray, texts: list[str], colors: list,
                 point_size: float):
        super().__init__()
        self.x, self.y, self.texts = x, y, texts
        self.colors = [pg.mkColor(c) for c in colors]
        self.font = QFont()
        self.font.setPointSizeF(point_size)
        self._rect = QRectF(float(x.min()) - 0.5, float(y.min()) - 0.5,
                            float(np.ptp(x)) + 1.0, float(np.ptp(y)) + 1.0)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt name
        return self._rect

    def paint(self, painter, *_args) -> None:
        to_device = painter.transform()            # item (data) -> device pixels
        painter.save()
        painter.resetTransform()
        painter.setFont(self.font)
        fm = painter.fontMetrics()
        h = fm.height()
        for x, y, text, color in zip(self.x, self.y, self.texts, self.colors):
            at = to_device.map(QPointF(x, y))
            w = fm.horizontalAdvance(text) + 4
            painter.setPen(color)
            painter.drawText(QRectF(at.x() - w / 2, at.y() - h / 2, w, h),
                             int(Qt.AlignmentFlag.AlignCenter), text)
        painter.restore()
