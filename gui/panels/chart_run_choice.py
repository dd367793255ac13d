"""Which runs a chart of the Charts panel draws, in which colours, and against which
median: the run filter (top N by the measure, one team, a search —
:class:`~yardstick.presentation.charts.run_filter.RunFilter`), the runs' own colours
when they tell the drawn runs apart, NIST's official per-topic medians read from a
file, and the note on a chart that uses teams guessed from run names (#27).

:class:`ChartRunChoice` is mixed into
:class:`~yardstick.gui.panels.charts_panel.ChartsPanel` (``self.state``,
``self.status``, ``self.selection`` and the panel's combo boxes are the panel's).
"""

from __future__ import annotations

from yardstick.gui.charts.chart_kinds import (
    FILTER_MODES,
    FILTERED,
    MEDIAN,
    OFFICIAL,
    PER_TEAM,
    SYSTEM,
)
from yardstick.presentation.charts.run_filter import EXTRAS_KEY, RunFilter, RunSelection
from yardstick.presentation.charts.scores import run_means

__all__ = ["ChartRunChoice"]


class ChartRunChoice:
    """The runs, colours and medians of the Charts panel (see the module's docstring)."""

    def run_filter(self) -> RunFilter:
        """The run filter the controls describe."""
        return RunFilter(FILTER_MODES.get(self.filter_mode.currentText(), "auto"),
                         self.filter_n.value(), self.filter_team.currentText(),
                         self.filter_text.text())

    def select_runs(self) -> RunSelection:
        """The ticked runs the run filter keeps for the chart shown (all of them for the
        charts that do not draw one series per run)."""
        evs = self.state.evaluations()
        names = list(evs)
        if self.chart_box.currentText() not in FILTERED:
            return RunSelection(tuple(names), len(names), f"all {len(names)} runs")
        flt = self.run_filter()
        measure = self.measure_box.currentText() or "map"
        means = None
        if flt.mode in ("auto", "top") and names:
            try:
                means = run_means(evs, [measure], topics=self._topics())[measure].to_dict()
            except KeyError:
                means = None
        teams = {n: (e.group or n) for n, e in self.state.workspace.runs.items()}
        keep = [self.run_box.currentText()] if self.chart_box.currentText() == SYSTEM else []
        return flt.select(names, means, teams, measure, keep=[k for k in keep if k])

    def _filter_changed(self, *_):
        """Redraw, and keep the filter where the other panels' run charts read it."""
        flt = self.run_filter().to_dict()
        if self.state.workspace.extras.get(EXTRAS_KEY) != flt:
            self.state.set_extra(EXTRAS_KEY, flt)
        self._controls_changed()

    def _median_source_changed(self, *_):
        if self.median_box.currentText() == OFFICIAL and self.official_medians is None:
            from PySide6.QtWidgets import QFileDialog

            path, _ = QFileDialog.getOpenFileName(self, "Official per-topic medians",
                                                  "", "Medians (*.txt *.tsv *.csv);;All (*)")
            if not path or not self.load_official_medians(path):
                self.median_box.setCurrentIndex(0)
                return
        self._controls_changed()

    def load_official_medians(self, path: str) -> bool:
        """Read NIST's per-topic best/median/worst table
        (:mod:`yardstick.inputs.io.medians_file`)."""
        import os

        from yardstick.common.errors import FormatError
        from yardstick.inputs.io.medians_file import read_medians

        try:
            frame = read_medians(path, measure=self.measure_box.currentText() or None)
        except FormatError as e:
            self.status.setText(f"Medians not read: {e.message}")
            return False
        self.official_medians = (frame, os.path.basename(path))
        if self.median_box.currentText() != OFFICIAL:
            self.median_box.setCurrentText(OFFICIAL)
        return True

    def groups_note(self, chart: str) -> str:
        """"groups guessed from run names" on a chart that uses the runs' teams (the
        per-team median, the team filter) when no groups file gave them (#27)."""
        from yardstick.inputs.run_names import groups_are_guess

        uses = []
        if chart == MEDIAN and self.median_box.currentText() == PER_TEAM:
            uses.append("the median of one run per team")
        if chart in FILTERED and FILTER_MODES.get(self.filter_mode.currentText()) == "team":
            uses.append("the team filter")
        runs = self.state.workspace.runs
        if not uses or not runs:
            return ""
        names = list(runs)
        groups = [runs[n].group for n in names]
        if not groups_are_guess(names, [runs[n].run.tag or n for n in names], groups):
            return ""
        n = len({g or r for r, g in zip(names, groups)})
        return (f"{' and '.join(uses).capitalize()}: groups guessed from run names ({n} groups); "
                "load a groups file or edit the Collection panel's group column to correct them.")

    def run_colors(self) -> dict[str, str] | None:
        """The runs' own colours (Collection panel) when the runs drawn all differ in
        colour; otherwise None: the chart gives each drawn run a distinct palette colour
        (with 150 runs the own colours repeat)."""
        runs = self.selection.runs if self.selection is not None else ()
        own = {n: e.color for n, e in self.state.workspace.runs.items() if e.color}
        drawn = [own.get(r) for r in runs]
        return own if None not in drawn and len(set(drawn)) == len(drawn) else None
