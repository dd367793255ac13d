"""Compile LaTeX tables in a minimal ``article`` and read pdflatex's overfull boxes.

One document holds every table (a ``\\typeout`` names each in the log), in OT1 (LaTeX's
default) or T1 (``\\usepackage[T1]{fontenc}``, as acmart and most paper templates), on
A4 or US-letter paper; pdflatex runs twice, as a ``longtable`` settles its widths on the
second run."""

from __future__ import annotations

import re
import shutil
import subprocess

PDFLATEX = shutil.which("pdflatex")


def overfull_boxes(tables: dict[str, str], tmp_path, paper: str = "a4paper",
                   t1: bool = False) -> dict[str, list[float]]:
    """Table name -> the widths (pt) by which its boxes are too wide (none: ``{}``)."""
    body = "\n\\clearpage\n".join(f"\\typeout{{TABLE {name}}}\n{text}"
                                  for name, text in tables.items())
    doc = (f"\\documentclass[{paper}]{{article}}\n"
           + ("\\usepackage[T1]{fontenc}\n" if t1 else "")
           + "\\usepackage[utf8]{inputenc}\n\\usepackage{booktabs}\n\\usepackage{longtable}\n"
           f"\\begin{{document}}\n{body}\n\\end{{document}}\n")
    (tmp_path / "t.tex").write_text(doc)
    for _ in range(2):
        subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
                       cwd=tmp_path, capture_output=True, timeout=600)
    log = (tmp_path / "t.log").read_text(errors="replace")
    assert (tmp_path / "t.pdf").exists(), log[-2000:]
    over: dict[str, list[float]] = {}
    table = None
    for line in log.splitlines():
        if line.startswith("TABLE "):
            table = line[6:]
        m = re.search(r"Overfull \\hbox \((\d+\.\d+)pt too wide\)", line)
        if m:
            over.setdefault(table, []).append(float(m.group(1)))
    return over
