"""``yardstick --screenshot`` brings each panel's tables and charts to the front
(gui/screenshots.bring_forward) before it grabs them (pytest-qt, offscreen)."""

import pytest

pytest.importorskip("pytestqt")
from PySide6.QtWidgets import QLabel, QStackedWidget, QTabWidget, QVBoxLayout, QWidget  # noqa: E402


def test_bring_forward_selects_the_tab_holding_a_widget(qtbot):
    """A tab widget's page is made current through the tab widget, so that its tab bar
    shows that page's tab (setting its inner stack directly left the first tab
    highlighted over the second page), and a plain stack inside a page turns too."""
    from yardstick.gui.screenshots import bring_forward

    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    first, second = QWidget(), QWidget()
    tabs.addTab(first, "Tables")
    tabs.addTab(second, "Chart")
    stack = QStackedWidget()
    QVBoxLayout(second).addWidget(stack)
    a, b = QLabel("a"), QLabel("b")
    stack.addWidget(a)
    stack.addWidget(b)
    bring_forward(b)
    assert tabs.currentIndex() == 1 and tabs.tabBar().currentIndex() == 1
    assert stack.currentWidget() is b
    bring_forward(first)
    assert tabs.currentIndex() == 0
