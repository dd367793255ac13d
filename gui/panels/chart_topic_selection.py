"""Topic groups made in the Charts panel, and its chart widgets built on first use.

:class:`ChartTopicSelection` is the part of
:class:`~yardstick.gui.panels.charts_panel.ChartsPanel` that turns topics picked in
its per-topic charts into a topic group: NIST's difficult topics, a low median and a
high outlier (Voorhees, "Overview of the TREC 2003 Robust Retrieval Track", 2003,
section 1; :func:`yardstick.presentation.charts.topic_spread.difficult_topics`) or the topics
selected
with the mouse (:mod:`yardstick.gui.charts.topic_selection`).  :class:`LazyChartWidgets` builds
each chart's widget when it is first shown.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from yardstick.gui.charts.chart_kinds import BOXES, MEDIAN, SCATTER, SPREAD
from yardstick.gui.flow_bar import FlowBar
from yardstick.presentation.charts.topic_spread import difficult_topics, topic_spread


class ChartTopicSelection:
    """Mixin of the Charts panel (``self.state``, ``self.status``, ``self.stack``,
    ``self.widgets``, ``self.measure_box`` and ``self._topics()`` are the panel's)."""

    def select_difficult_topics(self) -> list[str]:
        """NIST's selection (robust overview §1) as the topic group ``difficult (<measure>)``."""
        evs = self.state.evaluations()
        if not evs:
            return []
        measure = self.measure_box.currentText() or "map"
        chosen = difficult_topics(topic_spread(evs, measure, topics=self._topics()))
        self.state.set_topic_group(f"difficult ({measure})", chosen)
        self.status.setText(f"{len(chosen)} difficult topics saved as the topic group "
                            f"'difficult ({measure})'.")
        return chosen

    # ------------------------------------------------------------ topic groups from charts
    def _install_topic_selection(self, tb: FlowBar) -> None:
        """Ctrl+click / Shift+drag (or drag in selection mode) selects topics in the
        per-topic charts; "Make topic group" saves them (yardstick.gui.charts.topic_selection)."""
        self.select_action = tb.addAction("Select topics")
        self.select_action.setCheckable(True)
        self.select_action.setToolTip("Drag a rectangle over the chart to select topics "
                                      "(or Shift+drag any time; Ctrl+click toggles one topic)")
        self.select_action.toggled.connect(self._select_mode)
        self.group_action = tb.addAction("Make topic group from selection",
                                         lambda: self.make_group_from_selection())
        self.group_action.setEnabled(False)
        self.selection_label = QLabel("")
        tb.addWidget(self.selection_label)

    def _chart_built(self, name: str, w) -> None:
        """Wire a chart widget built on first use: topic clicks, the stack, and topic
        selection in the per-topic charts (yardstick.gui.charts.topic_selection)."""
        from yardstick.gui.charts.topic_selection import install

        w.topicClicked.connect(self.state.show_topic)
        self.stack.addWidget(w)
        if name in (MEDIAN, SPREAD, BOXES, SCATTER):
            install(w).changed.connect(self._selection_changed)
            action = getattr(self, "select_action", None)
            w.topic_selection.drag_selects = action is not None and action.isChecked()

    def _select_mode(self, on: bool) -> None:
        for w in self.widgets.values():
            if hasattr(w, "topic_selection"):
                w.topic_selection.drag_selects = on

    def chart_selection(self) -> list[str]:
        """Topics selected in the chart shown."""
        sel = getattr(self.current_chart(), "topic_selection", None)
        return list(sel.selected) if sel is not None else []

    def _selection_changed(self, _topics=None) -> None:
        n = len(self.chart_selection())
        self.group_action.setEnabled(n > 0)
        self.selection_label.setText(f"  {n} topic{'s' if n != 1 else ''} selected" if n else "")

    def make_group_from_selection(self, ask: bool = True) -> str | None:
        """Save the chart's selected topics as a topic group; returns its name."""
        from yardstick.gui.topic_groups import make_group

        topics = self.chart_selection()
        name = make_group(self.state, topics, f"chart selection ({len(topics)} topics)", self,
                          ask)
        if name:
            self.status.setText(f"{len(topics)} topics saved as the topic group '{name}'.")
        return name


class LazyChartWidgets(dict):
    """Chart name -> widget, each built by its factory on first access and handed to
    ``on_built(name, widget)``; ``values()`` gives the widgets built so far."""

    def __init__(self, factories: dict, on_built) -> None:
        super().__init__()
        self._factories = factories
        self._on_built = on_built

    def __missing__(self, name: str):
        w = self[name] = self._factories[name]()
        self._on_built(name, w)
        return w

