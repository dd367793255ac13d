"""Pool reconstruction and statistics: a hand-counted pool, then Robust 2003/2004 counted
independently with pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pool_fixtures import REAL_ROBUST03, hand_qrels, hand_runs, robust03, robust04, trec_ranked

from yardstick.analysis.pool.reconstruction import pool_statistics, reconstruct_pool, unjudged_at
from yardstick.judging.judged_runs_build import build_judged_runs


@pytest.fixture(scope="module")
def hand():
    return build_judged_runs(hand_runs(), hand_qrels())


def test_hand_pool_members_and_sizes(hand):
    pool = reconstruct_pool(hand, 2)
    frame = pool.to_frame(hand)
    members = {t: set(g["docno"]) for t, g in frame.groupby("topic")}
    # depth 2: A {d1,d2} B {d2,d4} C {d6,d1}; A {e2,e1} (tie -> docno desc) B {e4,e5} C {e1,e6}
    assert members == {"1": {"d1", "d2", "d4", "d6"}, "2": {"e1", "e2", "e4", "e5", "e6"}}
    by_doc = frame.set_index("docno")
    assert by_doc.loc["d1", "n_runs"] == 2 and by_doc.loc["d1", "n_groups"] == 2  # A, C
    assert by_doc.loc["d2", "n_runs"] == 2 and by_doc.loc["d2", "n_groups"] == 1  # A, B (G1)
    assert by_doc.loc["e2", "min_rank"] == 1 and by_doc.loc["e1", "min_rank"] == 1  # C ranks e1 1st


def test_hand_pool_statistics(hand):
    st = pool_statistics(hand, 2)
    pt = st.per_topic
    # topic 1: pool 4, all judged, relevant d1 d4 d6; outside: d7 (rel), d9; nothing missing
    assert pt.loc["1", ["pool_size", "judged", "relevant"]].tolist() == [4, 4, 3]
    assert pt.loc["1", ["judged_outside_pool", "relevant_outside_pool",
                        "pooled_not_in_qrels"]].tolist() == [2, 1, 0]
    # topic 2: pool 5, judged e1 e2 e5, relevant e1 e5; outside e8 (rel); missing e4 e6
    assert pt.loc["2", ["pool_size", "judged", "relevant"]].tolist() == [5, 3, 2]
    assert pt.loc["2", ["judged_outside_pool", "relevant_outside_pool",
                        "pooled_not_in_qrels"]].tolist() == [1, 1, 2]
    assert pt.loc["2", "share_judged"] == pytest.approx(3 / 5)
    assert set(st.missing["docno"]) == {"e4", "e6"}
    assert set(zip(st.outside["docno"], st.outside["rel"])) == {("d7", 1), ("d9", 0), ("e8", 1)}
    assert st.summary["mean_pool_size"] == pytest.approx(4.5)
    assert st.summary["share_judged"] == pytest.approx(7 / 9)


def test_hand_unjudged_in_top_k(hand):
    u = unjudged_at(hand, (2, 10))
    # top 2: A t1 {d1,d2} 0, t2 {e2,e1} 0; B t1 {d2,d4} 0, t2 {e4,e5} 1; C t1 0, t2 {e1,e6} 1
    assert u["unjudged_2"].tolist() == [0.0, 0.5, 0.5]
    # top 10: A d3, e3 -> 2/2; B d5, e4 -> 2/2; C t1 0, t2 e6 e7 -> 2/2
    assert u["unjudged_10"].tolist() == [1.0, 1.0, 1.0]
    assert u["judged_10"].tolist() == [2.0, 1.5, 2.0]


def test_per_topic_depths(hand):
    # topic 1 pooled to depth 1 (d1, d2, d6), topic 2 not pooled at all
    st = pool_statistics(hand, {"1": 1})
    assert st.per_topic.loc["1", "pool_size"] == 3
    assert st.per_topic.loc["2", "pool_size"] == 0
    assert st.per_topic.loc["2", "judged_outside_pool"] == 4


def _independent(runs, qrels, depth, pooled=None):
    """Pool statistics counted with pandas merges only (no Yardstick pool code)."""
    ranked = trec_ranked(runs, max_rank=depth)
    pooled = set(pooled or [r.name for r in runs])
    top = ranked[(ranked["rank"] <= depth) & ranked["run"].isin(pooled)]
    pool = top[["topic", "docno"]].drop_duplicates()
    qf = qrels.frame[["topic", "docno", "rel"]]
    m = pool.merge(qf, on=["topic", "docno"], how="outer", indicator=True)
    m["in_pool"] = m["_merge"] != "right_only"
    m["judged_"] = m["rel"].notna() & (m["rel"] >= 0)
    g = m.groupby("topic")
    ind = pd.DataFrame({
        "pool_size": g["in_pool"].sum(),
        "judged": g.apply(lambda x: int((x["in_pool"] & x["judged_"]).sum())),
        "relevant": g.apply(lambda x: int((x["in_pool"] & (x["rel"] >= 1)).sum())),
        "judged_outside_pool": g.apply(lambda x: int((~x["in_pool"] & x["judged_"]).sum())),
        "pooled_not_in_qrels": g.apply(lambda x: int((x["in_pool"] & x["rel"].isna()).sum())),
    }).astype(int)
    return ind, ranked, qf


def _unjudged_independent(ranked, qf, k):
    top = ranked[(ranked["rank"] <= k) & ranked["topic"].isin(set(qf["topic"]))]
    m = top.merge(qf, on=["topic", "docno"], how="left")
    m["unjudged"] = m["rel"].isna() | (m["rel"] < 0)
    return m.groupby(["run", "topic"])["unjudged"].sum().groupby("run").mean()


@pytest.fixture(scope="module")
def r03():
    runs, qrels = robust03()
    return runs, qrels, build_judged_runs(runs, qrels)


def test_robust03_pool_at_depth_125_matches_an_independent_count(r03):
    runs, qrels, index = r03
    st = pool_statistics(index, 125)
    ind, ranked, judged = _independent(runs, qrels, 125)
    cols = ["pool_size", "judged", "relevant", "judged_outside_pool", "pooled_not_in_qrels"]
    pd.testing.assert_frame_equal(st.per_topic[cols].astype(int), ind.loc[st.per_topic.index, cols],
                                  check_names=False)
    # The new topics (601-650) were pooled at depth 125 from all 78 runs, these 17 among
    # them (Voorhees 2003, section 1): every document these runs pooled was judged.
    new = st.per_topic[st.per_topic.index.astype(int) >= 601]
    assert len(new) == 50 and (new["pooled_not_in_qrels"] == 0).all()
    for k in (10, 100):
        mine = st.per_run[f"unjudged_{k}"]
        other = _unjudged_independent(ranked, judged, k)
        np.testing.assert_allclose(mine.to_numpy(), other.loc[mine.index].to_numpy())


def test_robust03_judged_at_1000_of_aplrob03a(r03):
    # an independent count (pandas merge); on the real runs also the trectools README
    # (verified in ../shared/data/trectools_robust03/SOURCES.md): mean number of judged
    # documents in aplrob03a's top 1000 = 481.39
    runs, qrels, index = r03
    u = unjudged_at(index, (1000,))
    top = trec_ranked([r for r in runs if r.name == "input.aplrob03a"], max_rank=1000)
    judged = top.merge(qrels.frame[qrels.frame["rel"] >= 0][["topic", "docno"]])
    want = judged.groupby("topic").size().reindex(top["topic"].unique(), fill_value=0).mean()
    assert u.loc["input.aplrob03a", "judged_1000"] == pytest.approx(want, abs=1e-9)
    if REAL_ROBUST03:
        assert u.loc["input.aplrob03a", "judged_1000"] == pytest.approx(481.39, abs=0.005)


def test_robust04_nineteen_runs_at_depth_100_match_an_independent_count():
    runs, qrels = robust04()
    assert len(runs) == 19
    index = build_judged_runs(runs, qrels)                # all 19 runs form the pool
    st = pool_statistics(index, 100)
    ind, ranked, judged = _independent(runs, qrels, 100)
    cols = ["pool_size", "judged", "relevant", "judged_outside_pool", "pooled_not_in_qrels"]
    pd.testing.assert_frame_equal(st.per_topic[cols].astype(int), ind.loc[st.per_topic.index, cols],
                                  check_names=False)
    # 250 topics have runs, 249 have judgments (672 has none: SOURCES.md)
    assert len(st.per_topic) == 250
    assert st.per_topic.loc["672", "judged"] == 0
    assert st.summary["pooled_runs"] == 19
    for k in (10, 100):
        mine = st.per_run[f"unjudged_{k}"]
        other = _unjudged_independent(ranked, judged, k)
        np.testing.assert_allclose(mine.to_numpy(), other.loc[mine.index].to_numpy())


@pytest.mark.parametrize("dense_cells", [0, 10**9])
def test_judgments_of_ranked_documents_both_lookup_paths(monkeypatch, dense_cells):
    import yardstick.judging.judgment_table as jl

    monkeypatch.setattr(jl, "DENSE_CELLS", dense_cells)
    q = hand_qrels().frame.copy()
    q.loc[q["docno"] == "d2", "rel"] = -1          # in the qrels, not judged (trec_eval: -2)
    from yardstick.inputs.qrels import Qrels

    index = build_judged_runs(hand_runs(), Qrels.from_frame(q))
    assert (index._table.dense is None) == (dense_cells == 0)
    a = index.entry_run(np.arange(index.n_entries)) == 0
    # run A in trec order: d1 d2 d3 | e2 e1 e3
    assert index.docnos(index.e_doc[a]).tolist() == ["d1", "d2", "d3", "e2", "e1", "e3"]
    assert index.e_rel[a].tolist() == [1, -2, -1, 0, 2, -1]
    found, rel = index.lookup(index.entry_keys()[::-1])      # unsorted queries
    assert found[::-1].tolist() == (index.e_rel != -1).tolist()


def test_blocks_of_topics_and_slices_of_entries_change_no_number(monkeypatch):
    """The pool is rebuilt a block of topics at a time and the relevant and judged
    entries are read a slice at a time (memory); one topic per block and slices of a few
    entries give the same pool, sources and uniques as one pass (Robust 2003)."""
    from yardstick.analysis.pool import reconstruction, relevant_sources, uniques
    from yardstick.analysis.pool.relevant_sources import earliest_ranks, relevance_by_rank
    from yardstick.analysis.pool.uniques import leave_out_uniques

    runs, qrels = robust03()
    index = build_judged_runs(runs, qrels)

    def everything():
        pool = reconstruct_pool(index, 125)
        return (pool, earliest_ranks(index, 125).frame, relevance_by_rank(index, 300),
                leave_out_uniques(index, 125, "group", pool=pool))

    one = everything()
    monkeypatch.setattr(reconstruction, "POOL_BLOCK", 1)
    monkeypatch.setattr(relevant_sources, "ENTRY_CHUNK", 7_777)
    monkeypatch.setattr(uniques, "MASK_CHUNK", 5_555)
    many = everything()
    for f in ("keys", "n_runs", "n_groups", "owner_run", "owner_group", "min_rank"):
        assert np.array_equal(getattr(one[0], f), getattr(many[0], f)), f
    pd.testing.assert_frame_equal(one[1], many[1])
    pd.testing.assert_frame_equal(one[2], many[2])
    pd.testing.assert_frame_equal(one[3].frame, many[3].frame)
    pd.testing.assert_frame_equal(one[3].per_unit, many[3].per_unit)
    assert len(one[0]) > 10_000 and one[1]["earliest_rank"].notna().sum() > 1_000
