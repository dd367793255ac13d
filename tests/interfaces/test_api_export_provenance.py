"""Tables the Python API exports carry their provenance, as the window's and reports' do.

``ys.export_table(ys.compare(...), "comparison.xlsx")`` wrote only a ``table`` sheet.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import openpyxl

import yardstick as ys

PATHS = ys.sample_paths()


def _sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_compare_to_xlsx_has_a_provenance_sheet(tmp_path):
    cmp = ys.compare(PATHS["qrels"], PATHS["runs"][:3], "nDCG@10", baseline="okBM25",
                     test="t", correction="holm", seed=3)
    out = ys.export_table(cmp, tmp_path / "comparison.xlsx")
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == ["table", "provenance"]
    items = [tuple(c.value for c in row) for row in wb["provenance"].iter_rows()]
    values = [v for _, v in items]
    assert _sha(PATHS["qrels"]) in values
    runs = [v for k, v in items if k == "Run"]
    assert len(runs) == 3 and _sha(PATHS["runs"][0]) in runs[0]
    assert "nDCG@10" in values


def test_evaluate_to_csv_writes_provenance_beside(tmp_path):
    df = ys.evaluate(PATHS["qrels"], PATHS["runs"][:2], ["map", "P@10"])
    out = Path(ys.export_table(df, tmp_path / "scores.csv"))
    prov = json.loads(out.with_suffix(".provenance.json").read_text())
    assert prov["qrels"]["sha256"] == _sha(PATHS["qrels"])
    assert [r["sha256"] for r in prov["runs"]] == [_sha(p) for p in PATHS["runs"][:2]]
    assert prov["measures"] == ["map", "P@10"]
