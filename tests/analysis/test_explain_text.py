"""What an explanation says: ingredients, arithmetic and value on hand-worked cases,
and ``yardstick explain`` on the command line.

Values come from the TREC appendix "Common Evaluation Measures"
(the TREC proceedings appendix “Common Evaluation Measures”) or from hand counts written out
in each test.
"""

from __future__ import annotations

import math

import pytest

from yardstick.analysis.explain import ExplainError, explain, explain_all, spec_for_column
from yardstick.analysis.explain.topic_lesson import appendix_example
from yardstick.common.options import EvalOptions
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run


def test_average_precision_example_of_the_appendix():
    """§2.1 II.B: relevant at ranks 1, 2, 4 and 7; precisions 1, 1, 0.75, 0.57; AP 0.83."""
    run, qrels = appendix_example("average_precision")
    ex = explain(run, qrels, "map", "1")
    assert ex.ingredient("R") == 4
    assert ex.ingredient("rel_ranks") == (1, 2, 4, 7)
    assert [round(v, 2) for _, v in ex.terms] == [1.0, 1.0, 0.75, 0.57]
    assert round(ex.value, 2) == 0.83
    assert ex.value == pytest.approx((1 + 1 + 0.75 + 4 / 7) / 4)
    assert "1/1 + 2/2 + 3/4 + 4/7" in ex.steps[0]
    assert ex.steps[-1].endswith("= 0.8304")
    text = ex.to_text()
    assert "map = 0.8304" in text and "Buckley & Voorhees" in text
    md = ex.to_markdown()
    assert md.startswith("### map = 0.8304") and "| R (relevant documents in the qrels) | 4 |" in md


def test_r_precision_example_of_the_appendix():
    """§2.1 III.B: 17 relevant in the top 50 of 50 relevant; 7 in the top 10 of 10."""
    run, qrels = appendix_example("r_precision")
    one, two = explain(run, qrels, "Rprec", "1"), explain(run, qrels, "Rprec", "2")
    assert (one.value, two.value) == (17 / 50, 7 / 10)
    assert "Rprec = 17/50 = 0.3400" in one.steps
    assert (one.value + two.value) / 2 == pytest.approx(0.52)


def test_interpolation_example_with_both_trec_eval_rules():
    """§1: relevant at 1, 2, 4, 15 of 20: iprec(0.6) is .75 by the appendix's rule
    (trec_eval 9.0.8: (long)(0.6*4 + 0.9) = 3 relevant documents) and 1 in trec_eval 10.0
    (lround(2.4) = 2 relevant documents, precision 2/2)."""
    run, qrels = appendix_example("interpolation")
    v9 = explain(run, qrels, "iprec_at_recall_0.60", "1", EvalOptions(compat=9))
    v10 = explain(run, qrels, "iprec_at_recall.0.6", "1")
    assert v9.value == 0.75 and v10.value == 1.0
    assert "k = (long)(x + 0.9) = 3 relevant documents" in v9.steps[0]
    assert "k = lround = 2 relevant documents" in v10.steps[0]
    assert round(explain(run, qrels, "iprec_at_recall.0.8", "1", EvalOptions(compat=9)).value,
                 2) == 0.27


def test_bpref_hand_count():
    """Ranking n1 r1 n2 r2 u r3 (u not judged); qrels add n3 and r4 (not retrieved).
    R = 4, N = 3, min(N, R) = 3: terms 1 - 1/3, 1 - 2/3, 1 - 2/3 (u skipped) = 4/3; /4 = 1/3."""
    docs = ["n1", "r1", "n2", "r2", "u", "r3"]
    run = Run.from_dict({"q": {d: 10.0 - i for i, d in enumerate(docs)}})
    qrels = Qrels.from_dict({"q": {"n1": 0, "r1": 1, "n2": 0, "r2": 1, "r3": 1, "n3": 0,
                                   "r4": 1}})
    ex = explain(run, qrels, "bpref", "q")
    assert [t for _, t in ex.terms] == pytest.approx([2 / 3, 1 / 3, 1 / 3])
    assert ex.value == pytest.approx(1 / 3)
    assert ex.ingredient("nonpool_ret") == 1 and ex.ingredient("rel_missed") == 1


def test_ndcg_hand_count():
    """Grades 2, 0, 1 ranked; qrels: one grade 2, two grade 1, one grade 0.
    DCG = 2/log2(2) + 1/log2(4) = 2.5; IDCG = 2 + 1/log2(3) + 1/log2(4)."""
    run = Run.from_dict({"q": {"a": 3.0, "b": 2.0, "c": 1.0}})
    qrels = Qrels.from_dict({"q": {"a": 2, "b": 0, "c": 1, "d": 1}})
    ex = explain(run, qrels, "ndcg", "q")
    assert ex.value == pytest.approx(2.5 / (2 + 1 / math.log2(3) + 0.5))
    assert [t for _, t in ex.terms] == pytest.approx([2.0, 0.5])
    cut = explain(run, qrels, "ndcg_cut.2", "q")
    assert cut.value == pytest.approx(2.0 / (2 + 1 / math.log2(3)))
    assert cut.ingredient("cutoff") == 2


def test_precision_beyond_the_ranking_counts_missing_documents_as_non_relevant():
    run = Run.from_dict({"q": {"a": 2.0, "b": 1.0}})
    qrels = Qrels.from_dict({"q": {"a": 1, "b": 0, "c": 1}})
    ex = explain(run, qrels, "P_5", "q")
    assert ex.value == 1 / 5
    assert any("only 2 documents retrieved" in s for s in ex.steps)


