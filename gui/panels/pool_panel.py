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
from dataclasses import replace

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
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from yardstick.analysis.pool.characteristics import CollectionCharacteristics, characteristics_table
from yardstick.analysis.pool.report import REGISTRY, PoolReport, PoolSettings, iter_pool_report
from yardstick.analysis.pool.simulation import STRATEGIES
from yardstick.analysis.pool.text import ENGLISH_STOPWORDS, TextOptions
from yardstick.analysis.pool.titlestat import iter_build_title_index
from yardstick.common.progress import Progress
from yardstick.gui.app_state import AppState
from yardstick.gui.jobs import JobRunner
from yardstick.gui.panels.pool_charts import CHARTS, chart_available, draw_pool_chart
from yardstick.gui.results_area import (
    STILL_LOADING,
    cancel_panel_job,
    install_results_area,
    loading_runs,
    pool_state,
    start_panel_job,
)
from yardstick.judging.judged_runs_build import iter_build_judged_runs, with_runs_flags

JOB_KEY = "pool"


class PoolPanel(QWidget):
    TITLE = "Pool"
    #: choices kept in the session (yardstick.gui.panel_choices)
    CHOICES = ("depth", "measure", "min_score", "lowercase", "stopwords", "stemmer", "levels",
               "seed", "pool_source", "infer_depth")
    #: where the pooled runs come from: the inferred pool (default) or the runs' flags
    SOURCES = ("inferred from judged depths", "the runs' pooled flags")

    def __init__(self, state: AppState, jobs: JobRunner, parent=None):
        super().__init__(parent)
        self.state = state
        self.jobs = jobs
        self.report: PoolReport | None = None
        self._cache: dict[str, tuple] = {}
        self._used: tuple = ()                  # (name, pooled, group) of the runs a result used
        self._tables: dict[str, pd.DataFrame] = {}
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
        self.run_button = QPushButton("Run")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.info = QLabel()
        self.info.setWordWrap(True)

        form = QFormLayout()
        form.addRow("Pooled runs", self.pool_source)
        depth_row = QHBoxLayout()
        depth_row.addWidget(self.depth)
        depth_row.addWidget(self.infer_depth)
        form.addRow("Pool depth", depth_row)
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
        sf = QFormLayout()
        sf.addRow("Levels", self.levels)
        sf.addRow("Seed", self.seed)
        sl.addLayout(sf, 2, 0, 1, 2)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        controls = QWidget()
        cl = QVBoxLayout(controls)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.info)
        cl.addLayout(form)
        cl.addWidget(self.pooled_button)
        cl.addWidget(self.use_inferred)
        for box in (analyses, uniq, text, sim):
            cl.addWidget(box)
        footer = QWidget()                  # Run, Cancel and progress stay in view
        fl = QVBoxLayout(footer)
        fl.setContentsMargins(0, 2, 0, 0)
        fl.addLayout(buttons)
        fl.addWidget(self.progress)
        cl.addStretch(1)
        # ---- results
        install_results_area(self, controls, "Load qrels and runs, then press Run.", footer=footer,
                             charts_first=True,
                             chart_tab="Charts", controls_width=270)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.compare_button.clicked.connect(self._choose_compare)
        self.pooled_button.clicked.connect(self._choose_pooled)
        self.use_inferred.clicked.connect(self.use_inferred_pool)
        self.pool_source.currentIndexChanged.connect(lambda _: self._changed("runs"))
        self.table_choice.currentIndexChanged.connect(lambda _: self._show_table())
        self.chart_choice.currentIndexChanged.connect(lambda _: self._draw_chart())
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
        opts = self.text_options()
        cache = self._cache
        compare_path = self.compare_path if want_title else None
        # judged once per (runs, qrels): pooled flags, groups and names are applied to the
        # kept index (it references its runs and qrels, so these ids stay theirs)
        ikey = _index_key(runs, qrels, level)
        tkey = (id(docs), id(topics), opts)

        def job():
            total = 4.0
            if cache.get("index", (None,))[0] == ikey:
                index = with_runs_flags(cache["index"][1], pooled, groups, runs)
            else:
                gen = iter_build_judged_runs(runs, qrels, pooled, groups, level)
                index = yield from _scaled(gen, 0.0, 1.0, total, "encoding runs")
            tindex = None
            if want_title:
                if cache.get("title", (None,))[0] == tkey:
                    tindex = cache["title"][1]
                else:
                    gen = iter_build_title_index(docs, topics, opts)
                    tindex = yield from _scaled(gen, 1.0, 1.0, total, "title words")
            other = None
            if compare_path:
                from yardstick.inputs.io import read_qrels

                other = read_qrels(compare_path)
            choice = _choice(index, runs, groups, pooled if given else None,
                             None if infer_depth else settings.depth, settings)
            settings_used = replace(settings, depth=choice.depth,
                                    default_depth=choice.default_depth)
            rep = yield from _scaled(iter_pool_report(choice.index, settings_used, tindex,
                                                      len(docs) if docs is not None else None,
                                                      other, choice.assumptions,
                                                      choice.inferred),
                                     2.0, 2.0, total, "")
            return rep, (ikey, index), (tkey, tindex)

        loading = " (runs are still loading: Run again when they are in)" \
            if loading_runs(self) else ""
        return start_panel_job(self, JOB_KEY, job, self._done,
                               "Computing the pool diagnostics at depth "
                               f"{'inferred' if infer_depth else settings.depth}{loading}…")

    def cancel(self) -> None:
        cancel_panel_job(self, JOB_KEY)

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

    def show_chart(self, name: str) -> None:
        i = self.chart_choice.findData(name)
        if i >= 0:
            self.chart_choice.setCurrentIndex(i)

    def show_table(self, name: str) -> None:
        i = self.table_choice.findData(name)
        if i >= 0:
            self.table_choice.setCurrentIndex(i)

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
            if self._cache["index"][0] != _index_key([e.run for e in entries], ws.qrels, level):
                self._cache.pop("index")   # other runs or qrels: let the old ones go
        if what in ("documents", "topics", "workspace"):
            self._cache.pop("title", None)
        if self.report is not None and what in ("runs", "workspace"):
            self.status.setText(self._result_status())

    def _idle(self) -> None:
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _failed(self, err) -> None:
        self._idle()
        self.status.setText(f"Failed: {err.message}")

    def _done(self, result) -> None:
        report, index_entry, title_entry = result
        self._cache["index"] = index_entry
        if title_entry[1] is not None:
            self._cache["title"] = title_entry
        self._idle()
        self.progress.setValue(1000)
        self.report = report
        self.status.setText(self._result_status())
        self.use_inferred.setEnabled(report.inferred is not None and report.inferred.known)
        self._tables = dict(report.tables())
        if report.characteristics is not None:
            self.collections[report.characteristics.collection] = report.characteristics
            self._tables["characteristics_all_collections"] = characteristics_table(
                list(self.collections.values()))
        self.table_choice.blockSignals(True)
        self.table_choice.clear()
        for name in self._tables:
            self.table_choice.addItem(name.replace("_", " "), name)
        if "inferred_pool_runs" in self._tables:     # the evidence first
            self.table_choice.setCurrentIndex(self.table_choice.findData("inferred_pool_runs"))
            tabs = [self.tabs.tabText(i) for i in range(self.tabs.count())]
            if "Tables" in tabs:
                self.tabs.setCurrentIndex(tabs.index("Tables"))
        self.table_choice.blockSignals(False)
        self._show_table()
        self.chart_choice.blockSignals(True)
        self.chart_choice.clear()
        for key, title in CHARTS.items():
            if chart_available(report, key):
                self.chart_choice.addItem(title, key)
        self.chart_choice.blockSignals(False)
        self._draw_chart()

    def _result_status(self) -> str:
        if pool_state(self.state.workspace) != self._used:
            note = ("The runs, their pooled flags or groups changed since this result: "
                    "press Run again.")
        else:
            note = STILL_LOADING if loading_runs(self) else ""
        text = " ".join(x for x in (note, self.report.summary()) if x)
        a = self.report.assumptions
        if a is not None:        # once, under the result's summary
            text += "\nAssumptions: " + "; ".join(
                f"{k}: {v}" for k, v in a.items() if k in ("pooled runs", "pool depth", "groups",
                                                           "measure", "seed", "note"))
        return text

    def _show_table(self) -> None:
        if self.report is None or self.table_choice.currentIndex() < 0:
            return
        frame = self._tables[self.table_choice.currentData()]
        named_index = frame.index.name is not None or isinstance(frame.index, pd.MultiIndex)
        self.table.set_frame(frame.reset_index() if named_index else frame)

    # ---------------------------------------------------------------- charts
    def _draw_chart(self) -> None:
        draw_pool_chart(self.chart, self.report, self.chart_choice.currentData())


