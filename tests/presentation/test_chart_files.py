"""``stability --out`` / ``pool --out`` chart files: a chart with a row per run labels
every run (QA on the 150-run track: ``chart_tukey_map_all`` named 50 of 150 runs, every
third, as the window does where hover names the rest), its PDF embeds TrueType fonts and
its SVG keeps the text as text."""

from __future__ import annotations

import re
import shutil
import subprocess
from types import SimpleNamespace

import numpy as np
import pytest

from yardstick.presentation.charts.chart_files import write_charts
from yardstick.presentation.charts.stability_specs import tukey_figure


def _tukey(k: int = 150):
    runs = [f"team{i // 3:02d}{'abc'[i % 3]}" for i in range(k)]
    means = np.linspace(0.6, 0.05, k)
    p = np.r_[1.0, np.linspace(0.5, 1e-6, k - 1)]
    return SimpleNamespace(runs=runs, means=means, best=runs[0], alpha=0.05, measure="map",
                           pvalues=[p], top_group=lambda: runs[:39])


def test_a_tukey_chart_of_150_runs_names_every_run(tmp_path):
    spec = tukey_figure(_tukey())
    paths = write_charts([("chart_tukey_map_all", spec)], tmp_path)
    assert sorted(p.suffix for p in paths) == [".pdf", ".png", ".svg"]
    svg = (tmp_path / "chart_tukey_map_all.svg").read_text()
    named = set(re.findall(r"team\d\d[abc]", " ".join(re.findall(r"<text[^>]*>(.*?)</text>",
                                                                svg, re.S))))
    assert len(named) == 150
    if shutil.which("pdffonts"):
        fonts = subprocess.run(["pdffonts", str(tmp_path / "chart_tukey_map_all.pdf")],
                               capture_output=True, text=True, check=True).stdout
        assert "Type 3" not in fonts and "TrueType" in fonts


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler's pdftotext")
def test_every_run_label_reads_back_from_the_pdf(tmp_path):
    write_charts([("t", tukey_figure(_tukey()))], tmp_path, formats=("pdf",))
    text = subprocess.run(["pdftotext", str(tmp_path / "t.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert len(set(re.findall(r"team\d\d[abc]", text))) == 150
