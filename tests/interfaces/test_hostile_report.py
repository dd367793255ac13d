"""``yardstick report`` refuses unknown measure names up front (was a MeasureError traceback)."""

from __future__ import annotations

import pytest

from yardstick.cli import main


@pytest.mark.parametrize("option, value", [("--measures", "map,nosuch"), ("--measure", "nosuch")])
def test_unknown_measure_is_refused_before_reading(tmp_path, capsys, option, value):
    status = main(["report", "--qrels", str(tmp_path / "never-read"), "--out", str(tmp_path / "o"),
                   "--comparison-table", option, value, str(tmp_path / "never-read-run")])
    assert status == 1
    assert capsys.readouterr().err == (f"yardstick report: {option}: unknown measure 'nosuch'; "
                                       "see 'yardstick eval --list' for every name\n")
    assert not (tmp_path / "o").exists()


def test_a_printed_column_name_asks_for_its_measure(tmp_path):
    """``--measures map,P_10`` (P_10 is how trec_eval prints P.10) makes the P.10 table, as
    ``yardstick stability -m P_10`` and the API take it; it was refused ("ask for 'P.10'")."""
    import csv

    from yardstick.inputs.bundled import RESOURCES

    example = RESOURCES / "systems_example"
    runs = sorted(str(p) for p in (example / "runs").iterdir())[:4]
    assert main(["report", "--qrels", str(example / "qrels.nist.txt"), "--out",
                 str(tmp_path / "o"), "--comparison-table", "--measure", "P_10",
                 "--measures", "map,P_10", "--formats", "csv", *runs]) == 0
    with open(tmp_path / "o" / "Comparison" / "comparison.csv") as f:
        header = next(csv.reader(f))
    assert header == ["letter", "run", "map", "map_marker", "P_10", "P_10_marker"]
