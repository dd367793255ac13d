"""The tables the Measures panel shows, from evaluations (runs x measures, topics x runs)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from yardstick.evaluate import Evaluation, score_matrix

__all__ = ["measure_columns", "summary_table", "per_topic_table"]


def measure_columns(measure: str, columns: Sequence[str]) -> list[str]:
    """Columns of ``Evaluation.per_topic``/``summary`` that a trec_eval measure spec makes.

    ``"P.5,10"`` -> ``P_5``, ``P_10``; ``"ndcg_cut.10"`` -> ``ndcg_cut_10``;
    ``"map"`` -> ``map``; ``"P"`` -> every ``P_k`` present.
    """
    columns = list(columns)
    if measure in columns:
        return [measure]
    if "." in measure:
        base, params = measure.split(".", 1)
        wanted = [f"{base}_{p.strip()}" for p in params.split(",") if p.strip()]
        return [c for c in wanted if c in columns]
    pre = measure + "_"
    return [c for c in columns if c.startswith(pre) and c[len(pre):][:1].isdigit()]


def columns_for(measures: Sequence[str], columns: Sequence[str]) -> list[str]:
    out: list[str] = []
    for m in measures:
        out.extend(c for c in measure_columns(m, columns) if c not in out)
    return out


def summary_table(evaluations: Mapping[str, Evaluation], measures: Sequence[str]) -> pd.DataFrame:
    """Runs x measure columns of trec_eval's averages (index ``run``), numeric columns only."""
    if not evaluations:
        return pd.DataFrame(index=pd.Index([], name="run"))
    first = next(iter(evaluations.values()))
    cols = columns_for(measures, list(first.summary.index))
    rows = {name: pd.to_numeric(ev.summary.reindex(cols), errors="coerce")
            for name, ev in evaluations.items()}
    out = pd.DataFrame(rows).T.astype(float)
    out.index.name = "run"
    return out


def per_topic_table(evaluations: Mapping[str, Evaluation], column: str,
                    with_mean: bool = False) -> pd.DataFrame:
    """Topics x runs of one per-topic column; ``with_mean`` adds mean/median/max columns."""
    if not evaluations:
        return pd.DataFrame(index=pd.Index([], name="topic"))
    mat = score_matrix(evaluations, column)
    mat.columns = list(mat.columns)
    if with_mean:
        vals = mat.to_numpy(dtype=float)
        with np.errstate(all="ignore"):
            mat["median"] = np.nanmedian(vals, axis=1) if vals.size else np.nan
            mat["max"] = np.nanmax(vals, axis=1) if vals.size else np.nan
    return mat
