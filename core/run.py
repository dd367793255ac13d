"""A retrieval run held as columns of codes, not as a Python object per line.

A TREC run is ``topic Q0 docno rank score tag``.  Yardstick keeps it as numpy
arrays: ``topic_code`` and ``doc_code`` index the sorted unique ``topics`` and
``docnos`` (sorted in byte order, so comparing codes compares strings the way
trec_eval's ``strcmp`` does), ``score`` as float64, and ``rank`` as given in the
file (trec_eval ignores it; it is kept for display only).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd


@dataclass(frozen=True, eq=False)
class Run:
    """One run file.

    Attributes
    ----------
    name : str
        What the user calls it (file name by default; several runs may share a tag).
    tag : str
        The run tag of the file's last content line (trec_eval's ``runid``).
    topics, docnos : numpy.ndarray of str (object)
        Sorted unique ids (byte order).
    topic_code, doc_code : numpy.ndarray of int32
        Per line, index into ``topics`` / ``docnos``.
    score : numpy.ndarray of float64
    rank : numpy.ndarray of int64
        The file's rank column (0 where it was not an integer).
    path : str or None
    group : str
        The team that submitted it ("" if unknown).
    """

    name: str
    tag: str
    topics: np.ndarray
    docnos: np.ndarray
    topic_code: np.ndarray
    doc_code: np.ndarray
    score: np.ndarray
    rank: np.ndarray
    path: str | None = None
    group: str = ""
    meta: dict = field(default_factory=dict, compare=False)

    def __len__(self) -> int:
        return len(self.score)

    @property
    def num_topics(self) -> int:
        return len(self.topics)

    def renamed(self, name: str | None = None, group: str | None = None) -> "Run":
        return replace(self, name=self.name if name is None else name,
                       group=self.group if group is None else group)

    def to_frame(self) -> pd.DataFrame:
        """Columns ``topic``, ``docno`` (categoricals), ``rank``, ``score`` in file order."""
        return pd.DataFrame({
            "topic": pd.Categorical.from_codes(self.topic_code, self.topics),
            "docno": pd.Categorical.from_codes(self.doc_code, self.docnos),
            "rank": self.rank,
            "score": self.score,
        })

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, name: str, tag: str | None = None,
                   path: str | None = None, group: str = "") -> "Run":
        """Build a run from columns ``topic``, ``docno``, ``score`` (``rank`` optional)."""
        t_codes, topics = _codes(frame["topic"])
        d_codes, docnos = _codes(frame["docno"])
        score = np.asarray(frame["score"], dtype=np.float64)
        rank = (np.asarray(frame["rank"], dtype=np.int64) if "rank" in frame
                else np.zeros(len(score), np.int64))
        return cls(name=name, tag=tag if tag is not None else name, topics=topics,
                   docnos=docnos, topic_code=t_codes, doc_code=d_codes, score=score,
                   rank=rank, path=path, group=group)

    @classmethod
    def from_dict(cls, run: dict, name: str = "run") -> "Run":
        """Build from ``{topic: {docno: score}}`` (the pytrec_eval / ranx shape)."""
        rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
        frame = pd.DataFrame(rows, columns=["topic", "docno", "score"])
        return cls.from_frame(frame, name=name)


def _codes(values) -> tuple[np.ndarray, np.ndarray]:
    """Codes into sorted (byte-order) unique strings."""
    arr = np.asarray(values).astype(str).astype(object)
    uniq, inv = np.unique(arr, return_inverse=True)
    return inv.astype(np.int32).ravel(), uniq.astype(object)


def sorted_codes(categories: np.ndarray, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Re-code so that categories are in byte order (strcmp order)."""
    order = np.argsort(categories.astype(str), kind="stable") if len(categories) else np.arange(0)
    remap = np.empty(len(order), np.int32)
    remap[order] = np.arange(len(order), dtype=np.int32)
    return remap[codes], categories[order].astype(object)
