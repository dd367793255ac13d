"""ir_measures' and ranx's measure names: each means exactly one trec_eval measure.

Values are checked against the libraries themselves on the bundled Cranfield
sample runs (``resources/sample``, in the repository): ir_measures through its
own measure objects, ranx through ``ranx.evaluate`` on tie-free copies of the runs
(ranx breaks score ties by its own order, trec_eval by docno, so ties are removed
first: each document's score becomes its trec_eval rank, reversed).  The library
tests skip when the library is not installed; the name table and the CLI tests
need nothing but the repository.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import yardstick as ys
from yardstick.evaluation.measures.definition import MeasureError
from yardstick.evaluation.measures.spec import output_label, parse_measure

PATHS = ys.sample_paths()
QRELS = PATHS["qrels"]
RUNS = PATHS["runs"][:3]

IRM = {  # ir_measures name -> the trec_eval request it must mean
    "AP": "map", "AP@10": "map_cut.10", "P@5": "P.5", "P@10": "P.10", "R@100": "recall.100",
    "R@1000": "recall.1000", "nDCG": "ndcg", "nDCG@10": "ndcg_cut.10", "nDCG@20": "ndcg_cut.20",
    "RR": "recip_rank", "Rprec": "Rprec", "Bpref": "bpref", "infAP": "infAP",
    "Success@5": "success.5", "IPrec@0.5": "iprec_at_recall.0.5", "NumRet": "num_ret",
    "NumRel": "num_rel", "NumRet(rel=1)": "num_rel_ret", "NumQ": "num_q", "SetP": "set_P",
    "SetR": "set_recall", "SetAP": "set_map", "SetF": "set_F", "SetP(relative=True)":
    "set_relative_P", "P(rel=2)@5": "P.5", "AP(judged_only=True)": "map", "AP(rel=2)": "map",
}
RANX = {  # ranx name -> trec_eval request
    "map": "map", "map@100": "map_cut.100", "ndcg": "ndcg", "ndcg@10": "ndcg_cut.10",
    "precision@10": "P.10", "precision": "set_P", "recall@100": "recall.100",
    "mrr": "recip_rank", "r-precision": "Rprec", "hit_rate@5": "success.5", "bpref": "bpref",
}


@pytest.mark.parametrize("name,trec", sorted({**IRM, **RANX}.items()))
def test_each_name_means_one_trec_eval_request_and_prints_back(name, trec):
    spec = parse_measure(name)
    assert spec.trec_eval == trec
    assert str(spec) == name
    assert parse_measure(str(spec)) == spec


def test_per_measure_options_from_ir_measures_names():
    assert parse_measure("P(rel=2)@5").rel_level == 2
    assert parse_measure("AP(judged_only=True)").judged_only is True
    assert not parse_measure("P@5").has_own_options


@pytest.mark.parametrize("name,why,near", [
    ("ERR@10", "trec_eval has no ERR", "ndcg_cut.10, recip_rank"),
    ("Judged@10", "Judged@k = 1 - unj_k", "unj.10"),
    ("mrr@10", "recip_rank has no cutoff", "recip_rank"),
    ("RR@10", "recip_rank has no cutoff", "recip_rank"),
    ("hits@10", "P.k times k", "P.10"),
    ("ndcg_burges@10", "linear gains", None),
    ("Rprec@10", "Rprec has no cutoff", "Rprec"),
])
def test_names_without_an_exact_equivalent_are_refused_with_the_nearest(name, why, near):
    with pytest.raises(MeasureError) as info:
        parse_measure(name)
    msg = str(info.value)
    assert msg.startswith(f"{name!r} has no exact trec_eval equivalent: ")
    assert why in msg
    if near:
        assert msg.endswith(f"nearest: {near}")


def test_unknown_names_suggest_the_closest():
    with pytest.raises(MeasureError, match=r"unknown measure 'ndgc@10'; nearest: ndcg"):
        parse_measure("ndgc@10")


@pytest.mark.parametrize("asked, hint", [
    ("P_10", "P_10 is how trec_eval prints P.10: ask for 'P.10'"),
    ("ndcg_cut_20", "ask for 'ndcg_cut.20'"),
    ("p@10", "did you mean 'P@10'?"),
    ("Ndcg@10", "did you mean 'ndcg@10'?"),
])
def test_printed_names_and_wrong_case_get_the_name_meant(asked, hint):
    """``P_10`` (a column name) and ``p@10`` got "nearest: rbp, map" or no hint at all."""
    with pytest.raises(MeasureError) as e:
        parse_measure(asked)
    assert hint in str(e.value)
    right = str(e.value).rsplit("'", 2)[-2]           # the name suggested works
    assert parse_measure(right).trec_eval


@pytest.mark.parametrize("column,irm,ranx", [
    ("map", "AP", "map"), ("P_10", "P@10", "precision@10"), ("ndcg_cut_10", "nDCG@10", "ndcg@10"),
    ("recall_100", "R@100", "recall@100"), ("recip_rank", "RR", "mrr"),
    ("Rprec", "Rprec", "r-precision"), ("success_5", "Success@5", "hit_rate@5"),
    ("iprec_at_recall_0.50", "IPrec@0.5", "iprec_at_recall_0.50"), ("gm_bpref", "gm_bpref",
                                                                   "gm_bpref"),
])
def test_output_labels(column, irm, ranx):
    assert output_label(column, "ir_measures") == irm
    assert output_label(column, "ranx") == ranx
    # a label parses back to the same trec_eval column
    if irm != column:
        spec = parse_measure(irm)
        assert ys.evaluate(QRELS, RUNS[:1], [spec], per_topic=False, names="trec_eval")[
            "measure"].tolist() == [column]


# ----------------------------------------------------------------- the same numbers as the CLI
def _cli(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "yardstick.cli", "eval", *args],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_cli_takes_ir_measures_names_and_prints_trec_eval_names_by_default():
    a = _cli("-m", "nDCG@10", "-m", "P@5", "-m", "AP", QRELS, RUNS[0])
    b = _cli("-m", "ndcg_cut.10", "-m", "P.5", "-m", "map", QRELS, RUNS[0])
    assert a == b
    c = _cli("--names", "ranx", "-m", "ndcg_cut.10", "-m", "P.5", "-m", "map", QRELS, RUNS[0])
    assert c.replace("ndcg@10    ", "ndcg_cut_10").replace("precision@5", "P_5        ") \
        == b


def test_cli_per_measure_relevance_level_equals_a_whole_run_at_that_level():
    a = _cli("-m", "P(rel=2)@5", QRELS, RUNS[0]).split("\t")
    b = _cli("-l2", "-m", "P.5", QRELS, RUNS[0]).split("\t")
    assert a[0].strip() == "P(rel=2)@5" and a[1:] == b[1:]


def test_api_equals_cli_to_the_printed_digit():
    text = _cli("-q", "-m", "map", "-m", "P.10", QRELS, RUNS[0])
    cli = {(t, m.strip()): float(v) for m, t, v in (ln.split("\t") for ln in text.splitlines())}
    df = ys.evaluate(QRELS, RUNS[0], ["map", "P.10"], per_topic=True)
    summ = ys.evaluate(QRELS, RUNS[0], ["map", "P.10"], per_topic=False)
    api = {(r.topic, r.measure): r.value for r in pd.concat([df, summ]).itertuples()}
    assert set(api) == set(cli)
    assert all(f"{api[k]:.4f}" == f"{cli[k]:.4f}" for k in cli)


# ----------------------------------------------------------------- DataFrames in and out
def test_dataframe_round_trip_gives_the_same_numbers():
    qf, rf = ys.to_trec_frames(QRELS, RUNS)
    assert list(rf["run"].unique()) == [ys.read_runs(p)[0].name for p in RUNS]
    direct = ys.evaluate(QRELS, RUNS, ["map", "ndcg_cut.10", "bpref"])
    via = ys.evaluate(qf, rf, ["map", "ndcg_cut.10", "bpref"])
    pd.testing.assert_frame_equal(direct, via)
    wide = ys.wide(ys.evaluate(qf, rf, ["map"], per_topic=False))
    assert list(wide.index) == list(rf["run"].unique())


@pytest.mark.parametrize("library", ["ranx", "ir_measures"])
def test_what_to_ranx_and_to_ir_measures_give_reads_back(library):
    """ranx ``Qrels`` (whose ``to_dataframe`` calls the grades ``score``) and the
    ``{run name: run}`` mappings that ``to_ranx`` / ``to_ir_measures`` give back are read
    as the same qrels and runs: the same numbers as the files."""
    pytest.importorskip(library)
    q, runs = (ys.to_ranx if library == "ranx" else ys.to_ir_measures)(QRELS, RUNS)
    direct = ys.evaluate(QRELS, RUNS, ["map", "ndcg_cut.10"], per_topic=False)
    via = ys.evaluate(q, runs, ["map", "ndcg_cut.10"], per_topic=False)
    pd.testing.assert_frame_equal(direct, via)


def test_ranx_qrels_object():
    ranx = pytest.importorskip("ranx")
    qd = {"1": {"a": 1, "b": 2}, "2": {"c": 1}}
    rd = {"1": {"a": 0.9, "b": 0.8, "x": 0.7}, "2": {"c": 0.5, "y": 0.9}}
    ours = ys.evaluate(ranx.Qrels(qd), ranx.Run(rd, name="r"), ["map"], per_topic=False)
    # topic 1: AP 1, topic 2: c at rank 2 -> 1/2; mean 0.75 (ranx.evaluate says the same)
    assert ours["value"].tolist() == [0.75]
    assert ranx.evaluate(ranx.Qrels(qd), ranx.Run(rd), "map") == pytest.approx(0.75)


def test_dict_and_namedtuple_inputs():
    from collections import namedtuple

    Qrel = namedtuple("Qrel", "query_id doc_id relevance")
    Doc = namedtuple("ScoredDoc", "query_id doc_id score")
    q = [Qrel("1", "a", 1), Qrel("1", "b", 0), Qrel("1", "c", 1)]
    r = [Doc("1", "a", 3.0), Doc("1", "b", 2.0), Doc("1", "d", 1.0)]
    df = ys.evaluate(q, ys.read_runs(r, name="x"), ["map", "P@2"], per_topic=False)
    # AP = (1/1) / 2 relevant = 0.5; P@2 = 1/2 — by hand
    assert df.set_index("measure")["value"].to_dict() == {"map": 0.5, "P@2": 0.5}
    d = ys.evaluate({"1": {"a": 1, "b": 0, "c": 1}}, {"1": {"a": 3.0, "b": 2.0, "d": 1.0}},
                    ["map"], per_topic=False)
    assert d["value"].tolist() == [0.5]


# ----------------------------------------------------------------- against the libraries
def _tie_free(run_path: str) -> pd.DataFrame:
    """The run in trec_eval's order with scores N-1 … 0 (no ties, same order everywhere)."""
    from yardstick.judging.judged import build_judged_ranking

    run = ys.read_runs(run_path)[0]
    q = ys.read_qrels(QRELS)
    jr = build_judged_ranking(run, q)
    frame = run.to_frame()
    order = jr.line[jr.line >= 0]  # the run's lines in trec_eval's order, judged topics only
    f = frame.iloc[np.asarray(order)].reset_index(drop=True)
    f["score"] = np.arange(len(f), 0, -1, dtype=float)
    return pd.DataFrame({"query_id": f["topic"], "doc_id": f["docno"], "score": f["score"]})


