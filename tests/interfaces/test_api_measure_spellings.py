"""Every API function that takes measures takes trec_eval's, ir_measures' and ranx's
spelling and the column name alike (``P.10``, ``P@10``, ``P_10``): the same numbers."""

from __future__ import annotations

import pandas as pd
import pytest

import yardstick as ys
from yardstick.evaluation.measures.column_names import column_name, request_name

SPELLINGS = ["P.10", "P@10", "P_10"]


@pytest.fixture(scope="module")
def sample():
    p = ys.sample_paths()
    return p["qrels"], p["runs"][:4]


@pytest.mark.parametrize("name,column", [("P.10", "P_10"), ("P@10", "P_10"), ("P_10", "P_10"),
                                          ("precision@10", "P_10"), ("nDCG@10", "ndcg_cut_10"),
                                          ("ndcg_cut_10", "ndcg_cut_10"), ("AP", "map"),
                                          ("area", "area"), ("P.5,10", "P.5,10")])
def test_column_name(name, column):
    assert column_name(name) == column


def test_request_name_turns_a_column_into_trec_eval():
    assert request_name("P_10") == "P.10"
    assert request_name("P@10") == "P@10"
    assert request_name("area") == "area"


def _reference(sample):
    """P_10 per run from trec_eval's spelling through evaluate (checked against trec_eval
    elsewhere: tests/interfaces/test_trec_eval_golden.py)."""
    qrels, runs = sample
    frame = ys.evaluate(qrels, runs, ["P.10"], per_topic=False)
    return frame.set_index("run")["value"]


@pytest.mark.parametrize("name", SPELLINGS + ["precision@10"])
def test_evaluate(sample, name):
    """ys.evaluate refused the column's spelling ("unknown measure 'P_10'; ... ask for
    'P.10'") that every other API function takes."""
    qrels, runs = sample
    got = ys.evaluate(qrels, runs, [name], per_topic=False).set_index("run")["value"]
    pd.testing.assert_series_equal(got, _reference(sample), check_names=False)
    assert ys.evaluate(qrels, runs, name, per_topic=False)["value"].tolist() == got.tolist()


@pytest.mark.parametrize("name", SPELLINGS)
def test_stability_report(sample, name):
    qrels, runs = sample
    rep = ys.stability_report(qrels, runs, measures=[name], analyses=["swap"], samples=20)
    text = rep.to_frame().to_string()
    assert "P_10" in text


@pytest.mark.parametrize("name", SPELLINGS)
def test_compare(sample, name):
    qrels, runs = sample
    table = ys.compare(qrels, runs, measure=name)
    ref = _reference(sample)
    assert len(table) == len(runs) - 1
    # the best run by P_10 is the default baseline: its mean is the largest
    assert table["baseline"].iloc[0] == ref.idxmax()


@pytest.mark.parametrize("name", SPELLINGS)
def test_experiment(sample, name):
    qrels, runs = sample
    table = ys.experiment(qrels, runs, measures=["map", name])
    assert any("P_10" in str(c) for c in table.columns) or "P_10" in table.to_string()


@pytest.mark.parametrize("name", SPELLINGS)
def test_pool_report(sample, name):
    qrels, runs = sample
    rep = ys.pool_report(qrels, runs, analyses=("uniques",), measure=name)
    frames = rep.tables()
    assert any("P_10" in f.to_string() for f in frames.values())


@pytest.mark.parametrize("name", SPELLINGS)
def test_compare_qrels(sample, name):
    qrels, runs = sample
    tables = ys.compare_qrels([qrels, qrels], runs, measure=name)
    scores = tables["scores"]
    ref = _reference(sample)
    assert set(scores["measure"]) == {"P_10"}
    got = scores.drop_duplicates("run").set_index("run")["score"]
    pd.testing.assert_series_equal(got.sort_index(), ref.sort_index(), check_names=False)


@pytest.mark.parametrize("name", SPELLINGS)
def test_compare_systems(sample, name):
    qrels, runs = sample
    names = ys.wide(_evaluate(sample)).index.tolist()
    systems = {r: ("a" if i % 2 else "b") for i, r in enumerate(names)}
    tables = ys.compare_systems(qrels, runs, systems=systems, measure=name)
    assert len(tables["systems"]) == 2


def _evaluate(sample):
    qrels, runs = sample
    return ys.evaluate(qrels, runs, ["P.10"], per_topic=False)


@pytest.mark.parametrize("name", SPELLINGS)
def test_export_table_decimals(sample, tmp_path, name):
    table = ys.wide(_evaluate(sample))
    out = ys.export_table(table, tmp_path / "t.md", decimals={name: 1})
    rows = [r for r in open(out).read().splitlines() if r.startswith("|")][2:]
    value = rows[0].strip("| ").split("|")[-1].strip()
    assert len(value.split(".")[-1]) == 1, value
