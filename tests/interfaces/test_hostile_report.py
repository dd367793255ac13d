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