def test_ir_measures_names_give_ir_measures_values():
    irm = pytest.importorskip("ir_measures")
    qf, _ = ys.to_trec_frames(QRELS)
    for path in RUNS:
        rf = ys.to_trec_frames(runs=path)[1].drop(columns="run")
        for name in IRM:
            ours = ys.evaluate(qf, rf.assign(run="r"), [name], per_topic=True,
                               names="trec_eval")
            theirs = pd.DataFrame(irm.iter_calc([irm.parse_measure(name)], qf, rf))
            if name.startswith("NumQ"):
                continue  # a count over topics, not per topic
            mine = ours.set_index("topic")["value"]
            other = theirs.set_index("query_id")["value"].astype(float)
            common = mine.index.intersection(other.index)
            assert len(common) == len(mine), name
            np.testing.assert_allclose(mine[common].to_numpy(), other[common].to_numpy(),
                                       rtol=0, atol=1e-12, err_msg=name)


def test_ranx_names_give_ranx_values_on_tie_free_runs():
    ranx = pytest.importorskip("ranx")
    qf, _ = ys.to_trec_frames(QRELS)
    # Cranfield's -1 judgments: trec_eval's bpref ignores negative judgments, ranx counts
    # them as non-relevant; with them read as 0 both count the same documents
    qf["relevance"] = qf["relevance"].clip(lower=0)
    for path in RUNS[:2]:
        rf = _tie_free(path)
        rq, (rr,) = ys.to_ranx(qf, ys.read_runs(rf, name="r"))
        theirs = ranx.evaluate(rq, rr, list(RANX), return_mean=False)
        ours = ys.evaluate(qf, rf.assign(run="r"), list(RANX), per_topic=True)
        topics = list(rr.keys())
        for name in RANX:
            mine = ours[ours["measure"] == name].set_index("topic")["value"]
            # ranx scores topics of the run only; bpref is NaN where ranx has no
            # judged non-relevant document to count (trec_eval: 0)
            other = pd.Series(np.asarray(theirs[name], float), index=topics)
            ok = ~other.isna()
            np.testing.assert_allclose(mine[other.index[ok]].to_numpy(), other[ok].to_numpy(),
                                       rtol=0, atol=1e-9, err_msg=name)


