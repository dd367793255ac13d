"""Preference judgments and judgment-group qrels: trec_eval's ``-R`` formats.

Three text formats, read as trec_eval 10.0 reads them:

``prefs`` (``get_prefs.c``)
    ``topic jg jsg docno rel_level``: within one judgment sub-group (JSG) of a
    judgment group (JG) every document is preferred to every document with a
    lower ``rel_level`` (a number; 0.0 means judged non-relevant).
``qrels_prefs`` (``get_qrels_prefs.c``)
    a standard qrels file ``topic iter docno rel`` read as preferences: the
    ``iter`` column names the JG and every line is in the single JSG ``"0"``.
``qrels_jg`` (``get_qrels_jg.c``)
    ``topic jg docno rel``: one set of ordinary (integer) judgments per JG, for
    measures averaged over judgment groups (``map_avgjg`` ...).

Fields are separated by white space; ``#`` comment lines and blank lines are
skipped (trec_eval 10.0 skips comment lines; blank lines are one of its
"Malformed line" errors, accepted here as the qrels reader accepts them).
Unlike C's ``atof``/``atol``, a relevance that is not a number is an error
naming the line.  A (topic, jg, docno) judged twice in ``qrels_jg`` is an error,
as in trec_eval; preference files may repeat a document (its preferences are
then counted as trec_eval counts them).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.common.errors import FormatError
from yardstick.inputs.io.text_source import decode_text, display_name, read_bytes
from yardstick.inputs.qrels import Qrels

PREFS_COLUMNS = "topic jg jsg docno rel_level"
QRELS_PREFS_COLUMNS = "topic jg docno rel_level"
QRELS_JG_COLUMNS = "topic jg docno rel"

_FLOAT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")
_INT = re.compile(r"[+-]?\d+\Z")


@dataclass(frozen=True, eq=False)
class PrefsJudgments:
    """Preference judgments (``-R prefs`` or ``-R qrels_prefs``).

    Attributes
    ----------
    frame : pandas.DataFrame
        Columns ``topic``, ``jg``, ``jsg``, ``docno`` (str) and ``rel_level``
        (float64), one row per line, sorted by topic then docno.
    name : str
    path : str or None
    format : str
        ``"prefs"`` or ``"qrels_prefs"`` (the file's layout).
    """

    frame: pd.DataFrame
    name: str = "prefs"
    path: str | None = None
    format: str = "prefs"

    @property
    def topics(self) -> np.ndarray:
        """Judged topics, sorted (byte order, trec_eval's order)."""
        return np.asarray(pd.unique(self.frame["topic"]), dtype=object)

    def to_frame(self) -> pd.DataFrame:
        return self.frame.copy()

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, name: str = "prefs", path: str | None = None,
                   format: str = "prefs") -> "PrefsJudgments":
        """From columns topic, jg, jsg (optional: "0"), docno, rel_level."""
        n = len(frame)
        f = pd.DataFrame({
            "topic": frame["topic"].astype(str).to_numpy(dtype=object),
            "jg": frame["jg"].astype(str).to_numpy(dtype=object),
            "jsg": (frame["jsg"].astype(str).to_numpy(dtype=object) if "jsg" in frame
                    else np.full(n, "0", dtype=object)),
            "docno": frame["docno"].astype(str).to_numpy(dtype=object),
            "rel_level": np.asarray(frame["rel_level"], dtype=np.float64)})
        f = f.sort_values(["topic", "docno"], kind="stable").reset_index(drop=True)
        return cls(frame=f, name=name, path=path, format=format)


@dataclass(frozen=True, eq=False)
class QrelsJG:
    """Ordinary judgments kept per judgment group (``-R qrels_jg``).

    Attributes
    ----------
    frame : pandas.DataFrame
        Columns ``topic``, ``jg``, ``docno`` (str), ``rel`` (int64), sorted by
        topic, jg, docno.
    """

    frame: pd.DataFrame
    name: str = "qrels_jg"
    path: str | None = None

    @property
    def topics(self) -> np.ndarray:
        return np.asarray(pd.unique(self.frame["topic"]), dtype=object)

    @property
    def groups(self) -> list[str]:
        """Every judgment-group name, sorted (strcmp order)."""
        return sorted(pd.unique(self.frame["jg"]).tolist(),
                      key=lambda s: s.encode("utf-8", "surrogateescape"))

    def group(self, jg: str) -> Qrels:
        """The judgments of one group as ordinary qrels (topics lacking the group omitted)."""
        f = self.frame[self.frame["jg"] == jg]
        return Qrels.from_frame(f[["topic", "docno", "rel"]], name=f"{self.name}[{jg}]")

    def to_frame(self) -> pd.DataFrame:
        return self.frame.copy()

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, name: str = "qrels_jg",
                   path: str | None = None) -> "QrelsJG":
        f = pd.DataFrame({"topic": frame["topic"].astype(str).to_numpy(dtype=object),
                          "jg": frame["jg"].astype(str).to_numpy(dtype=object),
                          "docno": frame["docno"].astype(str).to_numpy(dtype=object),
                          "rel": np.asarray(frame["rel"], dtype=np.int64)})
        f = f.sort_values(["topic", "jg", "docno"], kind="stable").reset_index(drop=True)
        return cls(frame=f, name=name, path=path)


