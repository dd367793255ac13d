"""The Judgments panel drives yardstick.analysis.qrels_comparison through the job runner
on the bundled two-assessor example, and shows the core's numbers (pytest-qt,
offscreen)."""

import os

import pytest

pytest.importorskip("pytestqt")
import pyqtgraph as pg  # noqa: E402

from yardstick.analysis.qrels_comparison import compare_qrels  # noqa: E402
from yardstick.inputs.io import read_qrels, read_run  # noqa: E402


@pytest.fixture(autouse=True)
def _settings_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "settings"))


@pytest.fixture
def panel(qtbot):
    from yardstick.gui.app_state import AppState
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels.judgments_panel import JudgmentsPanel, example_dir

    d = example_dir()
    jobs = JobRunner()
    state = AppState()
    state.set_qrels(read_qrels(os.path.join(d, "qrels.nist.txt"), name="nist"))
    runs = [read_run(os.path.join(d, "runs", f)) for f in sorted(os.listdir(d + "/runs"))[:12]]
    state.add_runs(runs)
    w = JudgmentsPanel(state, jobs)
    qtbot.addWidget(w)
    w.jobs_ = jobs
    w.runs_ = runs
    w.dir_ = d
    yield w
    jobs.shutdown()


def _add(qtbot, panel, path, name):
    with qtbot.waitSignal(panel.jobs_.finished, timeout=60000,
                          check_params_cb=lambda k: k == "judgments-read"):
        panel.add_qrels(path, name=name)


def test_needs_a_second_set_then_shows_the_core_numbers(qtbot, panel):
    assert panel.run() == ""
    assert "add at least one more" in panel.status.text()
    _add(qtbot, panel, os.path.join(panel.dir_, "qrels.second.txt"), "second")
    assert panel.set_names() == ["qrels.nist.txt", "second"]
    assert panel.sets.item(0).text() == "qrels.nist.txt  (primary)"
    with qtbot.waitSignal(panel.jobs_.finished, timeout=60000,
                          check_params_cb=lambda k: k == "judgments"):
        assert panel.run() == "judgments"
    core = compare_qrels([read_qrels(os.path.join(panel.dir_, "qrels.nist.txt"), name="nist"),
                          read_qrels(os.path.join(panel.dir_, "qrels.second.txt"),
                                     name="second")], panel.runs_)
    panel.show_table("correlations")
    shown = panel.table.frame()
    assert shown["tau"].iloc[0] == pytest.approx(core.correlations()["tau"].iloc[0])
    assert "1 topics judged in some sets only" in panel.status.text()
    panel.show_chart("scatter")
    plot = [i for i in panel.chart.ci.items if isinstance(i, pg.PlotItem)][0]
    runs = [item.getData()[0] for item in plot.listDataItems()
            if item.getData()[0] is not None and len(item.getData()[0]) == 12]
    assert len(runs) == 1
    assert sorted(runs[0]) == pytest.approx(sorted(core.means()["nist"]))


def test_renamed_set_is_recorded_for_the_session_file(qtbot, panel):
    from yardstick.gui.qrels_sets_widget import QrelsSetsWidget
    from yardstick.session.qrels_sets import EXTRA_KEY

    sets = QrelsSetsWidget(panel.state, panel.jobs_)       # the Collection panel's list
    qtbot.addWidget(sets)
    _add(qtbot, panel, os.path.join(panel.dir_, "qrels.second.txt"), "second")
    assert sets.names() == ["qrels.nist.txt", "second"]
    panel.sets.item(1).setText("umbrela")
    assert panel.set_names() == ["qrels.nist.txt", "umbrela"]
    assert sets.list.item(1).text() == "umbrela"
    kept = panel.state.workspace.extras[EXTRA_KEY]
    assert kept == [{"name": "umbrela",
                     "path": os.path.join(panel.dir_, "qrels.second.txt")}]
    sets.list.setCurrentRow(1)
    sets.primary_button.click()
    assert panel.state.session.primary_qrels == "umbrela"
    assert panel.set_names()[0] == "umbrela"
