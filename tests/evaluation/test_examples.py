"""The TREC appendix's worked examples as files (resources/examples, yardstick.inputs.examples).

Paper: the TREC proceedings appendix “Common Evaluation Measures”.  Interpolation: relevant
at ranks 1, 2, 4, 15 of 20 with R = 4 -> "1 up to .5, .75 at .6 and .7, .27 at
.8 or greater"; average precision: relevant at 1, 2, 4, 7 -> "0.83"; R-precision:
17 of 50 and 7 of 10 -> "0.52".  pytrec_eval embeds trec_eval 9.x, which
reproduces the appendix; trec_eval 10.0 rounds recall cutoffs with lround and
prints 1 at 0.6, .75 at 0.7-0.8, .27 at 0.9-1.0 (values read off
``trec_eval -m all_trec`` 10.0 and 9.0.8 on these files).
"""

from __future__ import annotations

import numpy as np
import pytest
import pytrec_eval

from yardstick.common.options import EvalOptions
from yardstick.evaluation.evaluation_service import evaluate_run
from yardstick.inputs.examples import example, example_texts, examples
from yardstick.inputs.io.qrels_file import read_qrels
from yardstick.inputs.io.run_file import read_run


def pytrec_means(ex, measures) -> dict[str, float]:
    qrels = read_qrels(ex.qrels).to_dict()
    run: dict[str, dict[str, float]] = {}
    for line in ex.runs[0].read_text().splitlines():
        t, _, d, _, s, _ = line.split()
        run.setdefault(t, {})[d] = float(s)
    res = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    names = next(iter(res.values())).keys()
    return {m: sum(v[m] for v in res.values()) / len(res) for m in names}


def test_three_examples_with_files():
    exs = examples()
    assert [e.name for e in exs] == ["interpolation", "average_precision", "r_precision"]
    for ex in exs:
        assert ex.qrels.exists() and all(r.exists() for r in ex.runs)
        q, r = example_texts(ex.name)          # the files are what the spec builds
        assert ex.qrels.read_text() == q and ex.runs[0].read_text() == r


def test_files_hold_the_papers_cases():
    interp = read_qrels(example("interpolation").qrels).frame
    assert len(interp) == 20 and interp["rel"].sum() == 4
    run = read_run(example("interpolation").runs[0])
    assert len(run) == 20
    rp = read_qrels(example("r_precision").qrels).frame
    assert rp.groupby("topic")["rel"].sum().to_dict() == {"1": 50, "2": 10}
    rrun = read_run(example("r_precision").runs[0])
    assert list(rrun.topics) == ["1", "2"] and np.bincount(rrun.topic_code).tolist() == [50, 10]


@pytest.mark.parametrize("ex", examples(), ids=lambda e: e.name)
def test_pytrec_eval_gives_the_appendix_values(ex):
    got = pytrec_means(ex, {"map", "Rprec", "iprec_at_recall", "P"})
    for measure, value in ex.expected_v9.items():
        assert got[measure] == pytest.approx(value, abs=5e-5), measure


def test_appendix_rounding():
    interp = example("interpolation").expected_v9
    assert [round(interp[f"iprec_at_recall_{x / 10:.2f}"], 2) for x in range(11)] \
        == [1.0] * 6 + [0.75, 0.75, 0.27, 0.27, 0.27]
    assert round(example("average_precision").expected_v9["map"], 2) == 0.83   # (1+1+.75+4/7)/4
    assert example("r_precision").expected_v9["Rprec"] == pytest.approx((17 / 50 + 7 / 10) / 2)


@pytest.mark.parametrize("ex", examples(), ids=lambda e: e.name)
@pytest.mark.parametrize("compat", [10, 9])
def test_engine_gives_trec_eval_values(ex, compat):
    ev = evaluate_run(read_run(ex.runs[0]), read_qrels(ex.qrels),
                      ["map", "Rprec", "iprec_at_recall", "P.5,10"], EvalOptions(compat=compat))
    expected = ex.expected if compat == 10 else ex.expected_v9
    for measure, value in expected.items():
        assert ev.summary[measure] == pytest.approx(value, abs=5e-5), measure
