"""Per-topic best / median / worst scores, as TREC distributes them with evaluation results.

NIST sends each participant, with its runs' evaluation, a table of the per-topic
best, median and worst score over all submitted runs (for average precision,
and for other measures in later tracks), so that a participant with one run can
draw the appendix's "difference from the median" histogram.  The layouts read:

* ``topic best median worst`` — one line per topic, white space, tabs or commas
  between fields (the table of the TREC results pages); ``worst`` may be missing;
* the same with a header line naming the columns in any order (``topic``,
  ``best``/``max``/``maximum``, ``median``/``med``, ``worst``/``min``/``minimum``,
  optionally ``measure``), case ignored;
* ``measure topic best median worst`` — a measure name first (``map 301 0.61
  0.22 0.00``), so one file may hold several measures;
* ``#`` comment lines and blank lines are skipped.

The result is a frame indexed by topic with columns ``best``, ``median``,
``worst`` (NaN when absent) and ``measure`` ("" when the file does not say).
"""

from __future__ import annotations

import os
import re

import numpy as np
import pandas as pd

from yardstick.common.errors import FormatError
from yardstick.inputs.io.text_source import decode_text, read_bytes

_ALIASES = {"topic": "topic", "qid": "topic", "query": "topic", "best": "best", "max": "best",
            "maximum": "best", "median": "median", "med": "median", "worst": "worst",
            "min": "worst", "minimum": "worst", "measure": "measure"}
_SPLIT = re.compile(r"[\s,;]+")


def read_medians(path: str | os.PathLike, measure: str | None = None) -> pd.DataFrame:
    """Read a per-topic best/median/worst table (see the module docstring).

    ``measure`` picks one measure from a file that holds several.
    """
    spath = str(path)
    text = decode_text(read_bytes(path, "medians file (topic best median worst)"))
    rows, header = [], None
    for lineno, line in enumerate(text.splitlines(), 1):
        fields = [f for f in _SPLIT.split(line.strip()) if f]
        if not fields or fields[0].startswith("#"):
            continue
        if header is None and not rows and all(f.lower() in _ALIASES for f in fields):
            header = [_ALIASES[f.lower()] for f in fields]
            if "topic" not in header or "median" not in header:
                raise FormatError(spath, lineno, "the header must name at least 'topic' and "
                                  "'median'", line)
            continue
        cols = header or _guess_columns(fields, spath, lineno, line)
        if len(fields) != len(cols):
            raise FormatError(spath, lineno, f"expected {len(cols)} fields "
                              f"({' '.join(cols)}), found {len(fields)}", line)
        row = dict(zip(cols, fields))
        try:
            values = {k: float(row[k]) for k in ("best", "median", "worst") if k in row}
        except ValueError:
            raise FormatError(spath, lineno, "best, median and worst must be numbers", line) \
                from None
        if not all(np.isfinite(v) for v in values.values()):
            raise FormatError(spath, lineno, "best, median and worst must be finite", line)
        rows.append({"topic": row["topic"], "measure": row.get("measure", ""), **values})
    if not rows:
        raise FormatError(spath, None, "has no per-topic lines (topic best median worst)")
    frame = pd.DataFrame(rows)
    for c in ("best", "worst"):
        if c not in frame:
            frame[c] = np.nan
    if measure is not None and frame["measure"].ne("").any():
        frame = frame[frame["measure"] == measure]
        if frame.empty:
            raise FormatError(spath, None, f"has no lines for the measure {measure!r}")
    dup = frame.duplicated(["measure", "topic"])
    if dup.any():
        t = frame.loc[dup, "topic"].iloc[0]
        raise FormatError(spath, None, f"topic {t!r} is listed twice"
                          + (" (choose a measure)" if frame["measure"].nunique() > 1 else ""))
    return frame.set_index("topic")[["best", "median", "worst", "measure"]]


def _guess_columns(fields: list[str], spath: str, lineno: int, line: str) -> list[str]:
    n = len(fields)
    if n == 4:
        return ["topic", "best", "median", "worst"]
    if n == 3:
        return ["topic", "best", "median"]
    if n == 5:
        return ["measure", "topic", "best", "median", "worst"]
    raise FormatError(spath, lineno, f"expected 'topic best median worst' (3 to 5 fields), "
                      f"found {n}", line)
