"""Teaching mode in the window (pytest-qt, offscreen): the topic explorer, what-if edits,
tie sensitivity, worked examples and the "Explain this number" dialog.

Expected values: the TREC appendix's worked examples
(the TREC proceedings appendix “Common Evaluation Measures”: AP 0.7542 for relevant at ranks
1, 2, 4, 15 of 20; "0.83" for ranks 1, 2, 4, 7) and yardstick.evaluation.evaluation_service on the
robust03
sample (resources/sample_fallback) with the edited qrels.
"""

from __future__ import annotations

import pytest

from tests.gui_support import QRELS, RUNS
from yardstick.evaluation.evaluation_service import evaluate_run
from yardstick.inputs.io import read_qrels, read_run

TIMEOUT = 60000


@pytest.fixture
def panel(qtbot):
    from yardstick.gui.app_state import AppState
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels.topic_explorer_panel import TopicExplorerPanel

    jobs = JobRunner()
    state = AppState(jobs=jobs)
    p = TopicExplorerPanel(state, jobs)
    qtbot.addWidget(p)
    yield p
    jobs.shutdown()


def _ready(qtbot, p):
    qtbot.waitUntil(lambda: p.lesson is not None and not p.jobs.is_busy(), timeout=TIMEOUT)


def test_default_lesson_is_the_appendix_example(qtbot, panel):
    _ready(qtbot, panel)
    assert panel.source.currentData() == "interpolation"
    L = panel.lesson
    assert (L.R, L.num_ret, round(L.ap, 4)) == (4, 20, 0.7542)
    assert panel.table.source.rowCount() == 20
    panel.slider.setValue(4)
    assert "after rank 4" in panel.curve.plot_item.titleLabel.text
    assert "P = 0.7500, R = 0.7500" in panel.facts.text()
    # relevant rows are coloured, non-relevant ones are not
    rel_col = panel.table.source.column_name(1)
    assert panel._cell_color(0, 1, None) == "#d8f0d8" and panel._cell_color(2, 1, None) is None
    assert rel_col == "docno"


def test_worked_examples_load_with_one_click(qtbot, panel):
    _ready(qtbot, panel)
    panel.load_example("average_precision")
    _ready(qtbot, panel)
    assert round(panel.lesson.ap, 2) == 0.83                  # the appendix's "0.83"
    assert panel.lesson.ranked.loc[panel.lesson.ranked["relevant"], "rank"].tolist() == \
        [1, 2, 4, 7]
    titles = [a.text() for a in panel.examples_button.menu().actions()]
    assert "Average precision" in titles


def test_what_if_edits_update_measures_and_ranking(qtbot, panel, tmp_path):
    qrels = read_qrels(QRELS)
    runs = [read_run(p) for p in RUNS]
    panel.state.set_qrels(qrels)
    panel.state.add_runs(runs)
    qtbot.waitUntil(lambda: panel.source.currentData() is None and panel.session is not None
                    and panel.lesson is not None and not panel.jobs.is_busy(), timeout=TIMEOUT)
    run_name = panel.run.currentText()
    topic = panel.topic.currentText()
    docs = panel.lesson.ranked["docno"].tolist()
    before = panel.session.evaluations()[run_name].summary["map"]
    panel.table.selectRow(0)
    was_rel = bool(panel.lesson.ranked["relevant"].iloc[0])
    panel.mark_selected("nonrelevant" if was_rel else "relevant")
    qtbot.waitUntil(lambda: panel.evals is not None and panel.session.version > 0
                    and not panel.jobs.is_busy(), timeout=TIMEOUT)
    edited = panel.session.qrels
    fresh = evaluate_run(panel.session.runs[run_name], edited, panel.session.measures,
                     panel.session.options)
    assert panel.evals[run_name].summary["map"] == fresh.summary["map"] != before
    shown = panel.what_if.changes.frame()
    assert shown.loc["map", "topic now"] == fresh.per_topic.loc[topic, "map"]
    measure = panel.measure.currentText()    # the measure asked about first, counts last
    assert shown.index[0] == measure and str(shown.index[-1]).startswith("num_"), shown.index
    source = panel.what_if.changes.source    # a count reads as trec_eval prints it, not
    col = [source.column_name(c) for c in range(source.columnCount())].index("topic now")
    row = list(shown.index).index("num_ret")                            # as 1000.0000
    assert source.data(source.index(row, col)) == str(int(fresh.per_topic.loc[topic, "num_ret"]))
    ranking = panel.what_if.ranking.frame()
    assert set(ranking.index) == {e for e in panel.session.runs}
    assert ranking.loc[run_name, "value"] == fresh.summary["map"]
    assert panel.lesson.ranked["relevant"].iloc[0] != was_rel   # the table shows the edit
    rel = [panel.table.source.column_name(c)
           for c in range(panel.table.source.columnCount())].index("rel")
    assert panel._cell_color(0, rel, None) == "#ffc078"        # the edited grade is marked
    out = tmp_path / "edited.qrels"
    panel.export_edited(str(out))
    assert read_qrels(out).frame.equals(edited.frame)
    # the loaded qrels are a copy's source, never changed
    assert panel.session.original is qrels and qrels.frame.equals(read_qrels(QRELS).frame)
    assert panel.session.judgment(topic, docs[0]) != panel.session.original_judgment(topic,
                                                                                     docs[0])
    # choosing other measures rebuilds the session; the edits are kept
    old = panel.session
    panel.state.set_measures(["map", "P.10"])
    qtbot.waitUntil(lambda: panel.session is not None and panel.session is not old
                    and not panel.jobs.is_busy(), timeout=TIMEOUT)
    assert panel.session.overrides == old.overrides and panel.session.can_undo
    panel.undo()
    qtbot.waitUntil(lambda: not panel.jobs.is_busy() and panel.evals is not None, timeout=TIMEOUT)
    assert panel.session.overrides == {}
    assert panel.evals[run_name].summary["map"] == before


