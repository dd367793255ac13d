"""One table of a topic's ranked documents (explain.topic_data.ranked_documents) for the Topic
panel and the topic explorer: the judged ranking's order and its one code for "unjudged"."""

from __future__ import annotations

import pandas as pd

from yardstick.analysis.explain.topic_data import ranked_documents, topic_documents
from yardstick.analysis.explain.topic_lesson import lesson_from_judged
from yardstick.common.options import EvalOptions
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.judged import NONPOOL, UNJUDGED, build_judged_ranking


def _inputs():
    # topic 1: d1..d5 scored 5..1 with a tie (d3, d4 at 3.0: trec_eval ranks d4 first);
    # topic 2 has no judgments
    run = Run.from_frame(pd.DataFrame({
        "topic": ["1"] * 5 + ["2"] * 2,
        "docno": ["d1", "d2", "d3", "d4", "d5", "x1", "x2"],
        "score": [5.0, 4.0, 3.0, 3.0, 1.0, 2.0, 1.0]}), name="r")
    qrels = Qrels.from_frame(pd.DataFrame({"topic": ["1", "1", "1", "1"],
                                           "docno": ["d1", "d2", "d4", "d9"],
                                           "rel": [2, 0, -1, 1]}))
    return run, qrels


def test_codes_status_and_order_follow_the_judged_ranking():
    run, qrels = _inputs()
    docs = ranked_documents(build_judged_ranking(run, qrels), "1")
    assert docs["docno"].tolist() == ["d1", "d2", "d4", "d3", "d5"]
    assert docs["rel"].tolist() == [2, 0, UNJUDGED, NONPOOL, NONPOOL]
    assert docs["status"].tolist() == ["relevant", "non-relevant", "pooled, unjudged",
                                       "unjudged", "unjudged"]
    assert docs["judged"].tolist() == [True, True, False, False, False]
    assert docs["relevant"].tolist() == [True, False, False, False, False]


def test_the_explorer_lesson_shows_the_same_documents():
    run, qrels = _inputs()
    for opts in (EvalOptions(), EvalOptions(relevance_level=2), EvalOptions(max_docs=3)):
        jr = build_judged_ranking(run, qrels, opts)
        panel = topic_documents(run, qrels, "1", opts)
        lesson = lesson_from_judged(jr, "1").ranked
        cols = ["rank", "docno", "score", "rel", "status", "judged", "relevant"]
        pd.testing.assert_frame_equal(panel[cols], lesson[cols])


def test_a_topic_without_judgments_is_listed_unjudged():
    run, qrels = _inputs()
    docs = topic_documents(run, qrels, "2")
    assert docs["docno"].tolist() == ["x1", "x2"]
    assert docs["rel"].tolist() == [NONPOOL, NONPOOL]
    assert set(docs["status"]) == {"unjudged"}
    assert topic_documents(run, None, "1")["docno"].tolist() == ["d1", "d2", "d4", "d3", "d5"]
    assert topic_documents(run, qrels, "no such topic").empty


def test_a_judged_topic_the_run_lacks_lists_nothing():
    run, qrels = _inputs()
    qrels = Qrels.from_frame(pd.concat([qrels.frame, pd.DataFrame(
        {"topic": ["3"], "docno": ["z"], "rel": [1]})]))
    assert topic_documents(run, qrels, "3").empty
