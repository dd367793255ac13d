"""trec_eval parity left over (issue: never a silent wrong number): yaap, option ranges and
the --format outputs (valid JSON, integer counts, -n, -Z, the text output's order)."""

from __future__ import annotations

import json
import lzma
import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QRELS = ROOT / "resources" / "sample" / "cranfield.qrels"
GOLD = ROOT / "tests" / "data" / "trec_eval_10"


@pytest.fixture(scope="module")
def run_file(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("run") / "okBM25"
    p.write_bytes(lzma.decompress((ROOT / "resources/sample/runs/okBM25.xz").read_bytes()))
    return p


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yardstick.cli", "eval", *map(str, args)],
                          capture_output=True, text=True)


@pytest.mark.parametrize("opts,gold", [((), "okBM25.yaap_map.q"),
                                       (("-c", "-M50", "-l2"), "okBM25.yaap.c_M50_l2.q")])
def test_yaap_is_trec_eval_10s_to_the_byte(run_file, opts, gold):
    measures = ["-m", "yaap", "-m", "map"] if gold == "okBM25.yaap_map.q" else ["-m", "yaap"]
    out = cli(*opts, "-q", *measures, QRELS, run_file)
    assert out.returncode == 0, out.stderr
    assert out.stdout == (GOLD / gold).read_text()


def test_yaap_formula_by_hand():
    """Robertson (2012): log((1 + S) / (1 + R - S)), S = sum of precision at each relevant."""
    import yardstick as ys

    q = {"1": {"a": 1, "b": 0, "c": 1, "d": 1}}        # R = 3
    r = {"1": {"a": 4.0, "b": 3.0, "c": 2.0, "x": 1.0}}  # relevant at ranks 1 and 3
    s = 1 / 1 + 2 / 3
    got = ys.evaluate(q, ys.read_runs(r, name="r"), ["yaap"], per_topic=False)["value"][0]
    assert got == pytest.approx(math.log((1 + s) / (1 + 3 - s)), abs=1e-15)


@pytest.mark.parametrize("opt,why", [("-M-1", "crashes"), ("-l-1", "AP can exceed 1"),
                                     ("-N-5", "negative number of documents")])
def test_negative_options_are_refused_with_the_reason(run_file, opt, why):
    out = cli(opt, "-m", "map", QRELS, run_file)
    assert out.returncode == 2
    assert f"argument {opt[:2]}: must be 0 or more" in out.stderr and why in out.stderr
    assert "Traceback" not in out.stderr


def test_json_is_valid_with_integer_counts_and_null_for_nan(run_file):
    out = cli("--format", "json", "-q", "-m", "num_ret", "-m", "num_rel", "-m", "map",
              QRELS, run_file)
    data = json.loads(out.stdout)  # a bare NaN would fail here (strict json)
    assert data["summary"]["num_ret"] == 22500 and isinstance(data["summary"]["num_ret"], int)
    assert isinstance(data["per_topic"]["1"]["num_rel"], int)
    text = cli("-m", "map", QRELS, run_file).stdout.split("\t")
    assert f"{data['summary']['map']:.4f}" == text[2].strip()
    from yardstick.evaluation.trec_format import _cell

    assert json.dumps(_cell(float("nan"), "float")) == "null"


def test_formats_follow_n_and_z_and_the_text_order(run_file, tmp_path):
    z = tmp_path / "z"
    z.write_text("1 map 0.2 0.1\n")
    out = cli("--format", "csv", "-q", "-n", "-Z", z, "-m", "map", "-m", "num_ret",
              QRELS, run_file).stdout.splitlines()
    assert out[0] == "run,topic,measure,value"
    assert out[1:3] == ["okBM25,1,Znum_ret,-1000000.0", "okBM25,1,Zmap,-0.24037511588536759"]
    assert not any(",all," in line for line in out)  # -n: no summary
    md = cli("--format", "markdown", "-m", "P.5", "-m", "map", "-m", "num_ret",
             QRELS, run_file).stdout.splitlines()
    text = [ln.split("\t")[0].strip() for ln in
            cli("-m", "P.5", "-m", "map", "-m", "num_ret", QRELS, run_file).stdout.splitlines()]
    assert md[0] == "| topic | " + " | ".join(text) + " |"