def test_to_ranx_and_ranx_report_frame():
    pytest.importorskip("ranx")
    rq, rr = ys.to_ranx(QRELS, RUNS[:2])
    assert [r.name for r in rr] == [ys.read_runs(p)[0].name for p in RUNS[:2]]
    assert sorted(rq.keys()) == sorted(ys.read_qrels(QRELS).topics.tolist())
    df = ys.evaluate(QRELS, RUNS[:2], ["map", "ndcg@10"], per_topic=False)
    rep = ys.ranx_report_frame(df)
    assert list(rep.index) == [r.name for r in rr] and list(rep.columns) == ["map", "ndcg@10"]


def test_the_windows_measures_table_takes_ecosystem_names():
    """The Measures panel's table (core.evaluation_tables) finds the columns of any spelling,
    including iprec_at_recall.0.1,0.5 (whose columns print as 0.10 and 0.50)."""
    from yardstick.evaluation.evaluation_tables import summary_table

    chosen = ["nDCG@10", "precision@5", "P(rel=2)@5", "iprec_at_recall.0.1,0.5"]
    evs = ys.evaluations(QRELS, RUNS[:2], chosen)
    table = summary_table(evs, chosen)
    assert list(table.columns) == ["ndcg_cut_10", "P_5", "P(rel=2)@5", "iprec_at_recall_0.10",
                                   "iprec_at_recall_0.50"]
    direct = ys.evaluate(QRELS, RUNS[:2], ["ndcg_cut.10"], per_topic=False)
    assert table["ndcg_cut_10"].tolist() == direct["value"].tolist()


