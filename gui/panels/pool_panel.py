"""Pool: are these judgments complete and unbiased? (all numbers from yardstick.analysis.pool)

The panel collects the choices (pool depth, analyses, uniques measure and
poor-run threshold, titlestat text options, simulation strategies, levels and
seed), runs :func:`yardstick.analysis.pool.report.iter_pool_report` through the job runner
(progress, cancel) on the loaded runs — those whose *pooled* flag is on form
the pool — and shows every table of the report and these charts: earliest
ranks of relevant documents (histogram), P(relevant) by rank, relevant found
by pool depth with the fitted extrapolation, unique relevant documents per
group, the leave-out-uniques change per run (5% line), titlestat_rank with
P(relevant) and the pool depth (Buckley et al. 2007, Fig. 3), and Kendall's
tau against the full qrels for each simulation.
"""

from __future__ import annotations

import os
from functools import partial

import pandas as pd
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from yardstick.analysis.pool.characteristics import CollectionCharacteristics, characteristics_table
from yardstick.analysis.pool.report import REGISTRY, PoolReport, PoolSettings
from yardstick.analysis.pool.simulation import STRATEGIES
from yardstick.analysis.pool.text import ENGLISH_STOPWORDS, TextOptions
from yardstick.gui.app_state import AppState
from yardstick.gui.jobs import JobRunner
from yardstick.gui.panels.analysis_panel_base import STILL_LOADING, AnalysisPanel, column, form
from yardstick.gui.panels.pool_charts import CHARTS, chart_available, draw_pool_chart
from yardstick.gui.panels.pool_job import PoolJobInput, index_key, pool_job


