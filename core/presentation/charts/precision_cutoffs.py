"""Precision at document cutoffs, P@5 … P@1000 (TREC appendix §2.1-III, Table 3).

"Each document precision average is computed by summing the precisions at the
specified document cutoff value and dividing by the number of topics": the
means of trec_eval's ``P_k`` values at the appendix's nine cutoffs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.evaluation.evaluation_service import Evaluation
from yardstick.presentation.charts.scores import run_means

__all__ = ["CUTOFFS", "PrecisionAtCutoffs", "precision_at_cutoffs"]

#: the appendix's document cutoffs (trec_eval's default P cutoffs)
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


@dataclass(frozen=True, eq=False)
class PrecisionAtCutoffs:
    """Mean P@k per run; ``precision`` is ``(len(runs), len(cutoffs))``."""

    runs: tuple[str, ...]
    cutoffs: np.ndarray
    precision: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """Cutoffs × runs."""
        return pd.DataFrame(self.precision.T, index=pd.Index(self.cutoffs, name="cutoff"),
                            columns=pd.Index(self.runs, name="run"))


def precision_at_cutoffs(evaluations: Mapping[str, Evaluation], cutoffs: Sequence[int] = CUTOFFS,
                         runs: Sequence[str] | None = None,
                         topics: Sequence[str] | None = None) -> PrecisionAtCutoffs:
    """P@k averaged over topics for each run (cutoffs the evaluations lack are skipped)."""
    names = list(runs) if runs is not None else list(evaluations)
    have = set(evaluations[names[0]].per_topic.columns) if names else set()
    cuts = [int(k) for k in cutoffs if f"P_{int(k)}" in have]
    if not cuts:
        raise KeyError("the evaluations hold no P_k values; evaluate with 'P'")
    means = run_means(evaluations, [f"P_{k}" for k in cuts], names, topics)
    return PrecisionAtCutoffs(tuple(names), np.asarray(cuts), means.to_numpy(float))
