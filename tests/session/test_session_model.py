"""The Qt-free session: state set directly (no window, no clicks), events and evaluations
checked against trec_eval's own code (pytrec_eval)."""

from __future__ import annotations

import pytest

from tests.gui_support import QRELS, RUNS
from tests.pytrec_evaluations import pytrec_evaluations
from yardstick.common.events import Event
from yardstick.common.options import EvalOptions
from yardstick.inputs.io import read_qrels, read_run
from yardstick.session import evaluating
from yardstick.session.changes import Change
from yardstick.session.model import Session

MEASURES = {"map", "P_10", "recip_rank"}


@pytest.fixture(scope="module")
def inputs():
    return read_qrels(QRELS), [read_run(p) for p in RUNS]


def _recorded(session: Session) -> list[Change]:
    seen: list[Change] = []
    session.events.changed.connect(seen.append)
    return seen


def _assert_match_trec_eval(session: Session, runs, qrels, **pytrec_args) -> None:
    ref = pytrec_evaluations(runs, qrels, {"map", "P", "recip_rank"}, **pytrec_args)
    evs = session.evaluations()
    assert list(evs) == [r.name for r in runs]
    for name, ev in evs.items():
        for m in MEASURES:
            assert ev.summary[m] == pytest.approx(ref[name].summary[m], abs=1e-12), (name, m)


def test_event_calls_listeners_in_order_once_each():
    ev, calls = Event("x"), []
    first = ev.connect(lambda v: calls.append(("a", v)))
    ev.connect(first)                       # connected twice: called once
    ev.connect(lambda v: calls.append(("b", v)))
    ev.emit(1)
    ev.disconnect(first)
    ev.emit(2)
    assert calls == [("a", 1), ("b", 1), ("b", 2)]


def test_setting_qrels_and_runs_evaluates_them_and_announces_it(inputs):
    qrels, runs = inputs
    s = Session()
    seen = _recorded(s)
    s.set_qrels(qrels)
    s.add_runs(runs)
    # the evaluations follow the runs, and are announced after them
    assert seen == [Change.QRELS, Change.RUNS, Change.EVALUATIONS]
    _assert_match_trec_eval(s, runs, qrels)
    assert "gm_map" in s.evaluation(runs[0].name).summary       # official set too


def test_options_and_qrels_sets_make_evaluations_stale(inputs):
    qrels, runs = inputs
    s = Session()
    s.set_qrels(qrels)
    s.add_runs(runs)
    seen = _recorded(s)
    s.set_options(EvalOptions(relevance_level=2))
    assert seen == [Change.OPTIONS, Change.EVALUATIONS]
    assert all(ev.options.relevance_level == 2 for ev in s.evaluations().values())
    _assert_match_trec_eval(s, runs, qrels, relevance_level=2)
    # a second qrels set: kept by name, used only once made primary
    frame = qrels.frame
    half = qrels.__class__(frame[frame["topic"] < "625"].reset_index(drop=True), name="half")
    name = s.add_qrels(half, "half")
    assert s.primary_qrels != "half" and set(s.qrels_sets) == {s.primary_qrels, "half"}
    before = s.evaluation(runs[0].name).summary["map"]
    assert s.evaluation(runs[0].name).summary["map"] == before   # not re-evaluated
    s.use_qrels(name)
    assert s.qrels is half and s.primary_qrels == "half"
    _assert_match_trec_eval(s, runs, half, relevance_level=2)


def test_renaming_a_run_keeps_its_evaluation(inputs, monkeypatch):
    qrels, runs = inputs
    s = Session()
    s.set_qrels(qrels)
    s.add_runs(runs[:1])
    calls = []
    real = evaluating.measure
    monkeypatch.setattr(evaluating, "measure", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    old = s.evaluation(runs[0].name)
    new = s.update_run(runs[0].name, name="renamed", group="team")
    assert calls == [] and new == "renamed"
    assert s.evaluation("renamed").summary.equals(old.summary)
    s.set_measures(["ndcg_cut.20"])          # a measure not evaluated yet: evaluated again
    assert len(calls) == 1 and "ndcg_cut_20" in s.evaluation("renamed").summary


class _QueuedExecutor:
    """An executor that runs a job only when the test says (as a job runner would, later)."""

    def __init__(self):
        self.jobs = []

    def submit(self, key, make_job, on_result, on_error):
        self.jobs.append((key, make_job, on_result, on_error))

    def is_running(self, key):
        return any(k == key for k, *_ in self.jobs)

    def run_next(self):
        from yardstick.common.progress import run_sync

        key, make_job, on_result, on_error = self.jobs.pop(0)
        on_result(run_sync(make_job()))


def test_with_an_executor_evaluations_arrive_in_batches(inputs, monkeypatch):
    from yardstick.session import session_evaluations

    monkeypatch.setattr(session_evaluations, "EVAL_BATCH", 2)
    qrels, runs = inputs
    ex = _QueuedExecutor()
    s = Session(executor=ex)
    s.set_qrels(qrels)
    seen = _recorded(s)
    counts = []
    s.events.changed.connect(lambda w: w is Change.EVALUATIONS and counts.append(
        len(s.evaluations())))
    s.add_runs(runs)
    assert s.is_evaluating() and s.evaluations() == {}
    ex.run_next()
    ex.run_next()
    assert not s.is_evaluating() and counts == [2, 3]
    assert seen == [Change.RUNS, Change.EVALUATIONS, Change.EVALUATIONS]
    _assert_match_trec_eval(s, runs, qrels)


def test_a_failed_evaluation_is_said(inputs):
    qrels, runs = inputs
    ex = _QueuedExecutor()
    s = Session(executor=ex)
    said = []
    s.events.status.connect(said.append)
    s.set_qrels(qrels)
    s.add_runs(runs[:1])
    ex.jobs.pop(0)[3]("out of memory")
    assert s.evaluation_error == "out of memory" and said == ["Evaluation failed: out of memory"]


def test_load_streams_files_into_the_session(tmp_path):
    s = Session()
    seen = _recorded(s)
    res = s.load([QRELS, *RUNS])
    assert not res.errors and s.qrels is not None
    assert list(s.runs) == [p.name.removesuffix(".gz") for p in RUNS]
    assert seen[0] is Change.QRELS and Change.RUNS in seen and seen[-1] is Change.EVALUATIONS
    runs = [e.run for e in s.runs.values()]
    _assert_match_trec_eval(s, runs, s.qrels)
    assert not s.loads_under_way()
