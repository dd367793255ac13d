"""The judged ranking: a run ordered trec_eval's way, with every document's judgment.

This is trec_eval's ``RES_RELS`` (``form_res_rels.c``) for all topics at once,
held as flat arrays in CSR form so that every measure is a vectorised function
of it.  It is built once per (run, qrels, options) and reused by every measure,
every chart and every diagnostic (masking judgments instead of re-reading files).

Relevance codes per ranked document follow trec_eval:

* ``rel >= 0`` — the judgment in the qrels;
* ``-1`` (``RELVALUE_NONPOOL``) — the document is not in the qrels;
* ``-2`` (``RELVALUE_UNJUDGED``) — in the qrels with a negative judgment
  (in the pool but not assessed, as with infAP's sampled pools).
"""

from __future__ import annotations

import weakref
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from yardstick.common.options import EvalOptions
from yardstick.common.threads import gather
from yardstick.inputs.run import Run
from yardstick.judging.run_judgments import (  # noqa: F401
    NONPOOL,
    UNJUDGED,
    _is_identity,
    cached_order,
    line_judgments,
    ranked_judgments,
    run_topic_counts,
    segment_of_sorted,
)

if TYPE_CHECKING:
    from yardstick.inputs.qrels import Qrels


class Docs:
    """Some ranked documents, in rank order topic by topic (a sparse view).

    ``idx`` flat index into the ranking, ``tix`` topic, ``pos`` 0-based rank,
    ``rel`` judgment.  Most of a deep run is not in the qrels; measures that only
    look at judged documents work on these few instead of every ranked one.
    """

    #: set on :attr:`JudgedRanking.relevant` only (see there)
    cum: np.ndarray

    def __init__(self, idx, tix, pos, rel, num_topics, ranking: "JudgedRanking | None" = None):
        self.idx, self.tix, self.pos, self.rel = idx, tix, pos, rel
        self.num_topics = num_topics
        # the relevant documents' ranking, for the counts below (weakly: no reference cycle
        # keeps a run's arrays alive after the ranking is dropped)
        self._ranking = None if ranking is None else weakref.ref(ranking)

    def _before(self, flag) -> np.ndarray:
        """Per document, the qrels documents of its topic up to it where ``flag(rel,
        is_rel)`` holds; for :attr:`JudgedRanking.relevant` (computed when a measure asks)."""
        jr = self._ranking()
        d = jr.qrels_docs
        is_rel = d.rel >= jr.relevance_level
        counted, at = flag(d.rel, is_rel), np.flatnonzero(is_rel)
        if not counted.any():       # (e.g. no pooled-but-unjudged document at all)
            return np.zeros(len(at), np.int64)
        return d.cumcount(counted, at)

    @cached_property
    def nonrel_before(self) -> np.ndarray:
        """Judged non-relevant documents strictly above each relevant one."""
        return self._before(lambda rel, is_rel: (rel >= 0) & ~is_rel)

    @cached_property
    def unjudged_before(self) -> np.ndarray:
        """Pooled-but-unjudged documents (``UNJUDGED``) above each relevant one."""
        return self._before(lambda rel, is_rel: rel == UNJUDGED)

    def __len__(self) -> int:
        return len(self.idx)

    def select(self, mask: np.ndarray) -> "Docs":
        # (np.compress: 2-4x a boolean index's speed on masks of millions)
        return Docs(*(np.compress(mask, a) for a in (self.idx, self.tix, self.pos, self.rel)),
                    self.num_topics)

    def per_topic(self) -> np.ndarray:
        """How many of these documents each topic has."""
        return np.bincount(self.tix, minlength=self.num_topics)

    def cumcount(self, flag: np.ndarray, at: np.ndarray | None = None) -> np.ndarray:
        """Inclusive running count of ``flag`` within each topic (at the documents ``at``)."""
        c = np.cumsum(flag, dtype=np.int32 if len(flag) < 2**31 else np.int64)   # (no overflow)
        first = np.searchsorted(self.tix, np.arange(self.num_topics, dtype=self.tix.dtype),
                                side="left")
        base = np.concatenate([np.zeros(1, c.dtype), c])[first].astype(np.int64)
        if at is None:
            return c - base[self.tix]
        return c[at].astype(np.int64) - base[self.tix[at]]

    @cached_property
    def key(self) -> np.ndarray:
        """(topic << 32) | rank: sorted, for counting by rank with searchsorted."""
        return (self.tix.astype(np.int64) << 32) | self.pos.astype(np.int64)

    def count_before(self, k) -> np.ndarray:
        """Per topic, how many of these documents rank above ``k`` (k broadcasts against
        shape (T, ...), one row per topic)."""
        k = np.asarray(k)
        t = np.arange(self.num_topics, dtype=np.int64).reshape((-1,) + (1,) * max(k.ndim - 1, 0))
        t, kk = np.broadcast_arrays(t, k)
        q = (t << 32) | np.clip(kk, 0, 2**31 - 1).astype(np.int64)
        hi = np.searchsorted(self.key, q.ravel(), side="left").reshape(q.shape)
        lo = np.searchsorted(self.key, np.arange(self.num_topics, dtype=np.int64) << 32)
        return (hi - lo[t]).astype(np.int64)


