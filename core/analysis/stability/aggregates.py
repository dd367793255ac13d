"""How a topic sample's per-topic scores become one score per run.

Most measures average over topics (MAP, P@10, R-prec, MRR, nDCG@10, %no-rel@10
= mean of the 0/1 ``no_rel_10``), and a sample's scores are then one matrix
product (:func:`yardstick.analysis.stability.resampling.sample_means`).  Two robust-track
measures do not: ``map_worst`` (MAP(X), the mean AP of the run's X worst
topics) and ``area`` (the area under MAP(X) vs X for X = 1 .. n/4), Voorhees,
robust 2003 overview (Voorhees 2003, §2) — both computed from
per-topic AP, re-sorted inside every sample, with ``X`` scaled to the sample
size.  The robust overview's §3.2–3.3 stability numbers for "area" need
exactly this: its scores "depend directly on the number of topics in the set".

An :class:`Aggregate` reduces a ``B × n × R`` block of gathered per-topic
scores to ``B × R``; :func:`aggregate_for` picks it from a measure name and
:func:`per_topic_measure` names the per-topic column that feeds it (``map``
for ``area`` and ``map_worst``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from yardstick.analysis.stability.resampling import sample_means

__all__ = ["Aggregate", "MeanAggregate", "WorstTopicsAggregate", "aggregate_for",
           "per_topic_measure", "lower_is_better", "MEAN"]


class Aggregate:
    """Mean over the sample's topics (the default); subclasses override :meth:`reduce`."""

    name = "mean"
    #: True when the aggregate is the mean of per-topic values (paired tests apply)
    linear = True

    def reduce(self, block: np.ndarray) -> np.ndarray:
        """``B × n × R`` per-topic scores -> ``B × R``."""
        return block.mean(axis=1)

    def samples(self, values: np.ndarray, indices: np.ndarray, out: np.ndarray | None = None,
                ) -> np.ndarray:
        """Score of every run on every sample (``B × n`` topic indices) -> ``B × R`` (written
        into ``out`` when the aggregate can; use the array returned)."""
        return self.reduce(values[indices])

    def full(self, values: np.ndarray) -> np.ndarray:
        """Score of every run over all topics (``N × R`` -> ``R``)."""
        return self.reduce(values[None])[0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class MeanAggregate(Aggregate):
    """Mean over topics, computed as one weight-matrix product."""

    def samples(self, values: np.ndarray, indices: np.ndarray, out: np.ndarray | None = None,
                ) -> np.ndarray:
        return sample_means(values, indices, out)


MEAN = MeanAggregate()


@dataclass(frozen=True, repr=False)
class WorstTopicsAggregate(Aggregate):
    """MAP(X) or the area under MAP(X) vs X, over each sample's own worst topics.

    Attributes
    ----------
    x : int or None
        ``X`` (``map_worst``) or the largest ``X`` (``area``); ``None`` = a
        quarter of the sample size (``n // 4``), as the registry does for the
        whole topic set.
    area : bool
        True: mean of MAP(X) for X = 1 .. x (the track's area, unit spacing);
        False: MAP(x).
    """

    x: int | None = None
    area: bool = False

    linear = False

    @property
    def name(self) -> str:  # type: ignore[override]
        base = "area" if self.area else "map_worst"
        return base if self.x is None else f"{base}.{self.x}"

    def reduce(self, block: np.ndarray) -> np.ndarray:
        b, n, r = block.shape
        x = n // 4 if self.x is None else min(int(self.x), n)
        if x <= 0:
            return np.zeros((b, r))
        worst = np.sort(block, axis=1)[:, :x, :]
        curve = np.cumsum(worst, axis=1) / np.arange(1, x + 1)[None, :, None]
        return curve.mean(axis=1) if self.area else curve[:, -1, :]


_WORST = re.compile(r"^(area|map_worst)(?:[._](\d+))?$")


def aggregate_for(measure: str) -> Aggregate:
    """The aggregate of a measure name: worst-topics for ``area``/``map_worst``, else the mean."""
    m = _WORST.match(measure.strip())
    if not m:
        return MEAN
    x = int(m.group(2)) if m.group(2) else None
    return WorstTopicsAggregate(x, m.group(1) == "area")


def lower_is_better(measure: str) -> bool:
    """True for measures where a lower score is better: the robust track's ``no_rel_10``
    (%no, topics with no relevant document in the top 10) and trec_eval's non-relevant counts."""
    name = measure.strip()
    return name == "no_rel_10" or name.startswith("num_nonrel")


def per_topic_measure(measure: str) -> str:
    """The per-topic column a measure's score matrix is made of (``map`` for area/map_worst)."""
    return "map" if _WORST.match(measure.strip()) else measure