def test_column_names_and_requests():
    assert spec_for_column("P_10") == "P.10"
    assert spec_for_column("map_cut_100") == "map_cut.100"
    assert spec_for_column("ndcg_cut_5") == "ndcg_cut.5"
    assert spec_for_column("iprec_at_recall_0.10") == "iprec_at_recall.0.10"
    assert spec_for_column("set_relative_P") == "set_relative_P"
    with pytest.raises(ExplainError):
        spec_for_column("nonsense_1")


def test_several_columns_need_explain_all():
    run, qrels = appendix_example("interpolation")
    with pytest.raises(ExplainError, match="gives 9 numbers"):
        explain(run, qrels, "P", "1")
    exps = explain_all(run, qrels, "P", "1")
    assert [e.measure for e in exps][:2] == ["P_5", "P_10"]
    assert [e.value for e in exps][:3] == [3 / 5, 3 / 10, 4 / 15]  # relevant at 1, 2, 4, 15


def test_unknown_topic_and_measure():
    run, qrels = appendix_example("interpolation")
    with pytest.raises(ExplainError, match="not evaluated"):
        explain(run, qrels, "map", "42")
    with pytest.raises(ExplainError, match="unknown measure"):
        explain(run, qrels, "nonsense", "1")


def test_missing_topic_under_complete():
    """-c: a qrels topic without run lines is ranked as one unjudged stand-in (trec_eval 10)."""
    run = Run.from_dict({"a": {"d1": 1.0}})
    qrels = Qrels.from_dict({"a": {"d1": 1}, "b": {"x": 1}})
    ex = explain(run, qrels, "map", "b", EvalOptions(complete=True))
    assert ex.value == 0.0 and ex.ingredient("R") == 1
    assert "stand-in" in ex.notes[0]
    assert explain(run, qrels, "num_ret", "b", EvalOptions(complete=True)).value == 0.0


def test_cli_explain(capsys, tmp_path):
    from yardstick.cli import main

    qrels = tmp_path / "q.txt"
    run = tmp_path / "r.txt"
    qrels.write_text("1 0 d01 1\n1 0 d02 0\n1 0 d03 1\n")
    run.write_text("1 Q0 d01 1 3.0 tag\n1 Q0 d02 2 2.0 tag\n1 Q0 d03 3 1.0 tag\n")
    assert main(["explain", "-m", "map", "-t", "1", str(qrels), str(run)]) == 0
    out = capsys.readouterr().out
    assert "map = 0.8333" in out and "1/1 + 2/3" in out
    assert main(["explain", "-m", "P_10", "-t", "9", str(qrels), str(run)]) == 1
    assert "not evaluated" in capsys.readouterr().err
    assert main(["explain", "--reference", "--search", "reciprocal"]) == 0
    assert "recip_rank" in capsys.readouterr().out
    assert main(["explain", "--example", "-m", "iprec_at_recall.0.6", "--compat", "9"]) == 0
    assert "iprec_at_recall_0.60 = 0.7500" in capsys.readouterr().out
    assert main(["explain", "--example", "--lesson"]) == 0
    assert "AP = 0.7542" in capsys.readouterr().out
    assert main(["explain", "--ties", "5", "-m", "map", str(qrels), str(run)]) == 0
    assert "0 of 3 retrieved documents share their score" in capsys.readouterr().out


def test_graded_qrels_formulas_sum_counts_of_relevant_documents_not_grades():
    """Issue 27: with grades 0/1/2 the AP formula read ``rel(rank d)/rank d`` and a student
    took rel() for the grade, while the terms are counts (the TREC appendix §2.1 II.B: "the
    precision value obtained after each relevant document is retrieved").  Grades 2, 1, 0, 2
    at ranks 1-4 and a fifth relevant document unretrieved: terms 1/1, 2/2, 3/4 (not 2/1, ...),
    AP = (1 + 1 + 0.75) / 4 at -l 1; at -l 2 only the grade-2 documents count: 1/1, 2/4."""
    import pandas as pd

    qrels = Qrels.from_frame(pd.DataFrame({
        "topic": ["1"] * 5, "docno": ["a", "b", "c", "d", "e"], "rel": [2, 1, 0, 2, 1]}))
    run = Run.from_arrays(["1"] * 4, ["a", "b", "c", "d"], [4.0, 3.0, 2.0, 1.0], name="r")
    ex = explain(run, qrels, "map", "1")
    assert ex.formula == "AP = (1/R) Σ_{relevant d retrieved} relret(rank d) / rank d"
    assert "rel(" not in ex.formula.replace("relret(", "")
    assert "1/1 + 2/2 + 3/4" in ex.steps[0]
    assert ex.value == pytest.approx((1 / 1 + 2 / 2 + 3 / 4) / 4)
    assert ex.notes[0] == ("relret(k) counts the relevant documents in ranks 1..k: those "
                           "judged 1 or higher (the relevance level, trec_eval -l 1); with "
                           "these graded qrels every grade at or above it counts 1, whatever "
                           "the grade.")
    strict = explain(run, qrels, "map", "1", options=EvalOptions(relevance_level=2))
    assert "1/1 + 2/4" in strict.steps[0]
    assert strict.value == pytest.approx((1 / 1 + 2 / 4) / 2)
    assert "judged 2 or higher (the relevance level, trec_eval -l 2)" in strict.notes[0]
    p5 = explain(run, qrels, "P.5", "1")
    assert p5.formula == "P@5 = relret(5) / 5" and p5.value == pytest.approx(3 / 5)