def test_tie_sensitivity_and_explain_dialog(qtbot, panel):
    qrels = read_qrels(QRELS)
    run = read_run(RUNS[0])
    panel.state.set_qrels(qrels)
    panel.state.add_runs([run])
    qtbot.waitUntil(lambda: panel.source.currentData() is None and panel.lesson is not None
                    and not panel.jobs.is_busy(), timeout=TIMEOUT)
    panel.measure.setCurrentText("map")
    panel.ties_view.orders.setValue(20)
    panel.run_ties()
    qtbot.waitUntil(lambda: panel.ties is not None, timeout=TIMEOUT)
    ev = evaluate_run(run, qrels, ["map"])
    assert panel.ties.overall.loc["map", "trec_eval"] == ev.summary["map"]
    assert panel.ties.n_orders == 20
    assert "map over all topics: trec_eval" in panel.ties_view.label.text()
    # "Explain this number" from any table: through AppState.explain_requested
    topic = panel.topic.currentText()
    panel.state.show_explanation(run.name, topic, "P_10")
    dlg = panel.dialog
    qtbot.waitUntil(lambda: bool(dlg.explanations), timeout=TIMEOUT)
    assert dlg.isVisible()
    p10 = float(evaluate_run(run, qrels, ["P.10"]).per_topic.loc[topic, "P_10"])
    assert f"P_10 = {p10:.4f}" in dlg.text()
    assert dlg.explanations[0].value == p10
    # the explorer's Explain button: the measure box, under the what-if judgments
    panel.explain_current("recip_rank")
    rr = evaluate_run(run, qrels, ["recip_rank"]).per_topic.loc[topic, "recip_rank"]
    assert dlg.explanations[0].measure == "recip_rank" and dlg.explanations[0].value == rr


def test_workspace_lesson_after_an_example_fits_its_docnos(qtbot, panel):
    """The example's 20 ranks then a workspace topic's ranked list: a new list, every
    column fitted to it (it was taken for rows added and kept the example's narrow docno
    column, the robust docnos cut to "FBIS…")."""
    _ready(qtbot, panel)
    docno = panel.table.source.frame().columns.get_loc("docno") + 1   # rank is column 0
    panel.state.set_qrels(read_qrels(QRELS))
    panel.state.add_runs([read_run(p) for p in RUNS])
    qtbot.waitUntil(lambda: panel.source.currentData() is None and panel.session is not None
                    and panel.lesson is not None and not panel.jobs.is_busy(), timeout=TIMEOUT)
    longest = max(panel.lesson.ranked["docno"].astype(str), key=len)
    assert panel.table.columnWidth(docno) >= panel.table.fontMetrics().horizontalAdvance(longest)


def test_the_tie_chart_is_built_when_its_tab_is_first_shown(qtbot):
    """The Topic explorer's start does not build the Tie sensitivity tab's plot (~25 ms of
    the window's start, the latency helper found); showing the tab builds it, and its
    clicks on topics reach the view's signal."""
    from yardstick.gui.charts.lesson_charts import TieSpreadChart
    from yardstick.gui.teaching_views import TiesView

    view = TiesView()
    qtbot.addWidget(view)
    assert view.findChildren(TieSpreadChart) == []
    view.show()
    qtbot.waitExposed(view)
    charts = view.findChildren(TieSpreadChart)
    assert len(charts) == 1 and view.chart is charts[0]
    with qtbot.waitSignal(view.topicClicked) as got:
        charts[0].topicClicked.emit("401")
    assert got.args == ["401"]
