"""The right-hand side every diagnostic panel shares: status line, Tables and Chart tabs.

Each tab has a chooser and its export menu (tables: CSV/XLSX/LaTeX/Markdown/copy;
charts: PNG/SVG/PDF); the controls sit in a splitter on the left.
"""

from __future__ import annotations

from collections.abc import Collection

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


def start_panel_job(panel: QWidget, key: str, job, on_result, status_text: str) -> str:
    """Run a diagnostic job for a panel with Run/Cancel buttons and a progress bar.

    The panel provides ``jobs``, ``status``, ``run_button``, ``cancel_button``,
    ``progress`` and ``_failed``; progress goes to the bar in thousandths.

    While the job runs the status line keeps at least its height: a shorter text would
    let the tabs below grow, and the last result's figure be painted again at its new
    size beside the job (a 20-plot Stability figure of the Robust04-sized track: 154 ms
    of the GUI thread, the event loop blocked 180 ms).  It may shrink with the result.
    """
    panel.status.setMinimumHeight(panel.status.height())
    panel.status.setText(status_text)
    panel.run_button.setEnabled(False)
    panel.cancel_button.setEnabled(True)
    panel.progress.setValue(0)

    def settled(handler):
        def call(arg):
            panel.status.setMinimumHeight(0)
            handler(arg)
        return call

    panel.jobs.submit(key, job, on_result=settled(on_result), on_error=settled(panel._failed),
                      on_progress=lambda f, msg: panel.progress.setValue(int(1000 * f)))
    return key


def cancel_panel_job(panel: QWidget, key: str) -> None:
    """Cancel a panel's running job (its result will be dropped) and reset the buttons."""
    if panel.jobs.cancel(key):
        panel.status.setText("Cancelled.")
    panel.status.setMinimumHeight(0)
    panel._idle()


def loading_runs(panel: QWidget) -> bool:
    """Whether runs are still being read or evaluated (a load job, or the evaluation)."""
    jobs = panel.jobs
    return (any(k.startswith("load") for k in jobs.keys())
            or panel.state.is_evaluating())


#: said beside a result computed while runs were still being read or evaluated
STILL_LOADING = "Still loading runs: Run again when the load ends."


def runs_note(panel: QWidget, used: Collection[str]) -> str:
    """What to say about the runs an analysis used: "" when they are the runs evaluated
    now; else that it was computed on fewer (or other) runs and should be run again.  An
    analysis started while 10 of 150 runs were still loading said nothing of it."""
    now, used = set(panel.state.evaluations()), set(used)
    if used != now:
        return (f"Computed on {len(used)} runs; {len(now)} are loaded and evaluated now: "
                "press Run again.")
    return STILL_LOADING if loading_runs(panel) else ""


def pool_state(ws) -> tuple:
    """What a pool result depends on among the runs: (name, pooled, group) of each run."""
    return tuple((e.name, bool(e.pooled), e.group or e.name) for e in ws.runs.values())
