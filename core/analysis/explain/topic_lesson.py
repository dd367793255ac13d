"""The topic explorer's data: one run's ranked list for one topic, taken apart.

For each ranked document: its rank, docno, score, the rank column of the file
(which trec_eval ignores), its relevance grade and status (relevant, judged
non-relevant, pooled but unjudged, not in the qrels), its tie group (documents
with the same score, which trec_eval orders by docno, descending), precision
and recall after it, and the term it adds to average precision.  Then the
recall-precision points and the interpolated curve, both by the appendix's rule
(maximum precision at any recall >= the level) and as trec_eval computes it,
and the curve as it builds up rank by rank.

The default lesson is the worked example of the TREC appendix "Common
Evaluation Measures" (TREC proceedings appendix, §1):
20 documents, 4 relevant, ranked 1st, 2nd, 4th and 15th; interpolated
precision 1 up to recall .5, .75 at .6 and .7, .27 from .8.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from yardstick.analysis.explain.topic_data import (  # noqa: F401
    NONRELEVANT,
    NOT_IN_QRELS,
    POOLED_UNJUDGED,
    RELEVANT,
    TopicData,
    ranked_documents,
    status_of,
    topic_data,
)
from yardstick.common.options import EvalOptions
from yardstick.evaluation.engine import compute_columns
from yardstick.evaluation.measures.registry import parse_requests
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.judged import JudgedRanking, build_judged_ranking

LEVELS = tuple(i / 10 for i in range(11))
APPENDIX = "TREC proceedings appendix 'Common Evaluation Measures', section 1"

@dataclass(frozen=True, eq=False)
class TopicLesson:
    """A run's ranked list for one topic with every number the lesson shows.

    Attributes
    ----------
    run_name, topic : str
    R, num_ret, rel_ret, relevance_level, compat : int
    ranked : pandas.DataFrame
        One row per ranked document (trec_eval order): ``rank``, ``docno``,
        ``score``, ``file_rank``, ``rel`` (grade or -1/-2), ``status``,
        ``judged``, ``relevant``, ``tie_group`` (1-based per distinct score),
        ``tie_size``, ``tie_pos`` (position inside the group: docno descending),
        ``rel_so_far``, ``precision``, ``recall``, ``ap_term`` (the precision
        AP averages, at relevant documents; NaN elsewhere).
    missed : tuple of str
        Relevant documents the run did not retrieve (each adds 0 to AP).
    ap : float
    rp_points : pandas.DataFrame
        ``rank``, ``recall``, ``precision`` at each relevant retrieved document.
    interpolated : pandas.DataFrame
        ``level``, ``appendix`` (max precision at recall >= level) and
        ``trec_eval`` (the engine's rule for ``compat``) at 11 levels.
    source : str
        Where the lesson comes from (a run file, or the appendix).
    """

    run_name: str
    topic: str
    R: int
    num_ret: int
    rel_ret: int
    relevance_level: int
    compat: int
    ranked: pd.DataFrame
    missed: tuple
    ap: float
    rp_points: pd.DataFrame
    interpolated: pd.DataFrame
    source: str = ""
    data: TopicData | None = field(default=None, repr=False)

    def to_frame(self) -> pd.DataFrame:
        return self.ranked

    @property
    def num_ties(self) -> int:
        """Documents that share their score with another document."""
        return int((self.ranked["tie_size"] > 1).sum())

    def points_up_to(self, rank: int) -> pd.DataFrame:
        """Recall-precision points of the relevant documents in the first ``rank``."""
        return self.rp_points[self.rp_points["rank"] <= rank]

    def interpolated_at(self, levels=LEVELS, upto: int | None = None) -> np.ndarray:
        """The appendix's interpolated precision at ``levels`` from the first ``upto`` docs."""
        pts = self.rp_points if upto is None else self.points_up_to(upto)
        rec, prec = pts["recall"].to_numpy(), pts["precision"].to_numpy()
        out = np.zeros(len(levels))
        for j, x in enumerate(levels):
            ok = rec >= x - 1e-12
            out[j] = prec[ok].max() if ok.any() else 0.0
        return out

    def interpolated_curve(self, upto: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The interpolated curve as a step line (x = recall, y = precision) for plotting.

        On ``(recall_{i-1}, recall_i]`` the value is the maximum precision at the
        i-th relevant document or later (of those in the first ``upto``); beyond
        the last recall reached it is 0.
        """
        pts = self.rp_points if upto is None else self.points_up_to(upto)
        rec, prec = pts["recall"].to_numpy(), pts["precision"].to_numpy()
        if not len(rec):
            return np.array([0.0, 1.0]), np.array([0.0, 0.0])
        suffix = np.maximum.accumulate(prec[::-1])[::-1]
        xs, ys = [0.0], [suffix[0]]
        for i in range(len(rec)):
            xs += [rec[i]]
            ys += [suffix[i]]
            if i + 1 < len(rec):
                xs += [rec[i]]
                ys += [suffix[i + 1]]
        if rec[-1] < 1.0:
            xs += [rec[-1], 1.0]
            ys += [0.0, 0.0]
        return np.array(xs), np.array(ys)


def tie_groups(scores: np.ndarray, compat: int = 10) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tie group (1-based), group size and position in group for a ranked score list.

    Scores are in trec_eval order (descending), so ties are adjacent; with
    ``compat=9`` they are compared as C floats, as trec_eval 9.0.8 stores them.
    """
    s = np.asarray(scores, dtype=np.float64)
    if compat == 9:
        s = s.astype(np.float32).astype(np.float64)
    n = len(s)
    if not n:
        z = np.zeros(0, np.int64)
        return z, z, z
    new = np.ones(n, bool)
    new[1:] = s[1:] != s[:-1]
    group = np.cumsum(new)
    size = np.bincount(group)[group]
    first = np.flatnonzero(new)
    pos = np.arange(n) - first[group - 1] + 1
    return group.astype(np.int64), size.astype(np.int64), pos.astype(np.int64)


def lesson_from_judged(jr: JudgedRanking, topic: str, source: str = "") -> TopicLesson:
    """The lesson of ``topic`` in a judged ranking."""
    td = topic_data(jr, topic)
    docs = ranked_documents(jr, topic)
    is_rel = docs["relevant"].to_numpy()
    n = len(docs)
    rel_so_far = np.cumsum(is_rel)
    ranks = np.arange(1, n + 1)
    precision = rel_so_far / ranks
    recall = rel_so_far / td.R if td.R else np.zeros(n)
    group, size, pos = tie_groups(docs["score"].to_numpy(), td.compat)
    ranked = docs.assign(tie_group=group, tie_size=size, tie_pos=pos, rel_so_far=rel_so_far,
                         precision=precision, recall=recall,
                         ap_term=np.where(is_rel, precision, np.nan))
    missed: tuple = ()
    if jr.qrels is not None:
        f = jr.qrels.frame
        rel_docs = f.loc[(f["topic"] == td.topic) & (f["rel"] >= td.relevance_level), "docno"]
        missed = tuple(sorted(set(rel_docs.tolist()) - set(td.docnos)))
    # AP and trec_eval's interpolated precision: the engine's kernels on this topic
    one = jr.topic_slice(td.t)
    ap_col, = compute_columns(one, parse_requests(["map"], td.compat))
    iprec = compute_columns(one, parse_requests(
        ["iprec_at_recall." + ",".join(f"{x:g}" for x in LEVELS)], td.compat))
    pts = ranked.loc[is_rel, ["rank", "recall", "precision"]].reset_index(drop=True)
    appendix = np.zeros(len(LEVELS))
    for j, x in enumerate(LEVELS):
        ok = pts["recall"].to_numpy() >= x - 1e-12
        appendix[j] = pts["precision"].to_numpy()[ok].max() if ok.any() else 0.0
    interp = pd.DataFrame({"level": LEVELS, "appendix": appendix,
                           "trec_eval": [float(c.values[0]) for c in iprec]})
    return TopicLesson(run_name=td.run_name, topic=td.topic, R=td.R, num_ret=n,
                       rel_ret=int(is_rel.sum()), relevance_level=td.relevance_level,
                       compat=td.compat, ranked=ranked, missed=missed,
                       ap=float(ap_col.values[0]), rp_points=pts, interpolated=interp,
                       source=source, data=td)


def topic_lesson(run: Run, qrels: Qrels, topic: str, options: EvalOptions | None = None
                 ) -> TopicLesson:
    """The lesson of ``topic`` for ``run`` judged by ``qrels``."""
    jr = build_judged_ranking(run, qrels, options or EvalOptions())
    return lesson_from_judged(jr, topic, source=run.path or run.name)


# ---------------------------------------------------------------------------
# The appendix's worked example (default lesson)
# ---------------------------------------------------------------------------
def _parse_run_text(text: str, name: str) -> Run:
    rows = [ln.split() for ln in text.splitlines() if ln.strip()]
    return Run.from_arrays([r[0] for r in rows], [r[2] for r in rows],
                           [float(r[4]) for r in rows], name=name, tag=rows[-1][5],
                           rank=[int(r[3]) for r in rows])


def _parse_qrels_text(text: str, name: str) -> Qrels:
    rows = [ln.split() for ln in text.splitlines() if ln.strip()]
    return Qrels.from_frame(pd.DataFrame({"topic": [r[0] for r in rows],
                                          "docno": [r[2] for r in rows],
                                          "rel": [int(r[3]) for r in rows]}), name=name)


def appendix_example(name: str = "interpolation") -> tuple[Run, Qrels]:
    """A worked example of the appendix as (run, qrels) (:mod:`yardstick.inputs.examples`).

    Read from ``resources/examples/`` when its files are there, else from the texts
    :func:`yardstick.inputs.examples.example_texts` builds; ``interpolation`` is topic ``1``,
    documents ``d01`` .. ``d20`` scored 20 .. 1, relevant at ranks 1, 2, 4, 15.
    """
    from yardstick.inputs.examples import example, example_texts

    ex = example(name)  # KeyError for a name that is not a worked example
    if ex.qrels.exists() and ex.runs[0].exists():
        from yardstick.inputs.io import read_qrels, read_run

        return read_run(str(ex.runs[0]), name=name), read_qrels(str(ex.qrels))
    q_text, r_text = example_texts(name)
    return _parse_run_text(r_text, name), _parse_qrels_text(q_text, name)


def default_lesson(options: EvalOptions | None = None) -> TopicLesson:
    """The appendix's interpolation example as a lesson (topic ``1``)."""
    run, qrels = appendix_example("interpolation")
    topic = str(qrels.topics[0])
    jr = build_judged_ranking(run, qrels, options or EvalOptions())
    return lesson_from_judged(jr, topic, source=APPENDIX)
