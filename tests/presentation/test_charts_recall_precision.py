"""Recall-precision chart data against the TREC appendix and trec_eval's golden outputs."""

import numpy as np
import pytest
from pytrec_evaluations import ROBUST03, pytrec_evaluations

from tests.shared_data import data_dir
from yardstick.common.options import EvalOptions
from yardstick.inputs.io import read_qrels, read_run
from yardstick.presentation.charts.recall_precision import (
    RECALL_LEVELS,
    iprec_column,
    recall_precision_curves,
    topic_recall_precision,
    topic_recall_precision_of_run,
)

TE = data_dir("trec_eval_tests")


def golden(path):
    """trec_eval -q output as {(measure, topic): value}."""
    out = {}
    for line in path.read_text().splitlines():
        m, t, v = line.split()
        out[(m, t)] = v
    return out


def test_appendix_worked_example():
    # appendix §1: 20 documents, relevant ones ranked 1st, 2nd, 4th and 15th
    rel = np.isin(np.arange(1, 21), [1, 2, 4, 15])
    trp = topic_recall_precision(rel, num_rel=4)
    # "The exact recall points are 0.25, 0.5, 0.75, and 1.0"
    assert trp.recall.tolist() == [0.25, 0.5, 0.75, 1.0]
    assert trp.precision.tolist() == pytest.approx([1, 1, 0.75, 4 / 15])
    # "up to .5 is 1, … .6 and .7 is .75, … .8 or greater is .27"
    assert trp.interpolated[:6].tolist() == [1.0] * 6
    assert trp.interpolated[6:8].tolist() == [0.75, 0.75]
    assert np.round(trp.interpolated[8:], 2).tolist() == [0.27, 0.27, 0.27]
    # the dashed step curve: 1 up to recall .5, .75 to .75, 4/15 to 1
    assert trp.step_recall.tolist() == [0, .25, .25, .5, .5, .75, .75, 1.0]
    assert trp.step_precision.tolist() == pytest.approx([1, 1, 1, 1, .75, .75, 4 / 15, 4 / 15])
    frame = trp.to_frame()
    assert (frame["series"] == "actual").sum() == 4
    assert (frame["series"] == "interpolated").sum() == 11


def test_appendix_average_precision_example():
    # appendix §2.1-II B: relevant at ranks 1, 2, 4, 7 -> 1, 1, 0.75, 0.57; mean 0.83
    rel = np.isin(np.arange(1, 11), [1, 2, 4, 7])
    trp = topic_recall_precision(rel, num_rel=4)
    assert np.round(trp.precision, 2).tolist() == [1, 1, 0.75, 0.57]
    assert round(trp.average_precision, 2) == 0.83


def test_trec_eval_rules_on_the_example():
    # trec_eval 9.0.8 rounds λR up like the appendix; 10.0 uses lround (m_iprec_at_recall.c):
    # /tmp/te/trec_eval on this example prints 1.0 at 0.60 and 0.75 at 0.80-0.90
    rel = np.isin(np.arange(1, 21), [1, 2, 4, 15])
    v9 = topic_recall_precision(rel, 4, rule="trec_eval", compat=9).interpolated
    v10 = topic_recall_precision(rel, 4, rule="trec_eval", compat=10).interpolated
    assert np.round(v9, 4).tolist() == [1] * 6 + [0.75] * 2 + [0.2667] * 3
    assert np.round(v10, 4).tolist() == [1] * 7 + [0.75] * 2 + [0.2667] * 2


def test_no_relevant_retrieved():
    trp = topic_recall_precision(np.zeros(5, bool), num_rel=3)
    assert trp.interpolated.tolist() == [0.0] * 11
    assert trp.average_precision == 0.0


@pytest.mark.parametrize("version,compat,flags,results", [
    ("v10.0_HEAD", 10, "aq", "results.test"),
    ("v9.0.8", 9, "aq", "results.test"),
    ("v10.0_HEAD", 10, "aqcM", "results.trunc"),
])
def test_one_topic_curve_equals_trec_eval_golden(version, compat, flags, results):
    d = TE / version
    if not d.exists():
        pytest.skip("trec_eval test data absent")
    run = read_run(d / results)
    qrels = read_qrels(d / "qrels.test")
    options = EvalOptions(compat=compat, complete="c" in flags,
                          max_docs=100 if "M" in flags else None)
    gold = golden(d / f"out.test.{flags}")
    topics = sorted({t for (m, t) in gold if m == "map" and t != "all"})
    assert len(topics) == 3
    for topic in topics:
        trp = topic_recall_precision_of_run(run, qrels, topic, options, rule="trec_eval")
        got = [f"{v:.4f}" for v in trp.interpolated]
        assert got == [gold[(iprec_column(lv), topic)] for lv in RECALL_LEVELS], topic
        assert f"{trp.average_precision:.4f}" == gold[("map", topic)]
        assert str(trp.num_rel) == gold[("num_rel", topic)]


@pytest.fixture(scope="module")
def robust_evals():
    qrels = read_qrels(ROBUST03 / "qrels" / "robust03_qrels.txt")
    runs = [read_run(ROBUST03 / "runs" / f"input.{n}.gz")
            for n in ("aplrob03a", "UIUC03Rd1", "NLPR03vb10")]
    return pytrec_evaluations(runs, qrels, {"map", "iprec_at_recall"})


def test_averaged_curves_equal_iprec_means(robust_evals):
    curves = recall_precision_curves(robust_evals)
    assert curves.runs == ("input.aplrob03a", "input.UIUC03Rd1", "input.NLPR03vb10")
    for i, name in enumerate(curves.runs):
        pt = robust_evals[name].per_topic
        want = [pt[iprec_column(lv)].mean() for lv in RECALL_LEVELS]
        assert curves.precision[i] == pytest.approx(want, abs=1e-12)
        assert curves.map[i] == pytest.approx(pt["map"].mean())
    frame = curves.to_frame()
    assert frame.shape == (11, 3) and frame.index[3] == 0.3
    # a topic group averages over just those topics
    group = ["303", "307", "310"]
    sub = recall_precision_curves(robust_evals, runs=["input.UIUC03Rd1"], topics=group)
    pt = robust_evals["input.UIUC03Rd1"].per_topic.loc[group]
    assert sub.precision[0, 0] == pytest.approx(pt[iprec_column(0.0)].mean())


def test_averaged_curve_equals_trec_eval_all_line():
    # pytrec_eval interpolates as trec_eval 9.0.8 does ((long)(λR + 0.9)), so its means
    # reproduce 9.0.8's "all" line (10.0 prints 0.0858, not 0.0822, at recall 0.6)
    d = TE / "v9.0.8"
    if not d.exists():
        pytest.skip("trec_eval test data absent")
    evs = pytrec_evaluations([read_run(d / "results.test")], read_qrels(d / "qrels.test"),
                             {"iprec_at_recall"})
    gold = golden(d / "out.test.aq")
    curves = recall_precision_curves(evs)
    assert [f"{v:.4f}" for v in curves.precision[0]] == [
        gold[(iprec_column(lv), "all")] for lv in RECALL_LEVELS]
    assert curves.map is None
