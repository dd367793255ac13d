"""titlestat (Buckley et al. 2007): hand-counted sets, then Cranfield checked by direct count."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from pool_fixtures import HAND_DOCS, HAND_TOPICS, hand_qrels, hand_runs

from yardstick.analysis.pool.text import ENGLISH_STOPWORDS, TextOptions
from yardstick.analysis.pool.titlestat import (
    build_title_index,
    compare_judgment_sets,
    titlestat,
    titlestat_rel,
)
from yardstick.analysis.pool.titlestat_pool import titlestat_rank, titlestat_runs, titlestat_uniques
from yardstick.inputs.qrels import Qrels
from yardstick.judging.judged_runs_build import build_judged_runs


@pytest.fixture(scope="module")
def tindex():
    return build_title_index(HAND_DOCS, HAND_TOPICS)


def test_title_words_and_document_frequencies(tindex):
    # "and" is a stop word; case is folded
    assert tindex.title_words("1") == ["apple", "banana"]
    assert tindex.title_words("2") == ["durian", "pie"]
    df = dict(zip(tindex.terms, tindex.df))
    # apple: d1 d2 d5 d7 e7; banana: d1 d4 d7; durian: d6 e1 e4; pie: d5 e2 e4 e5
    assert df == {"apple": 5, "banana": 3, "durian": 3, "pie": 4}


def test_hand_titlestat_rel(tindex):
    r = titlestat_rel(tindex, hand_qrels())
    # topic 1, C = {d1 d4 d6 d7}: apple in d1 d7 -> 2/min(4,5); banana in d1 d4 d7 -> 3/min(4,3)
    assert r.per_topic.loc["1", "titlestat"] == pytest.approx((2 / 4 + 3 / 3) / 2)
    # topic 2, C = {e1 e5 e8}: durian in e1 -> 1/min(3,3); pie in e5 -> 1/min(3,4)
    assert r.per_topic.loc["2", "titlestat"] == pytest.approx((1 / 3 + 1 / 3) / 2)
    assert r.mean == pytest.approx((0.75 + 1 / 3) / 2)
    assert r.per_topic["docs"].tolist() == [4, 3]


def test_multiplicity_unknown_documents_and_absent_words(tindex):
    # C = [d1, d1, d3]: with multiplicity |C| = 3, apple 2/min(3,5), banana 2/min(3,3)
    r = titlestat(tindex, {"1": ["d1", "d1", "d3"]}, multiplicity=True)
    assert r.per_topic.loc["1", "titlestat"] == pytest.approx(2 / 3)
    # as a set: C = {d1, d3}: apple 1/2, banana 1/2
    assert titlestat(tindex, {"1": ["d1", "d1", "d3"]}).mean == pytest.approx(0.5)
    # a document the collection lacks is skipped and counted
    r = titlestat(tindex, {"1": ["d1", "zz"]})
    assert r.per_topic.loc["1", "missing_docs"] == 1 and r.mean == pytest.approx(1.0)
    # a title word no document contains (df 0) leaves the average
    ti = build_title_index(HAND_DOCS, pd.DataFrame({"topic": ["9"], "title": ["apple zebra"]}))
    r = titlestat(ti, {"9": ["d1", "d3"]})           # apple: 1/min(2,5)
    assert r.mean == pytest.approx(0.5) and r.per_topic.loc["9", "title_words"] == 1


def test_text_options_are_honoured():
    docs = {"x": "Running runners RUN", "y": "the run"}
    topics = pd.DataFrame({"topic": ["1"], "title": ["The Run"]})
    keep = build_title_index(docs, topics, TextOptions(stopwords=None))
    assert keep.title_words("1") == ["the", "run"]
    case = build_title_index(docs, topics, TextOptions(lowercase=False))
    assert case.title_words("1") == ["Run"]           # "The" is a stop word in any case
    assert dict(zip(case.terms, case.df)) == {"Run": 0}
    pytest.importorskip("Stemmer")
    stem = build_title_index(docs, topics, TextOptions(stemmer="porter"))
    # porter: running -> run, runners -> runner, run -> run
    assert dict(zip(stem.terms, stem.df)) == {"run": 2}


def test_hand_titlestat_of_runs_uniques_and_ranks(tindex):
    pindex = build_judged_runs(hand_runs(), hand_qrels())
    runs = titlestat_runs(tindex, pindex)
    # A retrieved {d1 d2 d3}: apple 2/3, banana 1/3 -> 1/2; {e2 e1 e3}: durian 1/3, pie 1/3
    assert runs.loc["A", "titlestat"] == pytest.approx((0.5 + 1 / 3) / 2)
    u = titlestat_uniques(tindex, pindex, 2, "group")
    # G1's unique relevant: d4 (apple 0, banana 1/1) and e5 (durian 0, pie 1/1)
    assert u.loc["G1", "titlestat"] == pytest.approx(0.5)
    assert u.loc["G1", "unique_relevant"] == 2
    # G2's: d6 (neither apple nor banana)
    assert u.loc["G2", "titlestat"] == pytest.approx(0.0)
    assert u.loc["all relevant", "titlestat"] == pytest.approx((0.75 + 1 / 3) / 2)
    tr = titlestat_rank(tindex, pindex, max_rank=2, pool_depth=2)
    # rank 1: topic 1 {d1 d2 d6}: apple 2/3, banana 1/3; topic 2 {e2 e4 e1}: durian 2/3, pie 2/3
    # rank 2: topic 1 {d2 d4 d1}: apple 2/3, banana 2/3; topic 2 {e1 e5 e6}: 1/3, 1/3
    assert tr.frame["titlestat"].to_numpy() == pytest.approx([(0.5 + 2 / 3) / 2,
                                                              (2 / 3 + 1 / 3) / 2])
    assert tr.frame["p_rel"].to_numpy() == pytest.approx([0.5, 2 / 3])
    assert tr.pool_depth == 2


def test_compare_two_judgment_sets(tindex):
    a = hand_qrels()
    # b: topic 1 relevant {d2, d3} -> apple 1/2, banana 0 -> 1/4; topic 2 {e4} -> 1, 1 -> 1
    b = Qrels.from_frame(pd.DataFrame({"topic": ["1", "1", "2"], "docno": ["d2", "d3", "e4"],
                                       "rel": [1, 1, 1]}), name="b")
    c = compare_judgment_sets(tindex, a, b)
    pt = c.per_topic
    assert pt["a"].to_numpy() == pytest.approx([0.75, 1 / 3])
    assert pt["b"].to_numpy() == pytest.approx([0.25, 1.0])
    assert pt["diff"].to_numpy() == pytest.approx([0.5, -2 / 3])
    assert pt["num_rel_a"].tolist() == [4, 3] and pt["num_rel_b"].tolist() == [2, 1]
    assert c.a_higher == 1
    # paired t on differences (0.5, -2/3): mean -1/12, sd = |0.5 + 2/3| / sqrt(2), n = 2
    d = np.array([0.5, -2 / 3])
    t = d.mean() / (abs(d[0] - d[1]) / np.sqrt(2) / np.sqrt(2))
    assert c.t_statistic == pytest.approx(t)


def _words(text):
    return [w for w in re.findall(r"[^\W_]+", text.lower()) if w not in ENGLISH_STOPWORDS]


def test_cranfield_titlestat_rel_by_direct_count():
    from tests.sample_collections import cranfield_root
    from yardstick.inputs.collections.classic import load_classic

    coll = load_classic("cranfield", cranfield_root())   # real, or rebuilt from the sample
    ti = build_title_index(coll.documents, coll.topics)
    r = titlestat_rel(ti, coll.qrels)
    doc_words = {d: set(_words(t)) for d, t in coll.documents.items()}
    titles = dict(zip(coll.topics["topic"], coll.topics["title"]))
    qf = coll.qrels.frame
    for topic in ("1", "2", "100"):
        rel = list(qf[(qf["topic"] == topic) & (qf["rel"] >= 1)]["docno"])
        ratios = []
        for w in dict.fromkeys(_words(titles[topic])):
            df = sum(1 for ws in doc_words.values() if w in ws)
            if df == 0:
                continue
            ratios.append(sum(1 for d in rel if w in doc_words[d]) / min(len(rel), df))
        assert r.per_topic.loc[topic, "titlestat"] == pytest.approx(np.mean(ratios), abs=1e-12)
        assert r.per_topic.loc[topic, "docs"] == len(rel)
    assert 0 < r.mean < 1
