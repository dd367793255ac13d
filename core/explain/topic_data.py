"""One topic's ranked list, as plain Python values, for explanations and lessons.

Everything the teaching tools show about a (run, topic) pair is worked out
from this small object with ordinary Python arithmetic, independently of the
vectorised kernels in :mod:`yardstick.measures`; the tests check that both agree.

The relevance codes are trec_eval's (``form_res_rels.c``): a judgment ``>= 0``,
``-1`` for a document not in the qrels and ``-2`` for a document in the qrels
with a negative judgment (pooled but not assessed).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from yardstick.judged import NONPOOL, UNJUDGED, JudgedRanking, build_judged_ranking
from yardstick.options import EvalOptions
from yardstick.qrels import Qrels
from yardstick.run import Run


class ExplainError(ValueError):
    """A topic or measure that cannot be explained (unknown, not evaluated ...)."""


@dataclass(frozen=True, eq=False)
class TopicData:
    """A topic's ranked list in trec_eval order with every document's judgment.

    Attributes
    ----------
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

    topic: str
    run_name: str
    runid: str
    docnos: tuple
    scores: tuple
    rel: tuple
    rel_levels: tuple
    relevance_level: int = 1
    num_docs_in_coll: int = 0
    compat: int = 10
    missing: bool = False

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


def topic_data(jr: JudgedRanking, topic: str) -> TopicData:
    """The :class:`TopicData` of ``topic`` in a judged ranking."""
    topics = [str(t) for t in jr.topics.tolist()]
    topic = str(topic)
    if topic not in topics:
        raise ExplainError(f"topic {topic!r} is not evaluated for this run (it needs both "
                           "run lines and judgments); evaluated topics: "
                           f"{', '.join(topics[:12])}{' ...' if len(topics) > 12 else ''}")
    t = topics.index(topic)
    s, e = int(jr.start[t]), int(jr.start[t + 1])
    lines = jr.line[s:e].tolist()
    run = jr.run
    if run is not None:
        docnos = tuple(run.docnos[run.doc_code[i]] if i >= 0 else "(no document)"
                       for i in lines)
        scores = tuple(float(run.score[i]) if i >= 0 else float("nan") for i in lines)
        run_name, runid = run.name, run.tag
    else:
        docnos = tuple(f"#{i}" for i in lines)
        scores = tuple(float("nan") for _ in lines)
        run_name = runid = ""
    levels = [int(x) for x in jr.rel_levels[t].tolist()]
    while levels and levels[-1] == 0:
        levels.pop()
    opts = jr.options or EvalOptions()
    return TopicData(topic=topic, run_name=run_name, runid=runid, docnos=docnos,
                     scores=scores, rel=tuple(int(r) for r in jr.rel[s:e].tolist()),
                     rel_levels=tuple(levels), relevance_level=jr.relevance_level,
                     num_docs_in_coll=opts.num_docs_in_coll, compat=opts.compat,
                     missing=bool(jr.missing[t]))


def load_topic(run: Run, qrels: Qrels, topic: str, options: EvalOptions | None = None
               ) -> TopicData:
    """Build the judged ranking of ``run`` and take one topic out of it."""
    return topic_data(build_judged_ranking(run, qrels, options or EvalOptions()), topic)
