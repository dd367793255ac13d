"""Handing results on to ranx, ir_measures and PyTerrier users (optional extras).

Nothing here imports ranx or ir_measures at module level: they are optional
(``pip install 'yardstick-ir[interop]'``), and the core never depends on them.

>>> import yardstick as ys
>>> q = ys.read_qrels({"1": {"a": 1, "b": 0}})
>>> r = ys.read_runs({"1": {"a": 2.0, "b": 1.0}}, name="mine")
>>> qf, rf = to_trec_frames(q, r)
>>> list(qf.columns), list(rf.columns)
(['query_id', 'doc_id', 'relevance'], ['run', 'query_id', 'doc_id', 'score'])
"""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["to_trec_frames", "to_ranx", "to_ir_measures", "ranx_report_frame"]


def to_trec_frames(qrels: Any = None, runs: Any = None) -> tuple[pd.DataFrame | None,
                                                                  pd.DataFrame | None]:
    """Qrels and runs as ir_measures'/ranx's DataFrames (``query_id, doc_id, relevance`` /
    ``run, query_id, doc_id, score``)."""
    from yardstick.api import read_qrels, read_runs

    qf = rf = None
    if qrels is not None:
        f = read_qrels(qrels).frame
        qf = pd.DataFrame({"query_id": f["topic"].to_numpy(), "doc_id": f["docno"].to_numpy(),
                           "relevance": f["rel"].to_numpy()})
    if runs is not None:
        parts = []
        for r in read_runs(runs):
            f = r.to_frame() if hasattr(r, "to_frame") else r.frame
            parts.append(pd.DataFrame({"run": r.name, "query_id": f["topic"].to_numpy(),
                                       "doc_id": f["docno"].to_numpy(),
                                       "score": f["score"].to_numpy()}))
        rf = pd.concat(parts, ignore_index=True)
    return qf, rf


def to_ranx(qrels: Any = None, runs: Any = None) -> tuple[Any, list[Any]]:
    """``(ranx.Qrels, [ranx.Run, …])`` for the given qrels and runs (needs ranx)."""
    import ranx

    qf, rf = to_trec_frames(qrels, runs)
    ids = {"query_id": object, "doc_id": object}  # ranx wants object (not pandas str) ids
    qf = None if qf is None else qf.astype(ids)
    rf = None if rf is None else rf.astype(ids)
    rq = None
    if qf is not None:
        rq = ranx.Qrels.from_df(qf, q_id_col="query_id", doc_id_col="doc_id",
                                score_col="relevance")
    rr = []
    if rf is not None:
        for name, part in rf.groupby("run", sort=False):
            run = ranx.Run.from_df(part.drop(columns="run"), q_id_col="query_id",
                                   doc_id_col="doc_id", score_col="score")
            run.name = str(name)
            rr.append(run)
    return rq, rr


def to_ir_measures(qrels: Any = None, runs: Any = None
                   ) -> tuple[pd.DataFrame | None, dict[str, pd.DataFrame]]:
    """``(qrels, {run name: run})`` as the DataFrames ir_measures' ``calc_aggregate`` and
    ``iter_calc`` take (``query_id, doc_id, relevance`` / ``query_id, doc_id, score``)."""
    qf, rf = to_trec_frames(qrels, runs)
    runs_out = {} if rf is None else {str(n): p.drop(columns="run").reset_index(drop=True)
                                      for n, p in rf.groupby("run", sort=False)}
    return qf, runs_out


def ranx_report_frame(tidy: pd.DataFrame) -> pd.DataFrame:
    """:func:`yardstick.evaluation.evaluation_service`'s summary rows in the shape ranx's
    ``compare`` prints:
    one row per run (``Model``), one column per measure."""
    summary = tidy[tidy["topic"] == "all"]
    if summary.empty:
        raise ValueError("ranx_report_frame needs trec_eval's averages: "
                         "evaluate(..., per_topic=False)")
    out = summary.pivot_table(index="run", columns="measure", values="value", sort=False)
    out.index.name = "Model"
    out.columns.name = None
    return out
