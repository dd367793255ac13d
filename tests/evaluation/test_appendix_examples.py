"""The worked examples of the TREC "Common Evaluation Measures" appendix.

Paper: the TREC proceedings appendix “Common Evaluation Measures” (TREC appendix, section 1
"Common Evaluation Measures" and section 2.1 "trec_eval Evaluation Report").

1. Section 1, interpolation example: "a document collection has 20 documents,
   four of which are relevant to topic t ... the system ranks the relevant
   documents first, second, fourth, and fifteenth.  The exact recall points are
   0.25, 0.5, 0.75, and 1.0" -- so R = 4 (all relevant retrieved) and the
   ranking covers the 20 documents.  "the interpolated precision for all
   standard recall levels up to .5 is 1, ... for recall levels .6 and .7 is
   .75, and ... for recall levels .8 or greater is .27" (= 4/15).
   That is the classic rule, which trec_eval 9.0.8 implements with cutoff
   ``(long)(level * R + 0.9)`` relevant documents.  trec_eval 10.0 switched to
   ``lround(level * R)`` (``m_iprec_at_recall.c``): with R = 4, level 0.6 needs
   lround(2.4) = 2 relevant (precision 1.0 instead of 0.75) and level 0.8 needs
   lround(3.2) = 3 (0.75 instead of 0.27).  Both behaviours are asserted: the
   paper's numbers with ``compat=9``, trec_eval 10.0's with the default.
2. Section 2.1 II.B: "four relevant documents which are retrieved at ranks 1,
   2, 4, and 7.  The actual precision ... is 1, 1, 0.75, and 0.57 ... the mean
   of which is 0.83."
3. Section 2.1 III.B: "two topics, one with 50 relevant documents and another
   with 10 ... returns 17 relevant documents in the top 50 documents for the
   first topic, and 7 relevant documents in the top 10 for the second topic,
   then the run's R-Precision would be (17/50 + 7/10)/2 or 0.52."
"""

from __future__ import annotations

import pytest

from yardstick.common.options import EvalOptions
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run

LEVELS = [f"iprec_at_recall_{x / 10:.2f}" for x in range(11)]


def ranked(topic: str, n: int, relevant_ranks: set[int], extra_relevant: int = 0):
    """Run of n documents (rank i has score n - i) and its qrels: relevant at the given
    ranks, all other retrieved documents judged non-relevant, plus ``extra_relevant``
    relevant documents that are never retrieved."""
    run = {topic: {f"{topic}-d{i:03d}": float(n - i) for i in range(1, n + 1)}}
    qrels = {topic: {f"{topic}-d{i:03d}": int(i in relevant_ranks) for i in range(1, n + 1)}}
    qrels[topic].update({f"{topic}-unretrieved{k}": 1 for k in range(extra_relevant)})
    return run, qrels


def evaluate(run: dict, qrels: dict, measures, compat: int = 10):
    from yardstick.evaluation.evaluation_service import evaluate_run as ev
    return ev(Run.from_dict(run, name="example"), Qrels.from_dict(qrels), measures,
              EvalOptions(compat=compat))


@pytest.fixture
def interpolation_example():
    return ranked("t", 20, {1, 2, 4, 15})


def test_interpolation_example_exact_recall_points(interpolation_example):
    run, qrels = interpolation_example
    ev = evaluate(run, qrels, ["recall.1,2,4,15", "P.1,2,4,15", "num_rel"])
    row = ev.per_topic.loc["t"]
    assert row["num_rel"] == 4
    assert [row[f"recall_{k}"] for k in (1, 2, 4, 15)] == pytest.approx([0.25, 0.5, 0.75, 1.0])
    assert [row[f"P_{k}"] for k in (1, 2, 4, 15)] == pytest.approx([1, 1, 0.75, 4 / 15])


def test_interpolation_example_as_printed_in_the_paper_with_compat_9(interpolation_example):
    run, qrels = interpolation_example
    ev = evaluate(run, qrels, ["iprec_at_recall"], compat=9)
    got = [float(ev.per_topic.loc["t", m]) for m in LEVELS]
    paper = [1.0] * 6 + [0.75, 0.75] + [0.27] * 3          # levels 0.0 .. 1.0
    assert [round(v, 2) for v in got] == paper
    assert got[8:] == pytest.approx([4 / 15] * 3)
    assert [float(ev.summary[m]) for m in LEVELS] == pytest.approx(got)


def test_interpolation_example_under_trec_eval_10_lround(interpolation_example):
    run, qrels = interpolation_example
    ev = evaluate(run, qrels, ["iprec_at_recall"], compat=10)
    got = [float(ev.per_topic.loc["t", m]) for m in LEVELS]
    # lround(level * 4) relevant docs: 0,0,1,1,2,2,2,3,3,4,4  (0.5 rounds away from zero)
    want = [1.0] * 7 + [0.75, 0.75] + [4 / 15] * 2
    assert got == pytest.approx(want)


@pytest.mark.parametrize("compat", [9, 10])
def test_average_precision_example(compat):
    run, qrels = ranked("q", 10, {1, 2, 4, 7})
    ev = evaluate(run, qrels, ["map", "P.1,2,4,7"], compat=compat)
    row = ev.per_topic.loc["q"]
    assert [round(float(row[f"P_{k}"]), 2) for k in (1, 2, 4, 7)] == [1, 1, 0.75, 0.57]
    assert round(float(row["map"]), 2) == 0.83
    assert float(row["map"]) == pytest.approx((1 + 1 + 0.75 + 4 / 7) / 4)
    assert float(ev.summary["map"]) == pytest.approx((1 + 1 + 0.75 + 4 / 7) / 4)


@pytest.mark.parametrize("compat", [9, 10])
def test_r_precision_example(compat):
    # topic A: R = 50; 17 relevant in the top 50 (every third rank from 1), 20 more
    # relevant at ranks 51..70, 13 never retrieved.
    ranks_a = set(range(1, 51, 3)) | set(range(51, 71))
    assert len(set(range(1, 51, 3))) == 17 and len(ranks_a) == 37
    run_a, qrels_a = ranked("A", 100, ranks_a, extra_relevant=13)
    # topic B: R = 10; 7 relevant in the top 10, 3 never retrieved.
    run_b, qrels_b = ranked("B", 30, {1, 2, 3, 5, 6, 8, 10}, extra_relevant=3)
    ev = evaluate({**run_a, **run_b}, {**qrels_a, **qrels_b}, ["Rprec", "num_rel"],
                  compat=compat)
    assert ev.per_topic.loc["A", "num_rel"] == 50 and ev.per_topic.loc["B", "num_rel"] == 10
    assert float(ev.per_topic.loc["A", "Rprec"]) == pytest.approx(17 / 50)
    assert float(ev.per_topic.loc["B", "Rprec"]) == pytest.approx(7 / 10)
    assert float(ev.summary["Rprec"]) == pytest.approx(0.52)
