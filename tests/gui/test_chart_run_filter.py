"""The run filter shared by the charts (issue 15 item 2), with a generated 200-run track:
the chart draws the chosen runs, its caption says which, the export carries exactly
those runs, the choice survives a session round trip, and per-topic axes list
topics in natural order."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from yardstick.presentation.charts.run_filter import AUTO_LIMIT, RunFilter

SVG = "{http://www.w3.org/2000/svg}"
N_RUNS, TOPICS, DOCS = 200, [str(t) for t in range(1, 13)], 40


# ---------------------------------------------------------------- core (no Qt)

MEANS = {"a": 0.30, "b": 0.50, "c": math.nan, "d": 0.50, "e": 0.10}
TEAMS = {"a": "uog", "b": "pirc", "c": "uog", "d": "pirc", "e": "zeta"}


def test_top_n_ranks_by_mean_ties_by_name_nan_last():
    sel = RunFilter("top", 3).select(list(MEANS), MEANS, TEAMS, "map")
    assert sel.runs == ("b", "d", "a")
    assert sel.description == "top 3 of 5 runs by map"
    assert RunFilter("top", 5).select(list(MEANS), MEANS).runs == ("b", "d", "a", "e", "c")


def test_auto_is_everything_up_to_the_limit_then_top_n():
    few = [f"r{i}" for i in range(AUTO_LIMIT)]
    assert RunFilter().select(few, {r: 0.1 for r in few}).runs == tuple(few)
    many = [f"r{i:02d}" for i in range(AUTO_LIMIT + 1)]
    means = {r: i / 100 for i, r in enumerate(many)}
    sel = RunFilter().select(many, means, measure="P_10")
    assert sel.runs == tuple(reversed(many))[:AUTO_LIMIT]
    assert sel.description == f"top {AUTO_LIMIT} of {AUTO_LIMIT + 1} runs by P_10"


def test_team_search_all_and_kept_baseline():
    assert RunFilter("team", team="pirc").select(list(MEANS), teams=TEAMS).runs == ("b", "d")
    sel = RunFilter("search", text="UO").select(list(MEANS), teams=TEAMS)
    assert sel.runs == ("a", "c") and sel.description == "runs matching 'UO': 2 of 5"
    assert RunFilter("all").select(list(MEANS)).runs == tuple(MEANS)
    sel = RunFilter("top", 1).select(list(MEANS), MEANS, keep=["e"], measure="map")
    assert sel.runs == ("b", "e") and sel.description == "top 1 of 5 runs by map (+ e)"


def test_filter_round_trips_through_plain_data_and_rejects_nonsense():
    f = RunFilter("search", 7, "uog", "bm25")
    assert RunFilter.from_dict(f.to_dict()) == f
    assert RunFilter.from_dict({"mode": "bogus"}) == RunFilter()
    assert RunFilter.from_dict(None) == RunFilter()
    with pytest.raises(ValueError):
        RunFilter("top", 0)


# ---------------------------------------------------------------- window (pytest-qt)

@pytest.fixture(scope="module")
def state200(qapp):
    """An AppState with 200 evaluated runs in 20 teams of 10 (run ``tNN_rMMM``)."""
    from yardstick.gui.app_state import AppState
    from yardstick.inputs.qrels import Qrels
    from yardstick.inputs.run import Run

    rng = np.random.default_rng(16)
    rel = {t: rng.random(DOCS) < 0.3 for t in TOPICS}
    qrels = Qrels.from_dict({t: {f"D{t}-{k}": int(r) for k, r in enumerate(rel[t])}
                             for t in TOPICS})
    runs, groups = [], {}
    for i in range(N_RUNS):
        name = f"t{i // 10:02d}_r{i:03d}"
        skill = rng.random()
        ranking = {}
        for t in TOPICS:
            score = rel[t] * skill + rng.random(DOCS)
            ranking[t] = {f"D{t}-{k}": float(score[k]) for k in range(DOCS)}
        runs.append(Run.from_dict(ranking, name=name))
        groups[name] = f"team{i // 10:02d}"
    state = AppState()
    state.set_qrels(qrels)
    state.add_runs(runs, groups=groups)
    assert len(state.evaluations()) == N_RUNS
    return state


@pytest.fixture
def panel(qtbot, state200, tmp_path, monkeypatch):
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "settings"))
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels.charts_panel import RP, ChartsPanel

    jobs = JobRunner()
    p = ChartsPanel(state200, jobs)
    qtbot.addWidget(p)
    p.resize(1200, 700)
    p.show()
    qtbot.waitExposed(p)
    p.chart_box.setCurrentText(RP)
    yield p
    jobs.shutdown()


def _redraw(qtbot, panel):
    panel.data = None
    panel.refresh()
    qtbot.waitUntil(lambda: panel.data is not None or bool(panel.status.text()), timeout=30000)


def _svg_runs(path) -> set[str]:
    root = ET.fromstring(path.read_bytes())
    texts = ["".join(e.itertext()) for e in root.iter(SVG + "text")]
    return {m.group(1) for t in texts for m in [re.match(r"(t\d\d_r\d{3})\b", t.strip())] if m}


def _top(state, k, measure="map"):
    means = {n: float(e.summary[measure]) for n, e in state.evaluations().items()}
    return set(sorted(means, key=lambda r: (-means[r], r))[:k])


@pytest.mark.parametrize("chart", ["Recall-precision", "MAP(X) vs X", "Precision at cutoffs",
                                   "Measure scatter", "System ranking (95% CI)"])
def test_default_filter_draws_and_exports_the_top_12(qtbot, panel, state200, tmp_path, chart):
    from yardstick.gui.export_actions import export_plot

    panel.chart_box.setCurrentText(chart)
    _redraw(qtbot, panel)
    want = _top(state200, AUTO_LIMIT)
    said = f"top {AUTO_LIMIT} of {N_RUNS} runs by map"
    if chart == "System ranking (95% CI)":            # the baseline is always drawn
        base = panel.run_box.currentText()
        said += f" (+ {base})" if base not in want else ""
        want = want | {base}
    w = panel.current_chart()
    assert set(w.spec.runs) == want
    # (the measure scatter adds how many runs it could label without overlaps)
    assert w.spec.caption == said or (chart == "Measure scatter"
                                       and w.spec.caption.startswith(said + "; "))
    assert said in w.plot_item.titleLabel.text.replace("<br>", " ")
    svg = export_plot(w, tmp_path / "c.svg")
    assert _svg_runs(svg) == want
    assert said in " ".join(svg.read_text().split())


def test_team_search_and_all_modes_reach_the_export(qtbot, panel, tmp_path):
    from yardstick.gui.export_actions import export_plot

    panel.filter_mode.setCurrentText("one team")
    panel.filter_team.setCurrentText("team07")
    _redraw(qtbot, panel)
    want = {f"t07_r{i:03d}" for i in range(70, 80)}
    assert set(panel.current_chart().spec.runs) == want
    assert panel.current_chart().legend.count() == 10
    assert _svg_runs(export_plot(panel.current_chart(), tmp_path / "team.svg")) == want
    panel.filter_mode.setCurrentText("search")
    panel.filter_text.setText("r19")          # r190 .. r199
    _redraw(qtbot, panel)
    want = {f"t19_r{i:03d}" for i in range(190, 200)}
    assert _svg_runs(export_plot(panel.current_chart(), tmp_path / "s.svg")) == want
    assert "runs matching 'r19': 10 of 200" in panel.current_chart().spec.caption
    panel.filter_mode.setCurrentText("all ticked runs")
    _redraw(qtbot, panel)
    assert len(panel.current_chart().spec.runs) == N_RUNS


def test_filter_choice_survives_a_session_round_trip(qtbot, panel, state200):
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panel_choices import apply, capture
    from yardstick.gui.panels.charts_panel import ChartsPanel

    panel.filter_mode.setCurrentText("top N by measure")
    panel.filter_n.setValue(5)
    panel.measure_box.setCurrentText("P_10")
    saved = capture(panel)
    jobs = JobRunner()
    other = ChartsPanel(state200, jobs)
    qtbot.addWidget(other)
    assert apply(other, saved) == {}
    assert other.run_filter() == RunFilter("top", 5, other.filter_team.currentText(), "")
    assert other.measure_box.currentText() == "P_10"
    sel = other.select_runs()
    assert set(sel.runs) == _top(state200, 5, "P_10")
    assert sel.description == f"top 5 of {N_RUNS} runs by P_10"
    jobs.shutdown()


def test_per_topic_axes_sort_topics_naturally(qtbot, panel):
    from yardstick.gui.panels.charts_panel import MEDIAN

    panel.chart_box.setCurrentText(MEDIAN)
    _redraw(qtbot, panel)
    spec = panel.current_chart().spec
    labels = [lb for _, lb in spec.plot.x.ticks]
    assert labels == TOPICS                       # 1, 2, ..., 10, 11, 12 — not 1, 10, 11 ...
    shown = [lb for _, lb in panel.current_chart().plot_item.getAxis("bottom")._tickLevels[0]]
    assert shown == [t for t in TOPICS if t in shown] and len(shown) >= 6


def test_measure_axes_are_plain_numbers(qtbot):
    """No automatic "×0.001" prefix: a 0.26–0.36 axis is labelled 0.26 ..., not 260
    (pyqtgraph 0.14 froze such axes at ×1000 after enableAutoSIPrefix(False) on a redraw)."""
    import pandas as pd

    from yardstick.gui.charts.system_ranking_chart import SystemRankingChart
    from yardstick.presentation.charts.system_ranking import ranked_means

    rng = np.random.default_rng(3)
    scores = pd.DataFrame(0.31 + 0.05 * np.linspace(-1, 1, 5) + rng.normal(0, 0.005, (200, 5)),
                          index=[str(t) for t in range(200)], columns=list("ABCDE"))
    chart = SystemRankingChart()
    qtbot.addWidget(chart)
    chart.resize(700, 400)
    chart.show()
    qtbot.waitExposed(chart)
    chart.set_data(ranked_means(scores, "map"))
    chart.resize(800, 450)                      # drawn again, as on every resize
    chart._draw()
    ax = chart.plot_item.getAxis("bottom")
    lo, hi = ax.range
    assert 0.2 < lo < hi < 0.45
    assert ax.autoSIPrefixScale == 1.0 and ax.labelUnitPrefix == ""


def test_tukey_chart_follows_the_charts_panel_filter(qtbot, panel, state200, tmp_path):
    """The Charts panel keeps its filter in the workspace; the Stability panel's Tukey
    chart (200 runs) draws and exports the runs it keeps."""
    from yardstick.analysis.stability.report import StabilitySettings, run_stability, score_matrices
    from yardstick.common.progress import run_sync
    from yardstick.presentation.charts.render_mpl import write_figure
    from yardstick.presentation.charts.run_filter import EXTRAS_KEY
    from yardstick.presentation.charts.stability_specs import stability_figure

    panel.filter_mode.setCurrentText("one team")
    panel.filter_team.setCurrentText("team03")
    saved = RunFilter.from_dict(state200.workspace.extras[EXTRAS_KEY])
    assert saved == RunFilter("team", AUTO_LIMIT, "team03", "")
    mats, tie = score_matrices(state200.evaluations(), ["map"])
    rep = run_sync(run_stability(mats, ["tukey"], {"all": list(mats["map"].index)},
                                 StabilitySettings(samples=20, seed=1), tie))
    teams = {n: (e.group or n) for n, e in state200.workspace.runs.items()}
    spec = stability_figure(rep, "tukey", ("map", "all"), saved, teams)
    res = rep.results["tukey"][("map", "all")]
    want = [r for r in res.runs if r.startswith("t03_")]           # best first, as the test
    assert list(spec.runs) == want and len(want) == 10
    assert spec.caption == f"team team03: 10 of {N_RUNS} runs"
    assert _svg_runs(write_figure(spec, tmp_path / "tukey.svg")) == set(want)
    top = stability_figure(rep, "tukey", ("map", "all"), RunFilter(), teams)
    assert list(top.runs) == list(res.runs[:AUTO_LIMIT])
    assert top.caption == f"top {AUTO_LIMIT} of {N_RUNS} runs by map"
