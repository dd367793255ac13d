"""Allocator settings of ``yardstick eval`` (core/cli/allocator.py).

These change only how memory is obtained, never a number: the command's output with
them is trec_eval's (tests/test_eval_parity_cli.py).  Here: that each setting takes
effect in the process that asks for it (no timings).
"""

from __future__ import annotations

import subprocess
import sys


def _child(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_small_pages_turns_numpys_huge_page_advice_off():
    """numpy's setter returns the previous setting: on (numpy's default on Linux, or as
    NUMPY_MADVISE_HUGEPAGE says) before, off after small_pages()."""
    out = _child(
        "from yardstick.cli.allocator import small_pages\n"
        "from numpy._core.multiarray import _set_madvise_hugepage as s\n"
        "before = s(True); s(before)\n"
        "took = small_pages()\n"
        "print(took, s(False))\n")
    assert out == "True False"


def test_eval_runs_with_small_pages(tmp_path):
    """``yardstick eval`` sets it before reading (a process of its own: the setting is
    process-wide)."""
    qrels = tmp_path / "q"
    run = tmp_path / "r"
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n")
    run.write_text("1 Q0 d1 1 2.0 t\n1 Q0 d2 2 1.0 t\n")
    out = _child(
        "import sys\n"
        "from yardstick.cli import main\n"
        "from numpy._core.multiarray import _set_madvise_hugepage as s\n"
        f"main(['eval', '-m', 'map', {str(qrels)!r}, {str(run)!r}])\n"
        "print('advice', s(False))\n")
    assert out.splitlines()[-1] == "advice False"
    assert out.splitlines()[0].split() == ["map", "all", "1.0000"]
