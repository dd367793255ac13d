"""Every kind of LaTeX table the command line writes compiles within the text width of
an A4 and a US-letter ``article``, under OT1 (LaTeX's default) and under T1
(``\\usepackage[T1]{fontenc}``, as acmart and most paper templates load it), with its
caption; pdflatex's log names no overfull box (issue #28: T1's ``\\_`` is 0.78 em where
OT1's is 0.36 em, so tables measured with OT1 metrics came out 3-25 pt too wide; the
assumption and ranking tables ran 58-2,050 pt off the page, their text never wrapped).

The tables come from the CLI on ``resources/systems_example`` (40 runs named like
``bm25rm3_s1``, two qrels, 8 systems): ``report`` with the comparison table, its
p-values, baseline mode, per-run pages, the Judgment sets and Systems pages;
``stability --analysis all`` (Tukey groups, ranking strings, assumptions); ``pool
--analysis all``; ``qrels-compare``; ``compare-systems``; ``archive``.  Skipped where
pdflatex is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.latex_documents import PDFLATEX, overfull_boxes
from yardstick.cli import main as cli_main

pytestmark = pytest.mark.skipif(PDFLATEX is None, reason="pdflatex is not installed")

EX = Path(__file__).resolve().parents[2] / "resources" / "systems_example"
RUNS = sorted(str(p) for p in (EX / "runs").iterdir())
QRELS, SECOND, SYSTEMS = EX / "qrels.nist.txt", EX / "qrels.second.txt", EX / "systems.tsv"


@pytest.fixture(scope="module")
def tex_files(tmp_path_factory):
    out = tmp_path_factory.mktemp("kinds")
    track = out / "track"
    (track / "runs").mkdir(parents=True)
    (track / "qrels.txt").write_bytes(QRELS.read_bytes())
    (track / "groups.tsv").write_bytes(SYSTEMS.read_bytes())
    for r in RUNS[:12]:
        (track / "runs" / Path(r).name).write_bytes(Path(r).read_bytes())
    q = ["--qrels", str(QRELS)]
    commands = [
        ["report", *q, *RUNS, "--out", str(out / "report"), "--formats", "tex",
         "--comparison-table", "--test", "t", "--correction", "holm", "--run", "bm25rm3_s1",
         "--measures", "map,P.10,ndcg_cut.10,recip_rank",
         "--baseline", "bm25_s1", "bm25rm3_s2", "--systems", str(SYSTEMS),
         "--qrels-also", str(SECOND)],
        ["stability", *q, "--measure", "map", "--measure", "P_10", "--analysis", "all",
         "-B", "50", "--out", str(out / "stability"), "--format", "latex", *RUNS],
        ["pool", *q, "--depth", "50", "--groups", str(SYSTEMS), "--analysis", "all",
         "--out", str(out / "pool"), "--format", "latex", *RUNS],
        ["qrels-compare", str(QRELS), str(SECOND), *RUNS, "--out", str(out / "qrels"),
         "--format", "latex"],
        ["compare-systems", *q, "--systems", str(SYSTEMS), "--correction", "holm",
         "--out", str(out / "systems"), "--format", "latex", *RUNS],
        ["archive", str(track), "-B", "50", "--out", str(out / "archive"),
         "--format", "latex"],
    ]
    for c in commands:
        assert cli_main(c) == 0, c
    files = sorted(out.rglob("*.tex"))
    kinds = {f.parent.relative_to(out).parts[0] for f in files}
    assert kinds == {"report", "stability", "pool", "qrels", "systems", "archive"}, kinds
    return files


@pytest.mark.parametrize("paper", ["a4paper", "letterpaper"])
@pytest.mark.parametrize("t1", [False, True], ids=["OT1", "T1"])
def test_every_table_kind_fits_under_ot1_and_t1(tex_files, tmp_path, paper, t1):
    tables = {f"{f.parent.name}/{f.name}": f.read_text() for f in tex_files}
    over = overfull_boxes(tables, tmp_path, paper, t1)
    assert over == {}, {k: max(v) for k, v in over.items()}
    # every table has its caption or says what it holds, and says how it fits
    for f in tex_files:
        text = f.read_text()
        assert "% fits a 345 pt text width" in text and "OT1 or T1" in text, f
        assert "table*" in text or r"\onecolumn" in text, f


def test_every_table_has_a_caption(tex_files):
    """A table pasted into a paper says what it is: stability's and pool's tables were
    written with no ``\caption`` (their titles hold τ and —, which pdflatex refused until
    the escape knew them; the compile test above checks they now set)."""
    missing = [f"{f.parent.name}/{f.name}" for f in tex_files if r"\caption{" not in f.read_text()]
    assert missing == [], "\n".join(missing)
