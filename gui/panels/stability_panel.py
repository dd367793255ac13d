"""Stability: can this topic set tell these runs apart? (all numbers from yardstick.stability)

The panel collects the choices (analysis, measures, topic group and a group to
compare with, seed, B, bins, fuzziness, α, β ...), runs
:func:`yardstick.stability.report.run_stability` through the job runner (progress,
cancel) and shows its tables and charts: the grid of swap-rate-vs-n plots per
difference bin with the fitted ``A1·exp(−A2·n)`` curves ("Measuring the
measure"), the ASL curves of the paired bootstrap test, the Kendall τ / τ_AP
heat map between measures, and bars for error rates and Tukey groups.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFormLayout, QHBoxLayout, QLabel,
                               QLineEdit, QListWidget, QListWidgetItem, QProgressBar,
                               QPushButton, QSpinBox, QVBoxLayout, QWidget)

from yardstick.stability.analyses import REGISTRY
from yardstick.stability.report import (ANALYSES, ANALYSIS_TITLES, StabilityReport,
                                   StabilitySettings, run_stability, score_matrices)
from yardstick.gui.app_state import AppState
from yardstick.gui.jobs import JobRunner
from yardstick.gui.results_area import cancel_panel_job, install_results_area, start_panel_job

ALL_TOPICS = "All topics"
NONE = "—"
JOB_KEY = "stability"
EXTRA_MEASURES = ("area", "map_worst")   # made from per-topic map (yardstick.stability.aggregates)
GRID_BINS = 20
_DASH = pg.mkPen("#999", style=Qt.PenStyle.DashLine)


class StabilityPanel(QWidget):
    TITLE = "Stability"
    #: choices kept in the session (yardstick.gui.panel_choices)
    CHOICES = ("analysis", "measures", "group", "versus", "seed", "samples", "bin_width",
               "fuzziness", "subset", "confidence", "alpha", "beta", "min_diffs")

    def __init__(self, state: AppState, jobs: JobRunner, parent=None):
        super().__init__(parent)
        self.state = state
        self.jobs = jobs
        self.report: StabilityReport | None = None
        self.analysis = QComboBox()
        for a in ANALYSES:
            self.analysis.addItem(ANALYSIS_TITLES[a], a)
        self.measures = QListWidget()
        self.group = QComboBox()
        self.versus = QComboBox()
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        self.samples = QSpinBox(minimum=10, maximum=100_000, singleStep=100, value=1000)
        self.bin_width = QDoubleSpinBox(decimals=3, minimum=0.001, maximum=1.0, singleStep=0.005,
                                        value=0.01)
        self.fuzziness = QDoubleSpinBox(decimals=3, minimum=0.0, maximum=0.5, singleStep=0.01,
                                        value=0.05)
        self.subset = QSpinBox(minimum=0, maximum=100_000, value=0, specialValueText="N/2")
        self.confidence = QDoubleSpinBox(decimals=3, minimum=0.5, maximum=0.999,
                                         singleStep=0.01, value=0.95)
        self.alpha = QDoubleSpinBox(decimals=3, minimum=0.001, maximum=0.5, singleStep=0.01,
                                    value=0.05)
        self.beta = QDoubleSpinBox(decimals=3, minimum=0.01, maximum=0.9, singleStep=0.05,
                                   value=0.20)
        self.min_diffs = QLineEdit("0.02, 0.05, 0.1")
        self.run_button = QPushButton("Run")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        form = QFormLayout()
        for label, w in (("Analysis", self.analysis), ("Topics", self.group),
                         ("Compare with", self.versus), ("Seed", self.seed),
                         ("Samples (B)", self.samples), ("Bin width", self.bin_width),
                         ("Fuzziness", self.fuzziness), ("Subset size", self.subset),
                         ("Confidence", self.confidence), ("α", self.alpha), ("β", self.beta),
                         ("Min. differences", self.min_diffs)):
            form.addRow(label, w)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        controls = QWidget()
        cl = QVBoxLayout(controls)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(QLabel("Measures"))
        cl.addWidget(self.measures, 1)
        cl.addLayout(form)
        cl.addLayout(buttons)
        cl.addWidget(self.progress)
        # ---- results
        install_results_area(self, controls, "Choose an analysis and press Run.", charts_first=False,
                             chart_tab="Chart", controls_width=260)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.table_choice.currentIndexChanged.connect(lambda _: self._show_table())
        self.chart_choice.currentIndexChanged.connect(lambda _: self._draw_chart())
        state.changed.connect(self._changed)
        self._changed("runs")

    # ---------------------------------------------------------------- API (tests use it)
    def configure(self, analysis: str | None = None, measures: list[str] | None = None,
                  group: str | None = None, versus: str | None = None, seed: int | None = None,
                  samples: int | None = None) -> None:
        if analysis is not None:
            self.analysis.setCurrentIndex(ANALYSES.index(analysis))
        if measures is not None:
            for i in range(self.measures.count()):
                it = self.measures.item(i)
                it.setCheckState(Qt.CheckState.Checked if it.text() in measures
                                 else Qt.CheckState.Unchecked)
        if group is not None:
            self.group.setCurrentText(group)
        if versus is not None:
            self.versus.setCurrentText(versus)
        if seed is not None:
            self.seed.setValue(seed)
        if samples is not None:
            self.samples.setValue(samples)

    def chosen_measures(self) -> list[str]:
        return [self.measures.item(i).text() for i in range(self.measures.count())
                if self.measures.item(i).checkState() == Qt.CheckState.Checked]

    def settings(self) -> StabilitySettings:
        try:
            diffs = tuple(float(x) for x in self.min_diffs.text().replace(",", " ").split())
        except ValueError:
            diffs = (0.02, 0.05, 0.1)
        return StabilitySettings(
            samples=self.samples.value(), seed=self.seed.value(),
            bin_width=self.bin_width.value(), subset_size=self.subset.value() or None,
            fuzziness=self.fuzziness.value(), confidence=self.confidence.value(),
            alpha=self.alpha.value(), beta=self.beta.value(), min_diffs=diffs or (0.05,))

    def run(self) -> str:
        """Submit the chosen analysis; returns the job key ("" when nothing can run)."""
        evals = self.state.evaluations()
        measures = self.chosen_measures()
        if len(evals) < 2 or not measures:
            self.status.setText(self.state.evaluation_error or
                                "Load qrels and at least two runs, and tick a measure.")
            return ""
        analysis = self.analysis.currentData()
        groups = self.state.workspace.topic_groups
        g, v = self.group.currentText(), self.versus.currentText()
        settings = self.settings()

        def job():
            matrices, tie = score_matrices(evals, measures)
            topics = list(next(iter(matrices.values())).index)
            sets = {"all": topics} if g == ALL_TOPICS or g not in groups else {g: groups[g]}
            if v in groups and v not in sets:
                sets[v] = groups[v]
            return (yield from run_stability(matrices, [analysis], sets, settings, tie))

        return start_panel_job(self, JOB_KEY, job, self._show,
                               f"Computing {ANALYSIS_TITLES[analysis]} (seed {settings.seed}, "
                               f"B = {settings.samples})…")

    def cancel(self) -> None:
        cancel_panel_job(self, JOB_KEY)

    # ---------------------------------------------------------------- updates
    def _changed(self, what: str) -> None:
        if what in ("runs", "evaluations", "measures", "workspace", "qrels"):
            cols = self.state.measure_columns()
            if "map" in cols:
                cols = cols + [m for m in EXTRA_MEASURES if m not in cols]
            checked = set(self.chosen_measures()) or set(cols[:2])
            self.measures.clear()
            for c in cols:
                it = QListWidgetItem(c)
                it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                it.setCheckState(Qt.CheckState.Checked if c in checked
                                 else Qt.CheckState.Unchecked)
                self.measures.addItem(it)
        if what in ("topic_groups", "workspace", "runs"):
            names = list(self.state.workspace.topic_groups)
            for combo, first in ((self.group, ALL_TOPICS), (self.versus, NONE)):
                cur = combo.currentText()
                combo.clear()
                combo.addItems([first, *names])
                if cur in names:
                    combo.setCurrentText(cur)

    def _idle(self) -> None:
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _failed(self, err) -> None:
        self._idle()
        self.status.setText(f"Failed: {err.message}")

    def _show(self, report: StabilityReport) -> None:
        self._idle()
        self.progress.setValue(1000)
        self.report = report
        s = report.settings
        self.status.setText(f"Seed {s.seed}, B = {s.samples}. " + " ".join(report.notes))
        self.table_choice.blockSignals(True)
        self.table_choice.clear()
        for t in report.tables:
            self.table_choice.addItem(t.title, t.name)
        self.table_choice.blockSignals(False)
        self._show_table()
        self.chart_choice.blockSignals(True)
        self.chart_choice.clear()
        for analysis, results in report.results.items():
            for key in results:
                self.chart_choice.addItem(f"{ANALYSIS_TITLES[analysis]}: {key[0]}, {key[1]}",
                                          (analysis, key))
            if REGISTRY[analysis].chart_of_all and results:   # e.g. all ASL curves at once
                self.chart_choice.insertItem(0, f"{ANALYSIS_TITLES[analysis]}: all",
                                             (analysis, None))
        self.chart_choice.setCurrentIndex(0)
        self.chart_choice.blockSignals(False)
        self._draw_chart()

    def _show_table(self) -> None:
        if self.report is None or self.table_choice.currentIndex() < 0:
            return
        t = self.report.tables[self.table_choice.currentIndex()]
        self.table.set_frame(t.frame.reset_index() if t.index else t.frame)

    # ---------------------------------------------------------------- charts
    def _draw_chart(self) -> None:
        self.chart.clear()
        data = self.chart_choice.currentData()
        if self.report is None or data is None:
            return
        analysis, key = data
        results = self.report.results[analysis]
        if analysis in ("swap", "bootstrap"):
            self._swap_grid(results[key])
        elif analysis == "discriminative":
            self._asl_curves(results if key is None else {key: results[key]})
        elif analysis == "error-rate":
            self._error_bars(results if key is None else {key: results[key]})
        elif analysis == "tukey":
            self._tukey_bars(results[key])
        elif analysis in ("kendall", "taup") and isinstance(results[key], pd.DataFrame):
            self._heat_map(results[key], analysis)
        elif analysis == "sensitivity":
            self._sensitivity(results[key])
        elif analysis == "topic-set-size":
            self._topic_set_size(results[key])

    def _swap_grid(self, res) -> None:
        rates, sizes = res.rates, res.sizes
        grid = np.linspace(1, res.n_topics, 200)
        cols = 5
        self.chart.addLabel(f"{res.method} swap rates, {res.measure}: error rate vs topic-set "
                            f"size per difference bin (min. difference "
                            f"{res.min_difference:.3g})", row=0, col=0, colspan=cols)
        for k in range(min(GRID_BINS, res.n_bins)):
            p = self.chart.addPlot(row=1 + k // cols, col=k % cols)
            p.setTitle(f"≥ {k * res.bin_width:.3g}", size="8pt")
            p.setYRange(0, 0.5)
            ok = np.isfinite(rates[:, k])
            p.plot(sizes[ok], rates[ok, k], pen=None, symbol="o", symbolSize=3,
                   symbolBrush="#1f77b4", symbolPen=None)
            f = res.fits[k]
            if f.ok:
                p.plot(grid, f(grid), pen=pg.mkPen("#d62728", width=1.5))
                p.addItem(pg.InfiniteLine(res.target, angle=0, pen=_DASH))
                txt = pg.TextItem(f"A1 {f.a1:.3g}\nA2 {f.a2:.3g}", color="k", anchor=(1, 0))
                txt.setPos(res.n_topics, 0.5)
                p.addItem(txt)

    def _asl_curves(self, results) -> None:
        p = self.chart.addPlot(title="Achieved significance level of every run pair "
                                     "(pairs sorted by ASL)")
        p.setLabel("bottom", "run pair (sorted)")
        p.setLabel("left", "ASL")
        p.addLegend()
        for i, ((m, g), r) in enumerate(results.items()):
            curve = r.asl_curve()
            p.plot(curve["pair_rank"].to_numpy(), curve["asl"].to_numpy(),
                   pen=pg.mkPen(pg.intColor(i, hues=max(len(results), 2)), width=2),
                   name=f"{m}, {g}: {100 * r.share_significant:.1f}% < α")
            alpha = r.alpha
        p.addItem(pg.InfiniteLine(alpha, angle=0, pen=_DASH))

    def _error_bars(self, results) -> None:
        p = self.chart.addPlot(title="Error rate (blue) and ties (grey), %")
        labels = [f"{m}\n{g}" for m, g in results]
        x = np.arange(len(labels))
        err = [100 * r.error_rate for r in results.values()]
        ties = [100 * r.tie_rate for r in results.values()]
        p.addItem(pg.BarGraphItem(x=x - 0.2, height=err, width=0.4, brush="#1f77b4"))
        p.addItem(pg.BarGraphItem(x=x + 0.2, height=ties, width=0.4, brush="#aaaaaa"))
        p.getAxis("bottom").setTicks([list(zip(x, labels))])

    def _tukey_bars(self, res) -> None:
        p = self.chart.addPlot(title=f"Tukey HSD, {res.measure}: runs not distinguishable from "
                                     f"{res.best} in green")
        top = set(res.top_group())
        y = np.arange(len(res.runs))
        p.addItem(pg.BarGraphItem(x0=0, y=y, height=0.8, width=res.means,
                                  brushes=[pg.mkBrush("#2ca02c" if r in top else "#7f7f7f")
                                           for r in res.runs]))
        p.getAxis("left").setTicks([list(zip(y, res.runs))])
        p.getAxis("left").setWidth(120)
        p.setLabel("bottom", res.measure)
        p.getAxis("bottom").enableAutoSIPrefix(False)
        p.invertY(True)

    def _sensitivity(self, res) -> None:
        p = self.chart.addPlot(title=f"Swap rate per difference bin at {res.subset_size} topics "
                                     f"({res.measure}); min. difference {res.min_difference:.3g}")
        f = res.to_frame()
        p.plot(f["bin_lo"].to_numpy(), f["swap_rate"].fillna(0).to_numpy(), stepMode=None,
               symbol="o", symbolSize=4)
        p.addItem(pg.InfiniteLine(1 - res.confidence, angle=0, pen=_DASH))

    def _topic_set_size(self, res) -> None:
        p = self.chart.addPlot(title=f"Topics needed, {res.measure} (α = {res.alpha}, "
                                     f"β = {res.beta}, σ² = {res.variance:.4f})")
        p.setLabel("bottom", "minimum detectable difference")
        p.setLabel("left", "topics")
        p.setLogMode(y=True)
        p.addLegend()
        t = res.table
        for i, col in enumerate(t.columns):
            p.plot(t.index.to_numpy(float), t[col].to_numpy(float), symbol="o", name=col,
                   pen=pg.mkPen(pg.intColor(i, hues=3), width=2))

    def _heat_map(self, matrix: pd.DataFrame, analysis: str) -> None:
        k = len(matrix)
        p = self.chart.addPlot(title=f"{ANALYSIS_TITLES[analysis]} between the measures' "
                                     "system rankings")
        img = pg.ImageItem(matrix.to_numpy(float).T)
        img.setLookupTable(pg.colormap.get("CET-D1").getLookupTable(0.0, 1.0, 256))
        img.setLevels((-1, 1))
        img.setRect(QRectF(-0.5, -0.5, k, k))
        p.addItem(img)
        for i in range(k):
            for j in range(k):
                t = pg.TextItem(f"{matrix.iat[i, j]:.2f}", color="k", anchor=(0.5, 0.5))
                t.setPos(j, i)
                p.addItem(t)
        ticks = [[(i, str(m)) for i, m in enumerate(matrix.index)], []]
        p.getAxis("left").setWidth(90)
        p.getAxis("bottom").setTicks(ticks)
        p.getAxis("left").setTicks(ticks)
        p.invertY(True)
        p.setAspectLocked(True)

    def screenshot_items(self) -> dict[str, QWidget]:
        return {"table": self.table, "chart": self.chart}

