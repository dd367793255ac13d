"""Run groups: ``run<TAB>group`` lines saying which team submitted which run.

TREC pool diagnostics work per group as well as per run (the leave-out-uniques
test drops a whole group's runs; Buckley et al. 2007, “Bias and the limits of pooling for large
collections”, Information Retrieval 2007), so a
collection of runs comes with this small file.  ``#`` lines and blank lines
are skipped; runs and groups may be separated by a tab or by spaces.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from yardstick.common.errors import FormatError
from yardstick.inputs.io.atomic import atomic_write_text
from yardstick.inputs.io.text_source import decode_text, read_bytes


def read_groups(path: str | os.PathLike, data: bytes | None = None) -> dict[str, str]:
    """``{run: group}`` in file order.

    Raises
    ------
    FormatError
        A line without two fields, or a run listed twice.
    """
    spath = str(path)
    if data is None:
        data = read_bytes(path, "groups file (run<TAB>group)")
    out: dict[str, str] = {}
    for lineno, line in enumerate(decode_text(data).splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        f = line.split("\t") if "\t" in line else line.split()
        f = [x.strip() for x in f]
        if len(f) != 2 or not all(f):
            raise FormatError(spath, lineno, f"expected 'run<TAB>group', found {len(f)} fields",
                              line)
        if f[0] in out:
            raise FormatError(spath, lineno, f"run {f[0]!r} is listed twice", line)
        out[f[0]] = f[1]
    return out


def write_groups(groups: Mapping[str, str], path: str | os.PathLike) -> None:
    """Write ``run<TAB>group`` lines (atomically)."""
    atomic_write_text(path, "".join(f"{r}\t{g}\n" for r, g in groups.items()))
