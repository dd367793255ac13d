"""The leave-out-uniques test: would a run score the same had it not been pooled?

Zobel (SIGIR 1998), as described by Buckley, Dimmick, Soboroff & Voorhees,
"Bias and the limits of pooling for large collections" (Information Retrieval,
2007), §2: each pooled run is evaluated with the official qrels and again with
the qrels "that results by removing those documents that were added to the
pool by the current run only" — every judgment only it contributed, relevant
or not (for MAP and P@k only the relevant ones matter; bpref and infAP read
the non-relevant ones too);
the mean difference over the pooled runs measures how unfair the collection is
to a run that did not contribute.  Buckley et al. use "a more stringent variant
of this test that removes all documents from the judgment set that were
contributed solely by runs from the same group" (``unit="group"``); their
differences are in MAP.  Soboroff ("Measuring the measure", slide
"Understanding uniques"): a MAP drop over 5% is a red flag (Voorhees 98)
and "very poor runs should not be considered here, since percentage
differences in small MAP can look big" (``min_score``).

The qrels are never rebuilt: the judgments of the removed documents are masked
to "not in qrels" in the flat arrays of :class:`~yardstick.judging.judged_runs.JudgedRuns` and
the judgment counts per level (R and N) are lowered per run and topic, so every
pooled run (or group) is re-scored in one vectorised pass by the engine's measure
kernels (:mod:`yardstick.analysis.pool.scoring`);
:attr:`UniquesResult.removed` lists the judgments taken out.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.pool import scoring
from yardstick.analysis.pool.reconstruction import Depth, Pool, pool_entry_blocks, reconstruct_pool
from yardstick.common.progress import Progress, run_sync
from yardstick.evaluation.results import mean_over_topics
from yardstick.inputs.io.text_source import text_index
from yardstick.judging.judged_runs import NONPOOL, JudgedRuns, unique_sorted
from yardstick.judging.judged_subset import on_qrels, qrels_entries

RED_FLAG_PERCENT = 5.0
#: judged entries looked up between two cancellation points of the masking step
MASK_CHUNK = 1 << 18


@dataclass(frozen=True, eq=False)
class UniquesResult:
    """Leave-out-uniques test for every pooled run.

    Attributes
    ----------
    unit : {"run", "group"}
        Whose unique relevant documents were removed.
    measure : str
    frame : pandas.DataFrame
        Index run (pooled runs); columns group, unique_relevant (of its unit),
        score, score_without, diff (score - score_without), percent (diff as %
        of score), rank, rank_without (among all runs of the index, 1 = best;
        the run scored without its uniques against the others' official
        scores), red_flag (percent > 5), poor (score below ``min_score``:
        left out of the summary).
    per_unit : pandas.DataFrame
        Index unit (run or group); columns contributed (pool documents it
        contributed), unique (only it contributed), unique_relevant.
    unique_by_topic : pandas.DataFrame
        Topics x units count of unique relevant documents.
    summary : pandas.Series
        mean_diff, max_diff, mean_percent, max_percent, red_flags, runs, left_out,
        unique_relevant, unique_judged.
    removed : pandas.DataFrame
        The judgments taken out when each pooled unit is left out: columns unit
        (``run`` or ``group``), topic, docno, rel (relevant and non-relevant alike).
    """

    unit: str
    measure: str
    frame: pd.DataFrame
    per_unit: pd.DataFrame
    unique_by_topic: pd.DataFrame
    summary: pd.Series
    removed: pd.DataFrame | None = None

    def to_frame(self) -> pd.DataFrame:
        return self.frame.reset_index()


def unique_relevant_keys(index: JudgedRuns, pool: Pool, unit: str = "group") -> tuple[
        np.ndarray, np.ndarray]:
    """Keys of relevant pool documents contributed by exactly one unit, and that unit."""
    keys, owner, rel = unique_judged_keys(index, pool, unit)
    sel = rel >= index.relevance_level
    return keys[sel], owner[sel]


def unique_judged_keys(index: JudgedRuns, pool: Pool, unit: str = "group") -> tuple[
        np.ndarray, np.ndarray, np.ndarray]:
    """Keys, contributing unit and qrels value of every pool document that the qrels
    judge (any value, negative ones too) and exactly one unit contributed."""
    owner = pool.owner_group if unit == "group" else pool.owner_run
    found, rel = index.lookup(pool.keys)
    sel = (owner >= 0) & found
    return pool.keys[sel], owner[sel], rel[sel]


def iter_leave_out_uniques(index: JudgedRuns, depth: Depth, unit: str = "group",
                           measure: str = "map", min_score: float | None = None,
                           pool: Pool | None = None
                           ) -> Generator[Progress, None, UniquesResult]:
    """Leave-out-uniques test as a progress generator (see :func:`leave_out_uniques`)."""
    if unit not in ("run", "group"):
        raise ValueError("unit must be 'run' or 'group'")
    steps = 4
    yield Progress(0, steps, "rebuilding the pool")
    pool = reconstruct_pool(index, depth) if pool is None else pool
    n_units = index.n_groups if unit == "group" else index.n_runs
    unit_of_run = index.run_group.astype(np.int64) if unit == "group" else \
        np.arange(index.n_runs, dtype=np.int64)
    # every judgment only this unit contributed leaves with it (Zobel 1998; Buckley et
    # al. 2007 §2: "removes all documents from the judgment set that were contributed
    # solely by runs from the same group"), relevant or not: bpref and infAP read both
    j_keys, j_owner, j_rel = unique_judged_keys(index, pool, unit)
    lvl = index.relevance_level
    is_rel = j_rel >= lvl

    def per_unit_topic(sel: np.ndarray) -> np.ndarray:
        code = j_owner[sel].astype(np.int64) * index.n_topics + index.key_topic(j_keys[sel])
        return np.bincount(code, minlength=n_units * index.n_topics
                           ).reshape(n_units, index.n_topics)

    uniq_tu = per_unit_topic(is_rel)

    yield Progress(1, steps, f"scoring all runs ({measure})")
    evaluated = index.evaluated()
    levels = index.rel_levels()
    official_t = yield from scoring.iter_full_scores(index, measure, 1, steps,
                                                     f"scoring all runs ({measure})")
    official = mean_over_topics(official_t, evaluated, axis=1)

    masking = "masking the judgments only each unit contributed"
    yield Progress(2, steps, masking)
    # the entries the qrels hold (only they can lose a judgment), a slice at a time
    entries = qrels_entries(index)
    rel = index.e_rel[entries.idx]
    owner_q, _ = on_qrels(index, j_keys, j_owner.astype(np.int64), fill=-1)
    for a in range(0, len(entries) if len(j_keys) else 0, MASK_CHUNK):
        qpos = entries.qpos[a:a + MASK_CHUNK]
        owner = np.where(qpos >= 0, owner_q[np.maximum(qpos, 0)], -1)
        run_of = entries.segments(a, a + MASK_CHUNK) // index.n_topics
        mine = (owner >= 0) & (owner == unit_of_run[run_of]) & index.pooled[run_of]
        rel[a:a + MASK_CHUNK][mine] = NONPOOL
        yield Progress(2, steps, masking)
    # the judgments per level each pooled run's unit takes out (R and N of the kernels)
    L = levels.shape[1]
    judged = j_rel >= 0
    code = (j_owner[judged].astype(np.int64) * index.n_topics
            + index.key_topic(j_keys[judged])) * L + j_rel[judged]
    removed = np.bincount(code, minlength=n_units * index.n_topics * L
                          ).reshape(n_units, index.n_topics, L)
    rel_levels = levels[None] - np.where(index.pooled[:, None, None], removed[unit_of_run], 0)
    without_t = (yield from scoring.iter_score_subset(
        index, entries, (measure,), rel, rel_levels, 2, steps,
        "scoring without each unit's judgments"))[measure]
    without = mean_over_topics(without_t, evaluated, axis=1)

    yield Progress(3, steps, "ranking")
    pooled = np.flatnonzero(index.pooled)
    diff = official - without
    percent = np.divide(100.0 * diff, official, out=np.full(len(diff), np.nan),
                        where=official > 0)
    rank = pd.Series(official).rank(ascending=False, method="min").to_numpy()
    # rank_without: the run's reduced score against every other run's official score
    rank_without = np.array([1 + int(np.sum(np.delete(official, i) > without[i]))
                             for i in range(index.n_runs)])
    poor = np.zeros(index.n_runs, bool) if min_score is None else official < min_score
    group = [index.group_names[g] for g in index.run_group]
    unit_names = index.group_names if unit == "group" else index.run_names
    u_per_unit = uniq_tu.sum(axis=1)
    frame = pd.DataFrame({
        "group": np.asarray(group, dtype=object)[pooled],
        "unique_relevant": u_per_unit[unit_of_run[pooled]],
        "score": official[pooled],
        "score_without": without[pooled],
        "diff": diff[pooled],
        "percent": percent[pooled],
        "rank": pd.array(np.where(np.isnan(rank[pooled]), None, rank[pooled]), dtype="Int64"),
        "rank_without": rank_without[pooled],
        "red_flag": percent[pooled] > RED_FLAG_PERCENT,
        "poor": poor[pooled],
    }, index=pd.Index([index.run_names[i] for i in pooled], name="run"))

    owner_all = pool.owner_group if unit == "group" else pool.owner_run
    contributed = np.zeros(n_units, np.int64)     # distinct pool documents per unit
    for sel in pool_entry_blocks(index, pool.depth):
        seg = index.entry_segment(sel)
        pairs = unique_sorted(((seg % index.n_topics) * index.n_docs + index.e_doc[sel])
                              * n_units + unit_of_run[seg // index.n_topics])
        contributed += np.bincount(pairs % n_units, minlength=n_units)
    per_unit = pd.DataFrame({
        "contributed": contributed,
        "unique": np.bincount(owner_all[owner_all >= 0], minlength=n_units),
        "unique_judged": np.bincount(j_owner.astype(np.int64), minlength=n_units),
        "unique_relevant": u_per_unit,
    }, index=pd.Index(list(unit_names), name=unit))
    order = np.lexsort((j_keys, j_owner))
    removed = pd.DataFrame({
        unit: np.asarray(unit_names, dtype=object)[j_owner[order]],
        "topic": index.topic_names(index.key_topic(j_keys[order])),
        "docno": index.docnos(index.key_doc(j_keys[order])),
        "rel": j_rel[order],
    })
    removed = removed[np.isin(j_owner[order], unit_of_run[pooled])].reset_index(drop=True)
    pooled_units = sorted(set(unit_of_run[pooled].tolist()))
    per_unit = per_unit.iloc[pooled_units]
    by_topic = pd.DataFrame(uniq_tu[pooled_units].T, index=text_index(index.topics, name="topic"),
                            columns=[unit_names[u] for u in pooled_units])
    by_topic = by_topic[index.in_qrels]
    ok = frame[~frame["poor"]]
    summary = pd.Series({
        "unit": unit,
        "measure": measure,
        "runs": len(ok),
        "left_out": int(frame["poor"].sum()),
        "mean_diff": ok["diff"].mean(),
        "max_diff": ok["diff"].max(),
        "mean_percent": ok["percent"].mean(),
        "max_percent": ok["percent"].max(),
        "red_flags": int(ok["red_flag"].sum()),
        "unique_relevant": int(u_per_unit.sum()),
        "unique_judged": int(len(j_keys)),
    })
    yield Progress(4, steps, "done")
    return UniquesResult(unit=unit, measure=measure, frame=frame, per_unit=per_unit,
                         unique_by_topic=by_topic, summary=summary, removed=removed)


def leave_out_uniques(index: JudgedRuns, depth: Depth, unit: str = "group",
                      measure: str = "map", min_score: float | None = None,
                      pool: Pool | None = None) -> UniquesResult:
    """Leave-out-uniques test for every pooled run (Zobel 1998; Buckley et al. 2007).

    Parameters
    ----------
    index : JudgedRuns
    depth : pool depth (int, per-topic mapping or array)
    unit : {"group", "run"}
        "run": remove the relevant documents only that run contributed (Zobel);
        "group": only that run's group contributed (Buckley et al., stricter).
    measure : str
        ``map`` (the papers' choice) or any of :data:`yardstick.analysis.pool.scoring.MEASURES`,
        ``P_k``.
    min_score : float, optional
        Runs scoring below this with the full qrels are marked ``poor`` and
        left out of the mean and maximum (Soboroff's advice).
    pool : Pool, optional
        A pool already rebuilt for this depth.
    """
    return run_sync(iter_leave_out_uniques(index, depth, unit, measure, min_score, pool))
