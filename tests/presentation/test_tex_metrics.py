"""The width tables LaTeX tables are measured with are TeX's own: every entry is the
larger of the OT1 (``cmr``/``cmbx``) and T1 (``ecrm``/``ecbx``) glyph widths read from
the TFM files with ``tftopl`` (skipped where TeX Live is not installed), and a table's
estimated width is what pdflatex sets (``\\showthe`` of an ``\\hbox``)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from yardstick.presentation.export import latex_width, tex_metrics
from yardstick.presentation.export.text_formats import latex_escape

needs_tex = pytest.mark.skipif(shutil.which("tftopl") is None or shutil.which("kpsewhich")
                               is None, reason="TeX Live (tftopl, kpsewhich) is not installed")


def _tfm(name: str) -> tuple[dict[int, float], float]:
    path = subprocess.run(["kpsewhich", name + ".tfm"], capture_output=True,
                          text=True).stdout.strip()
    pl = subprocess.run(["tftopl", path], capture_output=True, text=True).stdout
    widths, cur = {}, None
    for line in pl.splitlines():
        m = re.match(r"\(CHARACTER ([CO]) (\S+)", line)
        if m:
            cur = ord(m.group(2)) if m.group(1) == "C" else int(m.group(2), 8)
        m = re.search(r"\(CHARWD R (-?[\d.]+)\)", line)
        if m and cur is not None:
            widths[cur] = float(m.group(1))
    return widths, float(re.search(r"\(SPACE R ([\d.]+)\)", pl).group(1))


@needs_tex
@pytest.mark.parametrize("key", list(tex_metrics.SIZES))
def test_widths_are_the_tfm_files(key):
    (ot1, s1), (t1, s2), (sy, _), (mi, _) = (_tfm(f) for f in tex_metrics.SIZES[key])
    table = tex_metrics.em_widths(key)
    special = {" ": (s1, s2), "–": (ot1[123], t1[21]), "_": (0.36, t1[95]),
               "\\": (sy[110], t1[92]), "{": (sy[102], t1[123]), "}": (sy[103], t1[125])}
    for ch in tex_metrics.CHARS:
        if ch in tex_metrics.SYMBOLS:
            font, code = tex_metrics.SYMBOLS[ch]
            want = (sy if font == "cmsy" else mi)[code]
        elif ch in special:
            want = max(special[ch])
        else:
            want = max(ot1[ord(ch)], t1[ord(ch)])
        assert table[ch] == pytest.approx(want, abs=1e-4), (key, ch)
    assert table["_"] > 2 * 0.36          # T1's underscore, the cause of the overflows


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
@pytest.mark.parametrize("t1", [False, True], ids=["OT1", "T1"])
def test_estimate_is_what_pdflatex_sets(tmp_path, t1):
    texts = ["bm25rm3_s1", "ndcg_cut_10", "iprec_at_recall_0.00", "team13a-{x}\\y",
             "Holm over 11175 pairs, α ≤ 0.05 †‡"]
    boxes = "\n".join(r"\setbox0\hbox{" + latex_escape(t) + r"}\showthe\wd0"
                      + r"\setbox0\hbox{\small " + latex_escape(t) + r"}\showthe\wd0"
                      for t in texts)
    (tmp_path / "w.tex").write_text(
        "\\documentclass{article}\n" + ("\\usepackage[T1]{fontenc}\n" if t1 else "")
        + "\\usepackage[utf8]{inputenc}\n\\begin{document}\n" + boxes + "\n\\end{document}\n")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "w.tex"], cwd=tmp_path,
                   capture_output=True, timeout=120)
    shown = [float(x) for x in re.findall(r"^> (\d+\.\d+)pt\.", (tmp_path / "w.log")
                                          .read_text(errors="replace"), re.M)]
    assert len(shown) == 2 * len(texts)
    for i, t in enumerate(texts):
        for size, got in ((10.0, shown[2 * i]), (9.0, shown[2 * i + 1])):
            est = latex_width.text_width(t, size)
            assert got <= est <= got * 1.25 + 1, (t, size, got, est)
