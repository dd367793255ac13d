"""The measure glossary the Help menu shows (issue 28, "Help a newcomer finds"): computed in
core, one entry per registry measure, each with trec_eval's own name for it, a formula and
a paper."""

from __future__ import annotations

from yardstick.analysis.explain.glossary import (
    TREC_EVAL_TITLES,
    glossary,
    glossary_html,
    glossary_text,
)
from yardstick.analysis.explain.reference import reference_for
from yardstick.evaluation.measures.definition import TABLE_ORDER
from yardstick.evaluation.measures.registry import all_measures


def test_every_registry_measure_has_an_entry_in_trec_eval_order():
    names = [e.name for e in glossary()]
    assert names == [d.name for d in all_measures()]
    in_te = [n for n in names if n in TABLE_ORDER]
    assert in_te == sorted(in_te, key=TABLE_ORDER.index)


def test_trec_eval_names_cover_exactly_trec_evals_measure_table():
    # trec_eval 10.0's te_trec_measures (measures.c), the registry's TABLE_ORDER
    assert set(TREC_EVAL_TITLES) == set(TABLE_ORDER)
    for e in glossary():
        d = next(d for d in all_measures() if d.name == e.name)
        if d.trec_eval and e.name in TABLE_ORDER:
            assert e.trec_eval_title and e.trec_eval_source.startswith("m_"), e.name
        else:
            assert e.trec_eval_title == "" and e.trec_eval_source == "", e.name


def test_entries_carry_the_reference_formula_and_paper():
    for e in glossary():
        ref = reference_for(e.name)
        assert (e.formula, e.paper, e.definition) == (ref.formula, ref.source, ref.definition)
        assert e.paper, e.name
    ap = next(e for e in glossary() if e.name == "map")
    assert ap.trec_eval_title == "Mean Average Precision"
    assert "Buckley" in ap.paper and "i / r_i" in ap.formula


def test_search_and_renderings():
    hits = [e.name for e in glossary("discounted cumulative")]
    assert {"dcg", "ndcg", "ndcg_cut"} <= set(hits) and "map" not in hits
    assert glossary("no such measure at all") == []
    text = glossary_text()
    assert all(f"\n{e.name}" in "\n" + text for e in glossary())
    page = glossary_html("bpref")
    assert '<a name="bpref">' in page and "Main binary preference measure." in page
    assert "No measure matches" in glossary_html("zzzz qqqq")


def test_the_cli_prints_the_same_glossary(capsys):
    from yardstick.cli import main

    assert main(["explain", "--glossary", "--search", "reciprocal"]) == 0
    assert capsys.readouterr().out == glossary_text("reciprocal")
    assert main(["explain", "--glossary", "--search", "no such measure"]) == 1
    assert "no measure matches" in capsys.readouterr().err


def test_a_measure_trec_eval_made_up_is_not_given_a_source_file_as_its_paper():
    """The glossary's "Paper" row read `trec_eval m_ndcg_rel.c` (QA at 1280×800): nDCG's
    variants cite Järvelin & Kekäläinen; a measure with no paper says where it is defined."""
    by_name = {e.name: e for e in glossary()}
    for name in ("ndcg_rel", "Rndcg"):
        assert "Järvelin" in by_name[name].paper and by_name[name].paper_label == "Paper"
    assert "<b>Paper</b>" in glossary_html("ndcg_rel")
    # relstring is trec_eval's own (no paper): the entry says where it is defined
    assert by_name["relstring"].paper_label == "Defined in"
    assert "  defined in: trec_eval m_relstring.c" in by_name["relstring"].text()
    assert "Paper" not in glossary_html("relstring")
