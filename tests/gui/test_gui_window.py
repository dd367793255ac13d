"""The real window driven through the methods its menus call (pytest-qt, offscreen)."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from scipy import stats

from tests.gui_support import QRELS, RUNS, TOPICS, engine_or_skip, load, make_window, wait_evaluated
from yardstick.evaluation.evaluation_service import evaluate_run, score_matrix
from yardstick.inputs.collection_stats import qrels_topic_stats
from yardstick.inputs.io import read_qrels, read_run

MEASURES = ["map", "P.10", "ndcg_cut.10"]


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    return make_window(qtbot, tmp_path, monkeypatch)


def test_panels_are_hosted(win):
    assert {"collection", "measures", "compare", "topic"} <= set(win.panels)


def test_load_qrels_topics_runs_and_measures_table_equals_core(qtbot, win):
    engine_or_skip()
    win.state.set_measures(MEASURES)
    res = load(qtbot, win, [(QRELS, "qrels"), (TOPICS, "topics")] + [(r, "run") for r in RUNS])
    assert res.errors == ()
    names = list(win.state.workspace.runs)
    assert names == ["aplrob03a.run", "UIUC03Rd1.run", "pircRBa1.run"]
    # Collection panel: per-topic judgments as core counts them
    coll = win.panels["collection"]
    shown = coll.topics_view.frame()
    qrels = read_qrels(QRELS)
    expect = qrels_topic_stats(qrels)
    assert len(shown) == 100
    assert shown.loc["303", "judged"] == expect.loc["303", "judged"] == 761
    assert shown.loc["303", "relevant"] == 10
    assert shown.loc["303", "title"] == "Hubble Telescope Achievements"
    # Measures panel: runs x measures means equal yardstick.evaluation.evaluation_service
    wait_evaluated(qtbot, win, names)
    panel = win.panels["measures"]
    panel.refresh()
    table = panel.current_frame()
    assert list(table.columns) == ["map", "P_10", "ndcg_cut_10"]
    for name, path in zip(names, RUNS):
        ev = evaluate_run(read_run(path), qrels, MEASURES)
        for col in table.columns:
            assert table.loc[name, col] == pytest.approx(ev.summary[col], abs=1e-12)
    # the displayed text keeps trec_eval's 4 decimals
    src = panel.table.source
    row = list(table.index).index("aplrob03a.run")
    text = src.data(src.index(row, 1))
    assert text == f"{table.loc['aplrob03a.run', 'map']:.4f}"
    # a mean cell opens the per-topic values of that measure
    panel.show_per_topic("P_10")
    per_topic = panel.current_frame()
    ev = evaluate_run(read_run(RUNS[0]), qrels, ["P.10"])
    assert per_topic["aplrob03a.run"].to_numpy() == pytest.approx(
        ev.per_topic["P_10"].to_numpy())
    # copy to clipboard: tab-separated, header first
    panel.show_mean()
    text = panel.table.copy_selection()
    assert text.splitlines()[0] == "run\tmap\tP_10\tndcg_cut_10"


def test_compare_panel_pvalues_equal_scipy(qtbot, win, tmp_path):
    engine_or_skip()
    win.state.set_measures(["map", "P.10"])
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    evals = wait_evaluated(qtbot, win, win.state.workspace.runs)
    panel = win.panels["compare"]
    with qtbot.waitSignal(win.jobs.finished, timeout=60000,
                          check_params_cb=lambda k: k == "compare"):
        panel.configure(baseline="aplrob03a.run", runs=["UIUC03Rd1.run", "pircRBa1.run"],
                        measure="map", test="t", correction="holm", seed=5,
                        n_permutations=1000, all_tests=True)
    cmp = panel.comparison
    mat = score_matrix(evals, "map")
    raw = []
    for pair in cmp.pairs:
        ref = stats.ttest_rel(mat[pair.run], mat["aplrob03a.run"])
        assert pair.p_t == pytest.approx(ref.pvalue, rel=1e-10)
        assert pair.p_wilcoxon == pytest.approx(
            stats.wilcoxon(mat[pair.run], mat["aplrob03a.run"]).pvalue, rel=1e-10)
        raw.append(ref.pvalue)
    # Holm over the two comparisons, by hand
    lo, hi = sorted(raw)
    holm = {lo: min(1, 2 * lo), hi: min(1, max(2 * lo, hi))}
    for pair, p in zip(cmp.pairs, raw):
        assert pair.p_corrected == pytest.approx(holm[p])
    shown = panel.summary_table.frame()
    assert shown.loc["UIUC03Rd1.run", "p t-test"] == pytest.approx(cmp.pairs[0].p_t)
    exp = panel.experiment_table.frame()
    assert exp.loc["aplrob03a.run", "map"] == pytest.approx(mat["aplrob03a.run"].mean())
    # per-topic table: differences
    pt = panel.topic_table.frame()
    d = pt["UIUC03Rd1.run - aplrob03a.run"]
    assert d.to_numpy() == pytest.approx((mat["UIUC03Rd1.run"] - mat["aplrob03a.run"]).to_numpy())
    assert cmp.pairs[0].wins == int((d > 0).sum())
    # the differences chart is the core definition: bars = run - baseline, largest gain
    # first; its SVG export draws that definition (vector, with the title's counts)
    panel.chart_run.setCurrentText("UIUC03Rd1.run")
    spec = panel.chart.figure_spec()
    bars = spec.plot.series[0]
    expect = (mat["UIUC03Rd1.run"] - mat["aplrob03a.run"]).sort_values(ascending=False)
    assert bars.height == pytest.approx(expect.to_numpy(), abs=1e-15)
    assert bars.topics == tuple(map(str, expect.index))
    assert f"wins {cmp.pairs[0].wins}," in spec.title
    from yardstick.gui.export_actions import export_plot
    svg = export_plot(panel.chart, tmp_path / "diff.svg").read_text()
    assert "<path" in svg and "<image" not in svg and "UIUC03Rd1.run" in svg
    # the first bar is the largest gain's topic (what a click on it opens)
    assert panel.chart.topic_at(0.0, float(expect.iloc[0]) / 2) == str(expect.index[0])


def test_compare_panel_computes_the_chosen_test_and_the_others_on_demand(qtbot, win):
    """The panel runs the chosen test (with the t-test and the sign test it always shows);
    the Wilcoxon and randomisation p-values only when asked: the same numbers as scipy
    and as the core's every-test comparison."""
    engine_or_skip()
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    evals = wait_evaluated(qtbot, win, win.state.workspace.runs)
    panel = win.panels["compare"]
    runs = ["UIUC03Rd1.run", "pircRBa1.run"]

    def compare(**kw):
        with qtbot.waitSignal(win.jobs.finished, timeout=60000,
                              check_params_cb=lambda k: k == "compare"):
            panel.configure(baseline="aplrob03a.run", runs=runs, measure="map", seed=5,
                            n_permutations=1000, **kw)
        return panel.comparison

    cmp = compare(test="t", all_tests=False)
    assert cmp.tests == ("t", "sign")
    shown = panel.summary_table.frame()
    assert "p t-test" in shown and "p sign" in shown
    assert "p wilcoxon" not in shown and "p permutation" not in shown
    mat = score_matrix(evals, "map")
    cmp = compare(test="wilcoxon")
    assert cmp.tests == ("t", "wilcoxon", "sign")
    for pair in cmp.pairs:
        assert pair.p_wilcoxon == pytest.approx(
            stats.wilcoxon(mat[pair.run], mat["aplrob03a.run"]).pvalue, rel=1e-10)
    assert "p permutation" not in panel.summary_table.frame()
    everything = compare(all_tests=True)
    assert everything.tests == ("t", "wilcoxon", "sign", "permutation")
    from yardstick.analysis.significance import compare_runs
    core = compare_runs(mat, "aplrob03a.run", runs, "map", test="wilcoxon", seed=5,
                        n_permutations=1000)
    assert [p.p_permutation for p in everything.pairs] == [p.p_permutation for p in core.pairs]
    assert "p permutation" in panel.summary_table.frame()


