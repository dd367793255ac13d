"""The wrapping panel toolbar and the column fitting behind "no control hides, no answer is
cut at 1280×800" (issue 28)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLabel, QVBoxLayout, QWidget

from yardstick.gui.flow_bar import FlowBar
from yardstick.gui.table_model import shrink_to_fit


def test_items_wrap_onto_rows_and_all_stay_inside(qtbot):
    host = QWidget()
    qtbot.addWidget(host)
    bar = FlowBar()
    lay = QVBoxLayout(host)
    lay.addWidget(bar)
    lay.addStretch(1)
    widgets = []
    for i in range(8):
        widgets.append(bar.addWidget(QLabel(f"Choice {i}:")))
        box = QComboBox()
        box.addItem("a fairly long entry")
        widgets.append(bar.addWidget(box))
    copy = bar.addAction("Copy", lambda: None)
    host.resize(300, 400)
    host.show()
    qtbot.waitExposed(host)
    qtbot.waitUntil(lambda: bar.height() > 3 * widgets[1].height())   # several rows
    right = bar.width()
    for w in widgets:
        assert w.isVisible() and w.x() >= 0 and w.x() + w.width() <= right, w
        assert w.y() + w.height() <= bar.height()
    copy.setVisible(False)
    assert not any(b.isVisible() for b in bar.findChildren(QWidget)
                   if getattr(b, "defaultAction", lambda: None)() is copy)
    host.resize(2000, 400)
    qtbot.waitUntil(lambda: bar.height() < 2 * widgets[1].height() + 8)  # one row again


def test_shrink_to_fit_narrows_the_widest_first_and_respects_floors():
    # 100 + 300 + 200 = 600 into 400: one cap c with 100 + c + c = 400 -> c = 150
    assert shrink_to_fit([100, 300, 200], [50, 90, 90], 400) == [100, 150, 150]
    # a high floor holds one column wide: the cap falls to 60 for the others
    assert shrink_to_fit([100, 300, 200], [50, 250, 90], 400) == [60, 250, 90]
    assert shrink_to_fit([100, 120], [0, 0], 400) == [100, 120]        # fits: unchanged
    assert shrink_to_fit([300, 300], [200, 200], 100) == [200, 200]    # floors win


def test_shrink_to_fit_narrows_words_before_numbers():
    # run names (marked first) narrowed to their floor before a number's long header
    widths, floors, words = [330, 330, 120], [124, 124, 60], [True, True, False]
    assert shrink_to_fit(widths, floors, 400, words) == [140, 140, 120]
    assert shrink_to_fit(widths, floors, 310, words) == [124, 124, 62]  # then numbers
    # too wide even then: the numbers keep their whole headers (they would not all fit)
    assert shrink_to_fit(widths, floors, 250, words) == [124, 124, 120]


def test_a_label_wraps_with_the_control_it_names(qtbot):
    host = QWidget()
    qtbot.addWidget(host)
    bar = FlowBar()
    QVBoxLayout(host).addWidget(bar)
    pairs = []
    for i in range(6):
        label = bar.addWidget(QLabel(f"Measure {i}:"))
        box = QComboBox()
        box.addItem("ndcg_cut_10")
        pairs.append((label, bar.addWidget(box)))
    for width in (260, 330, 410, 530):
        host.resize(width, 300)
        host.show()
        qtbot.waitExposed(host)
        qtbot.wait(20)
        for label, box in pairs:       # on the same row: the label's centre line is the box's
            assert abs(label.geometry().center().y() - box.geometry().center().y()) <= 1
