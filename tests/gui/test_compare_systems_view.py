"""Compare's "by system" mode fits the systems model on the evaluated runs and shows
the core's tables and chart (pytest-qt, offscreen)."""

import os

import pytest

pytest.importorskip("pytestqt")

from yardstick.analysis.systems_comparison import compare_systems_matrix  # noqa: E402
from yardstick.common.options import EvalOptions  # noqa: E402
from yardstick.common.progress import run_sync  # noqa: E402
from yardstick.evaluation.evaluation_service import score_matrix  # noqa: E402
from yardstick.inputs.io import read_qrels, read_run  # noqa: E402
from yardstick.inputs.io.groups_file import read_groups  # noqa: E402
from yardstick.session.evaluating import evaluate_runs  # noqa: E402


@pytest.fixture(autouse=True)
def _settings_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "settings"))


@pytest.fixture
def panel(qtbot):
    from yardstick.gui.app_state import AppState
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels.compare_panel import ComparePanel
    from yardstick.gui.panels.judgments_panel import example_dir

    d = example_dir()
    jobs = JobRunner()
    state = AppState()
    qrels = read_qrels(os.path.join(d, "qrels.nist.txt"))
    state.set_qrels(qrels)
    names = sorted(os.listdir(os.path.join(d, "runs")))[:15] + ["tfidf_s1.xz"]
    runs = [read_run(os.path.join(d, "runs", f)) for f in names]
    groups = read_groups(os.path.join(d, "systems.tsv"))
    groups.pop("tfidf_s1")                         # a run in no system
    evs = run_sync(evaluate_runs(runs, qrels, ["map"], EvalOptions()))
    state.add_evaluated_runs([(r, evs[r.name]) for r in runs], qrels, EvalOptions())
    state.apply_groups(groups)
    w = ComparePanel(state, jobs)
    qtbot.addWidget(w)
    w.jobs_, w.evs_, w.groups_ = jobs, evs, groups
    yield w
    jobs.shutdown()


def test_by_system_mode_shows_the_core_tables(qtbot, panel):
    panel.set_mode("system")
    view = panel.systems_view
    assert view.isVisibleTo(panel)
    assert view.info.text().startswith("3 systems of 15 runs; 1 runs in no system")
    with qtbot.waitSignal(panel.jobs_.finished, timeout=120000,
                          check_params_cb=lambda k: k == "compare-systems"):
        assert view.run() == "compare-systems"
    core = compare_systems_matrix(score_matrix(panel.evs_, "map"), panel.groups_, "map")
    view.show_table("system_pairs")
    shown = view.table.frame()
    assert shown["p_value_mixed_corrected"].to_numpy() == pytest.approx(
        core.pairs_table()["p_value_mixed_corrected"].to_numpy())
    view.show_table("unassigned_runs")
    assert view.table.frame()["run"].tolist() == ["tfidf_s1"]
    assert "1 runs in no system" in view.status.text()
    panel.set_mode("run")
    assert not view.isVisibleTo(panel)
