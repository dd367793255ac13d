"""Relevance judgments (qrels) as a small sorted frame.

``topic iter docno rel``.  ``rel`` may be graded (0, 1, 2, ...) or negative:
trec_eval treats ``rel < 0`` as "in the pool but not judged" (used by infAP's
sampled judgments) and never counts it as relevant or non-relevant.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd


class Qrels:
    """Judgments sorted by topic then docno (byte order), one row per (topic, docno).

    Attributes
    ----------
    frame : pandas.DataFrame
        Columns ``topic`` (str), ``docno`` (str), ``rel`` (int64).  A reader may
        give instead a function building it, called on first use: evaluating
        needs only :attr:`rel`, :attr:`topic_index` and the docno arrays, and
        ``yardstick eval`` then never imports pandas on its critical path.
    name : str
    path : str or None
    """

    def __init__(self, frame: pd.DataFrame | None = None, name: str = "qrels",
                 path: str | None = None, meta: dict | None = None, *,
                 build_frame: Callable[[], pd.DataFrame] | None = None):
        if frame is None and build_frame is None:
            raise ValueError("Qrels needs a frame or a function building it")
        self._frame = frame
        self._build_frame = build_frame
        self.name = name
        self.path = path
        self.meta = {} if meta is None else meta

    def __repr__(self) -> str:
        return f"Qrels(name={self.name!r}, path={self.path!r}, judgments={len(self)})"

    @property
    def frame(self) -> pd.DataFrame:
        if self._frame is None:
            self._frame = self._build_frame()
            self._build_frame = None
        return self._frame

    @cached_property
    def rel(self) -> np.ndarray:
        """Per judgment (in frame order), the relevance value (int64)."""
        return np.asarray(self.frame["rel"].to_numpy(), dtype=np.int64)

    @property
    def topics(self) -> np.ndarray:
        """Judged topics in trec_eval order (strcmp)."""
        return self.topic_index[0]

    def __len__(self) -> int:
        return len(self.rel)

    @cached_property
    def docno_bytes(self) -> np.ndarray:
        """Docnos as one NUL-padded bytes array (see :class:`yardstick.inputs.run.Run`)."""
        from yardstick.inputs.run import to_bytes_array

        return to_bytes_array(self.frame["docno"].to_numpy())

    @cached_property
    def docno_hash(self) -> np.ndarray:
        from yardstick.inputs.run import docno_hash

        return docno_hash(self.docno_bytes)

    @cached_property
    def topic_index(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted unique topics, per-row code into them)."""
        import pandas as pd

        codes, uniq = pd.factorize(self.frame["topic"], sort=True)
        return np.asarray(uniq, dtype=object), codes.astype(np.int64)

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, name: str = "qrels",
                   path: str | None = None) -> "Qrels":
        import pandas as pd

        from yardstick.inputs.io.text_source import text_column

        f = pd.DataFrame({"topic": text_column(frame["topic"]),
                          "docno": text_column(frame["docno"]),
                          "rel": np.asarray(frame["rel"], dtype=np.int64)})
        f = f.sort_values(["topic", "docno"], kind="stable").reset_index(drop=True)
        return cls(frame=f, name=name, path=path)

    @classmethod
    def from_dict(cls, qrels: dict, name: str = "qrels") -> "Qrels":
        """Build from ``{topic: {docno: rel}}`` (the pytrec_eval shape)."""
        rows = [(q, d, r) for q, docs in qrels.items() for d, r in docs.items()]
        import pandas as pd

        return cls.from_frame(pd.DataFrame(rows, columns=["topic", "docno", "rel"]), name=name)

    def to_dict(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for t, d, r in self.frame.itertuples(index=False):
            out.setdefault(t, {})[d] = int(r)
        return out

    def with_frame(self, frame: pd.DataFrame, name: str | None = None) -> "Qrels":
        """A copy with other judgments (what-if edits, pool simulations): never the file."""
        return Qrels.from_frame(frame, name=name or self.name, path=None)
