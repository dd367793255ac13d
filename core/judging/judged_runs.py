"""The judged ranking of every loaded run at once: runs x topics as segments of flat arrays.

:class:`yardstick.judging.judged.JudgedRanking` is one run; :class:`JudgedRuns` is all of
them, in the same CSR layout and with the same relevance codes, so that the pool
diagnostics, the leave-out-uniques test and the pool simulations re-judge (mask)
one structure and score it with the measure kernels of :mod:`yardstick.evaluation.measures`
(:meth:`JudgedRuns.judged` presents the runs x topics segments to them as one
``JudgedRanking``; :func:`yardstick.evaluation.engine.score_segments` runs them).
:mod:`yardstick.judging.judged_runs_build` builds it from the runs' cached trec_eval order
and judgments (:mod:`yardstick.judging.run_judgments`).

Each retrieved document is an *entry*.  Entries are sorted by run, topic and rank
(trec_eval's order: score descending, docno descending), so a (run, topic) pair is
one contiguous *segment* and ``seg_start`` gives its offsets; an entry's run, topic
and rank (1-based position in that order, not the file's rank column) follow from
its place (:meth:`JudgedRuns.entry_run`, :meth:`~JudgedRuns.entry_topic`,
:meth:`~JudgedRuns.entry_rank`) and are not stored.  Per entry only two arrays are
kept: ``e_doc``, a docno code shared by all runs and the qrels (a (topic, document)
pair becomes one ``int64`` key ``topic * n_docs + doc`` for set questions — "which
pooled runs retrieved this relevant document above depth k?" — answered with numpy
instead of Python sets), and ``e_rel``, the judgment with :mod:`yardstick.judging.judged`'s
codes — ``>= 0`` the judgment, :data:`~yardstick.judging.judged.NONPOOL` (-1) not in the
qrels, :data:`~yardstick.judging.judged.UNJUDGED` (-2) in the qrels with a negative value
(trec_eval's ``RELVALUE_NONPOOL`` / ``RELVALUE_UNJUDGED`` in ``form_res_rels.c``),
one byte an entry for the usual grades.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import pandas as pd

from yardstick.common.options import EvalOptions
from yardstick.judging.judged import NONPOOL, UNJUDGED, JudgedRanking
from yardstick.judging.judged_runs_rankings import run_ranking, segments_ranking, starts_index
from yardstick.judging.judgment_table import JudgmentTable, unique_sorted  # noqa: F401
from yardstick.judging.run_judgments import segment_of_sorted

__all__ = ["NONPOOL", "UNJUDGED", "JudgedRuns", "starts_index", "unique_sorted"]

#: entries handled at once where a per-entry temporary is built a slice at a time
ENTRY_CHUNK = 1 << 20


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
    e_doc : numpy.ndarray of int32
        Per entry, its document code.
    e_rel : numpy.ndarray of int8 (int16 or int32 for larger grades)
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
    tie_order : str
        How tied scores were ordered (:data:`yardstick.judging.judged_runs_build.TIE_ORDERS`).
    run_lines : tuple of numpy.ndarray
        Per run, the line of each of its entries (its ranking: for trec_eval's tie
        order the run's cached :func:`~yardstick.judging.run_judgments.cached_order`, the
        same array, not a copy); scores, file ranks and docnos are read there.
    runs : tuple of Run
        The runs themselves (referenced, not copied).
    compat : int
        The trec_eval version whose ordering was used (10 or 9).
    qrels : Qrels or None
        The judgments (referenced): what :meth:`ranking` hands to ``-c`` averages.
    doc_count : int
        Documents coded when ``doc_bytes`` holds only the first of them (0: all of them;
        :meth:`compact`).
    """

    run_names: tuple[str, ...]
    group_names: tuple[str, ...]
    run_group: np.ndarray
    pooled: np.ndarray
    topics: np.ndarray
    in_qrels: np.ndarray
    doc_bytes: np.ndarray
    e_doc: np.ndarray
    e_rel: np.ndarray
    seg_start: np.ndarray
    q_key: np.ndarray
    q_rel: np.ndarray
    relevance_level: int = 1
    qrels_name: str = "qrels"
    tie_order: str = "trec_eval"
    run_lines: tuple = ()
    runs: tuple = ()
    compat: int = 10
    qrels: object = None
    doc_count: int = 0

    # -- sizes ---------------------------------------------------------------
    @property
    def n_runs(self) -> int:
        return len(self.run_names)

    @property
    def n_topics(self) -> int:
        return len(self.topics)

    @property
    def n_docs(self) -> int:
        return self.doc_count or max(len(self.doc_bytes), 1)

    @property
    def n_entries(self) -> int:
        return len(self.e_doc)

    @property
    def n_groups(self) -> int:
        return len(self.group_names)

    def topic_names(self, codes: np.ndarray):
        """Topic ids of the given topic codes as a pandas column (see :meth:`docnos`)."""
        from yardstick.inputs.io.text_source import text_column

        return text_column(self.topics[np.asarray(codes, np.int64)].tolist())

    def docnos(self, codes: np.ndarray | None = None):
        """Docno strings of the given document codes (all when None), as a pandas column
        (:func:`yardstick.inputs.io.text_source.text_column`: object dtype when a docno holds
        bytes that are not UTF-8, which pandas' string dtype cannot hold)."""
        from yardstick.inputs.io.text_source import text_column

        b = self.doc_bytes if codes is None else self.doc_bytes[np.asarray(codes, np.int64)]
        return text_column([x.decode("utf-8", "surrogateescape") for x in b.tolist()])

    # -- where an entry is -------------------------------------------------------
    def segment_counts(self) -> np.ndarray:
        """Entries per segment (``n_runs * n_topics``)."""
        return np.diff(self.seg_start)

    def entry_segment(self, idx: np.ndarray) -> np.ndarray:
        """Segment (``run * n_topics + topic``) of each entry in ``idx`` (an index array)."""
        idx = np.asarray(idx)
        if not len(self.seg_start) > 1:
            return np.zeros(len(idx), np.int64)
        return segment_of_sorted(self.seg_start, idx)

    def entry_run(self, idx: np.ndarray) -> np.ndarray:
        return (self.entry_segment(idx) // max(self.n_topics, 1)).astype(np.int32)

    def entry_topic(self, idx: np.ndarray) -> np.ndarray:
        return (self.entry_segment(idx) % max(self.n_topics, 1)).astype(np.int32)

    def entry_rank(self, idx: np.ndarray) -> np.ndarray:
        """1-based position of each entry of ``idx`` in its segment."""
        idx = np.asarray(idx, np.int64)
        return (idx - self.seg_start[self.entry_segment(idx)] + 1).astype(np.int32)

    def prefix(self, limit: np.ndarray) -> np.ndarray:
        """Index (sorted, int64) of the first ``limit[s]`` entries of every segment ``s``
        (``limit`` of shape ``(n_runs, n_topics)`` or flat; fewer where a segment is
        shorter): "the top k of each run and topic" without a per-entry mask."""
        counts = np.minimum(np.maximum(np.asarray(limit, np.int64).ravel(), 0),
                            self.segment_counts())
        return starts_index(self.seg_start[:-1], counts)

    def run_limit(self, runs: np.ndarray, per_topic: np.ndarray | int) -> np.ndarray:
        """``(n_runs, n_topics)`` limits for :meth:`prefix`: ``per_topic`` for the runs
        flagged in ``runs`` (bool per run), 0 for the others."""
        per_topic = np.broadcast_to(np.asarray(per_topic, np.int64), (self.n_topics,))
        return np.where(np.asarray(runs, bool)[:, None], per_topic[None, :], 0)

    # -- keys and judgments --------------------------------------------------------
    def entry_keys(self, sel: np.ndarray | None = None) -> np.ndarray:
        """``topic * n_docs + doc`` per entry (int64), or for the entries ``sel``
        (a bool mask or an index array) only."""
        if sel is None:
            sel = np.arange(self.n_entries, dtype=np.int64)
        else:
            sel = np.asarray(sel)
            if sel.dtype == bool:
                sel = np.flatnonzero(sel)
        return self.entry_topic(sel).astype(np.int64) * self.n_docs + self.e_doc[sel]

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
        return self._table.lookup(self.key_topic(keys), self.key_doc(keys))

    @cached_property
    def _table(self) -> JudgmentTable:
        return JudgmentTable.build(self.q_key, self.q_rel, self.n_topics, self.n_docs)

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

    def rel_levels(self, topics: np.ndarray | None = None) -> np.ndarray:
        """``(n_topics, L)``: qrels documents judged at each level ``0 .. L-1`` per topic
        (trec_eval's ``num_rel_levels``; what :attr:`JudgedRanking.rel_levels` holds);
        for the topic codes ``topics`` only (L from their judgments) when given."""
        t_all = self.key_topic(self.q_key)
        ok = self.q_rel >= 0
        rows = np.arange(self.n_topics) if topics is None else np.asarray(topics, np.int64)
        t_of = np.full(self.n_topics, -1, np.int64)
        t_of[rows] = np.arange(len(rows))
        ok &= t_of[t_all] >= 0
        L = int(self.q_rel[ok].max()) + 1 if ok.any() else 1
        code = t_of[t_all[ok]] * L + self.q_rel[ok]
        return np.bincount(code, minlength=len(rows) * L).reshape(len(rows), L)

    # -- as judged rankings ---------------------------------------------------------
    def judged(self, rel: np.ndarray | None = None, rel_levels: np.ndarray | None = None,
               judged_only: bool = False, compat: int = 10) -> JudgedRanking:
        """Every (run, topic) segment as one :class:`~yardstick.judging.judged.JudgedRanking`
        whose "topic" ``s`` is the segment ``run * n_topics + topic``: the measure
        kernels, vectorised over topics, score all runs in one call (``seg_start`` is
        not copied; ``rel`` is widened to the kernels' int32).

        Parameters
        ----------
        rel : per-entry judgments (default ``e_rel``): masked or re-judged copies score
            what-if, leave-out and simulated judgment sets.
        rel_levels : ``(n_topics, L)`` or ``(n_runs, n_topics, L)`` judgment counts per
            level (default :meth:`rel_levels`), which give the kernels R and N.
        judged_only : trec_eval ``-J``: documents without a judgment (``rel < 0``) are
            dropped and the rest ranked from 1 (Sakai's condensed list, SIGIR 2007).
        """
        return segments_ranking(self, rel, rel_levels, judged_only, compat)

    def ranking(self, i: int, options: EvalOptions | None = None) -> JudgedRanking:
        """Run ``i``'s judged ranking as the engine builds it
        (:func:`yardstick.judging.judged.build_judged_ranking` with ``options``, default trec_eval's
        with this relevance level): ``-M``, ``-J``, ``-c`` and ``-l`` as trec_eval applies
        them (``form_res_rels.c``, ``trec_eval.c``); its ``line`` is the run's own order
        array when nothing is cut.  ``options.compat`` must be the one these runs were
        ordered for."""
        return run_ranking(self, i, options)

    # -- parts -----------------------------------------------------------------------
    def run_block(self, r0: int, r1: int) -> "JudgedRuns":
        """The same index for runs ``r0 .. r1 - 1`` only (their entries are contiguous:
        runs come one after another), for work done a block of runs at a time."""
        T = self.n_topics
        a, z = int(self.seg_start[r0 * T]), int(self.seg_start[r1 * T])
        keep = slice(a, z)
        return replace(
            self, run_names=self.run_names[r0:r1], run_group=self.run_group[r0:r1],
            pooled=self.pooled[r0:r1], e_doc=self.e_doc[keep], e_rel=self.e_rel[keep],
            seg_start=self.seg_start[r0 * T:r1 * T + 1] - a,
            run_lines=self.run_lines[r0:r1], runs=self.runs[r0:r1])

    def with_scores_only(self) -> "JudgedRuns":
        """The same index holding only the runs' scores (:meth:`Run.scores_only
        <yardstick.inputs.run.Run.scores_only>`): every analysis of the pool reads the
        runs' documents as codes here, and their scores by line (boundary ties, judged
        depths), never their docnos."""
        return replace(self, runs=tuple(r.scores_only() for r in self.runs))

    def compact(self) -> "JudgedRuns":
        """The same judged runs as plain arrays only, to send to another process: no runs,
        run lines or qrels object (the pool's boundary ties and judged depths, which read
        them, are answered where the runs are) and the docnos of the judged documents only
        (the qrels' documents have the first codes; only they are named by the analyses
        that run elsewhere), a few bytes per ranked document."""
        judged = int(self.key_doc(self.q_key).max()) + 1 if len(self.q_key) else 0
        return replace(self, doc_bytes=self.doc_bytes[:judged], doc_count=self.n_docs,
                       run_lines=(), runs=(), qrels=None)

    def has_segment(self) -> np.ndarray:
        """``(n_runs, n_topics)`` bool: the run retrieved something for the topic."""
        return (self.segment_counts() > 0).reshape(self.n_runs, self.n_topics)

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
        tmp = replace(self, q_key=q_key, q_rel=q_rel, qrels=None)
        top = int(q_rel.max()) if len(q_rel) else 0
        e_rel = np.empty(self.n_entries, np.int8 if top < 128 else np.int16 if top < 2**15
                         else np.int32)
        for a in range(0, self.n_entries, ENTRY_CHUNK):   # (no whole-index key array)
            idx = np.arange(a, min(a + ENTRY_CHUNK, self.n_entries), dtype=np.int64)
            e_rel[idx] = tmp.lookup_rel(tmp.entry_keys(idx))
        return replace(tmp, e_rel=e_rel, qrels_name=name or self.qrels_name)

    def qrels_frame(self) -> pd.DataFrame:
        """The encoded qrels back as ``topic, docno, rel``."""
        return pd.DataFrame({"topic": self.topic_names(self.key_topic(self.q_key)),
                             "docno": self.docnos(self.key_doc(self.q_key)),
                             "rel": self.q_rel})
