"""The judged ranking of every loaded run at once: runs x topics as segments of flat arrays.

:class:`yardstick.judged.JudgedRanking` is one run; :class:`JudgedRuns` is all of
them, in the same CSR layout and with the same relevance codes, so that the pool
diagnostics, the leave-out-uniques test and the pool simulations re-judge (mask)
one structure and score it with the measure kernels of :mod:`yardstick.measures`
(:meth:`JudgedRuns.judged` presents the runs x topics segments to them as one
``JudgedRanking``; :func:`yardstick.engine.score_segments` runs them).

Each run is put in trec_eval's order once (:func:`yardstick.ranking.trec_order`:
score descending, docno descending), every docno gets one integer code shared by
all runs and the qrels, and a (topic, document) pair becomes one ``int64`` key
``topic * n_docs + doc`` for set questions ("which pooled runs retrieved this
relevant document above depth k?") answered with numpy instead of Python sets.

Each retrieved document is an *entry* with ``run``, ``topic``, ``doc``,
``rank`` (1-based position in trec_eval's order, not the file's rank column)
and ``rel``: its judgment with :mod:`yardstick.judged`'s codes — ``>= 0`` the
judgment, :data:`~yardstick.judged.NONPOOL` (-1) not in the qrels,
:data:`~yardstick.judged.UNJUDGED` (-2) in the qrels with a negative value
(trec_eval's ``RELVALUE_NONPOOL`` / ``RELVALUE_UNJUDGED`` in ``form_res_rels.c``).
Entries are sorted by run, topic and rank, so a (run, topic) pair is one
contiguous *segment* and ``seg_start`` gives its offsets.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import pandas as pd

from yardstick.judged import NONPOOL, UNJUDGED, JudgedRanking, cached_order
from yardstick.judgment_table import JudgmentTable, unique_sorted  # noqa: F401
from yardstick.options import EvalOptions
from yardstick.progress import Progress, run_sync
from yardstick.qrels import Qrels
from yardstick.ranking import trec_order
from yardstick.run import Run, docno_hash

__all__ = ["NONPOOL", "UNJUDGED", "JudgedRuns", "TIE_ORDERS", "build_judged_runs",
           "iter_build_judged_runs", "unique_sorted"]


@dataclass(frozen=True, eq=False)
class JudgedRuns:
    """Every run judged by one qrels, runs x topics segments (see the module docstring).

    Attributes
    ----------
    run_names : tuple of str
    group_names : tuple of str
        Distinct groups (teams), in order of first appearance.
    run_group : numpy.ndarray of int32
        Per run, index into ``group_names``.
    pooled : numpy.ndarray of bool
        Per run, whether it contributed to the pool.
    topics : numpy.ndarray of str
        Union of the qrels' and the runs' topics, sorted as trec_eval does (strcmp).
    in_qrels : numpy.ndarray of bool
        Per topic, whether the qrels judge it (only those are evaluated).
    doc_bytes : numpy.ndarray of ``S<w>``
        The shared document vocabulary as NUL-padded UTF-8 (codes index it; not
        sorted); :meth:`docnos` decodes the codes one asks for.
    e_run, e_topic, e_doc, e_rank : numpy.ndarray of int32
        Per retrieved document (entry).
    e_rel : numpy.ndarray of int32
        Per entry, the judgment (``-1`` not in qrels, ``-2`` negative in qrels).
    seg_start : numpy.ndarray of int64
        ``n_runs * n_topics + 1`` offsets: segment ``run * n_topics + topic``
        holds entries ``seg_start[s]:seg_start[s + 1]``.
    q_key : numpy.ndarray of int64
        Sorted keys ``topic * n_docs + doc`` of the qrels.
    q_rel : numpy.ndarray of int64
        Judgment per ``q_key``.
    relevance_level : int
        A judgment ``>= relevance_level`` is relevant (trec_eval ``-l``).
    qrels_name : str
    e_tied_next : numpy.ndarray of bool, optional
        Per entry, whether the next entry of its segment has the same score (a
        tie group continues): a pool depth falling there was cut inside a tie.
    tie_order : str
        How tied scores were ordered (:data:`TIE_ORDERS`).
    e_line : numpy.ndarray of int32, optional
        Per entry, its line in its run (scores, file ranks and docnos are read there).
    runs : tuple of Run
        The runs themselves (referenced, not copied).
    compat : int
        The trec_eval version whose ordering was used (10 or 9).
    """

    run_names: tuple[str, ...]
    group_names: tuple[str, ...]
    run_group: np.ndarray
    pooled: np.ndarray
    topics: np.ndarray
    in_qrels: np.ndarray
    doc_bytes: np.ndarray
    e_run: np.ndarray
    e_topic: np.ndarray
    e_doc: np.ndarray
    e_rank: np.ndarray
    e_rel: np.ndarray
    seg_start: np.ndarray
    q_key: np.ndarray
    q_rel: np.ndarray
    relevance_level: int = 1
    qrels_name: str = "qrels"
    e_tied_next: np.ndarray | None = None
    tie_order: str = "trec_eval"
    e_line: np.ndarray | None = None
    runs: tuple = ()
    compat: int = 10

    # -- sizes ---------------------------------------------------------------
    @property
    def n_runs(self) -> int:
        return len(self.run_names)

    @property
    def n_topics(self) -> int:
        return len(self.topics)

    @property
    def n_docs(self) -> int:
        return max(len(self.doc_bytes), 1)

    def topic_names(self, codes: np.ndarray):
        """Topic ids of the given topic codes as a pandas column (see :meth:`docnos`)."""
        from yardstick.io.text_source import text_column

        return text_column(self.topics[np.asarray(codes, np.int64)].tolist())

    def docnos(self, codes: np.ndarray | None = None):
        """Docno strings of the given document codes (all when None), as a pandas column
        (:func:`yardstick.io.text_source.text_column`: object dtype when a docno holds
        bytes that are not UTF-8, which pandas' string dtype cannot hold)."""
        from yardstick.io.text_source import text_column

        b = self.doc_bytes if codes is None else self.doc_bytes[np.asarray(codes, np.int64)]
        return text_column([x.decode("utf-8", "surrogateescape") for x in b.tolist()])

    @property
    def n_groups(self) -> int:
        return len(self.group_names)

    # -- derived arrays --------------------------------------------------------
    def entry_keys(self, sel: np.ndarray | None = None) -> np.ndarray:
        """``topic * n_docs + doc`` per entry (int64), or for the entries ``sel``
        (a bool mask or index array) only."""
        if sel is None:
            return self.e_topic.astype(np.int64) * self.n_docs + self.e_doc
        return self.e_topic[sel].astype(np.int64) * self.n_docs + self.e_doc[sel]

    def key_topic(self, keys: np.ndarray) -> np.ndarray:
        return (keys // self.n_docs).astype(np.int32)

    def key_doc(self, keys: np.ndarray) -> np.ndarray:
        return (keys % self.n_docs).astype(np.int32)

    def lookup(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each key: whether the qrels hold it, and its qrels value (0 if not)."""
        keys = np.asarray(keys, np.int64)
        found = np.zeros(len(keys), bool)
        rel = np.zeros(len(keys), np.int64)
        if len(self.q_key) == 0 or len(keys) == 0:
            return found, rel
        if len(keys) > 1 and bool(np.all(keys[1:] >= keys[:-1])):
            # sorted queries: binary search walks memory in order
            pos = np.minimum(np.searchsorted(self.q_key, keys), len(self.q_key) - 1)
            found = self.q_key[pos] == keys
            return found, np.where(found, self.q_rel[pos], 0)
        return self._judgment_of(self.key_topic(keys), self.key_doc(keys))

    @cached_property
    def _table(self) -> JudgmentTable:
        return JudgmentTable.build(self.q_key, self.q_rel, self.n_topics, self.n_docs)

    def _judgment_of(self, topic: np.ndarray, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(found, qrels value) of each (topic, doc code) pair."""
        return self._table.lookup(topic, doc)

    def lookup_rel(self, keys: np.ndarray) -> np.ndarray:
        """Judgment per key as in a judged ranking: the qrels value, ``-1`` if the
        qrels lack the key, ``-2`` if they hold it with a negative value."""
        found, rel = self.lookup(keys)
        return np.where(found, np.where(rel < 0, UNJUDGED, rel), NONPOOL)

    def num_rel(self) -> np.ndarray:
        """Per topic, qrels documents with ``rel >= relevance_level`` (trec_eval ``num_rel``)."""
        rel = self.q_rel >= self.relevance_level
        return np.bincount(self.key_topic(self.q_key[rel]), minlength=self.n_topics)

    def num_nonrel(self) -> np.ndarray:
        """Per topic, judged non-relevant qrels documents (``0 <= rel < level``)."""
        non = (self.q_rel >= 0) & (self.q_rel < self.relevance_level)
        return np.bincount(self.key_topic(self.q_key[non]), minlength=self.n_topics)

    def num_judged(self) -> np.ndarray:
        """Per topic, qrels documents with a judgment ``>= 0``."""
        return np.bincount(self.key_topic(self.q_key[self.q_rel >= 0]), minlength=self.n_topics)

    def rel_levels(self) -> np.ndarray:
        """``(n_topics, L)``: qrels documents judged at each level ``0 .. L-1`` per topic
        (trec_eval's ``num_rel_levels``; what :attr:`JudgedRanking.rel_levels` holds)."""
        ok = self.q_rel >= 0
        L = int(self.q_rel[ok].max()) + 1 if ok.any() else 1
        code = self.key_topic(self.q_key[ok]).astype(np.int64) * L + self.q_rel[ok]
        return np.bincount(code, minlength=self.n_topics * L).reshape(self.n_topics, L)

    def judged(self, rel: np.ndarray | None = None, rel_levels: np.ndarray | None = None,
               judged_only: bool = False, compat: int = 10) -> JudgedRanking:
        """Every (run, topic) segment as one :class:`~yardstick.judged.JudgedRanking`
        whose "topic" ``s`` is the segment ``run * n_topics + topic``: the measure
        kernels, vectorised over topics, score all runs in one call (a view: ``rel`` and
        ``seg_start`` are not copied).

        Parameters
        ----------
        rel : per-entry judgments (default ``e_rel``): masked or re-judged copies score
            what-if, leave-out and simulated judgment sets.
        rel_levels : ``(n_topics, L)`` or ``(n_runs, n_topics, L)`` judgment counts per
            level (default :meth:`rel_levels`), which give the kernels R and N.
        judged_only : trec_eval ``-J``: documents without a judgment (``rel < 0``) are
            dropped and the rest ranked from 1 (Sakai's condensed list, SIGIR 2007).
        """
        rel = self.e_rel if rel is None else rel
        levels = self.rel_levels() if rel_levels is None else np.asarray(rel_levels)
        S = self.n_runs * self.n_topics
        if levels.ndim == 2:
            levels = np.broadcast_to(levels[None], (self.n_runs,) + levels.shape)
        levels = levels.reshape(S, -1)
        start = self.seg_start
        if judged_only:
            keep = rel >= 0
            start = np.concatenate([[0], np.cumsum(keep)])[start]
            rel = rel[keep]
        options = EvalOptions(relevance_level=self.relevance_level, judged_only=judged_only,
                              compat=compat)
        return JudgedRanking(np.arange(S), start.astype(np.int64, copy=False), rel, None,
                             levels, self.relevance_level, np.zeros(S, bool),
                             int(self.in_qrels.sum()), options=options)

    def ranking(self, i: int) -> JudgedRanking:
        """Run ``i``'s judged ranking as the engine builds it
        (:func:`yardstick.judged.build_judged_ranking` with trec_eval's default options and
        this relevance level): its topics that the qrels judge, its entries in trec_eval's
        order.  A view of the run's segments when the qrels judge every topic it has."""
        if self.tie_order != "trec_eval":
            raise ValueError("a judged ranking is in trec_eval's order; these runs were "
                             f"ordered {self.tie_order!r}")
        T = self.n_topics
        t = np.flatnonzero(self.in_qrels & self.has_segment()[i])
        seg = i * T + t
        a, z = int(self.seg_start[i * T]), int(self.seg_start[(i + 1) * T])
        counts = np.diff(self.seg_start)[seg]
        start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        if start[-1] == z - a:       # every entry of the run is in a judged topic: a view
            sel = slice(a, z)
        else:
            sel = np.concatenate([np.arange(self.seg_start[s], self.seg_start[s + 1])
                                  for s in seg]).astype(np.int64) if len(seg) else \
                np.zeros(0, np.int64)
        options = EvalOptions(relevance_level=self.relevance_level, compat=self.compat)
        return JudgedRanking(self.topics[t], start, self.e_rel[sel],
                             None if self.e_line is None else self.e_line[sel],
                             self.rel_levels()[t], self.relevance_level, np.zeros(len(t), bool),
                             int(self.in_qrels.sum()),
                             self.runs[i] if self.runs else None, None, options)

    def run_block(self, r0: int, r1: int) -> "JudgedRuns":
        """The same index for runs ``r0 .. r1 - 1`` only (their entries are contiguous:
        runs come one after another), for work done a block of runs at a time."""
        T = self.n_topics
        a, z = int(self.seg_start[r0 * T]), int(self.seg_start[r1 * T])
        keep = slice(a, z)
        return replace(
            self, run_names=self.run_names[r0:r1], run_group=self.run_group[r0:r1],
            pooled=self.pooled[r0:r1], e_run=self.e_run[keep] - r0, e_topic=self.e_topic[keep],
            e_doc=self.e_doc[keep], e_rank=self.e_rank[keep], e_rel=self.e_rel[keep],
            seg_start=self.seg_start[r0 * T:r1 * T + 1] - a,
            e_tied_next=None if self.e_tied_next is None else self.e_tied_next[keep],
            e_line=None if self.e_line is None else self.e_line[keep], runs=self.runs[r0:r1])

    def has_segment(self) -> np.ndarray:
        """``(n_runs, n_topics)`` bool: the run retrieved something for the topic."""
        return (np.diff(self.seg_start) > 0).reshape(self.n_runs, self.n_topics)

    def evaluated(self) -> np.ndarray:
        """``(n_runs, n_topics)`` bool: topics trec_eval averages over (run and qrels have it)."""
        return self.has_segment() & self.in_qrels[None, :]

    def depth_array(self, depth: int | Mapping[str, int] | np.ndarray,
                    default: int | None = None) -> np.ndarray:
        """Per-topic pool depth from one depth, a ``{topic: depth}`` map or an array.

        Topics missing from the map get ``default`` (0 when None: not pooled).
        """
        if isinstance(depth, np.ndarray):
            if depth.shape != (self.n_topics,):
                raise ValueError("depth array must have one value per topic")
            return depth.astype(np.int64)
        if isinstance(depth, Mapping):
            base = 0 if default is None else int(default)
            out = np.full(self.n_topics, base, np.int64)
            pos = {t: i for i, t in enumerate(self.topics)}
            for t, d in depth.items():
                if str(t) in pos:
                    out[pos[str(t)]] = int(d)
            return out
        return np.full(self.n_topics, int(depth), np.int64)

    def topic_index(self, topics: Iterable[str]) -> np.ndarray:
        pos = {t: i for i, t in enumerate(self.topics)}
        return np.array([pos[str(t)] for t in topics if str(t) in pos], np.int64)

    def run_index(self, names: Iterable[str]) -> np.ndarray:
        pos = {n: i for i, n in enumerate(self.run_names)}
        missing = [n for n in names if n not in pos]
        if missing:
            raise KeyError(f"unknown runs: {', '.join(missing)}")
        return np.array([pos[n] for n in names], np.int64)

    def with_qrels(self, q_key: np.ndarray, q_rel: np.ndarray, name: str | None = None
                   ) -> "JudgedRuns":
        """The same runs judged by other (e.g. simulated) qrels given as sorted keys."""
        order = np.argsort(q_key, kind="stable")
        q_key, q_rel = np.asarray(q_key, np.int64)[order], np.asarray(q_rel, np.int64)[order]
        tmp = replace(self, q_key=q_key, q_rel=q_rel)
        e_rel = tmp.lookup_rel(self.entry_keys()).astype(np.int32)
        return replace(tmp, e_rel=e_rel, qrels_name=name or self.qrels_name)

    def qrels_frame(self) -> pd.DataFrame:
        """The encoded qrels back as ``topic, docno, rel``."""
        return pd.DataFrame({"topic": self.topic_names(self.key_topic(self.q_key)),
                             "docno": self.docnos(self.key_doc(self.q_key)),
                             "rel": self.q_rel})


#: orders of tied scores within a run's topic: trec_eval's (docno descending), the
#: order the file lists them in, docno ascending
TIE_ORDERS = ("trec_eval", "file", "docno")


def _tie_key(r: Run, tie_order: str) -> np.ndarray:
    """What :func:`yardstick.ranking.trec_order` breaks ties by (descending) for an order."""
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
                          tie_order: str = "trec_eval"
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
    pooled_mask = _pooled_mask(runs, pooled)
    group_of = [(groups or {}).get(r.name) or r.group or r.name for r in runs]
    group_names = tuple(dict.fromkeys(group_of))
    run_group = np.array([group_names.index(g) for g in group_of], np.int32)
    n = len(runs)

    yield Progress(0, n + 2, "coding topics and documents")
    q_topics, q_tcode = qrels.topic_index
    topics = np.array(sorted(set(q_topics.tolist()).union(
        *[set(r.topics.tolist()) for r in runs]), key=lambda s: s.encode("utf-8", "surrogateescape")), dtype=object)
    in_qrels = np.isin(topics, q_topics)
    t_pos = pd.Index(topics, dtype=object)  # (object: a topic may hold non-UTF-8 bytes)
    # One code per docno for the qrels and all runs: factorise the 64-bit docno
    # hashes (yardstick.run.docno_hash, what the engine joins on), never a str per
    # line.  The qrels come first, so their documents get the codes 0..n_q-1.
    sources = [qrels.docno_bytes] + [r.docno_bytes for r in runs]
    width = max(b.dtype.itemsize for b in sources)
    hashes = []
    for k, b in enumerate(sources):   # independent of each array's width
        hashes.append(docno_hash(b))
        if k % 16 == 15:
            yield Progress(0, n + 2, "coding topics and documents")
    codes, uniq = pd.factorize(np.concatenate(hashes))
    del hashes[:]
    yield Progress(0, n + 2, "coding topics and documents")
    codes = codes.astype(np.int32)
    bounds = np.concatenate([[0], np.cumsum([len(b) for b in sources])])
    doc_bytes = np.zeros(len(uniq), dtype=f"S{width}")
    seen = np.zeros(len(uniq), bool)
    for i, b in enumerate(sources):
        c = codes[bounds[i]:bounds[i + 1]]
        new = ~seen[c]
        doc_bytes[c[new]] = b[new]
        seen[c] = True
    n_docs = max(len(uniq), 1)

    q_key = t_pos.get_indexer(pd.Index(q_topics, dtype=object))[q_tcode].astype(np.int64) * n_docs + codes[:bounds[1]]
    q_rel = qrels.frame["rel"].to_numpy(np.int64)
    order = np.argsort(q_key, kind="stable")
    q_key, q_rel = q_key[order], q_rel[order]

    parts_t, parts_d, parts_run, parts_tied, parts_line = [], [], [], [], []
    for i, r in enumerate(runs):
        yield Progress(i + 1, n + 2, f"ordering {r.name}")
        top_map = t_pos.get_indexer(pd.Index(r.topics, dtype=object)).astype(np.int32)
        # trec_eval's order is the one the evaluation computed (and cached) for this run
        o = cached_order(r, compat) if tie_order == "trec_eval" else \
            trec_order(r.topic_code, r.score, _tie_key(r, tie_order), compat=compat)
        parts_line.append(o.astype(np.int32, copy=False))
        parts_t.append(top_map[r.topic_code[o]])
        parts_d.append(codes[bounds[i + 1]:bounds[i + 2]][o])
        parts_run.append(np.full(len(o), i, np.int32))
        s = r.score[o].astype(np.float32 if compat == 9 else np.float64)
        tc = r.topic_code[o]
        tied = np.zeros(len(o), bool)
        tied[:-1] = (s[1:] == s[:-1]) & (tc[1:] == tc[:-1])
        parts_tied.append(tied)
    e_topic = np.concatenate(parts_t)
    e_doc = np.concatenate(parts_d)
    e_run = np.concatenate(parts_run)
    e_tied_next = np.concatenate(parts_tied)
    e_line = np.concatenate(parts_line)
    seg = e_run.astype(np.int64) * len(topics) + e_topic
    # runs are concatenated in order and each is sorted by topic: seg is non-decreasing
    counts = np.bincount(seg, minlength=n * len(topics))
    seg_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    e_rank = (np.arange(len(seg), dtype=np.int64) - seg_start[seg] + 1).astype(np.int32)
    yield Progress(n + 1, n + 2, "looking up judgments")
    index = JudgedRuns(
        run_names=names, group_names=group_names, run_group=run_group, pooled=pooled_mask,
        topics=topics, in_qrels=in_qrels, doc_bytes=doc_bytes, e_run=e_run, e_topic=e_topic,
        e_doc=e_doc, e_rank=e_rank, e_rel=np.zeros(0, np.int32), seg_start=seg_start,
        q_key=q_key, q_rel=q_rel, relevance_level=int(relevance_level), qrels_name=qrels.name,
        e_tied_next=e_tied_next, tie_order=tie_order, e_line=e_line, runs=tuple(runs),
        compat=compat)
    found, v = index._judgment_of(e_topic, e_doc)
    e_rel = np.where(found, np.where(v < 0, UNJUDGED, v), NONPOOL).astype(np.int32)
    yield Progress(n + 2, n + 2, "done")
    return replace(index, e_rel=e_rel)


def build_judged_runs(runs: Sequence[Run], qrels: Qrels,
                     pooled: Iterable[str] | Sequence[bool] | None = None,
                     groups: Mapping[str, str] | None = None,
                     relevance_level: int = 1, compat: int = 10,
                     tie_order: str = "trec_eval") -> JudgedRuns:
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
        10 or 9, passed to :func:`yardstick.ranking.trec_order`.
    tie_order : {"trec_eval", "file", "docno"}
        How documents with tied scores are ranked, which decides the ones a pool
        depth keeps: trec_eval's order (docno descending), the order the run file
        lists them in, or docno ascending — TREC pools have been cut all three
        ways, so reconstructing a real pool may need another than trec_eval's.
    """
    return run_sync(iter_build_judged_runs(runs, qrels, pooled, groups, relevance_level, compat,
                                          tie_order))


def _pooled_mask(runs: Sequence[Run], pooled) -> np.ndarray:
    if pooled is None:
        return np.ones(len(runs), bool)
    pooled = list(pooled)
    if pooled and all(isinstance(p, (bool, np.bool_)) for p in pooled):
        if len(pooled) != len(runs):
            raise ValueError("one pooled flag per run expected")
        return np.array(pooled, bool)
    names = {str(p) for p in pooled}
    unknown = names - {r.name for r in runs}
    if unknown:
        raise ValueError(f"pooled runs not loaded: {', '.join(sorted(unknown))}")
    return np.array([r.name in names for r in runs], bool)

