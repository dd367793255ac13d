"""``yardstick stability`` on the robust03 runs (real, or the generated track with their
layout: :mod:`tests.generated_track`; published numbers only on the real ones)."""

from pathlib import Path

import pandas as pd
import pytest
from scipy import stats

from tests.shared_data import REAL_ROBUST03, robust03_dir
from yardstick.cli import main

DATA = robust03_dir()
QRELS = str(DATA / "qrels" / "robust03_qrels.txt")


def _runs(names=None):
    paths = sorted((DATA / "runs").glob("input.*.gz"))
    return [str(p) for p in paths if names is None or p.name[6:-3] in names]


def test_kendall_matrix_of_the_17_runs(tmp_path, capsys):
    rc = main(["stability", "--qrels", QRELS, "-m", "map", "-m", "P_10", "-a", "kendall",
               "--seed", "1", "--out", str(tmp_path), *_runs()])
    assert rc == 0
    printed = capsys.readouterr().out
    matrix = pd.read_csv(tmp_path / "kendall_matrix.csv", index_col=0)
    tau = matrix.loc["map", "P_10"]
    assert "seed 1" in printed and f"{tau:.4f}" in printed
    if REAL_ROBUST03:
        assert round(tau, 4) == 0.7647
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.evaluation_service import EvalOptions, score_matrix
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.session.evaluating import evaluate_runs
    evs = run_sync(evaluate_runs([read_run(p) for p in _runs()], read_qrels(QRELS),
                                 ["map", "P.10"], EvalOptions(complete=True)))
    mapm, p10 = (score_matrix(evs, m).fillna(0.0).mean() for m in ("map", "P_10"))
    # rankings with ties broken by MAP (the report's rule), then Kendall's tau of positions
    # (means rounded to 12 places: equal sums of P_10 values may differ in the last bit)
    order = {m: sorted(mapm.index, key=lambda r: (-round(s[r], 12), -mapm[r])) for m, s in
             (("map", mapm), ("P_10", p10))}
    pos = {m: [o.index(r) for r in mapm.index] for m, o in order.items()}
    assert tau == pytest.approx(stats.kendalltau(pos["map"], pos["P_10"])[0], abs=1e-12)
    strings = pd.read_csv(tmp_path / "ranking_strings.csv")
    assert strings["ranking"].str.len().tolist() == [17, 17]
    assert strings.loc[0, "ranking"] == "ABCDEFGHIJKLMNOPQ"     # symbols follow MAP


def test_several_analyses_groups_and_seed(tmp_path, capsys):
    runs = _runs({"aplrob03a", "UIUC03Rd1", "pircRBa1", "humR03dc"})
    args = ["stability", "--qrels", QRELS, "-m", "map", "-a", "error-rate", "-a", "swap",
            "-a", "tukey", "-B", "30", "--seed", "5", "--topic-group", "old=301-450",
            "--topic-group", "new=601-650", *runs]
    assert main([*args, "--out", str(tmp_path / "a")]) == 0
    assert main([*args, "--out", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    er_a = pd.read_csv(tmp_path / "a" / "error_rate.csv")
    er_b = pd.read_csv(tmp_path / "b" / "error_rate.csv")
    pd.testing.assert_frame_equal(er_a, er_b)              # same seed, same numbers
    assert er_a["topic_set"].tolist() == ["all", "old", "new"]
    assert er_a["subset_size"].tolist() == [50, 25, 25]
    assert (er_a["error_rate_pct"] <= 50).all()
    for stem in ("disjoint_summary", "disjoint_fits_map_all", "disjoint_rates_map_old",
                 "tukey_map_all"):
        assert (tmp_path / "a" / f"{stem}.csv").is_file()


def test_bad_topic_group_is_a_format_error(capsys):
    rc = main(["stability", "--qrels", QRELS, "-a", "error-rate", "--topic-group", "x=900-950",
               *_runs({"aplrob03a", "UIUC03Rd1"})])
    assert rc == 1
    assert "selects no topics" in capsys.readouterr().err


def test_out_writes_every_number_at_full_precision(tmp_path, capsys):
    """t-test p-values per pair, the Tukey p-value matrix and the per-bin sensitivity table
    leave with --out, unrounded, with provenance."""
    import json

    import numpy as np
    from scipy import stats

    from yardstick.common.progress import run_sync
    from yardstick.evaluation.evaluation_service import EvalOptions, score_matrix
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.session.evaluating import evaluate_runs

    runs = _runs({"aplrob03a", "UIUC03Rd1", "pircRBa1"})
    assert main(["stability", "--qrels", QRELS, "-m", "map", "-a", "discriminative", "-a",
                 "tukey", "-a", "sensitivity", "-B", "20", "--seed", "3", "--out",
                 str(tmp_path), *runs]) == 0
    capsys.readouterr()
    pairs = pd.read_csv(tmp_path / "pairs_map_all.csv")
    evs = run_sync(evaluate_runs([read_run(p) for p in runs], read_qrels(QRELS), ["map"],
                                 EvalOptions(complete=True)))
    mat = score_matrix(evs, "map").fillna(0.0)
    a, b = pairs.loc[0, "run_a"], pairs.loc[0, "run_b"]
    assert pairs.loc[0, "p_value_t"] == pytest.approx(stats.ttest_rel(mat[a], mat[b]).pvalue,
                                                rel=1e-9)
    tukey = pd.read_csv(tmp_path / "tukey_pvalues_map_all.csv", index_col="run")
    assert tukey.shape == (3, 3) and np.allclose(np.diag(tukey.to_numpy()), 1.0)
    bins = pd.read_csv(tmp_path / "sensitivity_bins_map_all.csv")
    assert list(bins.columns) == ["bin_lo", "bin_hi", "comparisons", "swaps", "swap_rate",
                                  "share_at_or_above"]
    text = (tmp_path / "discriminative_power.csv").read_text()
    assert any(len(x.split(".")[-1]) > 4 for x in text.split(",") if "." in x)   # not rounded
    prov = json.loads((tmp_path / "pairs_map_all.provenance.json").read_text())
    assert prov["seeds"] == {"stability": 3} and prov["options"]["complete"] is True
    assert [r["tag"] for r in prov["runs"]] == [Path(p).name[6:-3] for p in runs]


def test_default_seed_is_zero_as_in_the_api(tmp_path, capsys):
    """Without ``--seed`` the CLI uses seed 0, as ``ys.stability_report``, the window and
    ``report`` do: the same command prints the same tables (it drew a random seed before)."""
    import yardstick as ys

    runs = _runs({"aplrob03a", "UIUC03Rd1", "pircRBa1", "humR03dc"})
    args = ["stability", "--qrels", QRELS, "-m", "map", "-a", "discriminative", "-B", "40",
            *runs]
    assert main([*args, "--out", str(tmp_path / "a")]) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first and "seed 0" in first
    api = ys.stability_report(QRELS, runs, measures=("map",), analyses=("discriminative",),
                              samples=40)
    cli = pd.read_csv(tmp_path / "a" / "discriminative_power.csv", comment="#")
    assert cli["discriminative_power"].tolist() == \
        api.table("discriminative_power")["discriminative_power"].tolist()