class JudgedRanking:
    """Per topic, the ranked relevance list and the judgment counts.

    Attributes
    ----------
    topics : ndarray of str
        Evaluated topics in trec_eval order.
    start : ndarray of int64, shape (T + 1,)
        ``rel[start[t]:start[t+1]]`` is topic ``t``'s ranked list.
    rel : ndarray of int32, shape (N,)
        Judgment of each ranked document (see module docstring).
    line : ndarray of int32, shape (N,)
        Index of each ranked document's line in the run (-1 for the stand-in
        document of a topic the run lacks under ``-c``).
    rel_levels : ndarray of int64, shape (T, L)
        Number of qrels documents judged at each level 0..L-1 per topic.
    relevance_level : int
    missing : ndarray of bool, shape (T,)
        Topics without run lines, evaluated as trec_eval 10 ``-c`` does.
    num_qrels_topics : int
        Topics in the qrels (the ``-c`` divisor).
    """

    def __init__(self, topics, start, rel, line, rel_levels, relevance_level, missing,
                 num_qrels_topics, run=None, qrels=None, options=None):
        self.topics = topics
        self.start = start
        self.rel = rel
        self.line = line
        self.rel_levels = rel_levels
        self.relevance_level = int(relevance_level)
        self.missing = missing
        self.num_qrels_topics = num_qrels_topics
        self.run = run
        self.qrels = qrels
        self.options = options

    # -- shapes -------------------------------------------------------------
    @property
    def num_topics(self) -> int:
        return len(self.topics)

    @cached_property
    def num_ret(self) -> np.ndarray:
        return np.diff(self.start)

    @cached_property
    def tix(self) -> np.ndarray:
        """Topic index of each ranked document."""
        return np.repeat(np.arange(self.num_topics, dtype=np.int32), self.num_ret)

    @cached_property
    def pos(self) -> np.ndarray:
        """0-based rank of each document within its topic."""
        return (np.arange(len(self.rel), dtype=np.int64)
                - np.repeat(self.start[:-1], self.num_ret)).astype(np.int32)

    # -- judgments ------------------------------------------------------------
    @cached_property
    def is_rel(self) -> np.ndarray:
        return self.rel >= self.relevance_level

    @cached_property
    def num_rel(self) -> np.ndarray:
        """R: qrels documents with ``rel >= relevance_level``, per topic."""
        lvl = max(self.relevance_level, 0)
        return self.rel_levels[:, lvl:].sum(axis=1) if lvl < self.rel_levels.shape[1] \
            else np.zeros(self.num_topics, np.int64)

    @cached_property
    def num_nonrel(self) -> np.ndarray:
        """Judged non-relevant qrels documents per topic (levels below the threshold)."""
        lvl = min(max(self.relevance_level, 0), self.rel_levels.shape[1])
        return self.rel_levels[:, :lvl].sum(axis=1)

    def count(self, mask: np.ndarray) -> np.ndarray:
        """Per-topic count of ranked documents where ``mask`` holds."""
        return np.bincount(self.tix[mask], minlength=self.num_topics)

    @cached_property
    def num_rel_ret(self) -> np.ndarray:
        return self.relevant.per_topic()

    @cached_property
    def num_nonpool(self) -> np.ndarray:
        return self.num_ret - self.qrels_docs.per_topic()

    @cached_property
    def num_unjudged(self) -> np.ndarray:
        d = self.qrels_docs
        return np.bincount(d.tix[d.rel == UNJUDGED], minlength=self.num_topics)

    # -- sparse views -----------------------------------------------------------
    def topics_of(self, idx: np.ndarray) -> np.ndarray:
        """Topic (int32) of the documents ``idx`` (a sorted index)."""
        return segment_of_sorted(self.start, idx).astype(np.int32)

    def ranks(self, idx: np.ndarray, tix: np.ndarray) -> np.ndarray:
        """0-based rank (int32) of the documents ``idx`` of topics ``tix``: their place in
        the topic's list (:class:`yardstick.judging.judged_subset.JudgedSubset` keeps some
        documents of a longer list and gives their ranks there)."""
        return (idx - self.start[tix]).astype(np.int32)

    @cached_property
    def qrels_docs(self) -> Docs:
        """The ranked documents found in the qrels (``rel != NONPOOL``)."""
        idx = np.flatnonzero(self.rel != NONPOOL)
        tix = self.topics_of(idx)
        return Docs(idx, tix, self.ranks(idx, tix), self.rel[idx], self.num_topics)

    @cached_property
    def judged_docs(self) -> Docs:
        """The ranked documents with a judgment (``rel >= 0``)."""
        d = self.qrels_docs
        return d.select(d.rel >= 0)

    @cached_property
    def relevant(self) -> Docs:
        """The ranked relevant documents, each with ``cum`` (relevant at or above it),
        ``nonrel_before`` and ``unjudged_before`` (judged non-relevant and pooled-but-
        unjudged documents strictly above it): what the AP family needs."""
        mask = self.rel >= self.relevance_level
        if self.relevance_level <= NONPOOL:      # (a level below 0: never a NONPOOL one)
            mask &= self.rel != NONPOOL
        idx = np.flatnonzero(mask)
        del mask
        tix = self.topics_of(idx)
        r = Docs(idx, tix, self.ranks(idx, tix), self.rel[idx], self.num_topics, self)
        r.cum = r.cumcount(np.ones(len(idx), bool))
        return r

    def cached(self, key, compute):
        """Memoise an intermediate shared by several measures (e.g. DCG parts)."""
        store = self.__dict__.setdefault("_memo", {})
        if key not in store:
            store[key] = compute()
        return store[key]

    def rel_in_top(self, k: np.ndarray) -> np.ndarray:
        """Relevant documents among the first ``k`` of each topic.

        ``k`` broadcasts against shape (T, ...) (one row per topic).
        """
        return self.relevant.count_before(k)

    def judged_in_top(self, k: np.ndarray) -> np.ndarray:
        """Judged documents (``rel >= 0``) among the first ``k`` of each topic."""
        return self.judged_docs.count_before(k)

    def with_rel(self, rel: np.ndarray, rel_levels: np.ndarray | None = None) -> "JudgedRanking":
        """The same ranking judged differently (what-if edits, uniques, pool simulation)."""
        return JudgedRanking(self.topics, self.start, rel, self.line,
                             self.rel_levels if rel_levels is None else rel_levels,
                             self.relevance_level, self.missing, self.num_qrels_topics,
                             self.run, self.qrels, self.options)

    def topic_slice(self, t: int) -> "JudgedRanking":
        """Topic ``t`` alone, as a judged ranking of one topic (a view of the arrays):
        a kernel's value for one topic, as the teaching views show it."""
        return self.topic_range(t, t + 1)

    def topic_range(self, a: int, b: int) -> "JudgedRanking":
        """Topics ``a`` to ``b - 1`` as a judged ranking of their own (views of the
        arrays).  Every kernel's value for a topic depends on that topic's lines and
        counts alone, so the ranges' columns put together are the whole's."""
        s, e = int(self.start[a]), int(self.start[b])
        return JudgedRanking(self.topics[a:b], self.start[a:b + 1] - s,
                             self.rel[s:e], None if self.line is None else self.line[s:e],
                             self.rel_levels[a:b], self.relevance_level,
                             self.missing[a:b], self.num_qrels_topics, self.run,
                             self.qrels, self.options)


