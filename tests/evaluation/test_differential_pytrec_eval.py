"""Differential tests: Yardstick (``compat=9``) against pytrec_eval, measure by measure.

Oracle
------
``pytrec-eval-terrier`` (0.5.x) links the C sources of trec_eval **9.0.8**
(its ``setup.py`` fetches ``usnistgov/trec_eval/archive/v9.0.8``; confirmed
empirically: on trec_eval's own ``results.test`` it reproduces the v9.0.8
``out.test.aq`` and differs from v10.0's exactly in ``iprec_at_recall_0.10``
of topic 301, the lround change).  pytrec_eval runs trec_eval's per-topic
``calc_meas`` functions on ``{topic: {docno: score}}`` dicts, and stores scores
in trec_eval 9's ``float sim`` -- the same semantics as
``EvalOptions(compat=9)``.  Before relying on it, every adversarial case here
was also run through the real 9.0.8 binary (``-q -m all_trec``, with
``-l1/-l2`` and ``-J``): pytrec_eval agreed on every printed value except
that trec_eval prints ``-nan`` where pytrec_eval returns ``nan`` (``-J`` on a
topic left with no documents).  NaN == NaN counts as agreement here.

What is compared
----------------
* every measure in ``pytrec_eval.supported_measures`` (= trec_eval 9.0.8's
  ``all_trec`` set with default parameters) for every topic, plus a set of
  non-default parameters (``CUSTOM_MEASURES``) on the adversarial runs;
* values at trec_eval's printed precision: the ``"%.4f"`` strings must be
  equal (``num_*`` are integers, compared the same way);
* the run's summary ("all") as trec_eval computes it from the per-topic
  values: arithmetic mean for most measures, sums for ``num_*``, and
  ``exp(mean(log(max(x, 1e-5))))`` for ``gm_map`` / ``gm_bpref`` (pytrec_eval
  returns the per-topic *log* for the gm measures, so those are compared in
  the summary only), accumulated in trec_eval's topic order;
* the set of evaluated topics (run topics absent from the qrels are ignored;
  qrels topics absent from the run are not evaluated).

Skipped, and why
----------------
* ``runid``, ``relstring``: text in trec_eval; pytrec_eval returns 0.0 for
  both (it can only return floats), so there is nothing to compare.  They are
  covered byte for byte by ``test_trec_eval_golden.py``.
* ``num_q`` per topic: trec_eval prints it only in the summary (pytrec_eval
  returns 1 per topic); it is compared as the summary count.
* ``-c`` (average over all qrels topics) and ``-M``: pytrec_eval has no such
  options; they are covered by the golden outputs (``out.test.aqc(M)``).
* trec_eval 10.0-only measures (rbp, rbp_resid, unj_*): not in 9.0.8.
* ``ndcg`` with a gain map (``ndcg.1=3,2=9``) and ``utility`` with negative
  parameters: pytrec_eval's measure-name parser only accepts unsigned numbers;
  covered by the golden ``out.test.meas_params``.

Data
----
* real: all 17 Robust03 runs (trectools) on the Robust03 qrels; on the
  Robust04 qrels the 10 TREC 2004 submissions, the 7 SIGIR'18 tutorial runs,
  Anserini BM25+RM3 and the 5 CEDR BM25 fold runs (40 runs, ~6M lines):
  every run, every topic, every measure above, relevance level 1;
* adversarial (``tests/adversarial.py``): score ties across docnos, shuffled
  file order, missing topics on both sides, graded and negative relevance,
  runs deeper than 1000, garbage rank column, scientific-notation scores,
  float32-only ties; each with ``-l1``, with ``-J``, graded ones with ``-l2``.

Runtime: every real run is checked on every measure (no subsetting was
needed): about 40 s of CPU for the whole module on this 2-core machine
(pytrec_eval's own parse + evaluate of the 40 runs is ~12 s of it).  Each run
file is read once per side (one test per run); each qrels once per module.
"""