def test_malformed_run_reports_file_and_line_and_keeps_earlier_runs(qtbot, win, tmp_path):
    load(qtbot, win, [(QRELS, "qrels"), (RUNS[0], "run")])
    bad = tmp_path / "broken.run"
    bad.write_text("301 Q0 d1 1 2.0 x\n301 Q0 d2 2 1.5 x\n301 Q0 d3 3\n")
    res = load(qtbot, win, [(bad, "run"), (RUNS[1], "run")])
    assert len(res.errors) == 1
    msg = win.errors[-1]
    assert "broken.run" in msg and "line 3" in msg and "expected 6 columns" in msg
    assert list(win.state.workspace.runs) == ["aplrob03a.run", "UIUC03Rd1.run"]
    assert win.state.workspace.qrels is not None
    # a bad qrels file does not replace the good one
    badq = tmp_path / "bad.qrels"
    badq.write_text("301 0 d1 1\n301 0 d2 maybe\n")
    load(qtbot, win, [(badq, "qrels")])
    assert "line 2" in win.errors[-1] and "not an integer" in win.errors[-1]
    assert win.state.workspace.qrels.path == str(QRELS)


def test_open_folder_classifies_by_content(qtbot, win, tmp_path):
    import shutil

    folder = tmp_path / "collection"
    folder.mkdir()
    shutil.copy(QRELS, folder / "judgments.gz")
    shutil.copy(RUNS[0], folder / "a.gz")
    shutil.copy(RUNS[1], folder / "b.gz")
    shutil.copy(TOPICS, folder / "t.txt")
    (folder / "groups.tsv").write_text("a\tAPL\nb\tUIUC\n")
    (folder / "notes.bin").write_bytes(b"\x00\x01\x02")
    with qtbot.waitSignal(win.loaded, timeout=60000):
        win.open_folder(str(folder))
    ws = win.state.workspace
    assert ws.qrels is not None and len(ws.qrels) == 128796
    assert ws.topics is not None and len(ws.topics) == 100
    assert {e.name: e.group for e in ws.runs.values()} == {"a": "APL", "b": "UIUC"}