ROBUST03 = __import__("tests.shared_data").shared_data.robust03_dir()   # real or generated


def test_robust03_runs_match_ir_measures_when_tie_free():
    irm = pytest.importorskip("ir_measures")
    global QRELS
    q = str(ROBUST03 / "qrels" / "robust03_qrels.txt")
    qf, _ = ys.to_trec_frames(q)
    saved, QRELS = QRELS, q
    try:
        for path in sorted((ROBUST03 / "runs").iterdir())[:3]:
            rf = _tie_free(str(path))
            for name in ["AP", "nDCG@10", "P@10", "R@1000", "RR", "Bpref", "infAP", "Rprec"]:
                mine = ys.evaluate(qf, rf.assign(run="r"), [name]).set_index("topic")["value"]
                other = pd.DataFrame(irm.iter_calc([irm.parse_measure(name)], qf, rf)) \
                    .set_index("query_id")["value"].astype(float)
                np.testing.assert_allclose(mine[other.index].to_numpy(), other.to_numpy(),
                                           rtol=0, atol=1e-12, err_msg=f"{path.name} {name}")
    finally:
        QRELS = saved


# ------------------------------------------------------------- several cutoffs of one measure
def _alone(measure: str) -> float:
    """The measure asked by itself (one request, one cutoff): the reference value."""
    v = ys.evaluate(QRELS, RUNS[:1], [measure], per_topic=False, names="trec_eval")
    assert len(v) == 1
    return float(v["value"].iloc[0])


