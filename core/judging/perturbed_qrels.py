"""A second set of judgments made by perturbing the grades of a first (seeded).

A stand-in for a secondary assessor where none exists (Voorhees, "Variations in
relevance judgments and the measurement of retrieval effectiveness", IP&M 36(5), 2000:
secondary assessors found a different relevant set, overlap 0.3-0.5, on the same
pool).  Each judged document keeps its grade, except that

* a relevant one (grade ``>= level``) is judged non-relevant with probability
  ``drop``, or moves one grade up or down with probability ``shift`` (graded qrels);
* a non-relevant one is judged relevant (grade ``level``) with probability ``add``;
* with probability ``unjudge`` it is left unjudged (the second set's missing
  judgments).

Deterministic for a given ``seed`` (``numpy.random.default_rng``).
"""

from __future__ import annotations

import numpy as np

from yardstick.inputs.qrels import Qrels

__all__ = ["perturb_grades"]


def perturb_grades(qrels: Qrels, drop: float = 0.3, add: float = 0.05, shift: float = 0.0,
                   unjudge: float = 0.0, level: int = 1, seed: int = 0,
                   name: str | None = None) -> Qrels:
    """A perturbed copy of ``qrels`` (see the module docstring); negative grades are kept."""
    rng = np.random.default_rng(seed)
    f = qrels.frame[["topic", "docno", "rel"]].copy()
    rel = f["rel"].to_numpy(dtype=np.int64).copy()
    u = rng.random(len(rel))
    v = rng.random(len(rel))
    top = max(int(rel.max()) if len(rel) else level, level)
    relevant = rel >= level
    judged = rel >= 0
    out = rel.copy()
    out[relevant & (u < drop)] = 0
    moved = relevant & (u >= drop) & (u < drop + shift)
    up = v < 0.5
    out[moved & up] = np.minimum(rel[moved & up] + 1, top)
    out[moved & ~up] = np.maximum(rel[moved & ~up] - 1, level)
    out[judged & ~relevant & (u < add)] = level
    f["rel"] = out
    keep = ~(judged & (rng.random(len(rel)) < unjudge))
    return Qrels.from_frame(f[keep], name=name or f"{qrels.name}-perturbed")
