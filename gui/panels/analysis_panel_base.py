"""What every analysis panel shares (Stability, Pool, Judgments, Compare by system).

A panel of this kind collects choices on the left, runs one core job (Run, Cancel and a
progress bar below the choices), and shows the job's tables and charts on the right
(:func:`yardstick.gui.results_area.install_results_area`).  :class:`AnalysisPanel` holds
that once: the Run/Cancel/progress footer, starting and cancelling the job through the one
job runner (:class:`yardstick.gui.jobs.JobRunner`), the table and chart selectors filled
from a result, ``show_table`` / ``show_chart`` by key, and what to say when a result was
computed on other runs than the ones loaded now.  A subclass holds what is its own: its
choices, its job, its status sentence and its charts.

A panel whose job takes an executor (``ELSEWHERE = True``: Stability, Pool) runs where the
preference says (:mod:`yardstick.gui.compute_place`: this machine or a Dask scheduler) and
shows it under its progress bar.

(Named ``*_base``, not ``*_panel``: :mod:`yardstick.gui.panels` takes every ``*_panel``
module for a panel of the window.)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from yardstick.gui.results_area import install_results_area

#: said beside a result computed while runs were still being read or evaluated
STILL_LOADING = "Still loading runs: Run again when the load ends."


def form(rows: Iterable) -> QFormLayout:
    """A form of ``(label, widget or layout)`` rows (a lone widget spans the row)."""
    f = QFormLayout()
    for row in rows:
        f.addRow(*row) if isinstance(row, tuple) else f.addRow(row)
    return f


def column(*items) -> QWidget:
    """The controls column: ``items`` one under another without margins — widgets,
    layouts, strings (a label), ``(widget, stretch)``, or None (a stretch)."""
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    for item in items:
        if item is None:
            lay.addStretch(1)
        elif isinstance(item, str):
            lay.addWidget(QLabel(item))
        elif isinstance(item, tuple):
            lay.addWidget(*item)
        elif isinstance(item, QLayout):
            lay.addLayout(item)
        else:
            lay.addWidget(item)
    return box


class AnalysisPanel(QWidget):
    """Base of the panels that run one analysis job and show its tables and charts.

    Subclasses set ``JOB_KEY``, build their controls, call :meth:`install_results`, and
    implement ``run`` (which calls :meth:`start_job`) and :meth:`_draw_chart`; tables go
    in with :meth:`fill_tables` (:meth:`table_frame` says how one is shown).
    """

    TITLE = "results"
    #: the job runner's key for this panel's job
    JOB_KEY = ""
    #: whether the job takes an executor and so may run on a Dask scheduler
    ELSEWHERE = False
    #: columns that answer the panel's question: never narrowed below their header and
    #: values (the others' long headers elide first, their tooltips naming them)
    ANSWER_COLUMNS: tuple[str, ...] = ()

    def __init__(self, state, jobs, parent=None):
        super().__init__(parent)
        self.state = state
        self.jobs = jobs
        self._tables: dict[str, Any] = {}
        self._used: Collection = ()               # the runs the shown result used
        self.run_button = QPushButton("Run")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.where = QLabel()                     # where the job runs (ELSEWHERE panels)
        self.where.setWordWrap(True)

    def install_results(self, controls: QWidget, status_text: str, charts_first: bool,
                        controls_width: int, chart_tab: str = "Chart") -> None:
        """Lay out ``controls`` (scrolling), the Run/Cancel/progress footer below them (in
        view) and the results area; connect the buttons and the selectors."""
        footer = QWidget()
        fl = QVBoxLayout(footer)
        fl.setContentsMargins(0, 2, 0, 0)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        fl.addLayout(buttons)
        fl.addWidget(self.progress)
        if self.ELSEWHERE:
            fl.addWidget(self.where)
            self._show_where()
            self.jobs.compute_changed.connect(lambda _text: self._show_where())
        install_results_area(self, controls, status_text, footer=footer,
                             charts_first=charts_first, chart_tab=chart_tab,
                             controls_width=controls_width)
        self.table.whole_columns = frozenset(self.ANSWER_COLUMNS)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.table_choice.currentIndexChanged.connect(lambda _: self._show_table())
        self.chart_choice.currentIndexChanged.connect(lambda _: self._draw_chart())

    # ---------------------------------------------------------------- the job
    def run(self) -> str:
        raise NotImplementedError

    def start_job(self, job, on_result, status_text: str) -> str:
        """Run ``job`` (a progress generator function; with ``ELSEWHERE`` it takes the
        executor, None for this machine) as this panel's job; returns the job key.

        While the job runs the status line keeps at least its height: a shorter text would
        let the tabs below grow, and the last result's figure be painted again at its new
        size beside the job (a 20-plot Stability figure of the Robust04-sized track: 154 ms
        of the GUI thread, the event loop blocked 180 ms).  It may shrink with the result.
        """
        if self.ELSEWHERE and self.jobs.compute.elsewhere:
            self._show_where()
            status_text = f"{status_text.removesuffix('…')}, on {self.jobs.compute.describe()}…"
        self.status.setMinimumHeight(self.status.height())
        self.status.setText(status_text)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)

        def settled(handler):
            def call(arg):
                self.status.setMinimumHeight(0)
                if self.ELSEWHERE:
                    self._show_where()          # now with the scheduler's workers
                handler(arg)
            return call

        self.jobs.submit(self.JOB_KEY, job, on_result=settled(on_result),
                         on_error=settled(self._failed), elsewhere=self.ELSEWHERE,
                         on_progress=lambda f, msg: self.progress.setValue(int(1000 * f)))
        return self.JOB_KEY

    def cancel(self) -> None:
        """Cancel the running job (its result is dropped; on Dask its futures are
        cancelled) and reset the buttons."""
        if self.jobs.cancel(self.JOB_KEY):
            self.status.setText("Cancelled.")
        self.status.setMinimumHeight(0)
        self._idle()

    def _idle(self) -> None:
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _failed(self, err) -> None:
        self._idle()
        self.status.setText(f"Failed: {err.message}")

    def _finished(self) -> None:
        """What every result handler does first: buttons back, progress full."""
        self._idle()
        self.progress.setValue(1000)

    def _show_where(self) -> None:
        self.where.setText(f"Runs on {self.jobs.compute.describe()}.")

    # ---------------------------------------------------------------- result selectors
    def fill_tables(self, tables: Mapping[str, Any], titles: Mapping[str, str] | None = None,
                    current: str | None = None) -> None:
        """Offer ``tables`` (key -> table) in the table selector, titled by ``titles`` (else
        the key with spaces), ``current`` chosen (else the first), and show it."""
        self._tables = dict(tables)
        self.table_choice.blockSignals(True)
        self.table_choice.clear()
        for key in self._tables:
            self.table_choice.addItem((titles or {}).get(key, key.replace("_", " ")), key)
        if current is not None and self.table_choice.findData(current) >= 0:
            self.table_choice.setCurrentIndex(self.table_choice.findData(current))
        self.table_choice.blockSignals(False)
        self._show_table()

    def fill_charts(self, items: Iterable[tuple[str, Any]], draw: bool = True) -> None:
        """Offer the charts ``(title, key)`` in the chart selector, the first chosen, and
        draw it (unless ``draw`` is False)."""
        self.chart_choice.blockSignals(True)
        self.chart_choice.clear()
        for title, key in items:
            self.chart_choice.addItem(title, key)
        self.chart_choice.setCurrentIndex(0 if self.chart_choice.count() else -1)
        self.chart_choice.blockSignals(False)
        if draw:
            self._draw_chart()

    def show_table(self, key: str) -> None:
        i = self.table_choice.findData(key)
        if i >= 0:
            self.table_choice.setCurrentIndex(i)

    def show_chart(self, key) -> None:
        i = self.chart_choice.findData(key)
        if i >= 0:
            self.chart_choice.setCurrentIndex(i)

    def table_frame(self, key: str):
        """The DataFrame shown for table ``key`` (subclasses reset indexes here)."""
        return self._tables[key]

    def _show_table(self) -> None:
        key = self.table_choice.currentData()
        if key is not None and key in self._tables:
            self.table.set_frame(answers_first(self.table_frame(key), self.ANSWER_COLUMNS))

    def _draw_chart(self) -> None:
        raise NotImplementedError

    # ---------------------------------------------------------------- runs of a result
    def loading_runs(self) -> bool:
        """Whether runs are still being read or evaluated (a load job, or the evaluation)."""
        return (any(k.startswith("load") for k in self.jobs.keys())
                or self.state.is_evaluating())

    def runs_note(self, used: Collection[str]) -> str:
        """What to say about the runs an analysis used: "" when they are the runs evaluated
        now; else that it was computed on fewer (or other) runs and should be run again.
        An analysis started while 10 of 150 runs were still loading said nothing of it."""
        now, used = set(self.state.evaluations()), set(used)
        if used != now:
            return (f"Computed on {len(used)} runs; {len(now)} are loaded and evaluated now: "
                    "press Run again.")
        return STILL_LOADING if self.loading_runs() else ""

    def say_result(self, *sentences: str) -> None:
        """The status line under a result: what to say of its runs, then ``sentences``."""
        self.status.setText(" ".join(x for x in (self.runs_note(self._used), *sentences) if x))


def answers_first(frame, answers: Sequence[str]):
    """``frame`` with its answer columns moved forward for the screen: the text columns
    that name a row (run, group, measure …) stay first, then the answer columns, then
    the rest in their order — so at 1280×800 the answer is in view without scrolling
    (issue 28: Pool's ``red_flag`` sat past the right edge).  Files keep the core's
    order; only the view changes."""
    cols = list(frame.columns)
    present = [c for c in answers if c in cols]
    if not present:
        return frame
    lead = []
    for c in cols:
        if c in present or frame[c].dtype.kind not in "OSUT" and str(frame[c].dtype) != "string":
            break
        lead.append(c)
    order = lead + present + [c for c in cols if c not in lead and c not in present]
    return frame if order == cols else frame[order]
