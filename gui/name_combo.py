"""A combo box for names — runs, measures, topics — that fits a laptop screen.

A ``QComboBox`` sizes itself to its longest entry (a TREC run tag of 40 characters
pushes the rest of a toolbar off screen) or, told not to, cuts the name at the right
where two runs of a team differ (``uogTrDPCQcdB10p5…``).  :class:`NameCombo` is as
wide as its names need up to ``max_chars`` characters (at least ``min_chars``), shows a
longer name elided in the middle, gives it whole in the tooltip, and opens a popup
list as wide as its longest entry (up to the screen), every entry whole with its
tooltip (issue 28, "answers first, at 1280×800").
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
)

__all__ = ["NameCombo"]


class NameCombo(QComboBox):
    """A non-editable combo box of names (see the module's docstring)."""

    def __init__(self, parent=None, min_chars: int = 14, max_chars: int = 30):
        super().__init__(parent)
        self._max_chars = max_chars
        self._longest: int | None = None
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(min_chars)
        self.view().setTextElideMode(Qt.TextElideMode.ElideNone)
        self.currentTextChanged.connect(self.setToolTip)
        m = self.model()
        for sig in (m.rowsInserted, m.rowsRemoved, m.modelReset, m.dataChanged):
            sig.connect(self._names_changed)

    def _names_changed(self, *_) -> None:
        self._longest = None
        self._whole_name_as_tooltip()
        self.updateGeometry()

    def _whole_name_as_tooltip(self) -> None:
        # also when the names were set with the box's signals blocked (panels refill
        # their lists so), which currentTextChanged does not tell
        if self.toolTip() != self.currentText():
            self.setToolTip(self.currentText())

    def longest_name(self) -> int:
        """The width in pixels of the longest entry."""
        if self._longest is None:
            fm = self.fontMetrics()
            self._longest = max((fm.horizontalAdvance(self.itemText(i))
                                 for i in range(self.count())), default=0)
        return self._longest

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt name
        hint = super().sizeHint()        # room for min_chars characters, frame and arrow
        x = self.fontMetrics().horizontalAdvance("x")
        extra = min(self.longest_name(), x * self._max_chars) - x * self.minimumContentsLength()
        return QSize(hint.width() + max(0, extra), hint.height())

    def shown_text(self) -> str:
        """The current name as the box draws it (elided in the middle when too long)."""
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        room = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                           QStyle.SubControl.SC_ComboBoxEditField, self)
        return self.fontMetrics().elidedText(self.currentText(), Qt.TextElideMode.ElideMiddle,
                                             room.width())

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt name
        if self.isEditable():
            super().paintEvent(event)
            return
        self._whole_name_as_tooltip()
        p = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        p.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        opt.currentText = self.shown_text()
        p.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            self._whole_name_as_tooltip()
        return super().event(event)

    def showPopup(self) -> None:  # noqa: N802 - Qt name
        view = self.view()
        for i in range(self.count()):
            if not self.itemData(i, Qt.ItemDataRole.ToolTipRole):
                self.setItemData(i, self.itemText(i), Qt.ItemDataRole.ToolTipRole)
        bar = view.verticalScrollBar().sizeHint().width()
        screen = self.screen().availableGeometry().width() if self.screen() else 1280
        view.setMinimumWidth(min(self.longest_name() + bar + 32, screen - 20))
        super().showPopup()
