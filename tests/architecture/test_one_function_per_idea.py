"""One evaluation path (issue 29, item 2): each idea is one function, and every caller
reaches it.

For each idea the test shows it two ways: the source tree holds one definition (an AST
scan of ``core/`` and ``gui/`` for the idea's tell-tale call or name), and the callers
reach that definition (the same function object, or a monkeypatched one changing what
each caller returns).  Values are checked against independent computations (trec_eval's
own output files, numpy, scipy).
"""

from __future__ import annotations

import ast
import importlib
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "trec_eval_tests" / "v10.0_HEAD"
SOURCES = sorted([*(ROOT / "core").rglob("*.py"), *(ROOT / "gui").rglob("*.py")])


def _functions_calling(name: str) -> set[str]:
    """``path:function`` of every function in core/ and gui/ that calls ``name`` (a bare
    name or an attribute), or ``path:<module>`` for a call at module level."""
    out = set()
    for path in SOURCES:
        tree = ast.parse(path.read_text(), str(path))
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Call) and _called(sub) == name:
                        out.add(f"{rel}:{node.name}")
        for node in tree.body:   # module-level calls
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Call) and _called(sub) == name:
                        out.add(f"{rel}:<module>")
    return out


def _called(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _definitions(name: str, top_level_only: bool = False) -> set[str]:
    """``path`` of every def (or module-level assignment) of ``name`` in core/ and gui/."""
    out = set()
    for path in SOURCES:
        tree = ast.parse(path.read_text(), str(path))
        nodes = tree.body if top_level_only else ast.walk(tree)
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                out.add(path.relative_to(ROOT).as_posix())
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == name for t in node.targets):
                out.add(path.relative_to(ROOT).as_posix())
    return out


@pytest.fixture(scope="module")
def plain():
    from yardstick.inputs.io import read_qrels, read_run

    return read_run(str(DATA / "results.test")), read_qrels(str(DATA / "qrels.test"))


# --------------------------------------------------------------- trec_eval's averaging

def test_one_function_averages_as_trec_eval_does(plain, monkeypatch):
    from yardstick.analysis.explain import tie_sensitivity
    from yardstick.evaluation import engine, preference_eval
    from yardstick.evaluation.engine import evaluate_run
    from yardstick.inputs.io.prefs_file import READERS

    # the left-to-right topic sum of meas_avg.c is written once, in topic_average
    # (the copies it replaced: engine._seq_sum, preference_eval's summarise and
    # _sequential_sum, tie_sensitivity._summaries)
    summing = {f for f in _functions_calling("cumsum")
               if f.startswith("core/evaluation/") and "/measures/" not in f}
    assert summing == {"core/evaluation/engine.py:topic_average"}
    assert _definitions("summarise") == {"core/evaluation/engine.py"}
    assert not any(_definitions(n) for n in ("_seq_sum", "_sequential_sum", "_summaries"))
    assert tie_sensitivity.topic_average is engine.topic_average
    assert tie_sensitivity.summarise is preference_eval.summarise is engine.summarise
    # the real values: trec_eval's own summary line for map on its test collection
    run, qrels = plain
    want = {ln.split()[0]: float(ln.split()[2]) for ln in (DATA / "out.test").read_text()
            .splitlines() if ln.split()[1] == "all" and ln.split()[0] in ("map", "P_10")}
    got = evaluate_run(run, qrels, ["map", "P.10"]).summary
    assert round(got["map"], 4) == want["map"] and round(got["P_10"], 4) == want["P_10"]
    # every path's summary comes from topic_average: plain qrels, prefs, judgment groups
    monkeypatch.setattr(engine, "topic_average", lambda jr, column, options, values=None: 0.25)
    prefs = READERS["prefs"](str(DATA / "prefs.test"))
    jg = READERS["qrels_jg"](str(DATA / "qrels.123"))
    for ev in (evaluate_run(run, qrels, ["map", "P.10", "num_rel"]),
               preference_eval.evaluate_prefs(run, prefs, ["prefs_simp"]),
               preference_eval.evaluate_qrels_jg(run, jg, ["map_avgjg"])):
        assert set(ev.summary.to_numpy()) == {0.25}