class PoolPanel(AnalysisPanel):
    TITLE = "Pool"
    JOB_KEY = "pool"
    ELSEWHERE = True
    #: whether a run made the pool; the uniques test's count, change and flag
    ANSWER_COLUMNS = ("contributing", "unique_relevant", "percent", "red_flag")
    #: choices kept in the session (yardstick.gui.panel_choices)
    CHOICES = ("depth", "measure", "min_score", "lowercase", "stopwords", "stemmer", "levels",
               "seed", "pool_source", "infer_depth")
    #: where the pooled runs come from: the inferred pool (default) or the runs' flags
    SOURCES = ("inferred from judged depths", "the runs' pooled flags")

    def __init__(self, state: AppState, jobs: JobRunner, parent=None):
        super().__init__(state, jobs, parent)
        self.report: PoolReport | None = None
        self._cache: dict[str, tuple] = {}
        self._used: tuple = ()                  # (name, pooled, group) of the runs a result used
        #: Table 1 of Buckley et al.: one row per collection analysed in this session
        self.collections: dict[str, CollectionCharacteristics] = {}
        # ---- controls
        self.depth = QSpinBox(minimum=1, maximum=100_000, value=100)
        self.infer_depth = QCheckBox("infer per topic")
        self.infer_depth.setChecked(True)
        self.infer_depth.setToolTip("The depth per topic that explains the judged documents "
                                    "best (said on the result); uncheck to give one")
        self.depth.setEnabled(False)
        self.infer_depth.toggled.connect(lambda on: self.depth.setEnabled(not on))
        self.pool_source = QComboBox()
        self.pool_source.addItems(self.SOURCES)
        self.pool_source.setToolTip("Inferred: the runs judged to the pool depth on (nearly) "
                                    "every topic, shown with their evidence in the table "
                                    "'inferred pool runs'. Pooled flags: the runs checked as "
                                    "pooled (a pooled-runs list sets them)")
        self.use_inferred = QPushButton("Use the inferred pool as pooled flags")
        self.use_inferred.setToolTip("Check exactly the runs the inference found (yes or "
                                     "likely) as pooled, to correct them by hand")
        self.use_inferred.setEnabled(False)
        self.analysis_boxes = {name: QCheckBox(a.title) for name, a in REGISTRY.items()}
        for box in self.analysis_boxes.values():
            box.setChecked(True)
        self.measure = QComboBox()
        self.measure.addItems(["map", "P_10", "P_100", "bpref", "infAP"])
        self.min_score = QDoubleSpinBox(decimals=3, minimum=0.0, maximum=1.0, singleStep=0.01,
                                        value=0.0, specialValueText="keep all")
        self.lowercase = QCheckBox("fold case")
        self.lowercase.setChecked(True)
        self.stopwords = QCheckBox("drop English stop words")
        self.stopwords.setChecked(True)
        self.stemmer = QComboBox()
        self.stemmer.addItems(["none", "porter", "english"])
        self.compare_path: str | None = None
        self.pooled_button = QPushButton("Pooled runs from a list…")
        self.pooled_button.setToolTip("A file naming the runs that made the pool, one run name, "
                                      "tag or file a line (a track's pooled.txt); the other runs "
                                      "are evaluated but not pooled")
        self.compare_button = QPushButton("Compare with qrels…")
        self.compare_label = QLabel("no second judgment set")
        self.compare_label.setWordWrap(True)
        self.strategy_boxes = {s: QCheckBox(s) for s in STRATEGIES}
        for s in ("depth", "mtf", "random"):
            self.strategy_boxes[s].setChecked(True)
        self.levels = QLineEdit()
        self.levels.setPlaceholderText("default levels")
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        self.info = QLabel()
        self.info.setWordWrap(True)

        depth_row = QHBoxLayout()
        depth_row.addWidget(self.depth)
        depth_row.addWidget(self.infer_depth)
        analyses = QGroupBox("Analyses")
        al = QVBoxLayout(analyses)
        for box in self.analysis_boxes.values():
            al.addWidget(box)
        uniq = QGroupBox("Uniques test")
        uf = QFormLayout(uniq)
        uf.addRow("Measure", self.measure)
        uf.addRow("Leave out runs below", self.min_score)
        text = QGroupBox("titlestat words")
        tf = QFormLayout(text)
        tf.addRow(self.lowercase)
        tf.addRow(self.stopwords)
        tf.addRow("Stemmer", self.stemmer)
        tf.addRow(self.compare_button)
        tf.addRow(self.compare_label)
        sim = QGroupBox("Simulation")
        sl = QGridLayout(sim)
        for i, box in enumerate(self.strategy_boxes.values()):
            sl.addWidget(box, i // 2, i % 2)
        sl.addLayout(form((("Levels", self.levels), ("Seed", self.seed))), 2, 0, 1, 2)
        controls = column(self.info, form((("Pooled runs", self.pool_source),
                                           ("Pool depth", depth_row))),
                          self.pooled_button, self.use_inferred, analyses, uniq, text, sim, None)
        self.install_results(controls, "Load qrels and runs, then press Run.", charts_first=True,
                             chart_tab="Charts", controls_width=270)
        self.compare_button.clicked.connect(self._choose_compare)
        self.pooled_button.clicked.connect(self._choose_pooled)
        self.use_inferred.clicked.connect(self.use_inferred_pool)
        self.pool_source.currentIndexChanged.connect(lambda _: self._changed("runs"))
        state.changed.connect(self._changed)
        self._changed("runs")

    # ---------------------------------------------------------------- API (tests use it)
    def settings(self) -> PoolSettings:
        analyses = tuple(a for a, b in self.analysis_boxes.items() if b.isChecked())
        strategies = tuple(s for s, b in self.strategy_boxes.items() if b.isChecked())
        try:
            lv = tuple(int(x) for x in self.levels.text().replace(",", " ").split())
        except ValueError:
            lv = ()
        ws = self.state.workspace
        name = (getattr(ws.qrels, "name", None) or "collection") if ws.qrels else "collection"
        return PoolSettings(depth=self.depth.value(), analyses=analyses,
                            measure=self.measure.currentText(),
                            min_score=self.min_score.value() or None,
                            strategies=strategies or ("depth",),
                            levels={s: lv for s in strategies} if lv else {},
                            seed=self.seed.value(), collection=name)

    def text_options(self) -> TextOptions:
        stem = self.stemmer.currentText()
        return TextOptions(lowercase=self.lowercase.isChecked(),
                           stopwords=ENGLISH_STOPWORDS if self.stopwords.isChecked() else None,
                           stemmer=None if stem == "none" else stem)

    def run(self) -> str:
        """Submit the pool report; returns the job key ("" when nothing can run)."""
        ws = self.state.workspace
        entries = list(ws.runs.values())
        given = self.pool_source.currentIndex() == 1
        if ws.qrels is None or not entries or (given and not any(e.pooled for e in entries)):
            self.status.setText("Load qrels and at least one pooled run."
                                if given else "Load qrels and runs.")
            return ""
        settings = self.settings()
        infer_depth = self.infer_depth.isChecked()
        self._used = pool_state(ws)             # said beside the result (_result_status)
        runs = [e.run for e in entries]
        pooled = [bool(e.pooled) for e in entries]
        groups = {e.name: (e.group or e.name) for e in entries}
        qrels = ws.qrels
        level = getattr(getattr(ws, "options", None), "relevance_level", 1) or 1
        docs, topics = ws.documents, ws.topics
        want_title = "titlestat" in settings.analyses and docs is not None and \
            topics is not None and "title" in getattr(topics, "columns", [])
        job = partial(pool_job, PoolJobInput(
            runs, qrels, pooled, groups, level, settings, given, infer_depth, docs, topics,
            self.text_options(), self.compare_path if want_title else None, want_title),
            self._cache)
        loading = " (runs are still loading: Run again when they are in)" \
            if self.loading_runs() else ""
        return self.start_job(job, self._done, "Computing the pool diagnostics at depth "
                              f"{'inferred' if infer_depth else settings.depth}{loading}…")

    def set_compare_qrels(self, path: str | None) -> None:
        """A second judgment set for titlestat_rel (read in the job; None clears it)."""
        self.compare_path = path or None
        self.compare_label.setText(f"compare with {path}" if path else "no second judgment set")

    def pool_listed(self, path: str) -> None:
        """Pool the runs ``path`` lists (:meth:`AppState.pool_listed_runs`) and say so."""
        from yardstick.common.errors import FormatError
        from yardstick.inputs.run_names import RunNameError

        try:
            n, missing = self.state.pool_listed_runs(path)
        except (FormatError, RunNameError) as e:
            self.status.setText(f"Pooled runs not changed: {e}")
            return
        note = (f"; {len(missing)} name(s) match no loaded run ({', '.join(missing[:3])}"
                f"{' …' if len(missing) > 3 else ''})" if missing else "")
        self.pool_source.setCurrentIndex(1)
        self.status.setText(f"{n} runs pooled, as {os.path.basename(path)} lists{note}; the "
                            "pool now comes from the runs' pooled flags. Press Run.")

    def use_inferred_pool(self) -> int:
        """Check as pooled exactly the runs the last result inferred (yes or likely), and
        take the pool from the flags from now on; returns how many runs are pooled."""
        from PySide6.QtCore import QSignalBlocker

        from yardstick.gui.app_state import Change

        inf = self.report.inferred if self.report is not None else None
        if inf is None or not inf.known:
            return 0
        chosen = set(inf.runs.index[inf.runs["contributing"] != "no"])
        with QSignalBlocker(self.state):
            for e in list(self.state.workspace.runs.values()):
                if bool(e.pooled) != (e.name in chosen):
                    self.state.update_run(e.name, pooled=e.name in chosen)
        self.state.changed.emit(Change.RUNS)
        self.pool_source.setCurrentIndex(1)
        self.status.setText(f"{len(chosen)} runs checked as pooled, as inferred; correct the "
                            "checks in the runs list, then press Run.")
        return len(chosen)

    def _choose_pooled(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(self, "Runs that made the pool (one a line)")
        if path:
            self.pool_listed(path)

    def _choose_compare(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(self, "Second judgment set (qrels)")
        if path:
            self.set_compare_qrels(path)

    # ---------------------------------------------------------------- updates
    def _changed(self, what: str) -> None:
        if what not in ("runs", "qrels", "workspace", "documents", "topics", "options"):
            return
        ws = self.state.workspace
        entries = list(ws.runs.values())
        n_pooled = sum(1 for e in entries if e.pooled)
        groups = {e.group or e.name for e in entries if e.pooled}
        has_text = ws.documents is not None and ws.topics is not None
        inferred = self.pool_source.currentIndex() == 0
        self.info.setText((f"{len(entries)} runs; the pooled ones are inferred from the judged "
                           "depths on Run; " if inferred else
                           f"{n_pooled} of {len(entries)} runs pooled ({len(groups)} groups); ")
                          + ("documents and topics loaded." if has_text else
                             "titlestat needs documents and topics."))
        if self.report is None and self.run_button.isEnabled():
            ready = ws.qrels is not None and n_pooled > 0
            self.status.setText("Choose the analyses and press Run." if ready else
                                "Load qrels and runs, then press Run.")
        if what in ("runs", "qrels", "workspace", "options") and "index" in self._cache:
            level = getattr(getattr(ws, "options", None), "relevance_level", 1) or 1
            if self._cache["index"][0] != index_key([e.run for e in entries], ws.qrels, level):
                self._cache.pop("index")   # other runs or qrels: let the old ones go
        if what in ("documents", "topics", "workspace"):
            self._cache.pop("title", None)
        if self.report is not None and what in ("runs", "workspace"):
            self.status.setText(self._result_status())

    def _done(self, result) -> None:
        report, index_entry, title_entry = result
        self._cache["index"] = index_entry
        if title_entry[1] is not None:
            self._cache["title"] = title_entry
        self._finished()
        self.report = report
        self.status.setText(self._result_status())
        self.use_inferred.setEnabled(report.inferred is not None and report.inferred.known)
        tables = dict(report.tables())
        if report.characteristics is not None:
            self.collections[report.characteristics.collection] = report.characteristics
            tables["characteristics_all_collections"] = characteristics_table(
                list(self.collections.values()))
        if "inferred_pool_runs" in tables:          # the evidence first
            tabs = [self.tabs.tabText(i) for i in range(self.tabs.count())]
            if "Tables" in tabs:
                self.tabs.setCurrentIndex(tabs.index("Tables"))
        self.fill_tables(tables, current="inferred_pool_runs")
        self.fill_charts((title, key) for key, title in CHARTS.items()
                         if chart_available(report, key))

    def _result_status(self) -> str:
        if pool_state(self.state.workspace) != self._used:
            note = ("The runs, their pooled flags or groups changed since this result: "
                    "press Run again.")
        else:
            note = STILL_LOADING if self.loading_runs() else ""
        text = " ".join(x for x in (note, self.report.summary()) if x)
        a = self.report.assumptions
        if a is not None:        # once, under the result's summary
            text += "\nAssumptions: " + "; ".join(
                f"{k}: {v}" for k, v in a.items() if k in ("pooled runs", "pool depth", "groups",
                                                           "measure", "seed", "note"))
        return text

    def table_frame(self, key: str) -> pd.DataFrame:
        frame = self._tables[key]
        named_index = frame.index.name is not None or isinstance(frame.index, pd.MultiIndex)
        return frame.reset_index() if named_index else frame

    # ---------------------------------------------------------------- charts
    def _draw_chart(self) -> None:
        draw_pool_chart(self.chart, self.report, self.chart_choice.currentData())


def pool_state(ws) -> tuple:
    """What a pool result depends on among the runs: (name, pooled, group) of each run."""
    return tuple((e.name, bool(e.pooled), e.group or e.name) for e in ws.runs.values())