from __future__ import annotations

import functools
import gzip
import lzma
import math
import operator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytrec_eval = pytest.importorskip("pytrec_eval")

import adversarial  # noqa: E402  (pytest puts tests/ on sys.path: rootdir-relative import)

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
ROBUST03 = __import__("tests.shared_data").shared_data.robust03_dir()   # real or generated
ROBUST04 = DATA / "robust04"

#: pytrec_eval measures with nothing comparable (see module docstring).
SKIPPED = {"runid": "text in trec_eval; pytrec_eval returns 0.0",
           "relstring": "text in trec_eval; pytrec_eval returns 0.0"}
#: per-topic value in pytrec_eval is not what trec_eval prints: summary only.
SUMMARY_ONLY = {"num_q", "gm_map", "gm_bpref"}
GEOMETRIC = {"gm_map", "gm_bpref"}
MIN_GEO_MEAN = 1e-5

#: non-default parameters accepted by pytrec_eval's parser; evaluated on the
#: adversarial runs.  pytrec name -> trec_eval/yardstick name where they differ.
CUSTOM_MEASURES = ["P.3,7,2000", "recall.2,2000", "ndcg_cut.3,23", "map_cut.3,7",
                   "success.2,20", "relative_P.3,7", "Rprec_mult.0.5,3.0",
                   "iprec_at_recall.0.25,0.33,0.75", "set_F.0.5"]
CUSTOM_RENAME = {"set_F": "set_F_0.5"}


def base_measures() -> list[str]:
    return sorted(set(pytrec_eval.supported_measures) - set(SKIPPED))


# --------------------------------------------------------------------------- comparison

def trec_eval_summary(measure: str, values: list[float]) -> float:
    """trec_eval's "all" value from per-topic values (pytrec_eval's per-topic form).

    ``te_acc_meas_s`` adds topic values in evaluation order (topics sorted by
    ``strcmp``), ``te_calc_avg_meas_s`` divides by the number of topics;
    ``num_*`` are sums; gm_* store log(max(x, 1e-5)) per topic and average with exp.
    """
    if measure == "num_q":
        return float(len(values))
    total = functools.reduce(operator.add, values, 0.0)
    if measure.startswith("num_"):
        return total
    if not values:
        return 0.0
    if measure in GEOMETRIC:
        return math.exp(total / len(values))
    return total / len(values)


def _fmt(x: float) -> str:
    return "nan" if x != x else "%.4f" % x


def compare(label: str, ev, expected: dict[str, dict[str, float]],
            rename: dict[str, str] | None = None) -> list[str]:
    """Every disagreement between a yardstick Evaluation and pytrec_eval output, as text."""
    rename = rename or {}
    problems: list[str] = []
    exp_topics = sorted(expected, key=lambda t: t.encode())
    got_topics = [str(t) for t in ev.per_topic.index]
    if set(exp_topics) != set(got_topics):
        problems.append(f"{label}: evaluated topics differ: only pytrec_eval "
                        f"{sorted(set(exp_topics) - set(got_topics))[:10]}, only yardstick "
                        f"{sorted(set(got_topics) - set(exp_topics))[:10]}")
    common = [t for t in exp_topics if t in set(got_topics)]
    measures = sorted({m for d in expected.values() for m in d} - set(SKIPPED))
    per_topic = ev.per_topic.copy()
    per_topic.index = per_topic.index.astype(str)
    for m in measures:
        name = rename.get(m, m)
        vals = [expected[t][m] for t in exp_topics]
        # summary
        if name not in ev.summary.index:
            problems.append(f"{label}: measure {name} missing from yardstick summary")
        else:
            want = trec_eval_summary(m, vals)
            got = float(ev.summary[name])
            if _fmt(want) != _fmt(got):
                problems.append(_mismatch(label, name, "all", want, got))
        if m in SUMMARY_ONLY:
            continue
        if name not in per_topic.columns:
            problems.append(f"{label}: measure {name} missing from yardstick per-topic values")
            continue
        want_arr = np.array([expected[t][m] for t in common], dtype=float)
        got_arr = per_topic.loc[common, name].to_numpy(dtype=float)
        differ = ~((want_arr == got_arr) | (np.isnan(want_arr) & np.isnan(got_arr)))
        for i in np.flatnonzero(differ):
            if _fmt(want_arr[i]) != _fmt(got_arr[i]):
                problems.append(_mismatch(label, name, common[i], want_arr[i], got_arr[i]))
    return problems


