"""The topic explorer's data (yardstick.analysis.explain.topic_lesson) and the measure reference.

The default lesson is the TREC appendix's interpolation example
(the TREC proceedings appendix “Common Evaluation Measures” §1): 20 documents, 4 relevant at
ranks 1, 2, 4 and 15; "the exact recall points are 0.25, 0.5, 0.75, and 1.0";
interpolated precision 1 up to .5, .75 at .6 and .7, .27 from .8.
"""

from __future__ import annotations

import numpy as np
import pytest

from yardstick.analysis.explain.reference import measure_reference, search_measures, tooltip
from yardstick.analysis.explain.topic_lesson import default_lesson, tie_groups, topic_lesson
from yardstick.common.options import EvalOptions
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run


def test_default_lesson_is_the_appendix_example():
    lesson = default_lesson()
    f = lesson.ranked
    assert lesson.R == 4 and lesson.num_ret == 20 and lesson.rel_ret == 4
    assert f.loc[f["relevant"], "rank"].tolist() == [1, 2, 4, 15]
    assert lesson.rp_points["recall"].tolist() == [0.25, 0.5, 0.75, 1.0]
    assert lesson.rp_points["precision"].tolist() == pytest.approx([1, 1, 0.75, 4 / 15])
    paper = [1.0] * 6 + [0.75, 0.75] + [0.27] * 3
    assert [round(v, 2) for v in lesson.interpolated["appendix"]] == paper
    # trec_eval 10.0's lround rule differs at 0.6 and 0.8 (see test_appendix_examples)
    assert lesson.interpolated["trec_eval"].tolist()[6] == 1.0
    assert lesson.interpolated["trec_eval"].tolist()[8] == 0.75
    # with --compat 9 trec_eval reproduces the appendix
    v9 = default_lesson(EvalOptions(compat=9)).interpolated
    assert np.allclose(v9["trec_eval"], v9["appendix"])
    assert lesson.ap == pytest.approx((1 + 1 + 0.75 + 4 / 15) / 4)
    assert np.nansum(f["ap_term"]) / lesson.R == pytest.approx(lesson.ap)
    assert f["precision"].tolist()[2] == pytest.approx(2 / 3)
    assert f["recall"].tolist()[14] == 1.0
    assert lesson.num_ties == 0 and lesson.missed == ()


def test_curve_builds_up_rank_by_rank():
    lesson = default_lesson()
    # after 4 documents three relevant were seen: recall up to .75, precision max 1 then .75
    assert lesson.interpolated_at(upto=4).tolist() == [1.0] * 6 + [0.75, 0.75, 0, 0, 0]
    assert len(lesson.points_up_to(14)) == 3 and len(lesson.points_up_to(15)) == 4
    x, y = lesson.interpolated_curve()
    # the step curve: 1 on [0, .5], .75 on (.5, .75], 4/15 on (.75, 1]
    assert x.tolist() == [0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1.0]
    assert y.tolist() == pytest.approx([1, 1, 1, 1, 0.75, 0.75, 4 / 15, 4 / 15])
    # built from the first 4 documents only, it drops to 0 after recall .75
    x4, y4 = lesson.interpolated_curve(upto=4)
    assert x4.tolist()[-2:] == [0.75, 1.0] and y4.tolist()[-2:] == [0.0, 0.0]


def test_tie_groups_and_trec_eval_order():
    """a 2.0; b, c, d tied at 1.0; e 0.5: trec_eval puts the tie in docno descending
    order (d, c, b), whatever the file's rank column says."""
    run = Run.from_arrays(["q"] * 5, ["a", "b", "c", "d", "e"], [2.0, 1.0, 1.0, 1.0, 0.5],
                          name="r", rank=[1, 2, 3, 4, 5])
    qrels = Qrels.from_dict({"q": {"b": 1, "e": 0}})
    lesson = topic_lesson(run, qrels, "q")
    f = lesson.ranked
    assert f["docno"].tolist() == ["a", "d", "c", "b", "e"]
    assert f["file_rank"].tolist() == [1, 4, 3, 2, 5]
    assert f["tie_group"].tolist() == [1, 2, 2, 2, 3]
    assert f["tie_size"].tolist() == [1, 3, 3, 3, 1]
    assert f["tie_pos"].tolist() == [1, 1, 2, 3, 1]
    assert f["status"].tolist() == ["unjudged", "unjudged", "unjudged", "relevant",
                                    "non-relevant"]
    assert lesson.num_ties == 3
    assert lesson.ap == 1 / 4  # the only relevant document at rank 4


def test_tie_groups_compare_as_c_floats_with_compat_9():
    g10, _, _ = tie_groups(np.array([1.0, 1.0 - 1e-12, 0.5]), compat=10)
    g9, size9, _ = tie_groups(np.array([1.0, 1.0 - 1e-12, 0.5]), compat=9)
    assert g10.tolist() == [1, 2, 3] and g9.tolist() == [1, 1, 2] and size9.tolist() == [2, 2, 1]


def test_missed_relevant_documents():
    run = Run.from_dict({"q": {"a": 2.0, "b": 1.0}})
    qrels = Qrels.from_dict({"q": {"a": 1, "x": 1, "y": 2, "z": 0}})
    lesson = topic_lesson(run, qrels, "q")
    assert lesson.missed == ("x", "y")
    assert lesson.ap == pytest.approx(1 / 3)


def test_reference_lists_every_registry_measure():
    from yardstick.evaluation.measures.registry import all_measures

    ref = {r.name: r for r in measure_reference()}
    assert set(ref) == {d.name for d in all_measures()}
    assert ref["P"].ir_measures == "P@k" and ref["P"].ranx == "precision@k"
    assert ref["P"].trec_eval_name.startswith("P_<k>")
    assert ref["map_worst"].trec_eval_name.startswith("(Yardstick only")
    assert ref["ndcg_cut"].formula.startswith("nDCG@k")
    assert "Moffat & Zobel" in ref["rbp"].source
    assert ref["num_rel"].summary == "sum over topics"
    assert ref["gm_map"].summary == "geometric mean over topics"


def test_search_and_tooltips():
    assert search_measures("recip_rank")[0].name == "recip_rank"
    names = [r.name for r in search_measures("interpolated precision")]
    assert "iprec_at_recall" in names and "11pt_avg" in names
    assert {r.name for r in search_measures("geometric mean")} == {"gm_map", "gm_bpref"}
    assert search_measures("no such words here") == []
    tip = tooltip("P_10")
    assert tip.startswith("P_10: Precision") and "[k = 10]" in tip and "P@k = relret(k) / k" in tip
    assert tooltip("not_a_measure") == "not_a_measure"