def test_topic_average_of_samples_equals_one_sample_at_a_time(plain):
    from yardstick.common.options import EvalOptions
    from yardstick.evaluation.engine import compute_columns, topic_average
    from yardstick.evaluation.measures.registry import parse_requests
    from yardstick.judging.judged import build_judged_ranking

    run, qrels = plain
    for opts in (EvalOptions(), EvalOptions(complete=True)):
        jr = build_judged_ranking(run, qrels, opts)
        for c in compute_columns(jr, parse_requests(["map", "gm_map", "num_rel_ret"])):
            v = np.asarray(c.values, float)
            rows = np.stack([v, v[::-1], v * 0.5])
            assert topic_average(jr, c, opts, values=rows).tolist() == \
                [topic_average(jr, c, opts, values=r) for r in rows]


# --------------------------------------------------------------- the Evaluation builder

#: The two places an Evaluation is made: from measured columns, and by joining two.
BUILDERS = {"core/evaluation/engine.py:evaluation",
            "core/evaluation/results.py:merge_evaluations"}


def test_one_function_builds_an_evaluation(plain, monkeypatch):
    from yardstick.evaluation import engine, preference_eval
    from yardstick.evaluation.results import merge_evaluations
    from yardstick.session import evaluating

    assert _functions_calling("Evaluation") <= BUILDERS
    assert preference_eval.evaluation is engine.evaluation
    assert evaluating.merge_evaluations is merge_evaluations   # the window's join
    run, qrels = plain
    a = engine.evaluate_run(run, qrels, ["map"])
    b = engine.evaluate_run(run, qrels, ["map", "P.10"])
    both = merge_evaluations(a, b)
    assert list(both.per_topic.columns) == ["map", "P_10"]
    assert both.summary.to_dict() == b.summary.to_dict()
    assert merge_evaluations(None, a) is a and merge_evaluations(a, None) is a
    # the engine's entry points all end in engine.evaluation
    made = []
    real = engine.evaluation
    monkeypatch.setattr(engine, "evaluation", lambda *a, **k: made.append(1) or real(*a, **k))
    engine.evaluate_run(run, qrels, ["map"])
    engine.evaluate_judged(run, a.judged, [c.request for c in a.columns], a.options)
    assert len(made) == 2


# --------------------------------------------------------------- many runs

def test_one_function_evaluates_many_runs(plain, monkeypatch):
    import yardstick
    from yardstick.common.progress import run_sync
    from yardstick.evaluation import engine
    from yardstick.session import evaluating

    # one definition (the evaluation service's copy is gone), and no loop of its own
    # over the engine anywhere else in the evaluation layer or the API
    assert _definitions("evaluate_runs") == {"core/session/evaluating.py"}
    assert not {f for f in _functions_calling("evaluate_run")
                if f.startswith(("core/evaluation/", "core/api/", "core/session/archive"))
                } - {"core/session/evaluating.py:evaluate_batch"}
    # its callers: the API, the report command, compare-systems, archive; and the
    # stability command reads and evaluates one file at a time through evaluate_files
    callers = {f.split(":")[0] for f in _functions_calling("evaluate_runs")}
    assert {"core/api/evaluation.py", "core/cli/report_cmd.py",
            "core/cli/compare_systems_cmd.py", "core/session/archive_study.py"} <= callers
    assert {f.split(":")[0] for f in _functions_calling("evaluate_files")} == {
        "core/cli/stability_cmd.py"}
    # every run it evaluates goes through the session's measure (the one path)
    run, qrels = plain
    want = engine.evaluate_run(run, qrels, ["map"]).summary["map"]
    seen = []
    real = evaluating.measure
    monkeypatch.setattr(evaluating, "measure",
                        lambda r, *a, **k: seen.append(r.name) or real(r, *a, **k))
    evs = run_sync(evaluating.evaluate_runs([run, run.renamed("again")], qrels, ["map"]))
    assert seen == list(evs) == [run.name, "again"]
    assert evs[run.name].summary["map"] == evs["again"].summary["map"] == want
    seen.clear()
    assert yardstick.evaluate(qrels, [run], ["map"], per_topic=False)["value"].tolist() == [want]
    assert seen == [run.name]
    seen.clear()
    runs, evs, notes = run_sync(evaluating.evaluate_files([run.path, run.path], qrels, ["map"]))
    names = [run.name, f"{run.name}#2"]      # one file twice: told apart, as unique_names does
    assert seen == [run.name, run.name] and [r.name for r in runs] == list(evs) == names
    assert [ev.summary["map"] for ev in evs.values()] == [want, want] and len(notes) == 1


