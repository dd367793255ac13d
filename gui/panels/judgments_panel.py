"""Judgments: judgment set against judgment set (all numbers from
yardstick.analysis.judgment_agreement and yardstick.analysis.qrels_comparison).

The session's judgment sets (:attr:`yardstick.session.model.Session.qrels_sets`, also
listed and named in the Collection panel) are compared, the primary set first; more sets
(a second assessor, a model, a crowd) are added here or there by file.  Run
compares them: agreement per topic and overall (kappa, weighted kappa, Voorhees's
overlap, judged by one set only), the loaded runs' scores under each set, Kendall's
tau-b and tau_AP between the rankings, swapped pairs, rank changes and the runs that move
most per topic; charts from :mod:`yardstick.presentation.charts.judgment_specs`.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
)

from yardstick.analysis.qrels_comparison import QrelsComparison, compare_qrels_job
from yardstick.gui.app_state import AppState
from yardstick.gui.charts.render_pg import draw_figure
from yardstick.gui.jobs import JobRunner
from yardstick.gui.panels.analysis_panel_base import AnalysisPanel, column, form
from yardstick.presentation.charts.judgment_specs import (
    overlap_figure,
    qrels_scatter_figure,
    ranking_vs_overlap_figure,
    voorhees_figure,
)

MEASURES = ("map", "P_10", "ndcg_cut_10", "bpref", "Rprec", "recip_rank")
CHARTS = {"voorhees": "Overlap and rankings (Voorhees 2000)",
          "scatter": "Run scores under both sets", "overlap": "Per-topic overlap and kappa",
          "ranking_vs_overlap": "Ranking agreement against overlap (all pairs)"}
#: the bundled two-assessor example (benchmarks/make_systems_example.py)
EXAMPLE = "systems_example"


def example_dir() -> str:
    from yardstick.inputs.bundled import RESOURCES

    return str(RESOURCES / EXAMPLE)


class JudgmentsPanel(AnalysisPanel):
    TITLE = "Judgments"
    JOB_KEY = "judgments"
    CHOICES = ("measure", "level")

    def __init__(self, state: AppState, jobs: JobRunner, parent=None):
        super().__init__(state, jobs, parent)
        self.result: QrelsComparison | None = None
        self._read: dict[str, object] = {}          # path -> Qrels read by a job
        self.sets = QListWidget()
        self.sets.setToolTip("The session's judgment sets, the primary one first; "
                             "double-click a name to change it")
        self.add_button = QPushButton("Add qrels…")
        self.remove_button = QPushButton("Remove")
        self.example_button = QPushButton("Open the two-assessor example")
        self.example_button.setToolTip("40 runs (8 systems x 5 seeds) with NIST-like "
                                       "judgments and a second set made by perturbing them")
        self.measure = QComboBox()
        self.measure.addItems(MEASURES)
        self.level = QSpinBox(minimum=1, maximum=10, value=1)
        self.level.setToolTip("Relevance level: binary kappa, overlap and evaluation")
        self.pair = QComboBox()
        self.info = QLabel()
        self.info.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        controls = column("Judgment sets", (self.sets, 1), buttons, self.example_button,
                          form((("Measure", self.measure), ("Relevance level", self.level),
                                ("Charts of", self.pair))), self.info)
        self.install_results(controls, "Load qrels and runs, add a second judgment set, then "
                             "press Run.", charts_first=True, controls_width=270)
        self.add_button.clicked.connect(self._choose_qrels)
        self.remove_button.clicked.connect(self._remove_selected)
        self.example_button.clicked.connect(self.open_example)
        self.sets.itemChanged.connect(self._renamed)
        self.pair.currentIndexChanged.connect(lambda _: self._draw_chart())
        state.changed.connect(self._changed)
        self._changed("workspace")

    # ---------------------------------------------------------------- API (tests use it)
    def set_names(self) -> list[str]:
        """The session's sets, the primary one first."""
        s = self.state.session
        names = list(s.qrels_sets)
        if s.primary_qrels in names:
            names.remove(s.primary_qrels)
            names.insert(0, s.primary_qrels)
        return names

    def add_qrels(self, path: str, name: str | None = None) -> str:
        """Read a judgment set by file (a job) and add it to the session; returns the key."""
        from yardstick.session.qrels_sets import read_sets

        stem = name or os.path.basename(path).removesuffix(".txt")

        def added(result) -> None:
            for n, qrels, error in result:
                if qrels is not None:
                    self.state.add_qrels(qrels, n)
                else:
                    self.status.setText(f"Judgment set {n} not read: {error}")

        self.jobs.submit("judgments-read", lambda: read_sets([{"name": stem,
                                                               "path": str(path)}]),
                         on_result=added)
        return "judgments-read"

    def open_example(self) -> str:
        """Load the bundled example (runs, systems as groups, NIST-like qrels as the
        primary set) and add its second judgment set when the load ends; returns the
        load's job key ("" without a main window)."""
        d = example_dir()
        win = self.window()
        if not hasattr(win, "open_items"):
            return ""
        runs = sorted(os.path.join(d, "runs", f) for f in os.listdir(os.path.join(d, "runs")))

        def then(_res) -> None:
            win.loaded.disconnect(then)
            self.add_qrels(os.path.join(d, "qrels.second.txt"), "second")

        win.loaded.connect(then)
        return win.open_items([(os.path.join(d, "qrels.nist.txt"), "qrels"),
                               (os.path.join(d, "systems.tsv"), "groups"),
                               *[(p, "run") for p in runs]])

    def run(self) -> str:
        """Submit the comparison; returns the job key ("" when nothing can run)."""
        ws = self.state.workspace
        names = self.set_names()
        if ws.qrels is None or len(names) < 2:
            self.status.setText("Load qrels and add at least one more judgment set.")
            return ""
        entries = [e for e in ws.runs.values() if e.visible]
        runs = [e.run for e in entries]
        sets = self.state.session.qrels_sets
        qs = [sets[n] for n in names]
        measure, level = self.measure.currentText(), self.level.value()
        self._used = [e.name for e in entries]
        known = self._known(names[0], measure, level)

        def job():
            from yardstick.inputs.qrels import Qrels

            named = [Qrels(q.frame, name=n, path=q.path) for n, q in zip(names, qs)]
            if not runs:
                from yardstick.analysis.judgment_agreement import agreement_table

                return None, agreement_table(named[0], named[1], level)
            return (yield from compare_qrels_job(named, runs, measure, level,
                                                 known=known)), None

        return self.start_job(job, self._done,
                              f"Comparing {len(names)} judgment sets on {len(runs)} runs…")

    # ---------------------------------------------------------------- updates
    def _known(self, name: str, measure: str, level: int) -> dict:
        """The window's scores under the loaded qrels when they were computed as this
        comparison would (same options, the measure among them): not computed again."""
        from yardstick.common.options import EvalOptions
        from yardstick.evaluation.evaluation_service import score_matrix

        evs = self.state.evaluations()
        if (not evs or self.state.workspace.options != EvalOptions(relevance_level=level)
                or any(measure not in ev.per_topic.columns for ev in evs.values())):
            return {}
        return {name: score_matrix(evs, measure)}

    def _changed(self, what: str) -> None:
        if what not in ("qrels", "runs", "workspace"):
            return
        ws = self.state.workspace
        primary = self.state.session.primary_qrels
        self.sets.blockSignals(True)
        self.sets.clear()
        for name in self.set_names():
            item = QListWidgetItem(name + ("  (primary)" if name == primary else ""))
            item.setData(Qt.ItemDataRole.UserRole, name)
            if name != primary:
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            self.sets.addItem(item)
        self.sets.blockSignals(False)
        n = len(self.set_names())
        runs = sum(1 for e in ws.runs.values() if e.visible)
        self.info.setText(f"{n} judgment sets, {runs} runs shown. Topics judged in some sets "
                          "only are listed and left out of every mean.")
        self.example_button.setVisible(n < 2)

    def _renamed(self, item: QListWidgetItem) -> None:
        old, new = item.data(Qt.ItemDataRole.UserRole), item.text().strip()
        if old is not None and new and new != old:
            self.state.session.rename_qrels(old, new)

    def _choose_qrels(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(self, "Another judgment set (qrels)")
        if path:
            self.add_qrels(path)

    def _remove_selected(self) -> None:
        item = self.sets.currentItem()
        name = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if name is not None and name != self.state.session.primary_qrels:
            self.state.session.remove_qrels(name)

    def _done(self, result) -> None:
        cmp, agreement = result
        self._finished()
        self.result = cmp
        tables = {"agreement": agreement} if cmp is None else cmp.tables()
        if cmp is None:
            self.status.setText("No runs loaded: agreement only.")
        else:
            row = tables["correlations"].iloc[0]
            one = len(cmp.topics_one_set)
            self.say_result(
                f"{row['a']} vs {row['b']}: mean overlap {row['overlap']:.2f}, kappa "
                f"{row['kappa']:.2f}; Kendall's τ {row['tau']:.3f}, τ_AP {row['tau_ap']:.3f}, "
                f"{int(row['swaps'])} of {int(row['n_pairs'])} run pairs swap, over "
                f"{int(row['n_topics'])} topics judged in every set"
                + (f" ({one} topics judged in some sets only, left out)." if one else "."))
        self.fill_tables(tables)
        self.pair.blockSignals(True)
        self.pair.clear()
        for a, b in (cmp.pairs() if cmp is not None else []):
            self.pair.addItem(f"{a} vs {b}", (a, b))
        self.pair.blockSignals(False)
        self.fill_charts([(title, key) for key, title in CHARTS.items()] if cmp is not None
                         else [])

    def _draw_chart(self) -> None:
        cmp, key = self.result, self.chart_choice.currentData()
        if cmp is None or key is None:
            draw_figure(self.chart, None)
            return
        a, b = self.pair.currentData() or cmp.pairs()[0]
        spec = {"voorhees": lambda: voorhees_figure(cmp, a, b),
                "scatter": lambda: qrels_scatter_figure(cmp, a, b),
                "overlap": lambda: overlap_figure(cmp.agreement, a, b),
                "ranking_vs_overlap": lambda: ranking_vs_overlap_figure(
                    self._tables["correlations"])}[key]()
        draw_figure(self.chart, spec)
