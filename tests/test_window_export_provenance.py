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
