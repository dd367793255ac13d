"""Stability says what makes a result empty or trivial, and one failing analysis does not
abort the others (issue #14)."""

from __future__ import annotations

import pandas as pd

from yardstick.analysis.stability.input_notes import input_warnings
from yardstick.cli import main


def _mat(cols):
    return pd.DataFrame(cols, index=[str(t) for t in range(1, len(next(iter(cols.values()))) + 1)])


def test_identical_zero_and_tiny_inputs_are_named():
    mat = _mat({"a": [0.5, 0.2, 0.1, 0.3], "b": [0.5, 0.2, 0.1, 0.3],
                "c": [0.0, 0.0, 0.0, 0.0], "d": [0.1, 0.2, 0.3, 0.4]})
    assert input_warnings({"map": mat}, {"all": list(mat.index)}) == [
        "map: 1 run(s) score 0 on every topic: c",
        "map: runs with identical per-topic scores (their difference is 0 in every sample, "
        "so they always tie): a = b"]
    zero = _mat({"a": [0.0, 0.0], "b": [0.0, 0.0]})
    assert input_warnings({"P_10": zero}, {"all": ["1", "2"]}) == [
        "P_10: every run scores 0 on every topic: nothing tells the runs apart (is the "
        "relevance level or the qrels right?)",
        "all: only 2 topic(s): the swap-rate analyses compare disjoint halves of at least 2 "
        "topics each, so their rates and minimum differences are empty (NaN); other results "
        "rest on very few topics"]


def test_identical_runs_on_two_topics_still_give_a_report(tmp_path, capsys):
    """This once ended with "yardstick stability: yardstick stability: the difference and
    the variance must be > 0" and no report at all."""
    (tmp_path / "q").write_text("1 0 a 1\n1 0 b 0\n2 0 c 1\n2 0 d 1\n")
    for tag in ("s1", "s2"):
        (tmp_path / tag).write_text(f"1 Q0 a 1 3 {tag}\n1 Q0 b 2 2 {tag}\n"
                                    f"2 Q0 c 1 3 {tag}\n2 Q0 d 2 2 {tag}\n")
    assert main(["stability", "--qrels", str(tmp_path / "q"), "-m", "map", "-B", "20",
                 "--seed", "1", str(tmp_path / "s1"), str(tmp_path / "s2")]) == 0
    out, err = capsys.readouterr()
    assert "note: map: runs with identical per-topic scores" in err and "s1 = s2" in err
    assert ("note: Topic-set size: map, all topics skipped: the scores' residual variance is "
            "0 (no run differs from another by more than a constant on any topic), so no "
            "number of topics follows") in err
    assert "## Error rate and ties" in out and "## Randomised Tukey HSD" in out