@pytest.mark.parametrize("asked", [["P@5", "P@10"], ["P.5", "P.10"], ["P.5", "map", "P.10"],
                                   ["nDCG@5", "nDCG@10", "nDCG@20"],
                                   ["ndcg_cut.5", "ndcg_cut.10"], ["IPrec@0.1", "IPrec@0.5"]])
def test_the_api_computes_every_cutoff_asked(asked):
    """A second cutoff of one measure was silently dropped (``P@5`` and ``P@10`` gave only
    P@5): each asked measure is there, equal to the measure asked alone."""
    got = ys.evaluate(QRELS, RUNS[:1], asked, per_topic=False)
    assert len(got) == len(asked)
    for m, (_, row) in zip(sorted(asked), got.sort_values("measure").iterrows()):
        assert row["value"] == _alone(m)


def test_the_cli_merges_ecosystem_cutoffs_and_keeps_trec_evals_rule():
    """``-m P@5 -m P@10`` prints both; ``-m P.5 -m P.10`` prints only P_5, as trec_eval
    10.0 does (``meas_init.c`` keeps the first parameters of a measure)."""
    def cli(*ms):
        args = [a for m in ms for a in ("-m", m)]
        out = subprocess.run([sys.executable, "-m", "yardstick.cli", "eval", *args, str(QRELS),
                              str(RUNS[0])], capture_output=True, text=True, check=True).stdout
        return [line.split()[0] for line in out.splitlines()]

    assert cli("P@5", "P@10") == ["P_5", "P_10"]
    assert cli("nDCG@20", "nDCG@5") == ["ndcg_cut_5", "ndcg_cut_20"]
    assert cli("P.5", "P.10") == ["P_5"]
    assert cli("P.5", "P@10") == ["P_5", "P_10"]          # one ecosystem name asks for both


def test_report_comparison_table_takes_two_cutoffs(tmp_path):
    out = tmp_path / "rep"
    subprocess.run([sys.executable, "-m", "yardstick.cli", "report", "--qrels", str(QRELS),
                    "--out", str(out), "--formats", "csv", "--comparison-table",
                    "--measures", "nDCG@5,nDCG@10,P.10", *map(str, RUNS)],
                   check=True, capture_output=True)
    table = pd.read_csv(out / "Comparison" / "comparison.csv")
    assert [c for c in table.columns if not c.endswith("_marker")] == [
        "letter", "run", "ndcg_cut_5", "ndcg_cut_10", "P_10"]
    assert table["ndcg_cut_10"].iloc[0] == pytest.approx(_alone("nDCG@10"), abs=0)
