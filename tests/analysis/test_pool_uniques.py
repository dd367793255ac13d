"""Leave-out-uniques: hand-counted uniques and scores, then Robust 2003 against pytrec_eval
run with qrels that really lack the uniques."""

from __future__ import annotations

import numpy as np
import pytest
from pool_fixtures import REAL_ROBUST03, hand_qrels, hand_runs, robust03, trec_ranked

from yardstick.analysis.pool import scoring
from yardstick.analysis.pool.uniques import leave_out_uniques
from yardstick.evaluation.results import mean_over_topics
from yardstick.judging.judged_runs_build import build_judged_runs

pytrec_eval = pytest.importorskip("pytrec_eval")


@pytest.fixture(scope="module")
def hand():
    return build_judged_runs(hand_runs(), hand_qrels())


def test_hand_uniques_by_run(hand):
    u = leave_out_uniques(hand, 2, unit="run")
    # contributors at depth 2: d1 A,C  d2 A,B  d4 B  d6 C | e1 A,C  e2 A  e4 B  e5 B  e6 C
    # unique relevant: A none; B d4, e5; C d6
    assert u.per_unit["unique_relevant"].to_dict() == {"A": 0, "B": 2, "C": 1}
    assert u.per_unit["unique"].to_dict() == {"A": 1, "B": 3, "C": 2}        # + e2, e4, e6
    assert u.per_unit["contributed"].to_dict() == {"A": 4, "B": 4, "C": 4}
    f = u.frame
    # full qrels (R = 4 for topic 1, 3 for topic 2):
    #   A: (1/1)/4 = .25 and (1/2)/3 = 1/6      -> MAP 0.208333
    #   B: (1/2)/4 = .125 and (1/2)/3 = 1/6     -> MAP 0.145833
    #   C: (1+1+1)/4 = .75 and (1/1)/3 = 1/3    -> MAP 0.541667
    assert f["score"].to_numpy() == pytest.approx([5 / 24, 7 / 48, 13 / 24])
    # without uniques: B loses d4 (R 3) and e5 (R 2): both topics 0
    #   C loses d6: topic 1 R=3, d1 at rank 2 and d7 at rank 3 -> (1/2 + 2/3)/3 = 7/18
    assert f["score_without"].to_numpy() == pytest.approx([5 / 24, 0.0, (7 / 18 + 1 / 3) / 2])
    assert f["percent"].to_numpy() == pytest.approx([0.0, 100.0, 100 * (1 - (13 / 36) / (13 / 24))])
    assert f["rank"].tolist() == [2, 3, 1]
    assert f["rank_without"].tolist() == [2, 3, 1]
    assert f["red_flag"].tolist() == [False, True, True]
    assert u.summary["mean_percent"] == pytest.approx((0 + 100 + 100 / 3) / 3)
    assert u.summary["max_percent"] == pytest.approx(100.0)


def test_hand_uniques_by_group(hand):
    u = leave_out_uniques(hand, 2, unit="group")
    # group G1 = A + B contributes d2 d4 e2 e4 e5 alone; relevant among them: d4, e5
    assert u.per_unit["unique_relevant"].to_dict() == {"G1": 2, "G2": 1}
    assert u.per_unit["unique"].to_dict() == {"G1": 5, "G2": 2}
    f = u.frame
    # A without d4 and e5: topic 1 R=3 -> 1/3; topic 2 R=2, e1 at rank 2 -> (1/2)/2
    assert f.loc["A", "score_without"] == pytest.approx((1 / 3 + 1 / 4) / 2)
    assert f.loc["A", "percent"] == pytest.approx(-40.0)   # AP can rise when R falls
    assert f.loc["B", "score_without"] == pytest.approx(0.0)
    assert f.loc["C", "score_without"] == pytest.approx(13 / 36)
    assert f["unique_relevant"].tolist() == [2, 2, 1]


def test_hand_min_score_leaves_poor_runs_out(hand):
    u = leave_out_uniques(hand, 2, unit="run", min_score=0.2)
    assert u.frame["poor"].tolist() == [False, True, False]     # B scores 0.1458
    assert u.summary["left_out"] == 1
    assert u.summary["mean_percent"] == pytest.approx((0 + 100 / 3) / 2)