def test_run_settings_are_editable(qtbot, win):
    load(qtbot, win, [(r, "run") for r in RUNS])
    model = win.panels["collection"].runs_model
    from PySide6.QtCore import Qt

    from yardstick.gui.runs_model import COLUMNS

    name_idx = model.index(0, COLUMNS.index("name"))
    assert model.setData(name_idx, "APL baseline")
    assert list(win.state.workspace.runs)[0] == "APL baseline"
    assert win.state.workspace.runs["APL baseline"].run.name == "APL baseline"
    assert not model.setData(model.index(1, COLUMNS.index("name")), "APL baseline")  # taken
    shown = model.index(1, COLUMNS.index("shown"))
    model.setData(shown, Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    assert [r.name for r in win.state.workspace.visible_runs()] == ["APL baseline",
                                                                    "pircRBa1.run"]
    pooled = model.index(2, COLUMNS.index("pooled"))
    model.setData(pooled, Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    assert [r.name for r in win.state.workspace.pooled_runs()] == ["APL baseline",
                                                                   "UIUC03Rd1.run"]
    model.setData(model.index(0, COLUMNS.index("group")), "JHU/APL")
    assert win.state.workspace.runs["APL baseline"].group == "JHU/APL"


def test_topic_panel_shows_ranked_list_with_judgments(qtbot, win):
    load(qtbot, win, [(QRELS, "qrels"), (TOPICS, "topics"), (RUNS[0], "run")])
    panel = win.panels["topic"]
    win.state.show_topic("303")
    panel.show_run("aplrob03a.run")
    frame = panel.ranking.frame()
    qrels = read_qrels(QRELS)
    judged = qrels.frame[qrels.frame.topic == "303"].set_index("docno")["rel"]
    assert frame.index[0] == 1 and len(frame) == 100
    # every shown judgment is the qrels' one, coded as the judged ranking codes it
    # (-1 not in the qrels, -2 a negative judgment), as the topic explorer shows it
    for docno, rel, status in zip(frame["docno"], frame["rel"], frame["status"]):
        if docno in judged.index:
            assert rel == (judged[docno] if judged[docno] >= 0 else -2)
        else:
            assert rel == -1 and status == "unjudged"
    assert int(frame["relevant"].sum()) == int((judged.reindex(frame["docno"]) >= 1).sum())
    # the topic explorer's lesson of the same run and topic lists the same documents
    from yardstick.analysis.explain.topic_lesson import topic_lesson

    lesson = topic_lesson(win.state.workspace.runs["aplrob03a.run"].run, qrels, "303")
    same = lesson.ranked.head(100)
    assert same["docno"].tolist() == frame["docno"].tolist()
    assert same["rel"].tolist() == frame["rel"].tolist()
    assert same["status"].tolist() == frame["status"].tolist()
    assert "Hubble" in panel.text.toPlainText()


def test_job_error_and_excepthook_show_details_and_app_survives(qtbot, win):
    from yardstick.gui.error_dialog import install_excepthook

    def failing():
        yield from ()
        raise RuntimeError("boom in a job")

    with qtbot.waitSignal(win.jobs.failed, timeout=10000):
        win.jobs.submit("bad", failing)  # no on_error: the window shows it
    assert "boom in a job" in win.errors[-1]
    old = sys.excepthook
    try:
        install_excepthook(win)
        try:
            raise ValueError("unexpected thing")
        except ValueError:
            sys.excepthook(*sys.exc_info())
        assert "unexpected thing" in win.errors[-1]
        dlg = win._dialogs[-1]
        assert "Traceback" in dlg.details and "unexpected thing" in dlg.copy()
    finally:
        sys.excepthook = old
    assert win.isEnabled()


def test_command_line_is_parsed_into_items():
    from yardstick.gui.app import build_parser

    a = build_parser().parse_args(["--qrels", "q", "--topics", "t", "--groups", "g", "r1", "r2"])
    assert (a.qrels, a.topics, a.groups, a.files) == ("q", "t", "g", ["r1", "r2"])


def test_screenshot_mode_renders_every_panel(tmp_path, monkeypatch, qtbot):
    engine_or_skip()
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "appdata"))
    from yardstick.gui.app import main

    out = tmp_path / "shots"
    assert main(["--screenshot", str(out), "--qrels", str(QRELS), str(RUNS[0]),
                 str(RUNS[1])]) == 0
    from yardstick.gui.panels import load_panel_classes

    names = {p.name for p in out.glob("*.png")}
    for module, _ in load_panel_classes():
        key = module.rsplit(".", 1)[-1].removesuffix("_panel")
        assert any(n == f"{key}.png" or n.startswith(f"{key}_") for n in names), key
    from PySide6.QtGui import QImage

    img = QImage(str(out / "measures.png"))
    assert img.width() > 200 and img.height() > 200
    # not a blank picture: several distinct colours
    colours = {img.pixel(x, y) for x in range(0, img.width(), 7) for y in range(0, img.height(), 7)}
    assert len(colours) > 3


