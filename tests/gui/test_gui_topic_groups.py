"""Topic groups in the GUI (pytest-qt, offscreen): from a table selection, a typed range,
a file and a chart selection; every panel offering a group sees new ones at once.

Values are hand counts on a hand-made 40-topic score matrix (topics 301..340)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pytestqt")

from pytrec_evaluations import evaluation_from_scores

TOPICS = [str(t) for t in range(301, 341)]


@pytest.fixture(autouse=True)
def _settings_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "settings"))


@pytest.fixture
def env(qtbot):
    from yardstick.gui.app_state import AppState
    from yardstick.gui.jobs import JobRunner

    rng = np.random.default_rng(3)
    ap = pd.DataFrame(rng.uniform(0, 1, (40, 4)), index=TOPICS,
                      columns=[f"run{k}" for k in range(4)])
    evals = {r: evaluation_from_scores(r, {"map": ap[r].to_dict(),
                                           "P_10": (ap[r].round(1)).to_dict()})
             for r in ap.columns}

    class State(AppState):
        def evaluations(self, visible_only=True):
            return evals

        def measure_columns(self):
            return ["map", "P_10"]

    jobs = JobRunner()
    state = State(jobs=jobs)
    yield state, jobs
    jobs.shutdown()


def test_group_from_table_selection_reaches_stability_and_charts(qtbot, env, monkeypatch):
    import yardstick.gui.topic_groups as tg
    from yardstick.gui.panels.charts_panel import ChartsPanel
    from yardstick.gui.panels.measures_panel import MeasuresPanel
    from yardstick.gui.panels.stability_panel import StabilityPanel

    state, jobs = env
    measures = MeasuresPanel(state, jobs)
    stability = StabilityPanel(state, jobs)
    charts = ChartsPanel(state, jobs)
    for w in (measures, stability, charts):
        qtbot.addWidget(w)
    measures.show_per_topic("map")
    view = measures.table
    assert view.proxy.rowCount() == 40
    # pick rows 0, 2 and 5 as a user would (Ctrl+click): topics 301, 303, 306
    sm = view.selectionModel()
    from PySide6.QtCore import QItemSelectionModel
    for r in (0, 2, 5):
        sm.select(view.proxy.index(r, 1), QItemSelectionModel.SelectionFlag.Select)
    shown = [view.proxy.index(r, 0).data() for r in (0, 2, 5)]
    assert shown == ["301", "303", "306"]
    monkeypatch.setattr(tg, "ask_name", lambda parent, title, default: "picked")
    menu = view.topic_group_menu.build_menu()
    action = next(a for a in menu.actions() if a.text().startswith(tg.MENU_TEXT))
    assert action.text() == f"{tg.MENU_TEXT} (3 topics)" and action.isEnabled()
    with qtbot.waitSignal(state.changed, check_params_cb=lambda w: w == "topic_groups"):
        action.trigger()
    assert state.workspace.topic_groups == {"picked": ["301", "303", "306"]}
    assert stability.group.findText("picked") >= 0
    assert stability.versus.findText("picked") >= 0
    assert charts.group_box.findText("picked") >= 0
    # the mean view shows runs, not topics: the action is there but disabled
    measures.show_mean()
    view.selectAll()
    menu = view.topic_group_menu.build_menu()
    action = next(a for a in menu.actions() if a.text().startswith(tg.MENU_TEXT))
    assert not action.isEnabled()


def test_range_dialog_file_rename_delete(qtbot, env, tmp_path):
    from PySide6.QtWidgets import QDialogButtonBox

    from yardstick.gui.topic_groups import TopicGroupsWidget, TopicRangeDialog

    state, _jobs = env
    dlg = TopicRangeDialog(state)
    qtbot.addWidget(dlg)
    ok = dlg.buttons.button(QDialogButtonBox.StandardButton.Ok)
    dlg.spec_edit.setText("303-301")
    assert not ok.isEnabled() and "reversed" in dlg.preview.text()
    dlg.spec_edit.setText("301-303,305")
    assert dlg.topics() == ["301", "302", "303", "305"]       # 3 from the range + 305
    assert ok.isEnabled() and dlg.preview.text().startswith("4 topics")
    dlg.accept()
    assert state.workspace.topic_groups["301-303,305"] == ["301", "302", "303", "305"]
    # with a topics file loaded, topics outside the collection are left out (and said so)
    state.set_topics(pd.DataFrame({"topic": ["301", "303", "305"], "title": ["a", "b", "c"],
                                   "desc": "", "narr": ""}))
    dlg2 = TopicRangeDialog(state, spec="301-303,305")
    qtbot.addWidget(dlg2)
    assert dlg2.topics() == ["301", "303", "305"]
    assert "302" in dlg2.preview.text()
    dlg2.name_edit.setText("301-303,305")                     # taken
    assert not dlg2.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    # the list: file, rename (keeps the position), delete
    w = TopicGroupsWidget(state)
    qtbot.addWidget(w)
    f = tmp_path / "hard.txt"
    f.write_text("303\n305\n", encoding="utf-8")
    assert w.load_file(str(f)) == ["hard"]
    assert state.workspace.topic_groups["hard"] == ["303", "305"]
    assert list(w.table.frame().index) == ["301-303,305", "hard"]
    assert w.table.frame().loc["hard", "in collection"] == 2
    assert w.rename("301-303,305", "first four") == "first four"
    assert list(state.workspace.topic_groups) == ["first four", "hard"]
    w.select("hard")
    assert "303, 305" in w.members.text()
    w.delete_selected()
    assert list(state.workspace.topic_groups) == ["first four"]
    # groups travel in sessions
    from yardstick.session.workspace import Workspace
    assert Workspace.from_session(state.workspace.to_session()).topic_groups == \
        {"first four": ["301", "302", "303", "305"]}


def test_group_from_chart_selection(qtbot, env):
    from yardstick.gui.panels.charts_panel import SPREAD, ChartsPanel
    from yardstick.presentation.charts.topic_spread import topic_spread

    state, jobs = env
    charts = ChartsPanel(state, jobs)
    qtbot.addWidget(charts)
    with qtbot.waitSignal(jobs.finished, timeout=60000,
                          check_params_cb=lambda k: k == "charts"):
        charts.chart_box.setCurrentText(SPREAD)
    qtbot.waitUntil(lambda: charts.data is not None
                    and type(charts.data).__name__ == "TopicSpread", timeout=60000)
    spread = topic_spread(state.evaluations(), charts.measure_box.currentText())
    sel = charts.current_chart().topic_selection
    # a rubber band over the first three columns (x = 0, 1, 2), all heights
    assert sel.select_rect(-0.5, 2.5, -0.1, 1.1) == list(spread.topics[:3])
    assert charts.group_action.isEnabled() and "3 topics selected" in \
        charts.selection_label.text()
    sel.toggle(spread.topics[1])                               # Ctrl+click removes one
    expected = [spread.topics[0], spread.topics[2]]
    assert charts.chart_selection() == expected
    name = charts.make_group_from_selection(ask=False)
    assert state.workspace.topic_groups[name] == expected
