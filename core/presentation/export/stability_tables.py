"""The numbers of a stability report that its printed tables leave out, as tables for files.

``yardstick stability --out`` writes every :class:`~yardstick.analysis.stability.report.ReportTable`
and, from the result objects, these:

* ``pairs_<measure>_<set>``: for every run pair of the discriminative-power analysis,
  mean difference, the paired t statistic, its two-sided p-value (Student's t with
  n - 1 degrees of freedom, ``scipy.stats.t``), the bootstrap ASL, significance and
  the difference needed (Sakai, "Evaluating evaluation metrics based on the
  bootstrap", SIGIR 2006, section 4);
* ``tukey_pvalues_<measure>_<set>``: the randomised Tukey HSD p-value matrix (runs x runs;
  Carterette, "Multiple testing in statistical analysis of systems-based information
  retrieval experiments", TOIS 2012, section 3.3);
* ``sensitivity_bins_<measure>_<set>``: comparisons, swaps and swap rate per difference bin
  (Voorhees & Buckley, "The effect of topic set size on retrieval experiment error",
  SIGIR 2002).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

__all__ = ["detail_tables"]


def _name(*parts: str) -> str:
    return re.sub(r"[^\w.-]+", "_", "_".join(parts))


def detail_tables(report) -> list[tuple[str, pd.DataFrame, bool]]:
    """``(file stem, frame, write the index)`` for the numbers listed in the module docstring."""
    from scipy import stats

    out = []
    for (m, g), r in report.results.get("discriminative", {}).items():
        f = r.to_frame()
        dof = max(r.n_topics - 1, 1)
        f.insert(f.columns.get_loc("t") + 1, "p_t", 2 * stats.t.sf(np.abs(r.t), dof))
        out.append((_name("pairs", m, g), f, False))
    for (m, g), r in report.results.get("tukey", {}).items():
        p = r.pvalue_frame()
        p.index.name = "run"
        out.append((_name("tukey_pvalues", m, g), p, True))
    for (m, g), r in report.results.get("sensitivity", {}).items():
        out.append((_name("sensitivity_bins", m, g), r.to_frame(), False))
    return out
