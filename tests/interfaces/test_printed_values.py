"""How values are printed: NaN with the sign trec_eval's printf gives it, counts as integers.

``-q -l 0 -m Rndcg`` on a topic whose judgments are all grade 0 divides 0 by 0 in
``m_Rndcg.c`` (``sum / num_changed_ideal_gain``); trec_eval 10.0 prints ``-nan`` on
x86, where the processor's default NaN has the sign bit set; we printed ``nan``.
``num_q`` came out as ``249.0`` in CSV and JSON, where trec_eval prints ``249``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

QRELS = "1 0 a 0\n1 0 b 1\n2 0 c 0\n"
RUN = "1 Q0 a 1 1 t\n1 Q0 b 2 0.5 t\n2 Q0 c 1 1 t\n"


def _eval(tmp_path, *args) -> str:
    (tmp_path / "q").write_text(QRELS)
    (tmp_path / "r").write_text(RUN)
    return subprocess.run([sys.executable, "-m", "yardstick.cli", "eval", *args,
                           str(tmp_path / "q"), str(tmp_path / "r")],
                          capture_output=True, text=True, check=True).stdout


def test_zero_over_zero_prints_as_c_prints_it(tmp_path):
    with np.errstate(invalid="ignore"):
        c_nan = np.float64(0.0) / np.float64(0.0)     # what m_Rndcg.c computes on this machine
    shown = ("-nan" if np.signbit(c_nan) else "nan").rjust(6)
    lines = _eval(tmp_path, "-q", "-l", "0", "-m", "Rndcg").splitlines()
    assert [ln.split("\t")[1:] for ln in lines[1:]] == [["2", shown], ["all", shown]]


def test_counts_are_integers_in_every_format(tmp_path):
    csv_lines = _eval(tmp_path, "-m", "num_q", "-m", "num_ret", "--format", "csv").splitlines()
    assert csv_lines[1:] == ["t,all,num_q,2", "t,all,num_ret,3"]
    summary = json.loads(_eval(tmp_path, "-m", "num_q", "--format", "json"))["summary"]
    assert summary == {"num_q": 2} and isinstance(summary["num_q"], int)
    assert "| all | 2 |" in _eval(tmp_path, "-m", "num_q", "--format", "markdown")


def test_several_runs_are_told_apart_in_every_format(tmp_path):
    """Two runs in one call: text gets trec_eval's runid line before each run, JSON is one
    document (a list), Markdown a titled table per run (two tables ran together)."""
    (tmp_path / "q").write_text(QRELS)
    for tag in ("r1", "r2"):
        (tmp_path / tag).write_text(RUN.replace(" t\n", f" {tag}\n"))

    def ev(*args):
        return subprocess.run([sys.executable, "-m", "yardstick.cli", "eval", "-m", "map", *args,
                               str(tmp_path / "q"), str(tmp_path / "r1"), str(tmp_path / "r2")],
                              capture_output=True, text=True, check=True).stdout

    lines = [ln.split("\t") for ln in ev().splitlines()]
    assert [(a.strip(), c) for a, _, c in lines] == [("runid", "r1"), ("map", "0.2500"),
                                                     ("runid", "r2"), ("map", "0.2500")]
    docs = json.loads(ev("--format", "json"))
    assert [d["runid"] for d in docs] == ["r1", "r2"] and docs[0]["summary"]["map"] == 0.25
    md = ev("--format", "markdown")
    assert md.index("**r1**") < md.index("| all |") < md.index("**r2**")
    assert md.count("| topic | map |") == 2
    one = subprocess.run([sys.executable, "-m", "yardstick.cli", "eval", "-m", "map",
                          str(tmp_path / "q"), str(tmp_path / "r1")], capture_output=True,
                         text=True, check=True).stdout
    assert one == "map                   \tall\t0.2500\n"       # one run: trec_eval's text
