"""Charts: recall-precision, per-topic vs median, topic spread and box plots, MAP(X),
precision at cutoffs, measure scatter and rank-correlation heat map.

Choose the chart, the run (for single-run charts), the measure(s) and the topic
group.  The charts that draw one curve or point per run draw the runs the run
filter keeps (:class:`yardstick.presentation.charts.run_filter.RunFilter`: top N by the
measure — the default with more than 12 runs —, one team, a search, or every
run ticked in the Collection panel); the caption says which ("top 12 of 150 runs
by map") and every export carries the same runs.  The legend beside the plot
hides series; clicking a run highlights it.  Per-topic charts (median, spread)
take the median over every ticked run.  Numbers come from :mod:`yardstick.presentation.charts`,
computed through the job runner; the widgets are in :mod:`yardstick.gui.charts`.
Every chart exports as PNG / SVG / PDF and its numbers as a table.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from yardstick.gui.charts.chart_kinds import (  # noqa: F401  (names tests import from here)
    ALL_TOPICS,
    BOXES,
    CHART_DATA,
    CHARTS,
    CORR,
    CUTOFFS,
    DRAW,
    FIGURE,
    FILTER_MODES,
    FILTERED,
    MAPX,
    MEDIAN,
    MEDIAN_SOURCES,
    OFFICIAL,
    PER_TEAM,
    RP,
    RP_TOPIC,
    SCATTER,
    SPREAD,
    SYSTEM,
    chart_data,
    chart_figure,
)
from yardstick.gui.charts.map_at_x_chart import MapAtXChart
from yardstick.gui.charts.measure_scatter_chart import MeasureScatterChart
from yardstick.gui.charts.median_difference_chart import MedianDifferenceChart
from yardstick.gui.charts.precision_cutoffs_chart import PrecisionCutoffsChart
from yardstick.gui.charts.rank_correlation_chart import RankCorrelationChart
from yardstick.gui.charts.recall_precision_chart import RecallPrecisionChart
from yardstick.gui.charts.system_ranking_chart import SystemRankingChart
from yardstick.gui.charts.topic_spread_chart import TopicSpreadChart
from yardstick.gui.flow_bar import FlowBar
from yardstick.gui.name_combo import NameCombo
from yardstick.gui.panels.chart_run_choice import ChartRunChoice
from yardstick.gui.panels.chart_topic_selection import ChartTopicSelection, LazyChartWidgets
from yardstick.presentation.charts.run_filter import AUTO_LIMIT, RunSelection
from yardstick.presentation.charts.scores import sort_topics


class ChartsPanel(ChartRunChoice, ChartTopicSelection, QWidget):
    TITLE = "Charts"
    #: choices kept in the session (yardstick.gui.panel_choices)
    CHOICES = ("chart_box", "measure_box", "measure2_box", "group_box", "filter_mode",
               "filter_n", "filter_team", "filter_text")

    def __init__(self, state, jobs, parent=None):
        super().__init__(parent)
        self.state = state
        self.jobs = jobs
        self.data = None                      # the chart dataclass shown
        self.chart_box = QComboBox()
        self.chart_box.addItems(CHARTS)
        self.run_box = NameCombo()
        self.measure_box = NameCombo(min_chars=8, max_chars=20)
        self.measure2_box = NameCombo(min_chars=8, max_chars=20)
        self.topic_box = NameCombo(min_chars=6, max_chars=12)
        self.group_box = NameCombo(min_chars=10, max_chars=24)
        self.sort_box = QComboBox()
        self.sort_box.addItems(["by topic", "by difference"])
        self.median_box = QComboBox()        # what the per-topic median is taken from
        self.median_box.addItems(MEDIAN_SOURCES)
        self.median_box.setToolTip("The median of all shown runs, of each team's first run, "
                                   "or NIST's official per-topic medians read from a file "
                                   "(topic best median worst)")
        self.official_medians = None          # (DataFrame, file name) once read
        self.quarter_box = QCheckBox("worst quarter")
        self.difficult_button = QPushButton("Select difficult topics")
        self.difficult_button.setToolTip("Topics with a median in the worst quarter and at "
                                         "least one high outlier (robust 2003 overview): "
                                         "saved as a topic group")
        self.filter_mode = QComboBox()
        self.filter_mode.addItems(list(FILTER_MODES))
        self.filter_mode.setToolTip("Which runs the per-run charts draw, out of the runs "
                                    "ticked in the Collection panel")
        self.filter_n = QSpinBox(minimum=1, maximum=10_000, value=AUTO_LIMIT)
        self.filter_n.setPrefix("N = ")
        self.filter_team = NameCombo(min_chars=10, max_chars=24)
        self.filter_team.setToolTip("Team (group) from the groups file or the run tags")
        self.filter_text = QLineEdit()
        self.filter_text.setPlaceholderText("run or team contains…")
        self.filter_text.setClearButtonEnabled(True)
        self.filter_text.setMaximumWidth(160)
        self.selection: RunSelection | None = None   # the runs the chart shown draws
        self.status = QLabel("")
        self.stack = QStackedWidget()
        # a chart widget is built when first shown: ten plot widgets at once blocked
        # the event loop ~0.2 s while the window was starting
        self.widgets = LazyChartWidgets(
            {RP: RecallPrecisionChart, RP_TOPIC: RecallPrecisionChart,
             MEDIAN: MedianDifferenceChart, SPREAD: TopicSpreadChart, BOXES: TopicSpreadChart,
             MAPX: MapAtXChart, CUTOFFS: PrecisionCutoffsChart, SCATTER: MeasureScatterChart,
             CORR: RankCorrelationChart, SYSTEM: SystemRankingChart}, self._chart_built)
        tb = FlowBar()
        self._labels = {}
        for text, box in ((" Chart: ", self.chart_box), ("  Run: ", self.run_box),
                          ("  Measure: ", self.measure_box), ("  y: ", self.measure2_box),
                          ("  Topic: ", self.topic_box), ("  Topics: ", self.group_box),
                          ("  Order: ", self.sort_box), ("  Median of: ", self.median_box)):
            label = QLabel(text)
            self._labels[box] = (tb.addWidget(label), tb.addWidget(box))
        self._labels[self.quarter_box] = (tb.addWidget(self.quarter_box),)
        self._labels[self.difficult_button] = (tb.addWidget(self.difficult_button),)
        tb2 = FlowBar()
        for text, box in ((" Runs: ", self.filter_mode), ("", self.filter_n),
                          ("", self.filter_team), ("", self.filter_text)):
            self._labels[box] = ((tb2.addWidget(QLabel(text)),) if text else ()) + (
                tb2.addWidget(box),)
        tb2.addSeparator()
        self._install_topic_selection(tb2)
        from yardstick.gui.export_actions import add_plot_export, add_table_export, plot_file_stem
        add_plot_export(self.current_chart, tb2)
        add_table_export(self.current_frame, tb2, lambda: plot_file_stem(self.current_chart))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(tb)
        lay.addWidget(tb2)
        lay.addWidget(self.status)
        lay.addWidget(self.stack, 1)
        for box in (self.chart_box, self.run_box, self.measure_box, self.measure2_box,
                    self.topic_box, self.group_box, self.sort_box):
            box.currentIndexChanged.connect(self._controls_changed)
        self.median_box.currentIndexChanged.connect(self._median_source_changed)
        for box in (self.filter_mode, self.filter_team):
            box.currentIndexChanged.connect(self._filter_changed)
        self.filter_n.valueChanged.connect(self._filter_changed)
        self.filter_text.textChanged.connect(self._filter_changed)
        self.quarter_box.toggled.connect(self._controls_changed)
        self.difficult_button.clicked.connect(self.select_difficult_topics)
        state.changed.connect(self._state_changed)
        jobs.cancelled.connect(lambda key: key == "charts"
                               and QTimer.singleShot(0, self._painted_if_idle))
        self._updating = False
        self._fill_controls()
        self.refresh()

    # ------------------------------------------------------------ controls
    def current_chart(self):
        return self.widgets[self.chart_box.currentText()]

    def current_frame(self):
        import pandas as pd
        return self.data.to_frame() if self.data is not None else pd.DataFrame()

    def _set_combo(self, box: QComboBox, items: list[str], prefer: str | None = None) -> None:
        cur = box.currentText() or prefer
        box.blockSignals(True)
        box.clear()
        box.addItems(items)
        if cur in items:
            box.setCurrentText(cur)
        elif prefer in items:
            box.setCurrentText(prefer)
        box.blockSignals(False)

    def _fill_controls(self) -> None:
        evs = self.state.evaluations()
        self._set_combo(self.run_box, list(evs))
        cols = []
        if evs:
            pt = next(iter(evs.values())).per_topic
            cols = [c for c, t in pt.dtypes.items() if t.kind == "f"   # not pt[c]: a
                    and not c.startswith("num_")]                     # Series per column
        self._set_combo(self.measure_box, cols, "map")
        self._set_combo(self.measure2_box, cols, "P_10")
        ws = self.state.workspace
        self._set_combo(self.group_box, [ALL_TOPICS, *ws.topic_groups])
        topics = sort_topics(next(iter(evs.values())).per_topic.index) if evs else []
        self._set_combo(self.topic_box, topics)
        teams = sorted({e.group or n for n, e in ws.runs.items()}, key=str.lower)
        self._set_combo(self.filter_team, teams)
        self._show_controls()

    def _show_controls(self) -> None:
        chart = self.chart_box.currentText()
        filtered = chart in FILTERED
        mode = FILTER_MODES.get(self.filter_mode.currentText(), "auto")
        wants = {self.run_box: chart in (MEDIAN, RP_TOPIC, SYSTEM),
                 self.measure_box: chart in (MEDIAN, SPREAD, BOXES, MAPX, SCATTER, SYSTEM)
                 or (filtered and mode in ("auto", "top")),
                 self.filter_mode: filtered,
                 self.filter_n: filtered and mode in ("auto", "top"),
                 self.filter_team: filtered and mode == "team",
                 self.filter_text: filtered and mode == "search",
                 self.measure2_box: chart == SCATTER,
                 self.topic_box: chart == RP_TOPIC,
                 self.group_box: chart != RP_TOPIC,
                 self.sort_box: chart == MEDIAN,
                 self.median_box: chart == MEDIAN,
                 self.quarter_box: chart == MAPX,
                 self.difficult_button: chart in (SPREAD, BOXES)}
        for box, show in wants.items():
            for action in self._labels[box]:
                action.setVisible(show)

    def _state_changed(self, what: str) -> None:
        if what in ("evaluations", "runs", "topic_groups", "workspace", "qrels", "measures"):
            self._fill_controls()
            self.refresh()

    def _controls_changed(self, *_):
        self._show_controls()
        self.refresh()
        self._selection_changed()

    def _topics(self):
        g = self.group_box.currentText()
        return None if g in ("", ALL_TOPICS) else self.state.workspace.topic_groups.get(g)

    # ------------------------------------------------------------ computing
    def chart_request(self) -> dict:
        """Everything a chart's data needs, read from the widgets here, on the GUI thread
        (the job then gets plain data, never a widget)."""
        ws = self.state.workspace
        run = self.run_box.currentText()
        entry = ws.runs.get(run)
        selection = self.select_runs()
        evs = self.state.evaluations()
        return {"chart": self.chart_box.currentText(),
                "evaluations": {r: evs[r] for r in selection.runs if r in evs},
                "all_evaluations": evs, "selection": selection,
                "topics": self._topics(), "measure": self.measure_box.currentText() or "map",
                "measure2": self.measure2_box.currentText() or "P_10", "run": run,
                "run_object": entry.run if entry is not None else None, "qrels": ws.qrels,
                "topic": self.topic_box.currentText(), "options": ws.options,
                "order": "difference" if self.sort_box.currentIndex() == 1 else "topic",
                "median_source": self.median_box.currentText(),
                "official_medians": self.official_medians,
                "teams": {n: (e.group or n) for n, e in ws.runs.items()}}

    def make_data(self, request: dict | None = None):
        """The chart dataclass for the current controls (see :func:`chart_data`)."""
        return chart_data(request or self.chart_request())

    def refresh(self) -> None:
        chart = self.chart_box.currentText()
        w = self.widgets[chart]
        if self.stack.currentWidget() is not w:
            # a chart brought to the front is not painted until its figure is drawn: its
            # empty or stale plot took two paints of 15-25 ms, waiting for the GIL while
            # the chart's job ran, in the same turn of the event loop
            w.setUpdatesEnabled(False)
            self.stack.setCurrentWidget(w)
        if not self._submit_chart(chart):
            w.setUpdatesEnabled(True)

    def _submit_chart(self, chart: str) -> bool:
        """Start the job that builds the chart's data and figure; False if there is nothing
        to draw (the reason is in the status line)."""
        evs = self.state.evaluations()
        if not evs:
            self.status.setText("Load qrels and runs: the charts appear once they are evaluated.")
            return False
        if chart == RP_TOPIC and (self.state.workspace.qrels is None
                                  or not self.run_box.currentText()
                                  or not self.topic_box.currentText()):
            return False
        request = self.chart_request()
        if chart in (SCATTER, CORR) and len(request["evaluations"]) < 2:
            self.status.setText("This chart needs at least two runs.")
            return False
        if not request["evaluations"]:
            self.status.setText(f"No run to draw: {request['selection'].description}.")
            return False
        self.status.setText("")
        self.selection = request["selection"]
        ctx = self.draw_context(chart)
        # the data and the figure in the job: the GUI thread only draws the figure
        self.jobs.submit("charts", lambda: (chart, *chart_figure(chart, request, ctx)),
                         on_result=self._show_figure,
                         on_error=lambda e: self._chart_failed(chart, e.message))
        return True

    def _painted_if_idle(self) -> None:
        """After a chart job was cancelled (Cancel), not replaced by another: the chart
        shown is painted again."""
        if not self.jobs.is_running("charts"):
            self.current_chart().setUpdatesEnabled(True)

    def _chart_failed(self, chart: str, message: str) -> None:
        self.status.setText(message)
        self.widgets[chart].setUpdatesEnabled(True)

    def draw_context(self, chart: str) -> dict:
        """What a chart's figure takes from the window besides its data (run colours, the
        quarter option, topic groups, the run filter's caption), as plain data."""
        sel = self.selection
        return {"colors": self.run_colors(), "quarter": self.quarter_box.isChecked(),
                "groups": {k: list(v) for k, v in self.state.workspace.topic_groups.items()},
                "caption": sel.description if sel is not None and chart in FILTERED else ""}

    def show_data(self, data) -> None:
        """Draw ``data`` in the chart chosen, its figure built here (tests, screenshots)."""
        chart = self.chart_box.currentText()
        self._show_figure((chart, data, FIGURE[chart](data, self.draw_context(chart))))

    def _show_figure(self, result) -> None:
        chart, data, figure = result
        w = self.widgets[chart]
        self.data = data
        if hasattr(w, "topic_selection"):
            w.topic_selection.clear()           # the chart is redrawn: old points are gone
        w.show_figure(figure)
        w.setUpdatesEnabled(True)               # one paint of the figure drawn
        self.status.setText(self.groups_note(chart))

    def screenshot_items(self) -> dict:
        """Every chart drawn with the current settings (for ``yardstick --screenshot``)."""
        if not self.state.evaluations():
            return {}
        current = self.chart_box.currentText()
        out = {}
        self.chart_box.blockSignals(True)
        try:
            for name in CHARTS:
                self.chart_box.setCurrentText(name)
                try:
                    request = self.chart_request()
                    self.selection = request["selection"]
                    self.show_data(self.make_data(request))
                except Exception:  # noqa: BLE001 - a chart that cannot be drawn is skipped
                    continue
                out[self.widgets[name].export_name + ("_topic" if name == RP_TOPIC else "")
                    + ("_boxes" if name == BOXES else "")] = self.widgets[name]
        finally:
            self.chart_box.setCurrentText(current)
            self.chart_box.blockSignals(False)
        return out