# --------------------------------------------------------------- the tidy table

def test_one_tidy_table_builder(plain, monkeypatch):
    import yardstick
    from yardstick.evaluation.results import Evaluation

    assert _functions_calling("melt") == {"core/evaluation/results.py:to_frame"}
    run, qrels = plain
    tidy = yardstick.evaluate(qrels, [run], ["map", "P.10"])
    ev = yardstick.evaluations(qrels, [run], ["map", "P.10"])[run.name]
    assert tidy.equals(ev.to_frame(summary=False, numeric=True))
    summ = yardstick.evaluate(qrels, [run], ["map"], per_topic=False)
    assert summ["value"].tolist() == [ev.summary["map"]]
    seen = []
    real = Evaluation.to_frame
    monkeypatch.setattr(Evaluation, "to_frame",
                        lambda self, *a, **k: seen.append(self.run_name) or real(self, *a, **k))
    yardstick.evaluate(qrels, [run], ["map"])
    assert seen == [run.name]


# --------------------------------------------------------------- the system ranking

def test_one_system_ranking_with_its_tie_rule():
    from yardstick.analysis.pool import simulation
    from yardstick.analysis.stability import rank_correlation
    from yardstick.presentation.charts import system_ranking as chart

    assert _definitions("system_ranking") == {"core/analysis/stability/rank_correlation.py"}
    assert chart.system_ranking is simulation.system_ranking is rank_correlation.system_ranking
    # the tie rule: equal to 12 significant digits is a tie, broken by name; NaN last
    third = sum([0.1] * 3) / 3          # 0.1 summed in another order: not == 0.1
    assert third != 0.1
    scores = pd.DataFrame({"zeta": [0.1, 0.1], "alpha": [third, third], "mid": [0.3, 0.3],
                           "none": [np.nan, np.nan], "abc": [np.nan, np.nan]})
    means = scores.mean()
    order = rank_correlation.system_ranking(means)
    assert order == ["mid", "alpha", "zeta", "abc", "none"]
    assert list(chart.ranked_means(scores, "map").runs) == order
    # a tie-break measure, where a caller needs one (ranking strings: MAP)
    assert rank_correlation.system_ranking(means, pd.Series({"zeta": 0.9, "alpha": 0.1})) \
        [:3] == ["mid", "zeta", "alpha"]


# --------------------------------------------------------------- the paired t-test

def test_one_paired_t_test():
    from yardstick.analysis import paired_tests, significance
    from yardstick.analysis.pool import titlestat

    discriminative_power = importlib.import_module(
        "yardstick.analysis.stability.discriminative_power")

    assert _functions_calling("ttest_rel") == {"core/analysis/paired_tests.py:paired_t_test"}
    assert _definitions("paired_t_test") == {"core/analysis/paired_tests.py"}
    assert discriminative_power.paired_t_test is paired_tests.paired_t_test
    assert titlestat.paired_t_test is paired_tests.paired_t_test
    rng = np.random.default_rng(3)
    a, b = rng.uniform(size=30), rng.uniform(size=30)
    want = stats.ttest_rel(a, b)
    got = paired_tests.paired_t_test(a, b, confidence=0.95)
    ci = want.confidence_interval(0.95)
    assert (got.statistic, got.pvalue, got.ci_low, got.ci_high) == \
        (want.statistic, want.pvalue, ci.low, ci.high)
    # each caller's value is the one test's: Compare, the all-pairs table, the report
    scores = pd.DataFrame({"a": a, "b": b})
    cmp = significance.compare_runs(scores, "b", measure="map", n_permutations=100)
    assert cmp.pairs[0].p_t == want.pvalue
    pairs = discriminative_power.paired_t_tests(scores)
    assert pairs["p_value"].iloc[0] == want.pvalue
    from yardstick.presentation.reports.comparison_table import paired_pvalue

    assert paired_pvalue(a, b, "t") == want.pvalue


