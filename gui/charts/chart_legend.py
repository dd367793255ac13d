"""The legend of a chart widget: a scrollable list beside the plot (below it when the
chart is narrow), one ticked entry per series with a swatch of its colour.

Being a list rather than an overlay, it never covers data however many runs are
drawn; an entry too long for it is elided in the middle and whole in its tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QListWidget, QListWidgetItem

__all__ = ["ChartLegend", "LEGEND_WIDTH", "NARROW"]

LEGEND_WIDTH = 260
#: below this width (pixels) the legend goes under the plot instead of beside it
NARROW = 560


class ChartLegend(QListWidget):
    """A checkable list of series names (tick to show, untick to hide)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.setToolTip("Untick to hide a series; click a run to highlight it")
        self.setMouseTracking(True)        # hovering an entry picks out its run

    def fill(self, names: dict[str, str], hidden: set[str]) -> None:
        """One entry per {name: colour}, unticked where the name is in ``hidden``;
        the list shows only when it has entries.  Emits no signals."""
        self.blockSignals(True)
        self.clear()
        for name, color in names.items():
            it = QListWidgetItem(name)
            it.setToolTip(name)                   # the whole name where the legend elides it
            pm = QPixmap(14, 14)
            pm.fill(QColor(color))
            it.setIcon(QIcon(pm))
            it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            it.setCheckState(Qt.CheckState.Unchecked if name in hidden
                             else Qt.CheckState.Checked)
            self.addItem(it)
        self.blockSignals(False)
        self.setVisible(bool(names))

    def names(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]

    def set_checked(self, name: str, visible: bool) -> None:
        """Tick (``visible``) or untick the entry ``name``, as a click would."""
        for i in range(self.count()):
            it = self.item(i)
            if it.text() == name:
                it.setCheckState(Qt.CheckState.Checked if visible else Qt.CheckState.Unchecked)

    def fit(self, width: int, height: int) -> bool:
        """Size the list for a chart ``width`` × ``height`` pixels: beside the plot, as
        narrow and short as its entries allow (it scrolls beyond that); below the plot,
        a few rows high, when the chart is narrower than :data:`NARROW`.  Returns
        whether it goes below."""
        names = self.names()
        narrow = width < NARROW
        if not names:
            return narrow
        fm = self.fontMetrics()
        wide = max(fm.horizontalAdvance(n) for n in names)
        row = max(self.sizeHintForRow(0), fm.height() + 4)
        tall = row * len(names) + 2 * self.frameWidth() + 6 + row // 2
        if narrow:
            self.setMinimumWidth(0)
            self.setMaximumWidth(16777215)
            self.setFixedHeight(min(tall, 3 * row + 2 * self.frameWidth() + 6))
        else:
            bar = self.verticalScrollBar().sizeHint().width() if tall > height - 24 else 0
            room = max(LEGEND_WIDTH, width // 3)   # long run names: a wider legend
            self.setFixedWidth(min(room, wide + 72 + bar))
            self.setMinimumHeight(0)
            self.setMaximumHeight(min(tall, max(60, height - 30)))
        return narrow