def build_judged_ranking(run: Run, qrels: Qrels, options: EvalOptions | None = None,
                         last_join: bool = False) -> JudgedRanking:
    """Order ``run`` trec_eval's way and look up each document in ``qrels``.

    Follows ``trec_eval.c`` and ``form_res_rels.c``: topics are those with both
    run lines and judgments (trec_eval 10 with ``-c``: every qrels topic, a
    topic without run lines being evaluated on a single unjudged stand-in
    document); ``-M`` truncates after sorting; ``-J`` then drops documents that
    are not judged.  The judgments come from :func:`ranked_judgments` (the qrels
    joined once per (run, qrels), kept on the run for every other option and for
    :mod:`yardstick.judging.judged_runs_build`).  With ``last_join`` the run's join index is
    freed as soon as the qrels are looked up and nothing is kept (no other qrels
    or options will come: ``yardstick eval``).
    """
    options = options or EvalOptions()
    q_topics, q_code = qrels.topic_index
    # qrels topic -> run topic code
    run_pos = {t: i for i, t in enumerate(run.topics.tolist())}
    q_run_code = np.array([run_pos.get(t, -1) for t in q_topics.tolist()], dtype=np.int64)
    has_run = q_run_code >= 0
    if options.complete and options.compat == 10:
        eval_q = np.arange(len(q_topics))
    else:
        eval_q = np.flatnonzero(has_run)
    topics = q_topics[eval_q]
    missing = ~has_run[eval_q]
    T = len(topics)

    if last_join:   # one pass (yardstick eval): judgments per line, nothing kept
        rel_line = line_judgments(run, qrels, q_run_code, last_join=True)
        ranked = None
    else:
        ranked = ranked_judgments(run, qrels, options.compat)

    # ranked lines of evaluated topics, trec_eval order, -M then -J.  The order
    # holds topics by run code, and evaluated topics come in the same (byte) order.
    # ``sel`` picks positions of that order (None: all of them).
    order = cached_order(run, options.compat)
    sel = None
    present = np.flatnonzero(~missing)
    eval_codes = q_run_code[eval_q][present]
    run_counts = run_topic_counts(run)
    counts_p = run_counts[eval_codes]
    if len(eval_codes) and not bool((eval_codes[1:] > eval_codes[:-1]).all()):
        # (never with byte-ordered topics on both sides) take the blocks one by one
        first = np.concatenate([[0], np.cumsum(run_counts)])
        sel = np.concatenate([np.arange(first[c], first[c + 1]) for c in eval_codes])
    elif len(eval_codes) != len(run.topics):  # some run topics are not judged: drop them
        evaluated = np.zeros(len(run.topics), bool)
        evaluated[eval_codes] = True
        sel = np.flatnonzero(evaluated[run.topic_code[order]])
    if options.max_docs is not None and len(counts_p):
        cap = max(options.max_docs, 0)
        starts = np.concatenate([[0], np.cumsum(counts_p)[:-1]])
        n_sel = len(order) if sel is None else len(sel)
        pos = np.arange(n_sel) - np.repeat(starts, counts_p)
        sel = np.flatnonzero(pos < cap) if sel is None else sel[pos < cap]
        counts_p = np.minimum(counts_p, cap)
    line = order if sel is None else order[sel]
    if ranked is not None:
        rel = (ranked if sel is None else ranked[sel]).astype(np.int32)
    else:
        # a file in trec_eval's order already (the usual case): no gather, no copy
        rel = rel_line if len(line) == len(rel_line) and _is_identity(line) else \
            gather(rel_line, line)
        del rel_line
    if options.judged_only:
        keep = rel >= 0
        tix = np.repeat(np.arange(len(counts_p)), counts_p)
        rel, line = rel[keep], line[keep]
        counts_p = np.bincount(tix[keep], minlength=len(counts_p))
    counts = np.zeros(T, np.int64)
    counts[present] = counts_p
    rel, line, counts = with_stand_ins(rel, line, counts, missing)
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return JudgedRanking(topics, start, rel, line, qrels_levels(qrels, eval_q),
                         options.relevance_level, missing, len(q_topics), run, qrels, options)


