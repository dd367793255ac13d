"""Run and measure pickers that fit a laptop screen (issue 28, "Answers first, at
1280×800"): a long run name is elided in the middle — where two runs of a team differ it
is kept —, whole in the tooltip and in a popup list as wide as the longest name."""

from __future__ import annotations

LONG = ("uogTrDPCQcdB10p5-bm25-rm3-qe-k1.2-b0.75-fb10x20",
        "uogTrDPCQcdB10p5-bm25-rm3-qe-k1.2-b0.75-fb10x30")


def _combo(qtbot, names, **kw):
    from yardstick.gui.name_combo import NameCombo

    combo = NameCombo(**kw)
    qtbot.addWidget(combo)
    combo.addItems(list(names))
    combo.show()
    qtbot.waitExposed(combo)
    return combo


def test_width_follows_the_names_up_to_a_cap(qtbot):
    short = _combo(qtbot, ["a", "b"], min_chars=6, max_chars=30)
    longer = _combo(qtbot, ["team01abcdefghij"], min_chars=6, max_chars=30)
    capped = _combo(qtbot, LONG, min_chars=6, max_chars=30)
    x = short.fontMetrics().horizontalAdvance("x")
    assert short.sizeHint().width() < longer.sizeHint().width() < capped.sizeHint().width()
    # the cap: the box grows by at most max_chars - min_chars characters
    assert capped.sizeHint().width() - short.sizeHint().width() <= x * 24 + 1


def test_a_long_name_is_elided_in_the_middle_and_whole_in_the_tooltip(qtbot):
    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication

    combo = _combo(qtbot, LONG, min_chars=6, max_chars=20)
    combo.setFixedWidth(combo.sizeHint().width())
    combo.blockSignals(True)            # panels refill their lists with signals blocked
    combo.setCurrentIndex(1)
    combo.blockSignals(False)
    shown = combo.shown_text()
    assert "…" in shown and shown.startswith("uogTr") and shown.endswith("fb10x30")
    QApplication.sendEvent(combo, QHelpEvent(QEvent.Type.ToolTip, QPoint(5, 5),
                                             combo.mapToGlobal(QPoint(5, 5))))
    assert combo.toolTip() == LONG[1]     # the name shown, though no signal told it


def test_the_popup_shows_every_name_whole(qtbot):
    from PySide6.QtCore import Qt

    combo = _combo(qtbot, ["a", *LONG], min_chars=6, max_chars=12)
    combo.showPopup()
    view = combo.view()
    widest = max(view.fontMetrics().horizontalAdvance(n) for n in LONG)
    assert view.viewport().width() >= widest
    assert view.textElideMode() == Qt.TextElideMode.ElideNone
    assert combo.itemData(2, Qt.ItemDataRole.ToolTipRole) == LONG[1]
    combo.hidePopup()
