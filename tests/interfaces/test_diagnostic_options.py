"""Diagnostics refuse nonsense options before any work starts, and take several cutoffs of
one measure (issue: never a silent wrong number)."""

from __future__ import annotations

import lzma
import subprocess
import sys
from pathlib import Path

import pytest

from yardstick.cli.stability_cmd import merge_cutoffs

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "sample"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("runs")
    out = []
    for name in ("okBM25", "okBM25a", "lxPorter"):
        p = d / name
        p.write_bytes(lzma.decompress((SAMPLE / "runs" / f"{name}.xz").read_bytes()))
        out.append(str(p))
    return out


def cli(*args):
    return subprocess.run([sys.executable, "-m", "yardstick.cli", *map(str, args)],
                          capture_output=True, text=True)


@pytest.mark.parametrize("command,option,message", [
    ("stability", ["--confidence", "1.5"], "argument --confidence: must lie in (0, 1), not 1.5"),
    ("stability", ["--fuzziness", "1.5"], "argument --fuzziness: must lie in [0, 1), not 1.5"),
    ("stability", ["-B", "1"], "argument -B/--samples: must be 2 or more (resampling needs "
                               "samples), not 1"),
    ("stability", ["--alpha", "0"], "argument --alpha: must lie in (0, 1), not 0"),
    ("stability", ["--bin-width", "-0.01"], "argument --bin-width: must be a number above 0"),
    ("pool", ["--depth", "0"], "argument --depth: must be 1 or more (a pool takes at least "
                               "one document a run), not 0"),
    ("pool", ["--depth", "-5"], "argument --depth: must be 1 or more"),
    ("pool", ["--seed", "-1"], "argument --seed: must be 0 or more, not -1"),
])
def test_nonsense_is_refused_before_any_work(runs, command, option, message):
    out = cli(command, "--qrels", SAMPLE / "cranfield.qrels", *option, *runs)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr


def test_merge_cutoffs():
    assert merge_cutoffs(["P.5", "P.10", "map", "ndcg_cut.10", "P.5", "ndcg.1=3"]) == [
        "P.5,10", "map", "ndcg_cut.10", "ndcg.1=3"]


def test_stability_takes_two_cutoffs_of_one_measure(runs, tmp_path):
    """-m P_5 -m P_10 once failed with "no per-topic values for 'P_10'"."""
    out = cli("stability", "--qrels", SAMPLE / "cranfield.qrels", "-m", "P_5", "-m", "P_10",
              "-a", "kendall", "-B", "20", "--out", tmp_path, *runs)
    assert out.returncode == 0, out.stderr
    import pandas as pd

    strings = pd.read_csv(tmp_path / "ranking_strings.csv")
    assert sorted(strings["label"]) == ["P_10", "P_5"]
