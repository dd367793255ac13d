"""One topic of a judged ranking, read through for explanations, lessons and the Topic panel.

The teaching tools write out a measure's arithmetic for a (run, topic) pair in
plain Python (:mod:`yardstick.analysis.explain.worked_ranks` and its siblings); they read
the topic from the one judged ranking (:class:`yardstick.judging.judged.JudgedRanking`)
through :class:`TopicData`, a view that holds no arrays of its own.  The values
they report come from the measure kernels; the worked arithmetic is checked
against them in the tests.

The relevance codes are trec_eval's (``form_res_rels.c``) and the judged
ranking's: a judgment ``>= 0``, ``-1`` (``NONPOOL``) for a document not in the
qrels and ``-2`` (``UNJUDGED``) for a document in the qrels with a negative
judgment (pooled but not assessed).  :func:`ranked_documents` is the one table
of a topic's ranked documents that the Topic panel and the topic explorer show.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
import pandas as pd

from yardstick.common.options import EvalOptions
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.judged import (
    NONPOOL,
    UNJUDGED,
    JudgedRanking,
    build_judged_ranking,
    cached_order,
)


class ExplainError(ValueError):
    """A topic or measure that cannot be explained (unknown, not evaluated ...)."""


class TopicData:
    """One topic of a judged ranking (trec_eval order), read through for the teaching views.

    A view: it holds the :class:`~yardstick.judging.judged.JudgedRanking` and the topic's
    index, and reads the topic's segment as Python values on first use.

    Attributes
    ----------
    jr : JudgedRanking
    t : int
        The topic's index in ``jr``.
    topic, run_name, runid : str
    docnos : tuple of str
        Ranked documents, trec_eval order (score descending, docno descending).
    scores : tuple of float
    rel : tuple of int
        Judgment code per ranked document (see module docstring).
    rel_levels : tuple of int
        Number of qrels documents judged at each level ``0 .. L-1`` for this
        topic, ``L`` one more than the highest level judged (trec_eval's
        ``num_rel_levels``).
    relevance_level : int
        ``-l``: a document is relevant when its judgment is ``>=`` this.
    num_docs_in_coll : int
        ``-N`` (utility).
    compat : int
        10 or 9 (trec_eval version whose rules apply).
    missing : bool
        The run has no documents for the topic (trec_eval 10 ``-c`` stand-in).
    """

    def __init__(self, jr: JudgedRanking, t: int):
        self.jr, self.t = jr, int(t)
        opts = jr.options or EvalOptions()
        self.topic = str(jr.topics[self.t])
        self.relevance_level = jr.relevance_level
        self.num_docs_in_coll, self.compat = opts.num_docs_in_coll, opts.compat
        self.missing = bool(jr.missing[self.t])
        run = jr.run
        self.run_name, self.runid = (run.name, run.tag) if run is not None else ("", "")

    @property
    def _segment(self) -> slice:
        return slice(int(self.jr.start[self.t]), int(self.jr.start[self.t + 1]))

    @cached_property
    def rel(self) -> tuple:
        return tuple(self.jr.rel[self._segment].tolist())

    @cached_property
    def docnos(self) -> tuple:
        lines, run = self.jr.line[self._segment].tolist(), self.jr.run
        if run is None:
            return tuple(f"#{i}" for i in lines)
        return tuple(run.docnos[run.doc_code[i]] if i >= 0 else "(no document)" for i in lines)

    @cached_property
    def scores(self) -> tuple:
        lines, run = self.jr.line[self._segment].tolist(), self.jr.run
        return tuple(float(run.score[i]) if run is not None and i >= 0 else float("nan")
                     for i in lines)

    @cached_property
    def rel_levels(self) -> tuple:
        levels = [int(x) for x in self.jr.rel_levels[self.t].tolist()]
        while levels and levels[-1] == 0:
            levels.pop()
        return tuple(levels)

    # ---------------------------------------------------------------- counts
    @property
    def num_ret(self) -> int:
        return len(self.rel)

    def is_rel(self, r: int) -> bool:
        return r >= self.relevance_level

    def is_nonrel(self, r: int) -> bool:
        """Judged, below the relevance level."""
        return 0 <= r < self.relevance_level

    @cached_property
    def R(self) -> int:  # noqa: N802 - the usual name
        """Relevant documents in the qrels (judgment >= relevance level)."""
        return sum(self.rel_levels[max(self.relevance_level, 0):])

    @cached_property
    def num_nonrel(self) -> int:
        """Judged non-relevant documents in the qrels."""
        return sum(self.rel_levels[:max(self.relevance_level, 0)])

    @cached_property
    def rel_ranks(self) -> tuple[int, ...]:
        """1-based ranks of the relevant retrieved documents."""
        return tuple(i + 1 for i, r in enumerate(self.rel) if self.is_rel(r))

    @property
    def rel_ret(self) -> int:
        return len(self.rel_ranks)

    @cached_property
    def nonpool_ret(self) -> int:
        return sum(1 for r in self.rel if r == NONPOOL)

    @cached_property
    def pool_unjudged_ret(self) -> int:
        return sum(1 for r in self.rel if r == UNJUDGED)

    @property
    def unjudged_ret(self) -> int:
        """Retrieved documents without a judgment (not in qrels, or pooled unjudged)."""
        return sum(1 for r in self.rel if r < 0)

    @property
    def judged_ret(self) -> int:
        return self.num_ret - self.unjudged_ret

    @property
    def nonrel_ret(self) -> int:
        return sum(1 for r in self.rel if self.is_nonrel(r))

    def rel_in_top(self, k: int) -> int:
        """Relevant documents among the first ``k`` (all of them if fewer)."""
        return sum(1 for r in self.rel[:max(k, 0)] if self.is_rel(r))

    def ingredients(self) -> list[tuple[str, object]]:
        """The numbers every explanation starts from."""
        grades = ", ".join(f"{lvl}: {n}" for lvl, n in enumerate(self.rel_levels) if n)
        return [("R", self.R), ("num_ret", self.num_ret), ("rel_ret", self.rel_ret),
                ("rel_ranks", self.rel_ranks), ("rel_missed", self.R - self.rel_ret),
                ("judged_ret", self.judged_ret), ("nonpool_ret", self.nonpool_ret),
                ("pool_unjudged_ret", self.pool_unjudged_ret),
                ("relevance_level", self.relevance_level), ("grades", grades or "none")]


#: display names of the ingredients
INGREDIENT_LABELS = {
    "R": "R (relevant documents in the qrels)",
    "num_ret": "retrieved",
    "rel_ret": "relevant retrieved",
    "rel_ranks": "ranks of the relevant retrieved documents",
    "rel_missed": "relevant not retrieved",
    "judged_ret": "retrieved and judged",
    "nonpool_ret": "retrieved, not in the qrels (unjudged)",
    "pool_unjudged_ret": "retrieved, in the qrels with a negative judgment (pooled, unjudged)",
    "relevance_level": "relevance level (-l)",
    "grades": "qrels judgments per grade",
    "cutoff": "cutoff",
}


def topic_index(jr: JudgedRanking, topic: str) -> int:
    """Index of ``topic`` in a judged ranking (:class:`ExplainError` if not evaluated)."""
    topics = [str(t) for t in jr.topics.tolist()]
    topic = str(topic)
    if topic not in topics:
        raise ExplainError(f"topic {topic!r} is not evaluated for this run (it needs both "
                           "run lines and judgments); evaluated topics: "
                           f"{', '.join(topics[:12])}{' ...' if len(topics) > 12 else ''}")
    return topics.index(topic)


def topic_data(jr: JudgedRanking, topic: str) -> TopicData:
    """The :class:`TopicData` of ``topic`` in a judged ranking."""
    return TopicData(jr, topic_index(jr, topic))


#: what each judgment code means to a reader (the Topic panel and the topic explorer)
RELEVANT, NONRELEVANT, POOLED_UNJUDGED, NOT_IN_QRELS = (
    "relevant", "non-relevant", "pooled, unjudged", "unjudged")


def status_of(rel: int, level: int) -> str:
    """``relevant``, ``non-relevant``, ``pooled, unjudged`` (-2) or ``unjudged`` (-1)."""
    if rel == NONPOOL:
        return NOT_IN_QRELS
    if rel == UNJUDGED or rel < 0:
        return POOLED_UNJUDGED
    return RELEVANT if rel >= level else NONRELEVANT


def ranked_documents(jr: JudgedRanking, topic: str) -> pd.DataFrame:
    """One topic's ranked documents as the Topic panel and the topic explorer show them.

    Columns: ``rank`` (1-based, trec_eval order), ``docno``, ``score``,
    ``file_rank`` (the run file's rank column, which trec_eval ignores; 0 when the
    run was read without it), ``rel`` (the judged ranking's code: the judgment,
    ``-1`` not in the qrels, ``-2`` pooled but unjudged), ``status``, ``judged``
    (``rel >= 0``) and ``relevant``.
    """
    td = topic_data(jr, topic)
    seg = td._segment
    rel = np.asarray(jr.rel[seg], dtype=np.int64)
    lines = jr.line[seg]
    run = jr.run
    file_rank = np.zeros(len(rel), np.int64)
    if run is not None and run.rank is not None:
        file_rank = np.where(lines >= 0, run.rank[np.maximum(lines, 0)], 0)
    return pd.DataFrame({
        "rank": np.arange(1, len(rel) + 1), "docno": list(td.docnos),
        "score": np.asarray(td.scores, dtype=np.float64), "file_rank": file_rank, "rel": rel,
        "status": [status_of(int(r), td.relevance_level) for r in rel.tolist()],
        "judged": rel >= 0, "relevant": rel >= td.relevance_level})


def topic_documents(run: Run, qrels: Qrels | None, topic: str,
                    options: EvalOptions | None = None, jr: JudgedRanking | None = None
                    ) -> pd.DataFrame:
    """:func:`ranked_documents` of ``run`` on ``topic`` (``jr``: its judged ranking, when
    already built with these qrels and options).  Otherwise the judged ranking of the
    topic's lines alone is built (the same order and judgments; work in proportion to
    the topic, so a window can call this on its own thread).  A topic without judgments
    (or no qrels) is still listed, in trec_eval's order, every document ``-1``."""
    options = options or EvalOptions()
    topic = str(topic)
    if jr is not None and topic in {str(t) for t in jr.topics.tolist()}:
        return ranked_documents(jr, topic)
    hit = np.flatnonzero(run.topics == topic)
    lines = np.flatnonzero(run.topic_code == hit[0]) if len(hit) else np.zeros(0, np.int64)
    one = Run(name=run.name, tag=run.tag, topics=np.array([topic], dtype=object),
              topic_code=np.zeros(len(lines), np.int32), docno_bytes=run.docno_bytes[lines],
              score=run.score[lines], rank=None if run.rank is None else run.rank[lines],
              path=run.path, group=run.group)
    q = qrels.frame[qrels.frame["topic"] == topic] if qrels is not None else None
    if q is not None and len(q):
        return ranked_documents(build_judged_ranking(one, Qrels.from_frame(q, name=qrels.name),
                                                     options), topic)
    order = cached_order(one, options.compat)[:options.max_docs]
    n = len(order)
    jr = JudgedRanking(np.array([topic], dtype=object), np.array([0, n], np.int64),
                       np.full(n, NONPOOL, np.int32), order, np.zeros((1, 1), np.int64),
                       options.relevance_level, np.zeros(1, bool), 0, one, None, options)
    return ranked_documents(jr, topic)


def load_topic(run: Run, qrels: Qrels, topic: str, options: EvalOptions | None = None
               ) -> TopicData:
    """Build the judged ranking of ``run`` and take one topic out of it."""
    return topic_data(build_judged_ranking(run, qrels, options or EvalOptions()), topic)
