"""What-if edits (yardstick.analysis.explain.what_if) change the measures exactly as re-evaluating
the edited qrels from scratch with yardstick.evaluation.evaluation_service does (what ``yardstick
eval`` prints),
on the TREC 2003 robust track (3 real runs, graded qrels) and trec_eval's test data."""

from __future__ import annotations

import pytest
from pandas.testing import assert_frame_equal, assert_series_equal

from tests.shared_data import data_dir, robust03_dir
from yardstick.analysis.explain.what_if import WhatIfSession
from yardstick.common.options import EvalOptions
from yardstick.evaluation.evaluation_service import evaluate_run
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run

ROBUST = robust03_dir()      # the real runs, or the generated track with their layout
TE = data_dir("trec_eval_tests") / "v10.0_HEAD"
MEASURES = ["official", "ndcg", "ndcg_cut.10", "infAP", "rbp", "set_F", "success.1"]


def _robust():
    from yardstick.inputs.io import read_qrels, read_run

    qrels = read_qrels(ROBUST / "qrels" / "robust03_qrels.txt")
    runs = [read_run(ROBUST / "runs" / f"input.{n}.gz") for n in ("aplrob03a", "UIUC03Rd1")]
    return qrels, runs


def _assert_same_as_fresh(session: WhatIfSession):
    evals = session.evaluations()
    for name, run in session.runs.items():
        fresh = evaluate_run(run, session.qrels, session.measures, session.options)
        assert_frame_equal(evals[name].per_topic, fresh.per_topic, check_exact=True)
        assert_series_equal(evals[name].summary, fresh.summary, check_exact=True)


def _top_docs(session, run_name, t=0, n=5):
    jr = session.judged(run_name)
    run = session.runs[run_name]
    topic = str(jr.topics[t])
    lines = jr.line[jr.start[t]:jr.start[t] + n]
    return topic, [run.docnos[run.doc_code[i]] for i in lines]


@pytest.mark.parametrize("options", [EvalOptions(), EvalOptions(relevance_level=2),
                                     EvalOptions(complete=True, max_docs=100, judged_only=True)],
                         ids=["default", "l2", "c_M100_J"])
def test_edits_match_fresh_evaluation(options):
    qrels, runs = _robust()
    s = WhatIfSession(qrels, runs, MEASURES, options)
    name = runs[0].name
    topic, docs = _top_docs(s, name)
    s.mark_relevant(topic, docs[0], grade=2)      # upgrade
    s.mark_nonrelevant(topic, docs[1])            # judged non-relevant
    s.mark_unjudged(topic, docs[2])               # removed from the qrels
    s.mark(topic, docs[3], 5)                     # a grade no topic had
    s.mark(topic, "NEVER-RETRIEVED", 1)           # R grows, nothing retrieved changes
    _assert_same_as_fresh(s)
    s.undo()
    s.undo()
    _assert_same_as_fresh(s)
    s.redo()
    _assert_same_as_fresh(s)


def test_topic_appearing_and_disappearing():
    """The first judgment of a topic makes it evaluated; removing the last one drops it."""
    run = Run.from_dict({"1": {"a": 2.0, "b": 1.0}, "2": {"c": 1.0, "d": 0.5}})
    qrels = Qrels.from_dict({"1": {"a": 1, "b": 0}})
    s = WhatIfSession(qrels, [run], ["map", "P.1"])
    assert list(s.evaluations()[run.name].per_topic.index) == ["1"]
    s.mark_relevant("2", "d")
    ev = s.evaluations()[run.name]
    assert list(ev.per_topic.index) == ["1", "2"]
    assert ev.per_topic.loc["2", "map"] == 0.5      # relevant d at rank 2: (1/2) / 1
    _assert_same_as_fresh(s)
    s.mark_unjudged("1", "a")
    s.mark_unjudged("1", "b")
    assert list(s.evaluations()[run.name].per_topic.index) == ["2"]
    _assert_same_as_fresh(s)