def _mismatch(label, measure, topic, want, got) -> str:
    note = ""
    if want == want and got == got and abs(want - got) < 1e-9:
        note = " (float noise straddling a rounding boundary: summation order)"
    return (f"{label}: {measure} topic {topic}: pytrec_eval/trec_eval 9 {_fmt(want)} "
            f"({want!r}), yardstick {_fmt(got)} ({got!r}){note}")


def assert_no_problems(problems: list[str]) -> None:
    if problems:
        head = "\n".join(problems[:60])
        more = f"\n... and {len(problems) - 60} more" if len(problems) > 60 else ""
        pytest.fail(f"{len(problems)} mismatches:\n{head}{more}", pytrace=False)


def yardstick_eval(run_path: Path, qrels, measures, **options):
    from yardstick.common.options import EvalOptions
    from yardstick.evaluation.evaluation_service import evaluate_run
    from yardstick.inputs.io import read_run

    run = read_run(run_path)
    return evaluate_run(run, qrels, measures, EvalOptions(compat=9, **options))


# --------------------------------------------------------------------------- real runs

def _open_text(path: Path):
    if path.suffix == ".xz":
        return lzma.open(path, "rt", encoding="utf-8")
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def parse_run_for_pytrec(path: Path) -> dict[str, dict[str, float]]:
    """Independent of yardstick.inputs.io: pandas splits the columns, Python's ``float`` converts
    the scores (correctly rounded, like C's ``atof``)."""
    with _open_text(path) as f:
        df = pd.read_csv(f, sep=r"\s+", header=None, usecols=[0, 2, 4], comment=None,
                         names=["topic", "q0", "docno", "rank", "score", "tag"],
                         dtype=str, engine="c", na_filter=False)
    df["score"] = [float(s) for s in df["score"]]
    return {t: dict(zip(g["docno"], g["score"].tolist()))
            for t, g in df.groupby("topic", sort=False)}


def real_runs() -> list:
    params = []
    sets = [("robust03", ROBUST03 / "qrels" / "robust03_qrels.txt",
             sorted((ROBUST03 / "runs").glob("input.*"))),
            ("robust04", ROBUST04 / "qrels.robust2004.txt",
             sorted((ROBUST04 / "runs" / "trec2004_submissions").glob("input.*"))
             + sorted((ROBUST04 / "runs" / "sigir18_tutorial_new_systems").glob("*.run.xz"))
             + [ROBUST04 / "runs" / "rob04_yang19_rm3.run.xz"]
             + sorted((ROBUST04 / "runs" / "cedr_bm25_folds").glob("f*.test.run")))]
    for coll, _qrels, runs in sets:
        for p in runs:
            if p.exists():
                params.append(pytest.param(coll, p, id=f"{coll}-{p.name}"))
    return params or [pytest.param(None, None, id="no-data")]


@pytest.fixture(scope="module")
def qrels_sets():
    """Per collection: (yardstick Qrels, pytrec_eval evaluator) -- read once per module."""
    from yardstick.inputs.io import read_qrels

    out = {}
    for coll, path in (("robust03", ROBUST03 / "qrels" / "robust03_qrels.txt"),
                       ("robust04", ROBUST04 / "qrels.robust2004.txt")):
        if not path.exists():
            continue
        qrels = read_qrels(path)
        with open(path) as f:
            ptq = pytrec_eval.parse_qrel(f)
        out[coll] = (qrels, pytrec_eval.RelevanceEvaluator(ptq, base_measures()))
    return out


