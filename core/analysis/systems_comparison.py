"""Systems of runs compared in one call: the tables of :mod:`yardstick.analysis.systems`,
the mixed model of :mod:`yardstick.analysis.systems_mixed_model` and the runs/topics
design of :func:`yardstick.analysis.stability.topic_set_size.systems_design`.

Tidy outputs: one row per system (:meth:`SystemsComparison.systems_table`), one row per
system pair with every test side by side (:meth:`SystemsComparison.pairs_table`), per
topic and system, the variance components, the design, and the runs in no system.
References as in :mod:`yardstick.analysis.systems` (Ferro and Silvello, SIGIR 2016;
Carterette, ICTIR 2015; Voorhees, IP&M 36(5), 2000).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from yardstick.analysis.stability.topic_set_size import systems_design
from yardstick.analysis.systems import (
    SHORTCUTS,
    shortcut_tests,
    split_runs,
    system_summary,
    system_topic_table,
)
from yardstick.analysis.systems_mixed_model import MixedModelResult, fit_systems_model

__all__ = ["SystemsComparison", "compare_systems_matrix"]


@dataclass(frozen=True, eq=False)
class SystemsComparison:
    """Everything :func:`compare_systems_matrix` computed (see the module docstring)."""

    measure: str
    systems: dict[str, list[str]]
    unassigned: tuple[str, ...]
    summary: pd.DataFrame
    per_topic: pd.DataFrame
    shortcuts: pd.DataFrame
    mixed: MixedModelResult | None
    design: pd.DataFrame
    correction: str
    run_means: pd.Series | None = None

    def systems_table(self) -> pd.DataFrame:
        """One row per system: the summary with the mixed model's estimate and interval."""
        out = self.summary.copy()
        out.insert(0, "measure", self.measure)
        if self.mixed is not None:
            m = self.mixed.systems.rename(columns={"estimate": "mixed_estimate", "se": "mixed_se",
                                                   "ci_low": "mixed_ci_low",
                                                   "ci_high": "mixed_ci_high"})
            out = out.merge(m, on="system", how="left")
        return out

    def pairs_table(self) -> pd.DataFrame:
        """One row per system pair: diff, the shortcut p-values and the mixed model's."""
        out = self.shortcuts.copy()
        out.insert(0, "measure", self.measure)
        if self.mixed is not None:
            m = self.mixed.pairs.drop(columns="mean_difference").rename(
                columns={"se": "mixed_se", "z": "mixed_z", "ci_low": "mixed_ci_low",
                         "ci_high": "mixed_ci_high"})
            out = out.merge(m, on=["system_a", "system_b"], how="left")
        out["correction"] = self.correction
        # answers first: the difference and the three corrected p-values side by side
        first = ["measure", "system_a", "system_b", "mean_difference", "p_value_mixed_corrected",
                 "p_value_averaged_corrected", "p_value_pooled_corrected"]
        first = [c for c in first if c in out.columns]
        return out[first + [c for c in out.columns if c not in first]]

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table, tidy, by name (what ``compare-systems --out`` writes)."""
        return {"system_pairs": self.pairs_table(), "systems": self.systems_table(),
                "variances": self.variances(), "design": self.design,
                "assumptions": self.assumptions(), "system_topics": self.per_topic,
                "unassigned_runs": self.unassigned_table()}

    def assumptions(self) -> pd.DataFrame:
        """``test, assumes``: one sentence per test."""
        return pd.DataFrame({"test": list(SHORTCUTS), "assumes": list(SHORTCUTS.values())})

    def unassigned_table(self) -> pd.DataFrame:
        return pd.DataFrame({"run": list(self.unassigned)})

    def variances(self) -> pd.DataFrame:
        return self.mixed.variances() if self.mixed is not None else pd.DataFrame(
            columns=["component", "variance", "share"])


def compare_systems_matrix(scores: pd.DataFrame, systems: Mapping[str, str], measure: str = "",
                           correction: str = "holm", method: str = "auto",
                           min_diffs: Sequence[float] = (0.02, 0.05),
                           design_runs: Sequence[int] = (2, 3, 5, 10, 20),
                           alpha: float = 0.05, beta: float = 0.2) -> SystemsComparison:
    """Compare the systems of a topics x runs score matrix (``systems``: run -> system)."""
    by, unassigned = split_runs(list(scores.columns), systems)
    if len(by) < 2:
        raise ValueError(f"need at least two systems; found {len(by)} "
                         f"({len(unassigned)} runs in no system)")
    used = {r: s for s, rs in by.items() for r in rs}
    mixed = fit_systems_model(scores, used, method, correction, alpha)
    var_run, var_res = mixed.var_run, mixed.var_residual
    design = systems_design(var_run, var_res, min_diffs, alpha, beta, design_runs) \
        if var_run + var_res > 0 else pd.DataFrame()
    return SystemsComparison(measure, by, tuple(unassigned), system_summary(scores, used, alpha),
                             system_topic_table(scores, used),
                             shortcut_tests(scores, used, correction), mixed, design, correction,
                             scores[list(used)].mean(axis=0))
