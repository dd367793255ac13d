"""Tie sensitivity: how much a run's scores depend on how its tied documents are ordered.

trec_eval orders documents with equal scores by docno, descending
(``form_res_rels.c``); any other rule — the file's rank column, docno
ascending, random — gives other values for every rank-based measure.  Here
the run is re-scored under ``n_orders`` random orders of its tied documents
and the spread of each measure is reported per topic and overall, next to
trec_eval's deterministic value.

Vectorised: each sample's order is ``argsort(tie_group + u)`` with ``u``
uniform in [0, 1), which permutes documents only within their tie group; all
samples of a chunk are stacked as extra "topics" of one judged ranking, so
every measure kernel runs once per chunk.  ``-M`` is applied after the
shuffle (a tie group straddling the cutoff changes which documents are
kept) and ``-J`` after that, as trec_eval does.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from yardstick.common.options import EvalOptions
from yardstick.common.progress import Progress
from yardstick.evaluation.engine import compute_columns, summarise, topic_average
from yardstick.evaluation.measures.registry import NUM_Q, RUNID, STRING, parse_requests
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.judged import JudgedRanking, build_judged_ranking

#: flat documents per chunk of stacked samples (bounds memory)
CHUNK_DOCS = 2_000_000
#: relative differences below this are rounding noise (the kernels' flat cumulative
#: sums depend on where a topic sits in the stacked array), not an effect of ties
NOISE = 1e-10


@dataclass(frozen=True, eq=False)
class TieSensitivity:
    """Measures of one run under random orders of its tied documents.

    Attributes
    ----------
    run_name : str
    n_orders, seed : int
    per_topic : pandas.DataFrame
        Columns ``measure``, ``topic``, ``trec_eval`` (the value with trec_eval's
        docno-descending order), ``min``, ``max``, ``mean``, ``std``, ``spread``
        (max - min) and ``changed`` (fraction of orders giving another value).
    overall : pandas.DataFrame
        Index ``measure``; the same columns for the summary over topics.
    ties : pandas.DataFrame
        Per topic: ``num_ret``, ``tied_docs`` (documents sharing their score),
        ``tie_groups`` (groups of two or more), ``largest_group``.
    samples : dict
        Measure -> the summary value under each random order, shape (n_orders,).
    """

    run_name: str
    n_orders: int
    seed: int
    per_topic: pd.DataFrame
    overall: pd.DataFrame
    ties: pd.DataFrame
    samples: dict = field(default_factory=dict, repr=False)

    def to_frame(self) -> pd.DataFrame:
        return self.per_topic

    @property
    def measures(self) -> list[str]:
        return list(self.overall.index)

    def topic_frame(self, measure: str) -> pd.DataFrame:
        """Per-topic rows of one measure, indexed by topic."""
        f = self.per_topic[self.per_topic["measure"] == measure]
        return f.drop(columns="measure").set_index("topic")


def tie_group_ids(jr: JudgedRanking, compat: int = 10) -> np.ndarray:
    """Global tie-group id of each ranked document (0-based, increasing along the list).

    A group is a run of equal scores within a topic (C floats with compat 9);
    stand-in documents of missing topics are groups of their own.
    """
    n = len(jr.rel)
    if n == 0:
        return np.zeros(0, np.int64)
    score = np.full(n, np.nan)
    ok = jr.line >= 0
    if jr.run is not None:
        score[ok] = jr.run.score[jr.line[ok]]
    if compat == 9:
        score = score.astype(np.float32).astype(np.float64)
    new = np.ones(n, bool)
    new[1:] = (score[1:] != score[:-1]) | np.isnan(score[1:])
    new[jr.start[:-1][jr.num_ret > 0]] = True
    return np.cumsum(new) - 1


def tie_summary(jr: JudgedRanking, gid: np.ndarray) -> pd.DataFrame:
    size = np.bincount(gid)[gid] if len(gid) else np.zeros(0, np.int64)
    tied = size > 1
    first = np.ones(len(gid), bool)
    first[1:] = gid[1:] != gid[:-1]
    largest = np.zeros(jr.num_topics, np.int64)
    if len(gid):
        np.maximum.at(largest, jr.tix, size)
    return pd.DataFrame({"num_ret": jr.num_ret, "tied_docs": jr.count(tied),
                         "tie_groups": jr.count(tied & first), "largest_group": largest},
                        index=pd.Index([str(t) for t in jr.topics.tolist()], name="topic"))


def _stacked(full: JudgedRanking, rel: np.ndarray, keep: np.ndarray, fill: np.ndarray,
             sel: np.ndarray) -> JudgedRanking:
    """Samples (rows of ``rel``) of the topics ``sel`` as one judged ranking."""
    S, _ = rel.shape
    T = len(sel)
    tix = np.broadcast_to(full.tix, rel.shape)
    mask = np.broadcast_to(keep, rel.shape).copy()
    if full.options is not None and full.options.judged_only:
        mask &= (rel >= 0) | fill
    stack_t = np.arange(S)[:, None] * T + tix
    flat_rel = rel[mask]
    counts = np.bincount(stack_t[mask], minlength=S * T)
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return JudgedRanking(np.tile(full.topics[sel], S), start, flat_rel,
                         np.full(len(flat_rel), -1, np.int64),
                         np.tile(full.rel_levels[sel], (S, 1)), full.relevance_level,
                         np.tile(full.missing[sel], S), full.num_qrels_topics, full.run,
                         full.qrels, full.options)


def _subset(jr: JudgedRanking, sel: np.ndarray) -> tuple[JudgedRanking, np.ndarray]:
    """The judged ranking restricted to topics ``sel``, and the flat indices kept."""
    idx = np.concatenate([np.arange(jr.start[t], jr.start[t + 1]) for t in sel]) \
        if len(sel) else np.zeros(0, np.int64)
    counts = jr.num_ret[sel]
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    sub = JudgedRanking(jr.topics[sel], start, jr.rel[idx], jr.line[idx], jr.rel_levels[sel],
                        jr.relevance_level, jr.missing[sel], jr.num_qrels_topics, jr.run,
                        jr.qrels, jr.options)
    return sub, idx.astype(np.int64)


def tie_sensitivity(run: Run, qrels: Qrels, measures: Sequence[str] | str = ("official",),
                    n_orders: int = 100, seed: int = 0, options: EvalOptions | None = None
                    ) -> Generator[Progress, None, TieSensitivity]:
    """Re-score ``run`` under ``n_orders`` random orders of its ties (progress generator).

    Parameters
    ----------
    run, qrels : Run, Qrels
    measures : str or sequence of str
        Requests as for :func:`yardstick.evaluation.evaluation_service.evaluate_run`; text
        and run-level columns (``runid``, ``num_q``, ``relstring``) are left out.
    n_orders : int
        Random orders drawn (each a uniform random permutation of every tie group).
    seed : int
        For ``numpy.random.default_rng``.
    options : EvalOptions, optional
    """
    options = options or EvalOptions()
    rng = np.random.default_rng(seed)
    requests = [r for r in parse_requests(measures, options.compat)
                if r.definition.kind not in (STRING, RUNID, NUM_Q)]
    jr = build_judged_ranking(run, qrels, options)
    base_cols = compute_columns(jr, requests)
    base_sum = summarise(jr, base_cols, options)
    # the untruncated, unfiltered ranking: shuffle first, then -M, then -J
    full_opts = replace(options, max_docs=None, judged_only=False)
    full = build_judged_ranking(run, qrels, full_opts) if full_opts != options else jr
    full = JudgedRanking(full.topics, full.start, full.rel, full.line, full.rel_levels,
                         full.relevance_level, full.missing, full.num_qrels_topics, run, qrels,
                         options)
    gid = tie_group_ids(full, options.compat)
    ties = tie_summary(jr, tie_group_ids(jr, options.compat))
    T = jr.num_topics
    tied_topics = np.flatnonzero(np.bincount(full.tix[np.bincount(gid)[gid] > 1]
                                             if len(gid) else np.zeros(0, np.int64),
                                             minlength=T) > 0)
    names = [c.name for c in base_cols]
    values = {c.name: np.repeat(np.asarray(c.values, float)[None, :], n_orders, axis=0)
              for c in base_cols}
    if len(tied_topics):
        sub, idx = _subset(full, tied_topics)
        sub_gid = gid[idx]
        sub_gid = sub_gid - sub_gid.min() if len(sub_gid) else sub_gid
        fill = sub.line < 0
        keep = (sub.pos < (options.max_docs if options.max_docs is not None else np.inf)) | fill
        chunk = max(1, min(n_orders, CHUNK_DOCS // max(len(sub.rel), 1)))
        done = 0
        while done < n_orders:
            yield Progress(done, n_orders, f"{run.name}: random tie orders {done}/{n_orders}")
            s = min(chunk, n_orders - done)
            keys = sub_gid[None, :] + rng.random((s, len(sub_gid)))
            perm = np.argsort(keys, axis=1, kind="stable")
            stacked = _stacked(sub, sub.rel[perm], keep, fill, np.arange(len(tied_topics)))
            for c in compute_columns(stacked, requests):
                values[c.name][done:done + s][:, tied_topics] = \
                    np.asarray(c.values, float).reshape(s, len(tied_topics))
            done += s
    yield Progress(n_orders, n_orders, "summarising")
    for c in base_cols:  # floating-point noise of the flat cumulative sums is not a tie effect
        det = np.asarray(c.values, float)[None, :]
        v = values[c.name]
        same = np.abs(v - det) <= NOISE * np.maximum(1.0, np.abs(det))
        values[c.name] = np.where(same, det, v)
    topics = [str(t) for t in jr.topics.tolist()]
    rows, over, samples = [], {}, {}
    for c in base_cols:
        v = values[c.name]
        if c.request.definition.per_topic:
            det = np.asarray(c.values, float)
            rows.append(pd.DataFrame({
                "measure": c.name, "topic": topics, "trec_eval": det, "min": v.min(axis=0),
                "max": v.max(axis=0), "mean": v.mean(axis=0), "std": v.std(axis=0),
                "spread": v.max(axis=0) - v.min(axis=0),
                "changed": (v != det[None, :]).mean(axis=0)}))
        summ = topic_average(jr, c, options, values=v)
        samples[c.name] = summ
        det_s = float(base_sum[c.name])
        over[c.name] = {"trec_eval": det_s, "min": summ.min(), "max": summ.max(),
                        "mean": summ.mean(), "std": summ.std(),
                        "spread": summ.max() - summ.min(), "changed": (summ != det_s).mean()}
    per_topic = (pd.concat(rows, ignore_index=True) if rows else
                 pd.DataFrame(columns=["measure", "topic", "trec_eval", "min", "max", "mean",
                                       "std", "spread", "changed"]))
    overall = pd.DataFrame.from_dict(over, orient="index").reindex(names)
    overall.index.name = "measure"
    return TieSensitivity(run_name=run.name, n_orders=n_orders, seed=seed, per_topic=per_topic,
                          overall=overall, ties=ties, samples=samples)