def test_hand_counted_edit_and_run_ranking():
    """Two runs on one topic with relevant a (R = 1).  A ranks a first (AP 1), B ranks it
    second (AP 1/2).  Marking b relevant (R = 2) gives A: (1/1 + 2/2... no: A = a, b ->
    (1/1 + 2/2)/2 = 1; B = b, a -> (1/1 + 2/2)/2 = 1; marking a non-relevant then gives
    A = (1/2)/1 = 1/2 and B = (1/1)/1 = 1: B overtakes A."""
    A = Run.from_dict({"t": {"a": 2.0, "b": 1.0}}, name="A")
    B = Run.from_dict({"t": {"b": 2.0, "a": 1.0}}, name="B")
    qrels = Qrels.from_dict({"t": {"a": 1, "b": 0}})
    s = WhatIfSession(qrels, [A, B], ["map"])
    assert s.ranking("map").index.tolist() == ["A", "B"]
    s.mark_relevant("t", "b")
    r = s.ranking("map")
    assert r["value"].tolist() == [1.0, 1.0]
    s.mark_nonrelevant("t", "a")
    r = s.ranking("map")
    assert r.index.tolist() == ["B", "A"]
    assert r.loc["B", "value"] == 1.0 and r.loc["A", "value"] == 0.5
    assert r.loc["B", "rank_change"] == 1 and r.loc["A", "rank_change"] == -1
    assert r.loc["A", "delta"] == -0.5 and r.loc["B", "original"] == 0.5
    assert s.changes("A").loc["map", "now"] == 0.5
    # the original qrels are untouched
    assert qrels.to_dict() == {"t": {"a": 1, "b": 0}}
    assert s.judgment("t", "a") == 0 and s.original_judgment("t", "a") == 1


def test_undo_redo_history():
    qrels = Qrels.from_dict({"t": {"a": 1}})
    s = WhatIfSession(qrels, [Run.from_dict({"t": {"a": 1.0, "b": 0.5}})], ["map"])
    assert s.mark_relevant("t", "a") is None            # no change, no history
    e1 = s.mark_relevant("t", "b")
    e2 = s.toggle("t", "a")                             # relevant -> non-relevant
    assert (e1.old, e1.new, e2.old, e2.new) == (None, 1, 1, 0)
    assert s.undo() == e2 and s.judgment("t", "a") == 1
    assert s.can_redo and s.redo() == e2 and s.judgment("t", "a") == 0
    assert s.undo() == e2 and s.undo() == e1 and not s.can_undo
    assert s.qrels.to_dict() == {"t": {"a": 1}} and s.overrides == {}
    s.mark_nonrelevant("t", "a")
    assert not s.can_redo                               # a new edit clears the redo stack
    s.reset()
    assert s.overrides == {} and s.evaluations()[next(iter(s.runs))].summary["map"] == 1.0


def test_export_edited_qrels(tmp_path):
    from yardstick.inputs.io import read_qrels

    if not TE.exists():
        pytest.skip("trec_eval test data not present")
    from yardstick.inputs.io import read_run

    qrels = read_qrels(TE / "qrels.test")
    before = (TE / "qrels.test").read_bytes()
    s = WhatIfSession(qrels, [read_run(TE / "results.test")], ["map"])
    assert s.judgment("301", "NEW-DOC-1") is None
    s.mark_relevant("301", "NEW-DOC-1")
    s.mark_unjudged("302", s.original.frame.loc[s.original.frame["topic"] == "302",
                                                "docno"].iloc[0])
    out = tmp_path / "edited.qrels"
    s.export(out)
    back = read_qrels(out)
    assert back.frame.equals(s.qrels.frame)
    assert len(back.frame) == len(qrels.frame)          # one added, one removed
    assert (TE / "qrels.test").read_bytes() == before
    with pytest.raises(ValueError, match="original"):
        s.export(TE / "qrels.test")
    # re-evaluating the exported file gives the session's numbers
    fresh = evaluate_run(s.runs["results.test"], back, ["map"])
    assert fresh.summary["map"] == s.evaluations()["results.test"].summary["map"]
