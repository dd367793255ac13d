"""The tables the Measures panel shows, from evaluations (runs x measures, topics x runs)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from yardstick.evaluation.evaluation_service import Evaluation, score_matrix

__all__ = ["measure_columns", "summary_table", "per_topic_table"]


def measure_columns(measure: str, columns: Sequence[str]) -> list[str]:
    """Columns of ``Evaluation.per_topic``/``summary`` that a measure name makes.

    The name is parsed by the one measure parser
    (:func:`yardstick.evaluation.measures.spec.parse_measure`,
    any spelling) and its printed names are looked up: ``"P.5,10"`` -> ``P_5``, ``P_10``;
    ``"iprec_at_recall.0.1,0.5"`` -> ``iprec_at_recall_0.10``, ``iprec_at_recall_0.50``;
    ``"nDCG@10"`` -> ``ndcg_cut_10``; ``"P"`` -> every ``P_k`` present; ``"official"`` ->
    each of its measures' columns.
    """
    from yardstick.evaluation.measures.definition import CUT_DOUBLE, CUT_LONG, MeasureError
    from yardstick.evaluation.measures.registry import parse_requests
    from yardstick.evaluation.measures.spec import parse_measure

    columns = list(columns)
    if measure in columns:
        return [measure]
    try:
        spec = parse_measure(measure)
        if spec.has_own_options:  # evaluated apart, named by its own text
            return [c for c in columns if c == spec.text or c.startswith(spec.text + ":")]
        requests = parse_requests([spec.trec_eval])
    except MeasureError:
        return []
    out: list[str] = []
    for req in requests:
        if req.printable is None and req.definition.kind in (CUT_LONG, CUT_DOUBLE):
            pre = req.name + "_"  # any cutoffs the evaluation used
            names = [c for c in columns if c.startswith(pre) and c[len(pre):][:1].isdigit()]
        else:
            names = [c for c in req.output_names() if c in columns]
        out.extend(c for c in names if c not in out)
    return out


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


def topic_scores(evaluations: Mapping[str, Evaluation], topic: str,
                 columns: Sequence[str]) -> pd.DataFrame:
    """Runs x ``columns`` of the per-topic scores on one ``topic`` (index ``run``); a run
    that did not retrieve for the topic has NaN (the window's Topic panel)."""
    cols = list(columns)
    rows = np.full((len(evaluations), len(cols)), np.nan)
    for i, ev in enumerate(evaluations.values()):
        pt = ev.per_topic
        pos = pt.index.get_indexer([topic])[0] if topic in pt.index else -1
        if pos < 0:
            continue
        have = pt.columns.get_indexer(cols)
        row = pt.iloc[pos].to_numpy()
        ok = have >= 0
        rows[i, ok] = pd.to_numeric(pd.Series(row[have[ok]]), errors="coerce").to_numpy(float)
    return pd.DataFrame(rows, index=pd.Index(list(evaluations), name="run"), columns=cols)
