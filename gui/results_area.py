"""The right-hand side every diagnostic panel shares: status line, Tables and Chart tabs
(laid out for :class:`yardstick.gui.panels.analysis_panel_base.AnalysisPanel`).

Each tab has a chooser and its export menu (tables: CSV/XLSX/LaTeX/Markdown/copy;
charts: PNG/SVG/PDF); the controls sit in a splitter on the left.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from yardstick.gui.flow_bar import FlowBar
from yardstick.gui.table_view import FrameTableView, try_add_plot_export, try_add_table_export
from yardstick.presentation.export.file_names import file_stem


def boxed(*widgets: QWidget) -> QWidget:
    """Widgets top to bottom (a toolbar above a table), without margins; the last one
    takes the height to spare."""
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    for w in widgets[:-1]:
        lay.addWidget(w)
    lay.addWidget(widgets[-1], 1)
    return box


def split(*widgets: QWidget, sizes: list[int], vertical: bool = False) -> QSplitter:
    """Widgets side by side (above one another when ``vertical``) in a splitter, at
    ``sizes`` pixels to begin with."""
    box = QSplitter(Qt.Orientation.Vertical if vertical else Qt.Orientation.Horizontal)
    for w in widgets:
        box.addWidget(w)
    box.setSizes(sizes)
    return box


def install_results_area(panel: QWidget, controls: QWidget, status_text: str,
                         charts_first: bool = False, chart_tab: str = "Chart",
                         controls_width: int = 260, footer: QWidget | None = None) -> None:
    """Give ``panel`` ``status``, ``table_choice``, ``table``, ``chart_choice``, ``chart``
    and ``tabs`` attributes, laid out to the right of ``controls`` (which scroll when
    taller than the panel; ``footer``, e.g. Run/Cancel and the progress bar, stays
    below them in view)."""
    panel.status = QLabel(status_text)
    panel.status.setWordWrap(True)
    panel.table_choice = QComboBox()
    panel.table_choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    panel.table = FrameTableView()
    panel.chart_choice = QComboBox()
    panel.chart_choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    panel.chart = pg.GraphicsLayoutWidget()
    panel.chart.setBackground("w")
    ttb = FlowBar()
    ttb.addWidget(QLabel(" Table: "))
    ttb.addWidget(panel.table_choice)
    ttb.addAction("Copy", panel.table.copy_selection)
    try_add_table_export(lambda: panel.table.visible_frame(), ttb, lambda: file_stem(
        getattr(type(panel), "TITLE", "results").lower(), panel.table_choice.currentText()))
    ctb = FlowBar()
    ctb.addWidget(QLabel(" Chart: "))
    ctb.addWidget(panel.chart_choice)
    try_add_plot_export(panel.chart, ctb)
    panel.tabs = QTabWidget()
    tabs = [(boxed(ttb, panel.table), "Tables"), (boxed(ctb, panel.chart), chart_tab)]
    for widget, title in (reversed(tabs) if charts_first else tabs):
        panel.tabs.addTab(widget, title)
    right = QWidget()
    rl = QVBoxLayout(right)
    rl.setContentsMargins(0, 0, 0, 0)
    rl.addWidget(panel.status)
    rl.addWidget(panel.tabs, 1)
    split = QSplitter(Qt.Orientation.Horizontal)
    # the controls scroll on their own: at 1280x800 the Pool panel's column of choices is
    # taller than its dock, which pushed the Run button's progress bar off screen
    scroll = QScrollArea()
    scroll.setWidget(controls)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    # room for the controls' own minimum beside the vertical scroll bar: with a 150-run
    # result shown the splitter gave the column 2 px less than its buttons needed
    bar = scroll.verticalScrollBar().sizeHint().width()
    scroll.setMinimumWidth(max(min(controls.sizeHint().width(), controls_width),
                               controls.minimumSizeHint().width()) + bar + 4)
    left = scroll
    if footer is not None:
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.setSpacing(0)
        ll.addWidget(scroll, 1)
        ll.addWidget(footer)
    split.addWidget(left)
    split.addWidget(right)
    split.setSizes([controls_width, 800])
    lay = QVBoxLayout(panel)
    lay.setContentsMargins(2, 2, 2, 2)
    lay.addWidget(split)
