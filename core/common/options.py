"""trec_eval's options, as one frozen settings object (trec_eval's ``EPI`` struct)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EvalOptions:
    """Evaluation parameters, named after trec_eval's flags.

    Attributes
    ----------
    relevance_level : int
        ``-l``: a judgment counts as relevant when ``rel >= relevance_level`` (default 1).
    max_docs : int or None
        ``-M``: only the first ``max_docs`` documents per topic, after sorting.
    judged_only : bool
        ``-J``: drop retrieved documents that are not in the qrels before evaluating.
    complete : bool
        ``-c``: average over every qrels topic; topics the run lacks score 0.
    num_docs_in_coll : int
        ``-N``: collection size (used by some measures; 0 = unknown).
    compat : int
        10 (default) for trec_eval 10.0, 9 for trec_eval 9.0.8 behaviour.
    """

    relevance_level: int = 1
    max_docs: int | None = None
    judged_only: bool = False
    complete: bool = False
    num_docs_in_coll: int = 0
    compat: int = 10

    def __post_init__(self):
        if self.compat not in (9, 10):
            raise ValueError(f"compat must be 9 or 10, not {self.compat!r}")
        if self.max_docs is not None and self.max_docs < 0:
            raise ValueError("max_docs must be >= 0")
