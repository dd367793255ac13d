"""The system-ranking chart: every run's mean with its t interval, best first (issue #16)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from yardstick.presentation.charts.system_ranking import ranked_means

SCORES = pd.DataFrame({"A": [0.5, 0.2, 0.0, 0.9, 0.4], "B": [0.3, 0.4, 0.1, 0.6, np.nan],
                       "C": [0.4, 0.3, 0.2, 0.3, 0.2], "D": [0.3, 0.4, 0.1, 0.6, 0.1]},
                      index=["1", "2", "3", "10", "11"])


def test_means_and_intervals_are_students_t_over_the_topics():
    sr = ranked_means(SCORES, "map", baseline="C")
    # A 0.40, B 0.35 (4 topics: topic 11 missing), D 0.30, C 0.28
    assert sr.runs == ("A", "B", "D", "C")
    for i, run in enumerate(sr.runs):
        v = SCORES[run].dropna().to_numpy()
        lo, hi = stats.t.interval(0.95, len(v) - 1, loc=v.mean(), scale=stats.sem(v))
        assert sr.mean[i] == pytest.approx(v.mean(), abs=1e-15)
        assert (sr.low[i], sr.high[i]) == (pytest.approx(lo, abs=1e-12),
                                           pytest.approx(hi, abs=1e-12))
        assert sr.topics[i] == len(v)
    f = sr.to_frame()
    assert f.columns.tolist() == ["rank", "run", "measure", "mean", "ci_low_95%", "ci_high_95%",
                                  "topics", "baseline"]
    assert f.loc[f["baseline"], "run"].tolist() == ["C"]


def test_equal_means_as_fractions_tie_and_go_by_name():
    s = pd.DataFrame({"zeta": [0.1, 0.2, 0.4], "alpha": [0.4, 0.1, 0.2]}, index=["1", "2", "3"])
    assert ranked_means(s, "P_10").runs == ("alpha", "zeta")


def test_the_window_draws_and_exports_it(qtbot, tmp_path, monkeypatch):
    pytest.importorskip("pytestqt")
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "settings"))
    from PySide6.QtGui import QGuiApplication

    from yardstick.gui.charts.system_ranking_chart import SystemRankingChart
    from yardstick.gui.export_actions import export_plot

    chart = SystemRankingChart()
    qtbot.addWidget(chart)
    chart.resize(640, 420)
    chart.show()
    sr = ranked_means(SCORES, "map", baseline="C")
    chart.set_data(sr)
    QGuiApplication.processEvents()
    assert chart.hover_text_at(sr.mean[3], 3).startswith("#4 C (baseline)\nmean 0.2800\n95% CI")
    ticks = chart.plot_item.getAxis("left")._tickLevels[0]
    assert [t[1] for t in ticks] == ["A", "B", "D", "C ◀"]
    svg = export_plot(chart, tmp_path / "sr.svg").read_text()
    assert "Runs by mean map with 95% confidence intervals" in svg and "<image" not in svg


def test_the_report_has_it(tmp_path):
    from yardstick.cli import main

    (tmp_path / "q").write_text("".join(f"{t} 0 d{t}{i} {i % 2}\n" for t in (1, 2, 3)
                                        for i in range(6)))
    for name, shift in (("r1", 0), ("r2", 1)):
        (tmp_path / name).write_text("".join(f"{t} Q0 d{t}{(i + shift) % 6} {i} {6 - i} {name}\n"
                                             for t in (1, 2, 3) for i in range(6)))
    assert main(["report", "--qrels", str(tmp_path / "q"), "--out", str(tmp_path / "rep"),
                 "--formats", "csv,svg", str(tmp_path / "r1"), str(tmp_path / "r2")]) == 0
    frame = pd.read_csv(tmp_path / "rep" / "All_runs" / "system_ranking.csv")
    assert frame["run"].tolist()[0] in ("r1", "r2") and len(frame) == 2
    assert (tmp_path / "rep" / "All_runs" / "system_ranking.svg").exists()