def _records(path, ncols: int, columns: str, data: bytes | None):
    """(line number, fields, line) of every content line, checking the column count."""
    spath = str(path)
    if data is None:
        data = read_bytes(path, f"judgment file ({columns})")
    text = decode_text(data)
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if len(f) != ncols:
            raise FormatError(spath, lineno, f"expected {ncols} columns ({columns}), "
                              f"found {len(f)}", line)
        out.append((lineno, f, line))
    if not out:
        raise FormatError(spath, None, f"has no judgments: expected lines '{columns}'")
    return spath, out


def _number(spath, lineno, token, line, columns) -> float:
    if not _FLOAT.match(token):
        raise FormatError(spath, lineno, f"rel_level {token!r} is not a number "
                          f"(columns: {columns})", line)
    return float(token)


def read_prefs(path: str | os.PathLike, name: str | None = None,
               data: bytes | None = None) -> PrefsJudgments:
    """Read a trec_eval preference file (``topic jg jsg docno rel_level``)."""
    spath, recs = _records(path, 5, PREFS_COLUMNS, data)
    rows = [(f[0], f[1], f[2], f[3], _number(spath, n, f[4], line, PREFS_COLUMNS))
            for n, f, line in recs]
    frame = pd.DataFrame(rows, columns=["topic", "jg", "jsg", "docno", "rel_level"])
    return PrefsJudgments.from_frame(frame, name=name or display_name(spath),
                                     path=os.path.abspath(spath), format="prefs")


def read_qrels_prefs(path: str | os.PathLike, name: str | None = None,
                     data: bytes | None = None) -> PrefsJudgments:
    """Read a qrels file as preferences (JG = the ``iter`` column, one JSG ``"0"``)."""
    spath, recs = _records(path, 4, QRELS_PREFS_COLUMNS, data)
    rows = [(f[0], f[1], "0", f[2], _number(spath, n, f[3], line, QRELS_PREFS_COLUMNS))
            for n, f, line in recs]
    frame = pd.DataFrame(rows, columns=["topic", "jg", "jsg", "docno", "rel_level"])
    return PrefsJudgments.from_frame(frame, name=name or display_name(spath),
                                     path=os.path.abspath(spath), format="qrels_prefs")


def read_qrels_jg(path: str | os.PathLike, name: str | None = None,
                  data: bytes | None = None) -> QrelsJG:
    """Read judgment-group qrels (``topic jg docno rel``, integer ``rel``)."""
    spath, recs = _records(path, 4, QRELS_JG_COLUMNS, data)
    rows = []
    for n, f, line in recs:
        if not _INT.match(f[3]):
            raise FormatError(spath, n, f"relevance {f[3]!r} is not an integer "
                              f"(columns: {QRELS_JG_COLUMNS})", line)
        rows.append((f[0], f[1], f[2], int(f[3]), n, line))
    frame = pd.DataFrame(rows, columns=["topic", "jg", "docno", "rel", "line", "text"])
    frame = frame.sort_values(["topic", "jg", "docno"], kind="stable").reset_index(drop=True)
    dup = frame.duplicated(["topic", "jg", "docno"], keep="first").to_numpy()
    if dup.any():
        row = frame.iloc[int(np.flatnonzero(dup)[0])]
        raise FormatError(spath, int(row["line"]),
                          f"document {row['docno']!r} is judged twice in judgment group "
                          f"{row['jg']!r} of topic {row['topic']!r}", row["text"])
    return QrelsJG.from_frame(frame, name=name or display_name(spath),
                              path=os.path.abspath(spath))


READERS = {"prefs": read_prefs, "qrels_prefs": read_qrels_prefs, "qrels_jg": read_qrels_jg}
