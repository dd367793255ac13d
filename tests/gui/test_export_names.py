"""Export dialogs offer names after what is exported (issue 28), in the last folder used."""

from __future__ import annotations

from pathlib import Path

from tests.gui_support import QRELS, RUNS, load, make_window
from yardstick.gui import export_actions


def test_dialogs_offer_the_chart_and_table_they_export_in_the_last_folder(
        qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    win = make_window(qtbot, tmp_path, monkeypatch)
    win.show()
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    qtbot.waitUntil(lambda: len(win.state.evaluations(visible_only=False)) == len(RUNS),
                    timeout=60000)
    names = list(win.state.evaluations())
    win.raise_panel("charts")
    charts = win.panels["charts"]
    charts.chart_box.setCurrentText("Recall-precision")
    qtbot.waitUntil(lambda: charts.current_chart().spec is not None
                    and len(charts.current_chart().spec.runs) == len(names), timeout=60000)
    # (all three runs drawn: no "by map" in its title, no measure in its name)
    assert export_actions.plot_file_stem(charts.current_chart) == \
        f"recall_precision_{len(names)}runs"
    win.raise_panel("compare")
    compare = win.panels["compare"]
    qtbot.waitUntil(lambda: compare.comparison is not None, timeout=60000)
    # the default baseline (the best run by the measure) is named by the run it resolved to
    base = compare.comparison.baseline
    assert base in names
    assert compare.export_stem() == f"compare_{compare.measure.currentText()}_vs_{base}"
    offered = []

    def fake_save(parent, title, path, filters, chosen):
        offered.append(path)
        return str(tmp_path / "out" / "mine.csv"), chosen
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake_save))
    (tmp_path / "out").mkdir()
    export_actions._table_dialog(lambda: compare._current_table().visible_frame(), compare,
                                 "csv", compare.export_stem)
    export_actions._table_dialog(lambda: compare._current_table().visible_frame(), compare,
                                 "csv", compare.export_stem)
    assert Path(offered[0]).name == f"compare_map_vs_{base}.csv"
    assert Path(offered[1]).parent == tmp_path / "out"          # the last folder used
    assert (tmp_path / "out" / "mine.csv").exists()
