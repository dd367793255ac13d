"""Which measures the pool diagnostics score, and their average over each run's topics.

Nothing is computed here: :func:`score_all` re-judges the one
:class:`~yardstick.judging.judged_runs.JudgedRuns` (masked or simulated judgments) and
scores every run and topic with the engine's measure kernels
(:func:`yardstick.evaluation.engine.score_segments` on :meth:`JudgedRuns.judged`), the same
code ``yardstick eval`` runs:

* ``map`` — trec_eval ``m_map.c``;
* ``map_judged`` — AP on the condensed list of judged documents (trec_eval ``-J``;
  Sakai, "Alternatives to Bpref", SIGIR 2007);
* ``bpref`` — Buckley & Voorhees, "Retrieval Evaluation with Incomplete
  Information", SIGIR 2004, §4;
* ``infAP`` — Yilmaz & Aslam, "Estimating Average Precision with Incomplete and
  Imperfect Judgments", CIKM 2006;
* ``P_k`` — precision at k (trec_eval ``m_P.c``).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import numpy as np

from yardstick.common.progress import Progress
from yardstick.evaluation.engine import score_segments
from yardstick.judging.judged_runs import JudgedRuns
from yardstick.judging.judged_subset import SubsetEntries, judged_subset, qrels_entries

MEASURES = ("map", "map_judged", "bpref", "infAP")
#: runs scored between two cancellation points of a pool job (at most)
RUN_BLOCK = 32
#: ranked documents scored at once (at most, unless one run has more): the kernels'
#: temporaries grow with them
ENTRY_BLOCK = 2_000_000
#: entries of the qrels scored at once by :func:`iter_score_subset` (at most, unless one
#: run has more): each ranking keeps its measures' intermediates while it is scored
SUBSET_BLOCK = 500_000


def score_all(index: JudgedRuns, measure: str, rel: np.ndarray | None = None,
              rel_levels: np.ndarray | None = None, compat: int = 10) -> np.ndarray:
    """Per (run, topic) values of one of :data:`MEASURES` (or ``P_k``), shape
    ``(n_runs, n_topics)``; ``rel`` and ``rel_levels`` as in :meth:`JudgedRuns.judged`."""
    why = unsupported(measure)
    if why:
        raise ValueError(why)
    judged_only = measure == "map_judged"
    name = "map" if judged_only else f"P.{measure[2:]}" if measure.startswith("P_") else measure
    jr = index.judged(rel, rel_levels, judged_only=judged_only, compat=compat)
    return score_segments(jr, name).reshape(index.n_runs, index.n_topics)


def iter_score_blocks(index: JudgedRuns, measure: str, rel: np.ndarray | None = None,
                      rel_levels: np.ndarray | None = None, step: float = 0, total: float = 1,
                      message: str = ""):
    """:func:`score_all` a block of runs at a time (:data:`RUN_BLOCK`, fewer when they
    rank more than :data:`ENTRY_BLOCK` documents), a cancellation point (a
    ``Progress(step, total, message)``) after each block; the numbers are those of one
    pass.  ``rel_levels`` per run and topic (3-d) are cut with the runs."""
    rel = index.e_rel if rel is None else rel
    per_topic = []
    T = index.n_topics
    per_run = max(1, index.n_entries // max(index.n_runs, 1))
    block = max(1, min(RUN_BLOCK, ENTRY_BLOCK // per_run))
    for r0 in range(0, index.n_runs, block):
        r1 = min(index.n_runs, r0 + block)
        a, z = int(index.seg_start[r0 * T]), int(index.seg_start[r1 * T])
        levels = rel_levels[r0:r1] if rel_levels is not None and np.ndim(rel_levels) == 3 \
            else rel_levels
        per_topic.append(score_all(index.run_block(r0, r1), measure, rel[a:z], levels))
        yield Progress(step, total, message)
    return np.concatenate(per_topic) if per_topic else np.zeros((0, T))


def iter_score_subset(index: JudgedRuns, entries: SubsetEntries, measures: Sequence[str],
                      rel: np.ndarray, rel_levels: np.ndarray | None = None, step: float = 0,
                      total: float = 1, message: str = ""):
    """:func:`iter_score_blocks` for judgments given on ``entries`` only (every other entry
    not in the qrels: :func:`yardstick.judging.judged_subset.judged_subset`), the same
    values, for several measures at once (``{measure: (n_runs, n_topics)}``): those on the
    whole list share one ranking (its relevant documents found once), ``map_judged`` its
    condensed list; a block of runs at a time (:data:`ENTRY_BLOCK` of these entries), a
    cancellation point after each."""
    for m in measures:
        why = unsupported(m)
        if why:
            raise ValueError(why)
    T = index.n_topics
    # AP, bpref and P@k read judged entries only (relevance level >= 0): the pooled but
    # unjudged ones (infAP's) are left out of their ranking, ranks kept
    kinds = {m: "all" if m == "infAP" or index.relevance_level < 0 else "judged"
             for m in measures}
    judged = rel >= 0
    sets = {"all": (entries, rel)}
    if judged.all():        # one ranking for both: its relevant documents found once
        kinds = dict.fromkeys(kinds, "all")
    elif "judged" in kinds.values():
        sets["judged"] = (entries.select(judged), np.compress(judged, rel))
    del judged
    per_run = max(1, len(entries) // max(index.n_runs, 1))
    block = max(1, SUBSET_BLOCK // per_run)
    out: dict[str, list] = {m: [] for m in measures}
    # the measures of one ranking one after another, the ranking (and the intermediates
    # its measures cached on it) dropped before the next is made
    by_ranking: dict[tuple[str, bool], list[str]] = {}
    for m in measures:
        by_ranking.setdefault((kinds[m], m == "map_judged"), []).append(m)
    for r0 in range(0, index.n_runs, block):
        r1 = min(index.n_runs, r0 + block)
        for (kind, judged_only), names in by_ranking.items():
            e, r = sets[kind]
            ranking = judged_subset(index, e, r, rel_levels, judged_only, (r0, r1))
            for m in names:
                name = "map" if judged_only else f"P.{m[2:]}" if m.startswith("P_") else m
                out[m].append(score_segments(ranking, name).reshape(r1 - r0, T))
            del ranking
        yield Progress(step, total, message)
    return {m: np.concatenate(v) if v else np.zeros((0, T)) for m, v in out.items()}


#: per judged runs, the full-qrels scores already computed, by measure
_FULL: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def iter_full_scores(index: JudgedRuns, measure: str, step: float = 0, total: float = 1,
                     message: str = ""):
    """Per (run, topic) ``measure`` with the full qrels (a progress generator), computed
    once per index and measure and shared by every analysis of it (leave-out-uniques'
    official scores, each simulated strategy's reference ranking); a copy each time."""
    done = _FULL.setdefault(index, {})
    if measure not in done:
        scores = yield from iter_score_subset(index, qrels_entries(index), (measure,),
                                              index.e_rel[qrels_entries(index).idx], None,
                                              step, total, message)
        done[measure] = scores[measure]
    return done[measure].copy()


def known_full_scores(index: JudgedRuns) -> dict[str, np.ndarray]:
    """The full-qrels scores :func:`iter_full_scores` has computed for ``index``, by measure."""
    return dict(_FULL.get(index, {}))


def share_full_scores(index: JudgedRuns, scores: dict[str, np.ndarray]) -> None:
    """Make ``scores`` (:func:`known_full_scores` of an index with the same entries and
    judgments, computed elsewhere and sent along) those of ``index``."""
    done = _FULL.setdefault(index, {})
    for m, v in scores.items():
        done.setdefault(m, v)


def unsupported(measure: str) -> str | None:
    """Why ``measure`` cannot be re-scored over a pool (None if it can)."""
    if measure in MEASURES:
        return None
    if measure.startswith("P_") and measure[2:].isdigit():
        if int(measure[2:]) >= 1:
            return None
        return f"{measure!r}: precision needs a cutoff of at least 1 document (P_1, P_10, ...)"
    return (f"pool re-scoring supports {', '.join(MEASURES)} and P_k (k >= 1), "
            f"not {measure!r}")