def with_stand_ins(rel: np.ndarray, line: np.ndarray, counts: np.ndarray, missing: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """trec_eval 10 ``-c``: each topic the run lacks (``missing``, its count 0) is ranked
    as one unjudged stand-in document (rel ``NONPOOL``, line -1); the other topics'
    documents (``counts``, topic by topic) keep their order."""
    if not missing.any():
        return rel, line, counts
    counts = counts.copy()
    counts[missing] = 1
    fill = np.zeros(int(counts.sum()), bool)
    fill[np.concatenate([[0], np.cumsum(counts)])[:-1][missing]] = True
    full_rel = np.full(len(fill), NONPOOL, rel.dtype)
    full_line = np.full(len(fill), -1, line.dtype)
    full_rel[~fill], full_line[~fill] = rel, line
    return full_rel, full_line, counts


def qrels_levels(qrels: Qrels, eval_q: np.ndarray) -> np.ndarray:
    """Judgment counts per level (rel >= 0) of the qrels topics ``eval_q`` (indices into
    ``qrels.topic_index``), shape ``(len(eval_q), L)``: trec_eval's ``num_rel_levels``."""
    q_topics, q_code = qrels.topic_index
    frame_rel = qrels.rel
    T = len(eval_q)
    q_to_t = np.full(len(q_topics), -1, dtype=np.int64)
    q_to_t[eval_q] = np.arange(T)
    row_t = q_to_t[q_code]
    sel = (row_t >= 0) & (frame_rel >= 0)
    L = int(frame_rel[sel].max()) + 1 if sel.any() else 1
    return np.bincount(row_t[sel] * L + frame_rel[sel], minlength=T * L
                       ).reshape(T, L).astype(np.int64)