def test_drag_and_drop_opens_files_classified_by_content(qtbot, win):
    from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
    from PySide6.QtGui import QDropEvent

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(QRELS)), QUrl.fromLocalFile(str(RUNS[2]))])
    ev = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime,
                    Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(win.loaded, timeout=60000):
        win.dropEvent(ev)
    assert len(win.state.workspace.qrels) == 128796
    assert list(win.state.workspace.runs) == ["pircRBa1.run"]


def test_recent_files_are_remembered(qtbot, win):
    from yardstick.gui import settings

    load(qtbot, win, [(QRELS, "qrels"), (RUNS[0], "run")])
    recent = settings.recent_files()
    assert recent[:2] == [("run", str(RUNS[0])), ("qrels", str(QRELS))]
    win._fill_recent()
    texts = [a.text() for a in win.recent_menu.actions()]
    assert f"run: {RUNS[0]}" in texts


def test_no_files_opens_the_bundled_sample(qtbot, win):
    from yardstick.gui.main_window import sample_items

    items = sample_items()
    runs = [p for p, k in items if k == "run"]
    assert runs and any(k == "qrels" for _, k in items)
    with qtbot.waitSignal(win.loaded, timeout=60000) as blk:
        win.open_sample()
    assert blk.args[0].errors == ()
    assert len(win.state.workspace.runs) == len(runs)
    assert win.state.workspace.qrels is not None and win.state.workspace.topics is not None


