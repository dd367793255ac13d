"""What-if significance (issue 8): after an edit of the judgments, the paired tests of a run
vs a baseline are exactly what yardstick.analysis.significance gives on a fresh evaluation of the
edited
qrels (written to a file and read back, as ``yardstick eval`` would); the topic
explorer shows that table; Help ▸ Worked examples loads an example (the appendix's
AP "0.83" for relevant documents at ranks 1, 2, 4, 7).

Data: the robust 2003 sample shipped in resources/sample_fallback (3 real runs).
"""

from __future__ import annotations

import numpy as np
import pytest
from pandas.testing import assert_frame_equal

from tests.gui_support import QRELS, RUNS, engine_or_skip, make_window
from yardstick.analysis.significance import compare_runs
from yardstick.evaluation.evaluation_service import evaluate_run, score_matrix
from yardstick.inputs.io import read_qrels, read_run, write_qrels

TIMEOUT = 60000


def _fresh_comparison(session, run, baseline, measure, tmp_path):
    """core.compare on a from-scratch evaluation of the edited qrels read back from disk."""
    path = tmp_path / "edited.qrels"
    write_qrels(session.qrels, path)
    edited = read_qrels(path)
    evals = {n: evaluate_run(session.runs[n], edited, session.measures, session.options)
             for n in (baseline, run)}
    return compare_runs(score_matrix(evals, measure), baseline, [run], measure, test="t",
                        correction="none")


def _edit_that_moves(session, run):
    """Mark the run's first unjudged-or-nonrelevant document of its first topic relevant."""
    jr = session.judged(run)
    topic = str(jr.topics[0])
    lines = jr.line[int(jr.start[0]):int(jr.start[1])]
    r = session.runs[run]
    for ln in lines[:50]:
        docno = str(r.docnos[r.doc_code[ln]])
        g = session.judgment(topic, docno)
        if g is None or g < 1:
            session.mark_relevant(topic, docno)
            return topic, docno
    raise AssertionError("no non-relevant document in the top 50")


def test_core_what_if_significance_equals_fresh_compare(tmp_path):
    engine_or_skip()
    from yardstick.analysis.explain.what_if import WhatIfSession
    from yardstick.analysis.explain.what_if_significance import what_if_significance

    qrels = read_qrels(QRELS)
    runs = [read_run(p) for p in RUNS[:2]]
    s = WhatIfSession(qrels, runs, ["map", "P.10"])
    run, base = runs[0].name, runs[1].name
    before = what_if_significance(s.original_evaluations(), s.evaluations(), run, base, "map")
    assert before.pair_original == before.pair_now                  # nothing edited yet
    _edit_that_moves(s, run)
    res = what_if_significance(s.original_evaluations(), s.evaluations(), run, base, "map")
    fresh = _fresh_comparison(s, run, base, "map", tmp_path)
    orig = compare_runs(score_matrix({n: evaluate_run(s.runs[n], qrels, s.measures)
                                      for n in (base, run)}, "map"), base, [run], "map",
                        test="t", correction="none")
    assert res.pair_now == fresh.pairs[0]
    assert res.pair_original == orig.pairs[0]
    assert res.pair_now.p_t != res.pair_original.p_t                 # the edit moved p
    f = res.to_frame()
    assert f.loc["p t-test", "now"] == fresh.pairs[0].p_t
    assert f.loc["p t-test", "change"] == fresh.pairs[0].p_t - orig.pairs[0].p_t
    assert "→" in res.verdict("t")
    with pytest.raises(ValueError):
        what_if_significance(s.original_evaluations(), s.evaluations(), run, run, "map")


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


def test_explorer_significance_table_follows_what_if_edits(qtbot, panel, tmp_path):
    engine_or_skip()
    panel.state.set_qrels(read_qrels(QRELS))
    panel.state.add_runs([read_run(p) for p in RUNS])
    view = panel.significance
    qtbot.waitUntil(lambda: panel.source.currentData() is None and panel.lesson is not None
                    and view.result is not None and not panel.jobs.is_busy(),
                    timeout=TIMEOUT)
    run, base = panel.run.currentText(), view.baseline.currentText()
    assert base and base != run
    assert view.baseline.count() == len(RUNS) - 1
    first = view.result
    assert first.pair_now == first.pair_original
    panel.table.selectRow(0)
    was_rel = bool(panel.lesson.ranked["relevant"].iloc[0])
    panel.mark_selected("nonrelevant" if was_rel else "relevant")
    qtbot.waitUntil(lambda: view.result is not first and panel.session.version > 0
                    and not panel.jobs.is_busy()
                    and view.result.pair_now != view.result.pair_original, timeout=TIMEOUT)
    measure = panel.measure.currentText()
    fresh = _fresh_comparison(panel.session, run, base, measure, tmp_path)
    shown = view.table.frame()
    p = fresh.pairs[0]
    expected = [p.n_topics, p.mean_baseline, p.mean_run, p.mean_diff, p.wins, p.ties,
                p.losses, p.t_stat, p.p_t, p.p_wilcoxon, p.p_sign, p.p_permutation,
                p.effect_size, p.ci_low, p.ci_high]
    np.testing.assert_array_equal(shown["now"].to_numpy(float), np.array(expected, float))
    assert shown.loc["mean run", "now"] != shown.loc["mean run", "original"]
    assert f"p = {view.result.pair_original.p_t:.4g} → {p.p_t:.4g}" in view.verdict.text()
    # undo: back to the original numbers
    panel.undo()
    qtbot.waitUntil(lambda: not panel.jobs.is_busy()
                    and view.result.pair_now == view.result.pair_original, timeout=TIMEOUT)
    assert_frame_equal(view.table.frame(), first.to_frame())


def test_help_menu_loads_worked_example_and_explain_is_installed(qtbot, tmp_path, monkeypatch):
    win = make_window(qtbot, tmp_path, monkeypatch)
    titles = [a.text() for a in win.examples_menu.actions()]
    assert titles == ["Interpolated precision at 11 recall levels", "Average precision",
                      "R-precision over two topics"]
    action = win.examples_menu.actions()[titles.index("Average precision")]
    explorer = win.panels["topic_explorer"]
    action.trigger()
    qtbot.waitUntil(lambda: explorer.source.currentData() == "average_precision"
                    and explorer.lesson is not None and explorer.lesson.num_ret == 10
                    and not win.jobs.is_busy(), timeout=TIMEOUT)
    assert round(explorer.lesson.ap, 2) == 0.83
    assert explorer.lesson.ranked.loc[explorer.lesson.ranked["relevant"], "rank"].tolist() \
        == [1, 2, 4, 7]
    # "Explain this number" belongs to the window: one dialog per state
    assert win.state._explain_dialog is win.explain_dialog
    assert explorer.dialog is win.explain_dialog
