"""TREC qrels files: ``topic iter docno rel`` (trec_eval ``get_qrels.c``).

White-space separated, ``#`` comment lines and blank lines skipped, the
``iter`` column ignored, ``rel`` an integer (negative: judged-but-unassessed).
A (topic, docno) judged twice is an error, as in trec_eval.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from core.errors import FormatError
from core.io.atomic import atomic_write_text
from core.io.text_source import decode_text, display_name, read_bytes
from core.qrels import Qrels

QRELS_COLUMNS = "topic iter docno rel"


def read_qrels(path: str | os.PathLike, name: str | None = None,
               data: bytes | None = None) -> Qrels:
    """Read a TREC qrels file (plain or compressed).

    Raises
    ------
    FormatError
        naming file and line: wrong column count, non-integer relevance,
        duplicate judgment, no judgments at all.
    """
    spath = str(path)
    if data is None:
        data = read_bytes(path, "qrels file (topic iter docno rel)")
    text = decode_text(data)
    topics, docnos, rels, lines = [], [], [], []
    for lineno, line in enumerate(text.splitlines(), 1):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if len(f) != 4:
            hint = ""
            if len(f) == 6:
                hint = " (this looks like a run file: topic Q0 docno rank score tag)"
            raise FormatError(spath, lineno,
                              f"expected 4 columns ({QRELS_COLUMNS}), found {len(f)}{hint}", line)
        try:
            r = int(f[3])
        except ValueError:
            raise FormatError(spath, lineno,
                              f"relevance {f[3]!r} is not an integer (columns: {QRELS_COLUMNS})",
                              line) from None
        topics.append(f[0])
        docnos.append(f[2])
        rels.append(r)
        lines.append(lineno)
    if not topics:
        raise FormatError(spath, None, f"has no judgments: expected lines '{QRELS_COLUMNS}'")
    frame = pd.DataFrame({"topic": np.asarray(topics, dtype=object),
                          "docno": np.asarray(docnos, dtype=object),
                          "rel": np.asarray(rels, dtype=np.int64),
                          "line": np.asarray(lines, dtype=np.int64)})
    frame = frame.sort_values(["topic", "docno"], kind="stable").reset_index(drop=True)
    dup = frame.duplicated(["topic", "docno"], keep="first").to_numpy()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        row = frame.iloc[i]
        raise FormatError(spath, int(row["line"]),
                          f"document {row['docno']!r} is judged twice for topic {row['topic']!r}",
                          text.splitlines()[int(row["line"]) - 1])
    return Qrels(frame=frame.drop(columns="line"), name=name or display_name(spath),
                 path=os.path.abspath(spath))


def write_qrels(qrels: Qrels, path: str | os.PathLike) -> None:
    """Write TREC qrels text (atomically)."""
    f = qrels.frame
    text = "".join(f"{t} 0 {d} {r}\n" for t, d, r in zip(f["topic"], f["docno"], f["rel"]))
    atomic_write_text(path, text)
