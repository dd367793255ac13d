"""What leaves the window says where it comes from (issue #16 item 6): a chart or table
exported from a panel carries the qrels file and its SHA-256, the runs drawn with their
files, tags and SHA-256, the measures and the options — in SVG/PDF metadata, the XLSX
provenance sheet and a ``.provenance.json`` beside CSV."""

from __future__ import annotations

import hashlib
import json

import openpyxl

from tests.gui_support import QRELS, RUNS, load, make_window, wait_evaluated


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_panel_exports_carry_the_windows_provenance(qtbot, tmp_path, monkeypatch):
    from yardstick.gui import export_actions as ea

    win = make_window(qtbot, tmp_path, monkeypatch)
    win.state.set_measures(["map", "P.10"])
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    wait_evaluated(qtbot, win, win.state.workspace.runs)
    panel = win.panels["measures"]
    panel.refresh()
    out = {"csv": tmp_path / "means.csv", "xlsx": tmp_path / "means.xlsx"}

    # the Export table menu's path, with the file dialog answered
    for fmt, path in out.items():
        monkeypatch.setattr(ea, "_ask_path", lambda *a, p=path, f=fmt: (str(p), f))
        ea._table_dialog(panel.current_frame, panel, fmt)
    prov = json.loads((tmp_path / "means.provenance.json").read_text())
    assert prov["qrels"] == {"file": QRELS.name, "sha256": _sha(QRELS)}
    assert {(r["file"], r["sha256"]) for r in prov["runs"]} == {(p.name, _sha(p)) for p in RUNS}
    assert {r["tag"] for r in prov["runs"]} == {"aplrob03a", "UIUC03Rd1", "pircRBa1"}
    assert prov["measures"] == ["map", "P.10"]
    sheet = openpyxl.load_workbook(out["xlsx"])["provenance"]
    cells = [str(c.value) for row in sheet.iter_rows() for c in row if c.value is not None]
    assert _sha(QRELS) in cells

    # a chart: the runs drawn (not every run loaded) in the SVG's metadata
    compare = win.panels["compare"]
    with qtbot.waitSignal(win.jobs.finished, timeout=60000,
                          check_params_cb=lambda k: k == "compare"):
        compare.configure(baseline="aplrob03a.run", runs=["UIUC03Rd1.run"], measure="map")
    svg_path = tmp_path / "diff.svg"
    monkeypatch.setattr(ea, "_ask_path", lambda *a: (str(svg_path), "svg"))
    ea._plot_dialog(compare.chart, compare, "svg")
    svg = svg_path.read_text()
    assert _sha(QRELS) in svg and _sha(RUNS[1]) in svg
    assert _sha(RUNS[2]) not in svg          # pircRBa1 is loaded but not drawn


def test_compare_panel_writes_the_paper_table(qtbot, tmp_path, monkeypatch):
    """The Compare panel's "Paper table" is the core comparison table of the baseline and
    the ticked runs, with the panel's test, correction and alpha, and the window's
    provenance; its XLSX numbers are the engine's averages to the last bit."""
    from yardstick.presentation.reports.comparison_table import comparison_table_from_evaluations

    win = make_window(qtbot, tmp_path, monkeypatch)
    win.state.set_measures(["map", "P.10"])
    load(qtbot, win, [(QRELS, "qrels")] + [(r, "run") for r in RUNS])
    evals = wait_evaluated(qtbot, win, win.state.workspace.runs)
    compare = win.panels["compare"]
    with qtbot.waitSignal(win.jobs.finished, timeout=60000,
                          check_params_cb=lambda k: k == "compare"):
        compare.configure(baseline="aplrob03a.run", runs=["UIUC03Rd1.run", "pircRBa1.run"],
                          measure="map", test="t", correction="holm", alpha=0.05)
    tex, xlsx = tmp_path / "paper.tex", tmp_path / "paper.xlsx"
    for path, fmt in ((tex, "latex"), (xlsx, "xlsx")):
        with qtbot.waitSignal(win.jobs.finished, timeout=60000,
                              check_params_cb=lambda k: k == "paper_table"):
            assert compare.export_paper_table(fmt, str(path)) == "paper_table"
        qtbot.waitUntil(path.exists, timeout=10000)
    expect = comparison_table_from_evaluations(
        {r: evals[r] for r in ("aplrob03a.run", "UIUC03Rd1.run", "pircRBa1.run")},
        ["map", "P_10"], test="t", correction="holm", alpha=0.05)
    text = tex.read_text()
    assert "\\toprule" in text and "paired t-test" in text and "Holm" in text
    assert _sha(QRELS) in text                       # provenance as a LaTeX comment
    for _, row in expect.means.iterrows():
        assert f"{row['map']:.4f}" in text
    for run in expect.markers.index:                 # the superscripts of the core table
        for m in expect.markers.columns:
            if expect.markers.loc[run, m]:
                assert expect.markers.loc[run, m] in text
    wb = openpyxl.load_workbook(xlsx)
    values = [c.value for row in wb.worksheets[0].iter_rows() for c in row
              if isinstance(c.value, float)]
    for run in expect.means.index:
        assert evals[run].summary["map"] in values   # the engine's average, every bit
