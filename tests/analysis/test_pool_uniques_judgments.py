"""Leave-out-uniques removes every judgment the left-out unit alone contributed (issue #14).

Zobel (SIGIR 1998) and Buckley et al. ("Bias and the limits of pooling", 2007,
§2) take out of the qrels every document that only the left-out run (or group)
put in the pool, relevant or not.  For MAP and P@k removing a non-relevant
judgment changes nothing; for bpref it does (it counts judged non-relevant
documents), so the rule is checked with bpref against pytrec_eval (trec_eval's C
code) on qrels reduced by hand.
"""

from __future__ import annotations

import pandas as pd
import pytest

from yardstick.analysis.pool.uniques import leave_out_uniques
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.judged_runs_build import build_judged_runs

pytrec_eval = pytest.importorskip("pytrec_eval")

DEPTH = 3
QRELS = {"1": {"a": 1, "x": 0, "y": 0, "c": 1, "b": 0, "d": 1, "e": 0, "w": 0},
         "2": {"p": 1, "q": 0, "r": 0, "s": 1, "t": 0}}
RUNS = {"A1": {"1": ["x", "a", "y", "c", "e"], "2": ["q", "p", "r", "s"]},
        "B1": {"1": ["b", "a", "d", "x", "c"], "2": ["p", "t", "s", "q"]}}


def _index():
    rows = [(t, d, r) for t, docs in QRELS.items() for d, r in docs.items()]
    qrels = Qrels.from_frame(pd.DataFrame(rows, columns=["topic", "docno", "rel"]))
    runs = []
    for name, topics in RUNS.items():
        t = [tp for tp, docs in topics.items() for _ in docs]
        d = [x for docs in topics.values() for x in docs]
        s = [float(len(docs) - i) for docs in topics.values() for i in range(len(docs))]
        runs.append(Run.from_arrays(t, d, s, name=name))
    return build_judged_runs(runs, qrels)


def _pytrec(name: str, qrels: dict, measure: str) -> float:
    run = {t: {d: float(len(docs) - i) for i, d in enumerate(docs)}
           for t, docs in RUNS[name].items()}
    res = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
    return sum(v[measure] for v in res.values()) / len(res)


def _reduced(name: str, relevant_only: bool) -> dict:
    other = next(n for n in RUNS if n != name)
    out = {}
    for t, docs in QRELS.items():
        unique = set(RUNS[name][t][:DEPTH]) - set(RUNS[other][t][:DEPTH])
        out[t] = {d: r for d, r in docs.items()
                  if d not in unique or (relevant_only and r < 1)}
    return out


@pytest.mark.parametrize("measure, trec", [("bpref", "bpref"), ("map", "map")])
def test_scores_without_a_run_are_trec_evals_on_the_reduced_qrels(measure, trec):
    res = leave_out_uniques(_index(), DEPTH, unit="run", measure=measure).frame
    for name in RUNS:
        assert res.loc[name, "score"] == pytest.approx(_pytrec(name, QRELS, trec), abs=1e-12)
        assert res.loc[name, "score_without"] == pytest.approx(
            _pytrec(name, _reduced(name, relevant_only=False), trec), abs=1e-12)


def test_the_rules_differ_for_bpref_and_agree_for_map():
    """Removing only the unique *relevant* documents (the old rule) gives another bpref."""
    for name in RUNS:
        assert _pytrec(name, _reduced(name, False), "bpref") != \
            _pytrec(name, _reduced(name, True), "bpref")
        assert _pytrec(name, _reduced(name, False), "map") == \
            pytest.approx(_pytrec(name, _reduced(name, True), "map"), abs=1e-15)


def test_the_removed_judgments_are_listed():
    res = leave_out_uniques(_index(), DEPTH, unit="run", measure="bpref")
    got = sorted(map(tuple, res.removed[["run", "topic", "docno", "rel"]].values.tolist()))
    # A1's top 3: x a y | q p r; B1's: b a d | p t s
    assert got == [("A1", "1", "x", 0), ("A1", "1", "y", 0), ("A1", "2", "q", 0),
                   ("A1", "2", "r", 0), ("B1", "1", "b", 0), ("B1", "1", "d", 1),
                   ("B1", "2", "s", 1), ("B1", "2", "t", 0)]
    assert res.summary["unique_judged"] == 8 and res.summary["unique_relevant"] == 2
    assert res.per_unit.loc["A1", "unique_judged"] == 4