def _choice(index, runs, groups, pooled, depth, settings):
    """The pool to analyse (:func:`yardstick.analysis.pool.pool_choice.choose_pool`): the
    runs' flags when ``pooled`` is given, else inferred; groups named as a guess when they
    are the guess from run names."""
    from yardstick.analysis.assumptions import Assumptions, runs_statement
    from yardstick.analysis.pool.pool_choice import choose_pool
    from yardstick.inputs.run_names import guess_groups

    guess = guess_groups([r.tag or r.name for r in runs])
    guessed = all(groups[n] == (g or n) for n, g in zip(groups, guess))
    return choose_pool(index, pooled, depth, pooled_how="the runs' pooled flags",
                       depth_how="the panel's depth", group_of=groups,
                       groups_source="guess" if guessed else "given",
                       assumptions=Assumptions(runs=runs_statement(list(groups)),
                                               measure=f"{settings.measure} (uniques test)",
                                               seed=settings.seed))


def _index_key(runs, qrels, level) -> tuple:
    """What the pool's judged runs depend on: the runs' data and the qrels (by identity)
    and -l.  A renamed or regrouped run (``Run.renamed``) keeps its arrays, and with them
    what was derived from them (:mod:`yardstick.inputs.run_cache`): the same key."""
    from yardstick.inputs.run_cache import RunCache

    return tuple(RunCache.key(r) for r in runs), id(qrels), level


def _scaled(gen, start: float, share: float, total: float, label: str):
    """Re-yield a sub-job's progress as part ``[start, start + share]`` of ``total``."""
    while True:
        try:
            p = next(gen)
        except StopIteration as stop:
            return stop.value
        msg = f"{label}: {p.message}" if label else p.message
        yield Progress(start + share * p.fraction, total, msg)

