"""A panel toolbar whose controls wrap onto a second row instead of hiding behind ».

``QToolBar`` puts whatever does not fit its width behind an extension button (»): at
1280×800 that hid Per-topic vs median's Order and "Median of", the Topic explorer's
Measure and the topic groups' Rename (issue 28).  :class:`FlowBar` has the part of
``QToolBar``'s interface the panels use (``addWidget``, ``addAction``,
``addSeparator``) and lays its items out left to right in as many rows as its width
needs (a flow layout with height-for-width, after Qt's *Flow Layout* example), so
every control stays on screen whatever the dock's width.  ``addWidget`` returns the
widget (whose ``setVisible`` shows or hides it, as the action ``QToolBar`` returns
does); ``addAction`` returns the ``QAction`` behind a flat tool button.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QLayout,
    QSizePolicy,
    QToolButton,
    QWidget,
    QWidgetItem,
)

__all__ = ["FlowBar", "FlowLayout", "show_whole_text"]


def show_whole_text(combo) -> None:
    """Keep a combo box's tooltip equal to its current text (a long run name is cut in
    the box; the tooltip gives it whole)."""
    combo.currentTextChanged.connect(combo.setToolTip)
    combo.setToolTip(combo.currentText())


class FlowLayout(QLayout):
    """Items left to right, wrapped onto the next row when the width runs out; rows as
    tall as their tallest item, items centred vertically in their row."""

    def __init__(self, parent=None, spacing: int = 4):
        super().__init__(parent)
        self._items: list = []
        self._spacing = spacing
        self.setContentsMargins(2, 1, 2, 1)

    def addItem(self, item) -> None:  # noqa: N802 - Qt name
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, i: int):  # noqa: N802
        return self._items[i] if 0 <= i < len(self._items) else None

    def takeAt(self, i: int):  # noqa: N802
        return self._items.pop(i) if 0 <= i < len(self._items) else None

    def expandingDirections(self):  # noqa: N802
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        # not told to Qt: a scroll area holding a panel with a height-for-width child
        # sizes the panel to its preferred height, taller than the dock (it scrolled);
        # the bar sets its own height from its width instead (FlowBar.resizeEvent)
        return False

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return self._do_layout(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802
        super().setGeometry(rect)
        self._do_layout(rect, apply=True)

    def sizeHint(self) -> QSize:  # noqa: N802
        """One row of everything (the width it would like)."""
        m = self.contentsMargins()
        shown = [i for i in self._items if not i.isEmpty()]
        w = sum(i.sizeHint().width() for i in shown) + self._spacing * max(0, len(shown) - 1)
        h = max((i.sizeHint().height() for i in shown), default=0)
        return QSize(w + m.left() + m.right(), h + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802
        """As narrow as its widest item (everything else wraps)."""
        m = self.contentsMargins()
        size = QSize()
        for i in self._items:
            if not i.isEmpty():
                size = size.expandedTo(i.minimumSize())
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _do_layout(self, rect: QRect, apply: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        rows: list[list] = [[]]
        x = 0
        shown = [i for i in self._items if not i.isEmpty()]
        for k, item in enumerate(shown):
            w = item.sizeHint().width()
            unit = w                  # a label wraps together with the control it names
            if isinstance(item.widget(), QLabel) and k + 1 < len(shown) and \
                    not isinstance(shown[k + 1].widget(), QLabel):
                unit += self._spacing + shown[k + 1].sizeHint().width()
            if rows[-1] and x + unit > area.width():
                rows.append([])
                x = 0
            rows[-1].append(item)
            x += w + self._spacing
        y = area.y()
        for row in rows:
            if not row:
                continue
            h = max(i.sizeHint().height() for i in row)
            x = area.x()
            for item in row:
                hint = item.sizeHint()
                w = min(hint.width(), area.width())
                if apply:
                    item.setGeometry(QRect(QPoint(x, y + (h - hint.height()) // 2),
                                           QSize(w, hint.height())))
                x += w + self._spacing
            y += h + self._spacing
        return max(0, y - self._spacing - rect.y()) + m.bottom()


class FlowBar(QWidget):
    """A toolbar that wraps (see the module docstring)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.flow = FlowLayout(self)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def addWidget(self, widget: QWidget) -> QWidget:  # noqa: N802 - QToolBar's name
        """Add ``widget``; returns it (``setVisible`` on it shows or hides it)."""
        self.flow.addItem(QWidgetItem(widget))
        self.addChildWidget(widget)
        return widget

    def addChildWidget(self, widget: QWidget) -> None:  # noqa: N802
        widget.setParent(self)
        widget.show()

    def addAction(self, action, slot=None) -> QAction:  # noqa: N802 - QToolBar's overloads
        """``addAction(text, slot)`` or ``addAction(QAction)``: a flat button for it."""
        if not isinstance(action, QAction):
            action = QAction(str(action), self)
            if slot is not None:
                action.triggered.connect(slot)
        super().addAction(action)
        button = QToolButton()
        button.setAutoRaise(True)
        button.setDefaultAction(action)
        if action.menu() is not None:
            button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        action.changed.connect(lambda b=button, a=action: b.setVisible(a.isVisible()))
        self.addWidget(button)
        button.setVisible(action.isVisible())
        return action

    def addSeparator(self) -> QFrame:  # noqa: N802
        line = QFrame()
        line.setFrameShape(QFrame.Shape.VLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        line.setFixedWidth(6)
        return self.addWidget(line)

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return False

    def _height(self) -> int:
        """The height its rows take at its present width (one row before it has one)."""
        width = self.width() if self.isVisible() and self.width() > 0 else \
            self.flow.sizeHint().width()
        return self.flow.heightForWidth(width)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(self.flow.sizeHint().width(), self._height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(self.flow.minimumSize().width(), self._height())

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width() and \
                self._height() != self.height():
            self.updateGeometry()          # the row count changed: a new height