# --------------------------------------------------------------- the corrections

def test_one_list_of_corrections_offered_everywhere():
    from yardstick.analysis import significance
    from yardstick.cli import build_parser
    from yardstick.presentation.reports import comparison_table

    assert significance.CORRECTIONS == ("none", "bonferroni", "holm", "bh")
    assert _definitions("CORRECTIONS") == {"core/analysis/significance.py"}
    assert comparison_table.CORRECTIONS is significance.CORRECTIONS
    report = build_parser("report")._subparsers._group_actions[0].choices["report"]
    choices = next(a.choices for a in report._actions if a.dest == "correction")
    assert tuple(choices) == significance.CORRECTIONS
    # Bonferroni: p x m (m = the p-values that are not NaN), capped at 1
    p = np.array([0.01, 0.04, np.nan, 0.5])
    got = significance.correct_pvalues(p, "bonferroni")
    assert got[[0, 1, 3]].tolist() == pytest.approx([0.03, 0.12, 1.0], abs=1e-15)
    assert math.isnan(got[2])
    # the API and the report take every one of them
    scores = pd.DataFrame({"a": [0.1, 0.5, 0.3, 0.7], "b": [0.2, 0.4, 0.1, 0.3],
                           "c": [0.3, 0.6, 0.2, 0.2]})
    for c in significance.CORRECTIONS:
        cmp = significance.compare_runs(scores, "a", correction=c, n_permutations=50)
        raw = [pair.p_t for pair in cmp.pairs]
        assert [pair.p_corrected for pair in cmp.pairs] == \
            significance.correct_pvalues(raw, c).tolist()
        comparison_table.comparison_table({"map": scores}, test="t", correction=c)


def test_compare_panel_offers_every_correction():
    pytest.importorskip("PySide6")
    from yardstick.analysis.significance import CORRECTIONS
    from yardstick.gui.panels import compare_panel

    assert compare_panel.CORRECTIONS is CORRECTIONS
    assert set(compare_panel.CORR_LABELS) == set(CORRECTIONS)


# --------------------------------------------------------------- run means

def test_one_run_means():
    from yardstick.analysis.pool import simulation, uniques
    from yardstick.evaluation import results
    from yardstick.presentation.charts import scores
    from yardstick.presentation.charts import system_ranking as chart

    assert _definitions("run_means") == {"core/presentation/charts/scores.py"}
    assert _functions_calling("nanmean") & {"core/presentation/charts/scores.py:run_means",
                                            "core/presentation/charts/system_ranking.py:"
                                            "ranked_means"} == set()
    assert scores.mean_over_topics is simulation.mean_over_topics is \
        uniques.mean_over_topics is chart.mean_over_topics is results.mean_over_topics
    v = np.array([[0.2, 0.4, np.nan], [np.nan, np.nan, np.nan]])
    got = results.mean_over_topics(v, ~np.isnan(v), axis=1)
    assert got[0] == np.nanmean(v[0]) and math.isnan(got[1])


# --------------------------------------------------------------- names

def test_public_evaluate_names_do_not_clash():
    import inspect

    import yardstick
    from yardstick.evaluation import engine, evaluation_service

    assert _definitions("evaluate", top_level_only=True) == {"core/api/evaluation.py"}
    assert not hasattr(evaluation_service, "evaluate")
    assert evaluation_service.evaluate_run is engine.evaluate_run
    assert list(inspect.signature(yardstick.evaluate).parameters)[:2] == ["qrels", "runs"]
    assert list(inspect.signature(evaluation_service.evaluate_run).parameters)[:2] == \
        ["run", "qrels"]