@pytest.fixture(scope="module")
def r03():
    runs, qrels = robust03()
    # pytrec_eval is trec_eval 9: compare with the 9.0.8 ordering (scores as float)
    return runs, qrels, build_judged_runs(runs, qrels, compat=9)


def _pytrec_map(run, qdict):
    f = run.to_frame()
    rd: dict = {}
    for t, d, s in zip(f["topic"].astype(str), f["docno"].astype(str), f["score"]):
        rd.setdefault(t, {})[d] = float(s)
    res = pytrec_eval.RelevanceEvaluator(qdict, {"map"}).evaluate(rd)
    return np.mean([v["map"] for v in res.values()])


def test_robust03_uniques_match_pytrec_eval_with_reduced_qrels(r03):
    runs, qrels, index = r03
    u = leave_out_uniques(index, 125, unit="run")
    # independent uniques: relevant documents in exactly one run's top 125
    ranked = trec_ranked(runs, max_rank=125)
    rel = qrels.frame[qrels.frame["rel"] >= 1]
    top = ranked.merge(rel, on=["topic", "docno"])
    owners = top.groupby(["topic", "docno"])["run"].agg(list)
    uniq = owners[owners.map(len) == 1].map(lambda x: x[0])
    counts = uniq.value_counts()
    expected = {r.name: int(counts.get(r.name, 0)) for r in runs}
    assert u.frame["unique_relevant"].to_dict() == expected
    if REAL_ROBUST03:                            # counted on the real runs
        assert int(counts.sum()) == 729
    by_name = {r.name: r for r in runs}
    full = qrels.to_dict()
    for name in ["input.uic0301", "input.humR03dc"]:
        qdict = {t: dict(docs) for t, docs in full.items()}
        for t, d in uniq[uniq == name].index:
            del qdict[t][d]                      # the qrels without this run's uniques
        assert u.frame.loc[name, "score_without"] == pytest.approx(
            _pytrec_map(by_name[name], qdict), abs=1e-12)
        assert u.frame.loc[name, "score"] == pytest.approx(
            _pytrec_map(by_name[name], full), abs=1e-12)


def test_pool_scoring_matches_pytrec_eval_on_robust03(r03):
    runs, qrels, index = r03
    ev = index.evaluated()
    sub = runs[:3]
    per_topic = {m: scoring.score_all(index, m) for m in
                 ("map", "bpref", "infAP", "P_10", "map_judged")}
    qd = qrels.to_dict()
    for i, run in enumerate(sub):
        f = run.to_frame()
        rd: dict = {}
        for t, d, s in zip(f["topic"].astype(str), f["docno"].astype(str), f["score"]):
            rd.setdefault(t, {})[d] = float(s)
        full = pytrec_eval.RelevanceEvaluator(qd, {"map", "bpref", "infAP", "P_10"}).evaluate(rd)
        cond = pytrec_eval.RelevanceEvaluator(qd, {"map"}, judged_docs_only_flag=True).evaluate(rd)
        for t, vals in full.items():
            ti = int(np.flatnonzero(index.topics == t)[0])
            assert ev[i, ti]
            for m in ("map", "bpref", "infAP", "P_10"):
                assert per_topic[m][i, ti] == pytest.approx(vals[m], abs=1e-12), (run.name, t, m)
            assert per_topic["map_judged"][i, ti] == pytest.approx(cond[t]["map"], abs=1e-12)


def test_pool_scoring_matches_the_engine(r03):
    from yardstick.evaluation.evaluation_service import evaluate_run

    runs, qrels, _ = r03
    index = build_judged_runs(runs[:3], qrels)           # trec_eval 10 ordering
    means = {m: mean_over_topics(scoring.score_all(index, m), index.evaluated(), axis=1)
             for m in ("map", "bpref", "P_10")}
    for i, run in enumerate(runs[:3]):
        try:
            summ = evaluate_run(run, qrels, ["map", "bpref", "P.10"]).summary
        except ImportError:
            pytest.skip("evaluation engine not available")
        for m in ("map", "bpref", "P_10"):
            assert means[m][i] == pytest.approx(summ[m], abs=1e-12)
