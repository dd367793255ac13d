"""A run's name is text in every chart file, never matplotlib mathtext: a run named
``x$^$y`` (its file's name; a legal TREC tag too) stopped ``yardstick stability --out``
(and ``pool --out``, ``report``) with a ParseSyntaxException after the analyses had run
(:data:`yardstick.presentation.charts.chart_fonts.FILE_FONTS`)."""

from __future__ import annotations

import numpy as np

from yardstick.cli import main


def test_a_run_tagged_like_mathtext_is_drawn_as_its_tag(tmp_path, capsys):
    rng = np.random.default_rng(7)
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{t} 0 D{d} {int(rng.random() < 0.3)}\n"
                             for t in range(1, 13) for d in range(30)))
    runs = []
    for tag in ("x$^$y", "plain", "other"):
        dst = tmp_path / tag                    # the run is named by its file
        dst.write_text("".join(f"{t} Q0 D{d} {k + 1} {30 - k} {tag}\n" for t in range(1, 13)
                               for k, d in enumerate(rng.permutation(30))))
        runs.append(str(dst))
    out = tmp_path / "out"
    assert main(["stability", "--qrels", str(qrels), *runs, "-B", "20", "--analysis",
                 "tukey", "--out", str(out)]) == 0
    svgs = [f.read_text() for f in out.rglob("*.svg")]
    assert len(svgs) == len(list(out.rglob("*.pdf"))) > 0     # Tukey's groups name the runs
    assert any(">x$^$y</text>" in s for s in svgs)