@pytest.mark.parametrize("coll,run_path", real_runs())
def test_real_run_matches_pytrec_eval(coll, run_path, qrels_sets):
    if coll is None or coll not in qrels_sets:
        pytest.skip(f"real runs not found under {DATA}")
    qrels, evaluator = qrels_sets[coll]
    expected = evaluator.evaluate(parse_run_for_pytrec(run_path))
    ev = yardstick_eval(run_path, qrels, ["all_trec"])
    assert_no_problems(compare(f"{coll}/{run_path.name}", ev, expected))


# --------------------------------------------------------------------------- adversarial

CASES = adversarial.all_cases()


def _variants():
    out = []
    for c in CASES:
        out.append(pytest.param(c, 1, False, id=f"{c.name}-l1"))
        out.append(pytest.param(c, 1, True, id=f"{c.name}-l1-J"))
        if c.graded:
            out.append(pytest.param(c, 2, False, id=f"{c.name}-l2"))
            out.append(pytest.param(c, 2, True, id=f"{c.name}-l2-J"))
    return out


@pytest.fixture
def case_files(tmp_path):
    def write(case: adversarial.Case):
        from yardstick.inputs.io import read_qrels
        q = tmp_path / f"{case.name}.qrels"
        r = tmp_path / f"{case.name}.run"
        q.write_text(case.qrels_text, encoding="utf-8")
        r.write_text(case.run_text, encoding="utf-8")
        return read_qrels(q), r
    return write


@pytest.mark.parametrize("case,level,judged_only", _variants())
def test_adversarial_run_matches_pytrec_eval(case, level, judged_only, case_files):
    qrels, run_path = case_files(case)
    evaluator = pytrec_eval.RelevanceEvaluator(case.qrels, base_measures(),
                                               relevance_level=level,
                                               judged_docs_only_flag=judged_only)
    expected = evaluator.evaluate(case.run)
    ev = yardstick_eval(run_path, qrels, ["all_trec"], relevance_level=level,
                        judged_only=judged_only)
    assert_no_problems(compare(f"{case.name} -l{level}{' -J' if judged_only else ''}",
                               ev, expected))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_adversarial_custom_parameters_match_pytrec_eval(case, case_files):
    qrels, run_path = case_files(case)
    evaluator = pytrec_eval.RelevanceEvaluator(case.qrels, CUSTOM_MEASURES)
    expected = evaluator.evaluate(case.run)
    ev = yardstick_eval(run_path, qrels, CUSTOM_MEASURES)
    assert_no_problems(compare(f"{case.name} custom", ev, expected, rename=CUSTOM_RENAME))


def test_adversarial_cases_are_what_they_claim():
    """The generator really produces the traps the docstring lists (hand counts)."""
    by = {c.name: c for c in CASES}
    ties = by["ties"].run["1"]
    assert len(ties) - len(set(ties.values())) >= 50          # big tie groups
    assert "docé" in {d.split("x")[0] for d in ties}
    deep = by["deep"].run
    assert min(len(d) for d in deep.values()) > 1000
    mt = by["missing_topics"]
    assert {"1", "2", "3"} - set(mt.qrels) == {"1", "2", "3"}   # run-only topics
    assert {"20", "21", "22"} - set(mt.run) == {"20", "21", "22"}  # qrels-only topics
    assert set(mt.qrels["5"].values()) == {-1}
    grades = {r for docs in by["graded_negative"].qrels.values() for r in docs.values()}
    assert grades == {-2, -1, 0, 1, 2, 3, 4}
    f1 = by["float32"].run["f1"]
    vals = set(f1.values())
    assert len(vals) == 6 and len(set(np.float32(list(vals)))) < 6   # float32-only ties
    assert "abc" in by["rank_garbage"].run_text
    assert "E" in by["sci_notation"].run_text and "e-" in by["sci_notation"].run_text
