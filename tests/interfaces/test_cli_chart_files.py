"""``stability --out`` and ``pool --out`` write each analysis's chart (PNG, SVG, PDF) from
the window's figure specs, with TrueType fonts in the PDFs and text kept as text in the
SVGs (issue #28); the pool summary's counts are integers in the CSV."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from pool_fixtures import HAND_QRELS, HAND_RUNS

from tests.shared_data import robust03_dir
from yardstick.cli import main


def _no_type3(pdf) -> None:
    if shutil.which("pdffonts") is None:
        return
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
    assert "Type 3" not in fonts and "TrueType" in fonts, fonts


def test_stability_out_writes_every_chart(tmp_path, capsys):
    data = robust03_dir()
    runs = sorted(str(p) for p in (data / "runs").glob("input.*.gz"))[:5]
    assert main(["stability", "--qrels", str(data / "qrels" / "robust03_qrels.txt"),
                 "-m", "map", "-a", "swap", "-a", "discriminative", "-a", "tukey",
                 "-a", "topic-set-size", "-B", "20", "--seed", "3", "--out", str(tmp_path),
                 *runs]) == 0
    capsys.readouterr()
    for stem in ("chart_swap_map_all", "chart_discriminative_map_all", "chart_tukey_map_all",
                 "chart_topic-set-size_map_all"):
        for fmt in ("png", "svg", "pdf"):
            assert (tmp_path / f"{stem}.{fmt}").stat().st_size > 0, (stem, fmt)
        assert "<text" in (tmp_path / f"{stem}.svg").read_text()      # text, not paths
        _no_type3(tmp_path / f"{stem}.pdf")


def test_pool_out_writes_charts_and_integer_counts(tmp_path, capsys):
    paths = []
    for name, (_, rows) in HAND_RUNS.items():
        p = tmp_path / f"{name}.run"
        p.write_text("".join(f"{t} Q0 {d} {i} {s} {name}\n" for i, (t, d, s) in enumerate(rows)))
        paths.append(str(p))
    q = tmp_path / "hand.qrels"
    q.write_text("".join(f"{t} 0 {d} {r}\n" for t, d, r in HAND_QRELS))
    out = tmp_path / "out"
    assert main(["pool", "--qrels", str(q), "--depth", "2", "--analysis", "stats",
                 "--analysis", "sources", "--analysis", "uniques", "--out", str(out),
                 *paths]) == 0
    capsys.readouterr()
    charts = sorted(p.name for p in out.glob("chart_*"))
    assert "chart_p_rel.png" in charts and "chart_earliest.pdf" in charts, charts
    assert {p.rsplit(".", 1)[1] for p in charts} == {"png", "svg", "pdf"}
    _no_type3(out / "chart_earliest.pdf")
    summary = (out / "pool_summary.csv").read_text().splitlines()
    counts = [ln for ln in summary if ln.startswith(("topics,", "runs,"))]
    assert counts and all(not ln.endswith(".0") for ln in counts), summary[:8]


@pytest.fixture(autouse=True)
def _headless(monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")


def test_stability_out_writes_tsv_as_pool_and_archive_do(tmp_path, capsys):
    """``stability --format tsv`` was refused (pool, archive and the window's copy take it)."""
    import pandas as pd

    data = robust03_dir()
    runs = sorted(str(p) for p in (data / "runs").glob("input.*.gz"))[:4]
    assert main(["stability", "--qrels", str(data / "qrels" / "robust03_qrels.txt"),
                 "-m", "map", "-a", "discriminative", "-B", "20", "--out", str(tmp_path),
                 "--format", "tsv", *runs]) == 0
    capsys.readouterr()
    table = pd.read_csv(tmp_path / "discriminative_power.tsv", sep="\t", comment="#")
    assert len(table) >= 1 and "measure" in " ".join(map(str, table.columns)).lower()
