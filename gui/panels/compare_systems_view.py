"""Compare by system: each system is several runs (seeds, folds, variants, a team's runs);
all numbers from yardstick.analysis.systems_comparison.

The systems are the runs' groups (the Collection panel's group column, a
``run<TAB>system`` file) or a regular expression over the run names.  Run fits the
mixed model ``score ~ system + (1|topic) + (1|run)`` beside the averaged and pooled
shortcuts and shows, per system, the mean over its runs, the run-to-run spread and the
topic interval; per pair of systems the three tests, corrected; the variance
components; and the runs and topics needed to see a difference.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QLineEdit,
)

from yardstick.analysis.significance import CORRECTIONS
from yardstick.analysis.systems import SHORTCUTS, split_runs, systems_from_pattern
from yardstick.analysis.systems_comparison import SystemsComparison, compare_systems_matrix
from yardstick.evaluation.evaluation_service import score_matrix
from yardstick.gui.charts.render_pg import draw_figure
from yardstick.gui.panels.analysis_panel_base import AnalysisPanel, column, form
from yardstick.presentation.charts.judgment_specs import systems_figure

SOURCES = (("groups", "run groups"), ("pattern", "name pattern"))


class SystemsView(AnalysisPanel):
    """The "by system" mode of the Compare panel."""

    JOB_KEY = "compare-systems"

    def __init__(self, state, jobs, parent=None):
        super().__init__(state, jobs, parent)
        self.result: SystemsComparison | None = None
        self.source = QComboBox()
        for key, label in SOURCES:
            self.source.addItem(label, key)
        self.pattern = QLineEdit(r"(.+)_s\d+$")
        self.pattern.setToolTip("A regular expression searched in each run name; its first "
                                "group (or the group named 'system') names the system")
        self.measure = QComboBox()
        self.correction = QComboBox()
        for c in CORRECTIONS:
            self.correction.addItem(c, c)
        self.correction.setCurrentIndex(CORRECTIONS.index("holm"))
        self.method = QComboBox()
        self.method.addItems(["auto", "complete", "crossed", "topic_fixed"])
        self.info = QLabel()
        self.info.setWordWrap(True)
        tests = QLabel("<br>".join(f"<b>{k}</b>: {v}" for k, v in SHORTCUTS.items()))
        tests.setWordWrap(True)
        controls = column(form((("Systems from", self.source), ("Pattern", self.pattern),
                                ("Measure", self.measure), ("Correction", self.correction),
                                ("Mixed model fit", self.method))),
                          self.info, tests, None)
        self.install_results(controls, "Choose how runs form systems, then press Run.",
                             charts_first=True, controls_width=250)
        self.source.currentIndexChanged.connect(lambda _: self.refresh())
        self.pattern.editingFinished.connect(self.refresh)
        state.changed.connect(self._changed)
        self.refresh()

    def _changed(self, what: str) -> None:
        if what in ("runs", "evaluations", "measures", "workspace"):
            self.refresh()

    # ---------------------------------------------------------------- API (tests use it)
    def systems(self) -> dict[str, str]:
        """``{run: system}`` for the shown runs, from the groups or the pattern."""
        entries = [e for e in self.state.workspace.runs.values() if e.visible]
        if self.source.currentData() == "pattern":
            try:
                return systems_from_pattern([e.name for e in entries], self.pattern.text())
            except Exception:  # noqa: BLE001 - a half-typed expression: no systems yet
                return {}
        return {e.name: e.group for e in entries if e.group}

    def run(self) -> str:
        evs = self.state.evaluations()
        measure = self.measure.currentText()
        mapping = self.systems()
        by, _ = split_runs(list(evs), mapping)
        if not measure or len(by) < 2:
            self.status.setText("Need at least two systems of evaluated runs: set the runs' "
                                "groups (Collection panel or a run<TAB>system file) or a "
                                "name pattern.")
            return ""
        self._used = list(evs)
        correction, method = self.correction.currentData(), self.method.currentText()

        def job():
            mat = score_matrix(evs, measure)
            return compare_systems_matrix(mat, mapping, measure, correction, method)

        return self.start_job(job, self._done,
                              f"Fitting the systems model on {len(evs)} runs…")

    def refresh(self) -> None:
        """The measures and the systems count from the state."""
        cols = self.state.measure_columns()
        current = self.measure.currentText()
        self.measure.blockSignals(True)
        self.measure.clear()
        self.measure.addItems(cols)
        if current in cols:
            self.measure.setCurrentText(current)
        elif "map" in cols:
            self.measure.setCurrentText("map")
        self.measure.blockSignals(False)
        self.pattern.setEnabled(self.source.currentData() == "pattern")
        names = [e.name for e in self.state.workspace.runs.values() if e.visible]
        by, left = split_runs(names, self.systems())
        self.info.setText(f"{len(by)} systems of {len(names) - len(left)} runs"
                          + (f"; {len(left)} runs in no system (listed after Run)"
                             if left else "") + ".")

    # ---------------------------------------------------------------- results
    def _done(self, sc: SystemsComparison) -> None:
        self._finished()
        self.result = sc
        tables = sc.tables()
        m = sc.mixed
        pairs = tables["system_pairs"]
        sig = int((pairs["p_value_mixed_corrected"] < 0.05).sum())
        sig_avg = int((pairs["p_value_averaged_corrected"] < 0.05).sum())
        self.say_result(
            f"{len(sc.systems)} systems: {sig} of {len(pairs)} pairs differ at 0.05 "
            f"by the mixed model ({sc.correction}), {sig_avg} by averaging the runs. "
            f"Variance: topic {m.var_topic:.4f}, run {m.var_run:.4f}, residual "
            f"{m.var_residual:.4f} ({m.method} fit)."
            + (f" {len(sc.unassigned)} runs in no system." if sc.unassigned else ""))
        self.fill_tables(tables)
        self.fill_charts([("Systems: run spread and topic interval", "systems")])

    def _draw_chart(self) -> None:
        draw_figure(self.chart, systems_figure(self.result) if self.result is not None
                    else None)
