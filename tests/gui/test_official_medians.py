"""Official per-topic medians, or medians over a chosen set of runs (issue #16).

A participant with one run and NIST's per-topic best/median/worst table can draw
the appendix's difference-from-median histogram; the chart says which median it
shows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from yardstick.cli import main
from yardstick.common.errors import FormatError
from yardstick.inputs.io.medians_file import read_medians
from yardstick.presentation.charts.median_difference import median_difference, median_runs


@pytest.mark.parametrize("text", [
    "301 0.9 0.4 0.0\n302 0.5 0.25 0.1\n",
    "# NIST\ntopic\tbest\tmedian\tworst\n301\t0.9\t0.4\t0.0\n\n302\t0.5\t0.25\t0.1\n",
    "Topic,Median,Best\n301,0.4,0.9\n302,0.25,0.5\n",
    "map 301 0.9 0.4 0.0\nmap 302 0.5 0.25 0.1\nP_10 301 1.0 0.5 0.0\nP_10 302 0.6 0.3 0\n",
])
def test_layouts(tmp_path, text):
    p = tmp_path / "medians"
    p.write_text(text)
    f = read_medians(p, measure="map")
    assert f.index.tolist() == ["301", "302"]
    assert f["median"].tolist() == [0.4, 0.25] and f["best"].tolist() == [0.9, 0.5]


def test_bad_files_are_named(tmp_path):
    p = tmp_path / "m"
    p.write_text("301 0.9 x 0.0\n")
    with pytest.raises(FormatError) as e:
        read_medians(p)
    assert (e.value.line, e.value.reason) == (1, "best, median and worst must be numbers")
    p.write_text("301 0.9\n")
    with pytest.raises(FormatError) as e:
        read_medians(p)
    assert "expected 'topic best median worst' (3 to 5 fields), found 2" in e.value.reason


def test_one_run_against_official_medians():
    scores = pd.DataFrame({"mine": [0.5, 0.2, 0.7]}, index=["301", "302", "303"])
    official = pd.DataFrame({"best": [0.9, 0.5], "median": [0.4, 0.25],
                             "worst": [0.0, 0.1], "measure": ["map", "map"]},
                            index=pd.Index(["301", "302"], name="topic"))
    md = median_difference(scores, "mine", "map", medians=official,
                           median_source="official medians (m.txt)")
    assert md.topics == ("301", "302")                  # 303 has no official median
    assert np.allclose(md.difference, [0.1, -0.05]) and np.allclose(md.max_difference,
                                                                      [0.5, 0.25])
    assert md.source == "official medians (m.txt)" and md.n_runs == 0


def test_median_over_one_run_per_team():
    chosen, said = median_runs(["a1", "a2", "b1", "c1", "c2"], "per-team",
                               groups=["A", "A", "B", "C", "C"])
    assert chosen == ["a1", "b1", "c1"] and said == "one run per team (3)"
    scores = pd.DataFrame({"a1": [0.1], "a2": [0.9], "b1": [0.3], "c1": [0.5], "c2": [0.0]},
                          index=["1"])
    md = median_difference(scores, "a2", runs=chosen, median_source=said)
    assert md.median.tolist() == [0.3] and md.source == "one run per team (3)"


def test_report_with_one_run_and_official_medians(tmp_path):
    (tmp_path / "q").write_text("".join(f"{t} 0 d{t}{i} {i % 2}\n" for t in (301, 302)
                                        for i in range(4)))
    (tmp_path / "run").write_text("".join(f"{t} Q0 d{t}{i} {i} {4 - i} mine\n"
                                          for t in (301, 302) for i in range(4)))
    (tmp_path / "medians.txt").write_text("301 0.9 0.4 0.0\n302 0.5 0.25 0.1\n")
    assert main(["report", "--qrels", str(tmp_path / "q"), "--out", str(tmp_path / "rep"),
                 "--formats", "csv", "--medians", str(tmp_path / "medians.txt"),
                 str(tmp_path / "run")]) == 0
    frame = pd.read_csv(next((tmp_path / "rep").rglob("map_vs_median.csv")))
    assert frame["median"].tolist() == [0.4, 0.25] and frame["maximum"].tolist() == [0.9, 0.5]


def test_the_charts_panel_draws_one_run_against_official_medians(qtbot, tmp_path):
    pytest.importorskip("pytestqt")
    from yardstick.gui.app_state import AppState
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels.charts_panel import MEDIAN, OFFICIAL, ChartsPanel
    from yardstick.inputs.io import read_qrels, read_run

    (tmp_path / "q").write_text("".join(f"{t} 0 d{t}{i} {i % 2}\n" for t in (301, 302)
                                        for i in range(4)))
    (tmp_path / "run").write_text("".join(f"{t} Q0 d{t}{i} {i} {4 - i} mine\n"
                                          for t in (301, 302) for i in range(4)))
    (tmp_path / "m.txt").write_text("topic best median worst\n301 0.9 0.4 0.0\n"
                                    "302 0.5 0.25 0.1\n")
    state = AppState()
    state.set_qrels(read_qrels(tmp_path / "q"))
    state.add_runs([read_run(tmp_path / "run")])
    panel = ChartsPanel(state, JobRunner())
    qtbot.addWidget(panel)
    panel.chart_box.setCurrentText(MEDIAN)
    assert panel.load_official_medians(str(tmp_path / "m.txt"))
    assert panel.median_box.currentText() == OFFICIAL
    md = panel.make_data()
    assert md.source == "official medians (m.txt)" and md.median.tolist() == [0.4, 0.25]
    panel.show_data(md)
    assert "official medians (m.txt)" in panel.current_chart().plot_item.titleLabel.text
