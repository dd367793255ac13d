"""Compare's paper table: runs × measures with the best value bold and superscripts
naming the runs each value is significantly better than, under the panel's test,
correction and α, written as LaTeX, Markdown, HTML, XLSX or CSV with a caption and
provenance (``comparison_table_from_evaluations`` of
:mod:`yardstick.presentation.reports.comparison_table`).
"""

from __future__ import annotations

from PySide6.QtWidgets import QMenu, QToolButton

from yardstick.gui.panels.compare_choices import BEST

__all__ = ["PAPER_FORMATS", "PAPER_TEST", "paper_table_button", "export_paper_table"]

#: formats of the paper-ready comparison table, and the panel's tests it can use
PAPER_FORMATS = (("latex", "LaTeX…"), ("markdown", "Markdown…"), ("html", "HTML…"),
                 ("xlsx", "Excel (XLSX)…"), ("csv", "CSV…"))
PAPER_TEST = {"t": "t", "wilcoxon": "wilcoxon", "permutation": "randomisation"}


def paper_table_button(panel, bar) -> QToolButton:
    """A "Paper table" button on ``bar`` whose menu writes ``panel``'s table in a format."""
    paper = QMenu("Paper table", bar)
    for fmt, label in PAPER_FORMATS:
        paper.addAction(label, lambda f=fmt: panel.export_paper_table(f))
    button = QToolButton(bar)
    button.setText("Paper table")
    button.setToolTip("Runs x measures, best value bold, superscripts naming the runs each "
                      "value is significantly better than (this panel's test, correction "
                      "and alpha), with a caption and provenance")
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    button.setMenu(paper)
    bar.addWidget(button)
    return button


def export_paper_table(panel, fmt: str, path: str | None = None) -> str:
    """Build the paper table of ``panel``'s baseline and ticked runs on the chosen
    measures, with its test, correction, alpha and seed, in the background; then write
    it as ``fmt`` (asking for the file unless ``path``).  Returns the job key ("" when
    there is nothing to do)."""
    from yardstick.common.provenance import workspace_sources
    from yardstick.gui.export_actions import TABLE_FORMATS, _ask_path

    state = panel.state
    evals = state.evaluations()
    base = panel.baseline.currentText()
    if base == BEST:      # the baseline the shown comparison resolved to
        base = panel.comparison.baseline if panel.comparison is not None else ""
    runs = [base, *(r for r in panel.compared_runs() if r != base)] if base else []
    columns = state.measure_columns()
    if len(runs) < 2 or not columns:
        panel.status.setText("The paper table needs a baseline, one ticked run and a measure.")
        return ""
    test = PAPER_TEST.get(panel.test.currentData(), "t")
    options = dict(test=test, correction=panel.correction.currentData(),
                   alpha=panel.alpha.value(), seed=panel.seed.value(),
                   n_resamples=panel.n_perm.value(),
                   qrels_name=getattr(state.workspace.qrels, "name", "") or "")
    chosen = {r: evals[r] for r in runs if r in evals}
    if path is None:
        got = _ask_path(panel, "table", TABLE_FORMATS, fmt, "comparison_table")
        if got is None:
            return ""
        path, fmt = got
    sources = workspace_sources(state.workspace, runs=runs)

    def job():  # plain data only: evaluations, names, options, file paths captured above
        from yardstick.common.provenance import Provenance
        from yardstick.presentation.reports.comparison_table import (
            comparison_table_from_evaluations,
        )

        table = comparison_table_from_evaluations(chosen, columns, **options)
        return table, Provenance.build(**sources)      # hashing the files here, not in the GUI

    def write(result) -> None:
        table, prov = result
        table.write(path, fmt, provenance=prov)
        panel.status.setText(f"Paper table written to {path}"
                             + ("" if test == panel.test.currentData() else
                                f" ({test} test: the sign test has no pairwise table)"))

    panel.jobs.submit("paper_table", job, on_result=write,
                      on_error=lambda e: panel.status.setText(e.message))
    return "paper_table"