def test_status_bar_says_what_a_load_read():
    """A groups file alone is not "Loaded 0 runs"; runs and qrels as before."""
    from yardstick.gui.main_window import loaded_message
    from yardstick.session.loading import LoadResult

    qrels, runs = read_qrels(QRELS), tuple(read_run(r) for r in RUNS[:2])
    assert loaded_message(LoadResult(qrels=qrels, runs=runs)) == "Loaded 2 runs and qrels"
    assert loaded_message(LoadResult(runs=runs[:1])) == "Loaded 1 run"
    assert loaded_message(LoadResult(groups={"a": "g", "b": "g"})) == \
        "Loaded run groups (2 runs)"
    assert loaded_message(LoadResult()) == "Loaded nothing"


def test_compare_baseline_defaults_to_the_best_run_by_the_measure_and_says_so(qtbot, win):
    """Issue 27: the baseline was the first run in alphabetical order; it is now the run with
    the best mean of the chosen measure (numpy on the evaluation's per-topic scores), said on
    the result, until a run is picked under Baseline."""
    engine_or_skip()
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    evals = wait_evaluated(qtbot, win, win.state.workspace.runs)
    panel = win.panels["compare"]
    names = list(evals)
    mat = score_matrix(evals, "map")
    best = names[int(np.argmax([mat[n].mean() for n in names]))]
    with qtbot.waitSignal(win.jobs.finished, timeout=60000,
                          check_params_cb=lambda k: k == "compare"):
        panel.configure(runs=names, measure="map")
    assert panel.baseline.currentText() == "best run by the measure"
    assert panel.comparison.baseline == best
    assert sorted(p.run for p in panel.comparison.pairs) == sorted(set(names) - {best})
    assert panel.status.text().startswith(f"Baseline: {best}, the best run by map (the "
                                          "default; pick another under Baseline).")
    other = next(n for n in names if n != best)
    with qtbot.waitSignal(win.jobs.finished, timeout=60000,
                          check_params_cb=lambda k: k == "compare"):
        panel.configure(baseline=other, runs=[n for n in names if n != other])
    assert panel.comparison.baseline == other
    assert panel.status.text().startswith(f"Baseline: {other}, chosen.")


def test_compare_caption_says_so_far_while_a_load_is_under_way(qtbot, win):
    """Round five: during a load "Holm correction over N comparison(s)" counted only the
    runs loaded so far, without a word; it now says "so far" and how far the load is, and
    once the load has ended the caption is worded again without it."""
    engine_or_skip()
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    names = list(wait_evaluated(qtbot, win, win.state.workspace.runs))
    panel = win.panels["compare"]
    pending = win.state.session.start_load([("more-1", "run"), ("more-2", "run")], "load-x")
    panel.configure(baseline=names[0], runs=names[1:], measure="map", correction="holm")
    # (waited for by its words: the load's own "compare" job may finish first)
    qtbot.waitUntil(lambda: f"Baseline: {names[0]}, chosen" in panel.status.text(),
                    timeout=60000)
    assert ("Holm correction over 2 comparison(s) so far (loading runs: 0 of 2 added)"
            in panel.status.text())
    pending.cancel()                            # the load ends (nothing more is added)
    qtbot.waitUntil(lambda: "so far" not in panel.status.text(), timeout=5000)
    assert "Holm correction over 2 comparison(s), α = 0.05" in panel.status.text()
