"""The explanation's arithmetic reproduces every registry measure (issue 8, "Proof").

For every measure with an explainer (the whole registry but the preference and
judgment-group measures, which need ``-R prefs`` / ``-R qrels_jg``), the value
the explanation computes in plain Python from the topic's ranked list is
compared with :func:`yardstick.evaluation.evaluation_service.evaluate_run` on sample topics of

* trec_eval's own test collection (``tests/data/trec_eval_tests/v10.0_HEAD``:
  ``qrels.test`` + ``results.test``, binary; ``qrels.rel_level``, grades 0-4 and
  -1 = pooled unjudged, evaluated with ``-l 1`` and ``-l 2``; ``results.trunc``
  with ``-c`` and ``-M``),
* the TREC 2003 robust track (official qrels with grades 0/1/2 and the real run
  aplrob03a; without ``../shared``, the generated track with the same layout and
  grades, :mod:`tests.generated_track`),

and, independently of the engine, with the values trec_eval 10.0 printed in
its golden outputs (``out.test.aql``: ``-m all_trec -q -l2 qrels.rel_level``;
``out.test.meas_params``: the parameterised measures), for topic 301.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.shared_data import data_dir, robust03_dir
from yardstick.analysis.explain import explain_judged, explainable_measures
from yardstick.common.options import EvalOptions

TE = data_dir("trec_eval_tests") / "v10.0_HEAD"
ROBUST = robust03_dir()      # the real runs, or the generated track with their layout

PARAMETERISED = ["iprec_at_recall.0.10,0.20,0.25,0.75,0.50", "P.5,7,3", "recall.20,2000",
                 "Rprec_mult.5.0,0.2,0.35", "utility.2,-1,0,0", "11pt_avg.0.25,0.5,0.75",
                 "ndcg.1=3,2=9,4=4.5", "ndcg_cut.10,20,23", "success.2,5,20", "rbp.p=0.5",
                 "G.1=3,2=9,4=4.5", "ndcg_rel.1=3,2=9,4=4.5", "Rndcg.1=3,2=9,4=4.5",
                 "rbp.1=3,2=9,4=4.5", "set_F.0.5", "relstring.20", "map_worst.2", "area.2",
                 "dcg.1=3,2=9", "ideal_dcg"]

CASES = {
    "test": ("qrels.test", "results.test", EvalOptions()),
    "rel_level": ("qrels.rel_level", "results.test", EvalOptions()),
    "rel_level_l2": ("qrels.rel_level", "results.test", EvalOptions(relevance_level=2)),
    "trunc_c_M": ("qrels.rel_level", "results.trunc",
                  EvalOptions(complete=True, max_docs=20, num_docs_in_coll=5000)),
    "compat9_J": ("qrels.rel_level", "results.test", EvalOptions(compat=9, judged_only=True)),
    "robust03": (None, None, EvalOptions()),
}


def _load(case: str):
    from yardstick.inputs.io import read_qrels, read_run

    qname, rname, opts = CASES[case]
    if qname is None:
        return (read_qrels(ROBUST / "qrels" / "robust03_qrels.txt"),
                read_run(ROBUST / "runs" / "input.aplrob03a.gz"), opts)
    if not TE.exists():
        pytest.skip("trec_eval test data not present")
    return read_qrels(TE / qname), read_run(TE / rname), opts


_EVALS: dict = {}


def _evaluation(case: str, specs: tuple):
    from yardstick.evaluation.evaluation_service import evaluate_run

    key = (case, specs)
    if key not in _EVALS:
        qrels, run, opts = _load(case)
        _EVALS[key] = evaluate_run(run, qrels, list(specs), opts)
    return _EVALS[key]


def _same(got, want) -> bool:
    if isinstance(got, str) or isinstance(want, str):
        return got == want
    if math.isnan(want):
        return math.isnan(got)
    return math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-14)


def _check(ev, spec: str, topics) -> int:
    jr = ev.judged
    all_topics = [str(t) for t in jr.topics.tolist()]
    checked = 0
    for topic in topics:
        ti = all_topics.index(topic)
        for ex in explain_judged(jr, spec, topic):
            if ex.level == "run":
                want = ev.runid if ex.measure == "runid" else float(ev.summary[ex.measure])
            else:
                col = next(c for c in ev.columns if c.name == ex.measure)
                want = col.values[ti]
            assert _same(ex.value, want), (spec, topic, ex.measure, ex.value, want)
            # the worked arithmetic (plain Python) reaches the kernel's value
            assert _same(ex.worked_value, want), (spec, topic, ex.measure, ex.worked_value, want)
            # the value printed in the explanation is the one trec_eval would print
            if not isinstance(want, str) and not math.isnan(want) and not ex.count:
                assert ex.value_text == f"{want:.4f}"
            checked += 1
    return checked


def _sample_topics(ev, case: str) -> list[str]:
    topics = [str(t) for t in ev.judged.topics.tolist()]
    if case == "robust03":
        return topics[:3]
    if case == "trunc_c_M":  # includes topics the truncated run lacks (-c stand-ins)
        return topics
    return topics


@pytest.mark.parametrize("case", list(CASES))
def test_every_registry_measure_is_reproduced(case):
    names = tuple(explainable_measures())
    ev = _evaluation(case, names)
    n = 0
    for name in names:
        n += _check(ev, name, _sample_topics(ev, case))
    # every default column of every explainable measure, on every sample topic
    assert n >= len(names) * len(_sample_topics(ev, case))


@pytest.mark.parametrize("case", ["rel_level", "robust03", "trunc_c_M"])
@pytest.mark.parametrize("spec", PARAMETERISED)
def test_parameterised_measures_are_reproduced(case, spec):
    ev = _evaluation(case, (spec,))
    assert _check(ev, spec, _sample_topics(ev, case)) >= 1


def test_explainers_cover_the_registry_except_preference_measures():
    from yardstick.evaluation.measures.registry import all_measures

    missing = {d.name for d in all_measures()} - set(explainable_measures())
    # only measures that need -R prefs / -R qrels_jg (when the registry lists them)
    assert all(n.startswith("prefs_") or n.endswith("_avgjg") for n in missing), missing
    for name in ("P", "recall", "map", "map_cut", "Rprec", "Rprec_mult", "recip_rank", "bpref",
                 "infAP", "iprec_at_recall", "11pt_avg", "ndcg", "ndcg_cut", "ndcg_rel",
                 "Rndcg", "G", "binG", "rbp", "rbp_resid", "unj", "success", "relative_P",
                 "set_P", "set_recall", "set_relative_P", "set_map", "set_F", "utility",
                 "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "num_q",
                 "gm_map", "gm_bpref", "relstring", "no_rel_10", "map_worst", "area", "runid"):
        assert name in explainable_measures()


def _golden(path: Path, topic: str) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and parts[1] == topic:
            out[parts[0].strip()] = parts[2].strip()
    return out


def test_explanations_match_trec_eval_golden_output_topic_301():
    """``trec_eval -m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test``."""
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.judging.judged import build_judged_ranking

    if not TE.exists():
        pytest.skip("trec_eval test data not present")
    golden = _golden(TE / "out.test.aql", "301")
    jr = build_judged_ranking(read_run(TE / "results.test"), read_qrels(TE / "qrels.rel_level"),
                              EvalOptions(relevance_level=2))
    seen = set()
    for spec in ["all_trec", "relstring.20"]:
        for ex in explain_judged(jr, spec, "301"):
            if ex.measure in golden and ex.level == "topic":
                assert ex.value_text == golden[ex.measure].strip("'"), ex.measure
                seen.add(ex.measure)
    assert seen == set(golden) - {"relstring"}  # relstring.20 replaces the default
    # trec_eval quotes the string: '0000011000000--10101'
    assert golden["relstring_20"] == f"'{explain_judged(jr, 'relstring.20', '301')[0].value}'"


def test_explanations_match_trec_eval_golden_parameterised_topic_301():
    """``out.test.meas_params``: trec_eval 10.0 with measure parameters, topic 301."""
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.judging.judged import build_judged_ranking

    if not TE.exists():
        pytest.skip("trec_eval test data not present")
    golden = _golden(TE / "out.test.meas_params", "301")
    jr = build_judged_ranking(read_run(TE / "results.test"), read_qrels(TE / "qrels.test"))
    specs = ["iprec_at_recall..10,.20,.25,.75,.50", "P.5,7,3", "recall.20,2000",
             "Rprec_mult.5.0,0.2,0.35", "utility.2,-1,0,0", "11pt_avg..25,.5,.75",
             "ndcg.1=3,2=9,4=4.5", "ndcg_cut.10,20,23.4", "success.2,5,20"]
    seen = set()
    for spec in specs:
        for ex in explain_judged(jr, spec, "301"):
            assert ex.measure in golden, ex.measure
            assert ex.value_text == golden[ex.measure], ex.measure
            seen.add(ex.measure)
    assert seen == set(golden)
