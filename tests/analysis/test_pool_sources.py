"""Where relevant documents come from: earliest ranks, P(relevant) by rank, depth curve."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pool_fixtures import hand_qrels, hand_runs, robust03, trec_ranked

from yardstick.analysis.pool.relevant_sources import (
    earliest_ranks,
    relevance_by_rank,
    relevant_by_depth,
)
from yardstick.judging.judged_runs_build import build_judged_runs


@pytest.fixture(scope="module")
def hand():
    return build_judged_runs(hand_runs(), hand_qrels())


def test_hand_earliest_ranks(hand):
    er = earliest_ranks(hand, 2)
    got = dict(zip(er.frame["docno"], er.frame["earliest_rank"]))
    # d1: A 1st, C 2nd -> 1; d4: B 2nd; d6: C 1st; d7: C 3rd; e1: C 1st (A 2nd); e5: B 2nd
    assert {k: v for k, v in got.items() if not np.isnan(v)} == {
        "d1": 1, "d4": 2, "d6": 1, "d7": 3, "e1": 1, "e5": 2}
    assert np.isnan(got["e8"]) and er.not_retrieved == 1
    assert dict(zip(er.frame["docno"], er.frame["n_runs"]))["d1"] == 2
    h = er.histogram(bin_width=1, max_rank=3)
    assert h["relevant"].tolist() == [3, 2, 1]


def test_hand_probability_of_relevance_by_rank(hand):
    p = relevance_by_rank(hand, max_rank=4)["p_rel"]
    # topic 1: rank 1 A d1 R, B d2 N, C d6 R -> 2/3; rank 2 d2 N, d4 R, d1 R -> 2/3;
    #          rank 3 d3, d5 unjudged, d7 R -> 1/3
    # topic 2: rank 1 e2 N, e4 -, e1 R -> 1/3; rank 2 e1 R, e5 R, e6 - -> 2/3; rank 3 -> 0
    assert p.to_numpy() == pytest.approx([(2 / 3 + 1 / 3) / 2, 2 / 3, (1 / 3) / 2, 0.0])


def test_hand_relevant_by_depth(hand):
    er = earliest_ranks(hand, 2)
    dc = relevant_by_depth(er, max_depth=4, deeper=(3, 4))
    # earliest ranks 1,1,1,2,2,3 -> found at depth 1..4: 3, 5, 6, 6
    assert dc.curve["relevant"].tolist() == [3, 5, 6, 6]
    assert dc.curve["new"].tolist() == [3, 2, 1, 0]
    # observed gain below depth 2: d7 (rank 3)
    assert dc.extrapolated["observed_added"].tolist() == [1, 1]
    # the fit uses depths 1..2 (fit_from = 1): log F = log a + b log d through (1,3), (2,5)
    assert dc.b == pytest.approx(np.log(5 / 3) / np.log(2))
    assert dc.a == pytest.approx(3.0)
    assert dc.extrapolated.loc[4, "added"] == pytest.approx(3 * 4 ** dc.b - 5)


@pytest.fixture(scope="module")
def r03():
    runs, qrels = robust03()
    return runs, qrels, build_judged_runs(runs, qrels)


def test_robust03_earliest_ranks_and_p_rel_match_an_independent_count(r03):
    runs, qrels, index = r03
    ranked = trec_ranked(runs)
    rel = qrels.frame[qrels.frame["rel"] >= 1][["topic", "docno"]]
    m = ranked.merge(rel, on=["topic", "docno"])
    best = m.groupby(["topic", "docno"])["rank"].min()
    er = earliest_ranks(index, 125)
    got = er.frame.dropna().set_index(["topic", "docno"])["earliest_rank"]
    pd.testing.assert_series_equal(got.sort_index().astype(int), best.sort_index(),
                                   check_names=False)
    assert er.not_retrieved == len(rel) - len(best)
    # P(rel) at ranks 1, 10, 100: relevant runs at that rank / 17, averaged over 100 topics
    p = relevance_by_rank(index, 100)["p_rel"]
    for k in (1, 10, 100):
        n = m[m["rank"] == k].groupby("topic").size().reindex(qrels.topics, fill_value=0)
        assert p.loc[k] == pytest.approx((n / 17).mean())
    dc = relevant_by_depth(er)
    assert dc.curve.loc[125, "relevant"] == int((best <= 125).sum())
    assert dc.extrapolated.loc[250, "observed_added"] == int(((best > 125) & (best <= 250)).sum())
