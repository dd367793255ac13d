"""Building :class:`~yardstick.judging.judged_runs.JudgedRuns` from runs and qrels.

Nothing is sorted or joined a second time: each run's entries are its trec_eval
order (:func:`yardstick.judging.run_judgments.cached_order`, the array the evaluation
cached on the run) and their judgments are the run's
:func:`~yardstick.judging.run_judgments.ranked_judgments` (the qrels joined once per
(run, qrels), by the evaluation when it came first).  Those judgments are copied
into the one flat ``e_rel`` and each run's kept copy is replaced by a view of it,
so the memory is held once.  What is new here is the docno code shared by the runs
and the qrels (:class:`yardstick.judging.docno_codes.DocnoCodes`, the qrels' documents
first), which the pool's set questions need.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from yardstick.common.progress import Progress, run_sync
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.ranking import trec_order
from yardstick.inputs.run import Run
from yardstick.judging.docno_codes import DocnoCodes
from yardstick.judging.judged_runs import JudgedRuns
from yardstick.judging.run_judgments import (
    cached_order,
    judgment_dtype,
    keep_judgments,
    ranked_judgments,
    run_topic_counts,
)

__all__ = ["TIE_ORDERS", "build_judged_runs", "iter_build_judged_runs"]

#: orders of tied scores within a run's topic: trec_eval's (docno descending), the
#: order the file lists them in, docno ascending
TIE_ORDERS = ("trec_eval", "file", "docno")


def _tie_key(r: Run, tie_order: str) -> np.ndarray:
    """What :func:`yardstick.inputs.ranking.trec_order` breaks ties by (descending) for an order."""
    if tie_order == "trec_eval":
        return r.docno_bytes
    if tie_order == "file":
        return -np.arange(len(r.score), dtype=np.int64)     # earlier lines first
    if tie_order == "docno":
        _, codes = np.unique(r.docno_bytes, return_inverse=True)
        return -codes.astype(np.int64).ravel()             # smaller docnos first
    raise ValueError(f"tie order must be one of {', '.join(TIE_ORDERS)}, not {tie_order!r}")


def iter_build_judged_runs(runs: Sequence[Run], qrels: Qrels,
                           pooled: Iterable[str] | Sequence[bool] | None = None,
                           groups: Mapping[str, str] | None = None,
                           relevance_level: int = 1, compat: int = 10,
                           tie_order: str = "trec_eval", last_join: bool = False
                           ) -> Generator[Progress, None, JudgedRuns]:
    """Encode runs and qrels (a progress generator; see :func:`build_judged_runs`)."""
    if tie_order not in TIE_ORDERS:
        raise ValueError(f"tie order must be one of {', '.join(TIE_ORDERS)}, not {tie_order!r}")
    runs = list(runs)
    if not runs:
        raise ValueError("pool diagnostics need at least one run")
    names = tuple(r.name for r in runs)
    if len(set(names)) != len(names):
        raise ValueError("run names must be distinct")
    pooled_mask = pooled_flags(runs, pooled)
    group_of = [(groups or {}).get(r.name) or r.group or r.name for r in runs]
    group_names = tuple(dict.fromkeys(group_of))
    run_group = np.array([group_names.index(g) for g in group_of], np.int32)
    n = len(runs)

    yield Progress(0, n + 1, "coding topics and documents")
    q_topics, q_tcode = qrels.topic_index
    topics = np.array(sorted(set(q_topics.tolist()).union(
        *[set(r.topics.tolist()) for r in runs]),
        key=lambda s: s.encode("utf-8", "surrogateescape")), dtype=object)
    in_qrels = np.isin(topics, q_topics)
    t_pos = pd.Index(topics, dtype=object)  # (object: a topic may hold non-UTF-8 bytes)
    T = len(topics)
    codes = DocnoCodes()                      # the qrels' documents get codes 0..n_q-1
    q_doc = codes.add(qrels.docno_bytes)

    # entries: each run's lines in its order, segments (run, topic) one after another
    seg_counts = np.zeros(n * T, np.int64)
    for i, r in enumerate(runs):
        top_map = t_pos.get_indexer(pd.Index(r.topics, dtype=object))
        seg_counts[i * T + top_map] = run_topic_counts(r)
    seg_start = np.concatenate([[0], np.cumsum(seg_counts)]).astype(np.int64)
    e_doc = np.empty(int(seg_start[-1]), np.int32)
    e_rel = np.empty(int(seg_start[-1]), judgment_dtype(qrels))
    run_lines = []
    for i, r in enumerate(runs):
        yield Progress(i + 1, n + 1, f"ordering {r.name}")
        a, z = int(seg_start[i * T]), int(seg_start[(i + 1) * T])
        # trec_eval's order and the judgments are the ones the evaluation computed
        # (and kept) for this run
        ranked = ranked_judgments(r, qrels, compat)
        if last_join:               # no other qrels will come (yardstick pool): 8 bytes a line
            r.drop_join_index()
        if tie_order == "trec_eval":
            o = cached_order(r, compat)
            e_rel[a:z] = ranked
            keep_judgments(r, qrels, compat, e_rel[a:z])    # one copy: a view of e_rel
        else:
            o = trec_order(r.topic_code, r.score, _tie_key(r, tie_order), compat=compat)
            o = o.astype(np.int32, copy=False)
            rel_line = np.empty(len(r), ranked.dtype)
            rel_line[cached_order(r, compat)] = ranked
            e_rel[a:z] = rel_line[o]
            del rel_line
        del ranked
        e_doc[a:z] = codes.add(r.docno_bytes)[o]
        run_lines.append(o)
    n_docs = max(codes.n, 1)
    q_key = t_pos.get_indexer(pd.Index(q_topics, dtype=object))[q_tcode].astype(np.int64) \
        * n_docs + q_doc
    q_rel = qrels.frame["rel"].to_numpy(np.int64)
    order = np.argsort(q_key, kind="stable")
    yield Progress(n + 1, n + 1, "done")
    return JudgedRuns(
        run_names=names, group_names=group_names, run_group=run_group, pooled=pooled_mask,
        topics=topics, in_qrels=in_qrels, doc_bytes=codes.doc_bytes(), e_doc=e_doc,
        e_rel=e_rel, seg_start=seg_start, q_key=q_key[order], q_rel=q_rel[order],
        relevance_level=int(relevance_level), qrels_name=qrels.name, tie_order=tie_order,
        run_lines=tuple(run_lines), runs=tuple(runs), compat=compat, qrels=qrels)


def build_judged_runs(runs: Sequence[Run], qrels: Qrels,
                      pooled: Iterable[str] | Sequence[bool] | None = None,
                      groups: Mapping[str, str] | None = None,
                      relevance_level: int = 1, compat: int = 10,
                      tie_order: str = "trec_eval", last_join: bool = False) -> JudgedRuns:
    """Encode runs and qrels for the pool diagnostics.

    Parameters
    ----------
    runs : sequence of Run
        Every run to diagnose (pooled or not); names must be distinct.
    qrels : Qrels
    pooled : names of the pooled runs, or one bool per run; default all runs.
    groups : mapping run name -> group, optional
        Default: ``Run.group``, or the run's own name when that is empty.
    relevance_level : int
        trec_eval ``-l``.
    compat : int
        10 or 9, passed to :func:`yardstick.inputs.ranking.trec_order`.
    tie_order : {"trec_eval", "file", "docno"}
        How documents with tied scores are ranked, which decides the ones a pool
        depth keeps: trec_eval's order (docno descending), the order the run file
        lists them in, or docno ascending — TREC pools have been cut all three
        ways, so reconstructing a real pool may need another than trec_eval's.
    last_join : bool
        Free each run's join index (:meth:`Run.drop_join_index`) once its judgments
        are known: no other qrels will be joined (``yardstick pool``).
    """
    return run_sync(iter_build_judged_runs(runs, qrels, pooled, groups, relevance_level, compat,
                                           tie_order, last_join))


def with_runs_flags(index: JudgedRuns, pooled: Iterable[str] | Sequence[bool] | None = None,
                    groups: Mapping[str, str] | None = None,
                    runs: Sequence[Run] | None = None) -> JudgedRuns:
    """The same judged runs with other pooled flags and groups, and the runs under other
    names (``runs``: the same runs' data, e.g. :meth:`Run.renamed` copies, in the same
    order).  Nothing is re-judged: the window keeps one index per (runs, qrels)."""
    from dataclasses import replace

    runs = tuple(index.runs if runs is None else runs)
    names = tuple(r.name for r in runs) if runs else index.run_names
    group_of = [(groups or {}).get(n) or (r.group if r is not None else "") or n
                for n, r in zip(names, runs or (None,) * len(names))]
    group_names = tuple(dict.fromkeys(group_of))
    return replace(index, run_names=names, runs=runs,
                   pooled=pooled_flags(runs or names, pooled), group_names=group_names,
                   run_group=np.array([group_names.index(g) for g in group_of], np.int32))


def pooled_flags(runs: Sequence, pooled) -> np.ndarray:
    """One bool per run from the pooled runs' names or flags (all when None)."""
    if pooled is None:
        return np.ones(len(runs), bool)
    pooled = list(pooled)
    if pooled and all(isinstance(p, (bool, np.bool_)) for p in pooled):
        if len(pooled) != len(runs):
            raise ValueError("one pooled flag per run expected")
        return np.array(pooled, bool)
    names = {str(p) for p in pooled}
    have = [getattr(r, "name", r) for r in runs]
    unknown = names - set(have)
    if unknown:
        raise ValueError(f"pooled runs not loaded: {', '.join(sorted(unknown))}")
    return np.array([h in names for h in have], bool)
