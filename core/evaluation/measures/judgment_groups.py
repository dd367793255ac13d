"""Measures averaged over judgment groups (trec_eval ``-R qrels_jg``).

A ``qrels_jg`` file holds several sets of ordinary judgments per topic, one per
judgment group (JG, e.g. one per assessor).  ``form_res_rels_jg.c`` judges the
ranking once per JG exactly as ``form_res_rels.c`` does for plain qrels, so
each JG here is an ordinary :class:`yardstick.judging.judged.JudgedRanking` and the
standard kernels (AP, P@k, precision at multiples of R) apply unchanged; the
topic's value is their mean over the topic's JGs (``m_map_avgjg.c``,
``m_P_avgjg.c``, ``m_Rprec_mult_avgjg.c``), added in JG-name order as
trec_eval does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from yardstick.common.options import EvalOptions
from yardstick.evaluation.measures.average_precision import average_precision
from yardstick.evaluation.measures.definition import (
    CUT_DOUBLE,
    CUT_LONG,
    DOUBLE,
    MeasureError,
    measure,
)
from yardstick.evaluation.measures.precision import CUTS, precision_at, r_precision_mult
from yardstick.inputs.run import Run
from yardstick.judging.judged import JudgedRanking, build_judged_ranking

if TYPE_CHECKING:  # pandas is imported where a frame is built, not at import time
    import pandas as pd

CITE = "trec_eval 10.0 m_{}.c and form_res_rels_jg.c (C. Buckley, NIST)"


@dataclass(frozen=True, eq=False)
class JudgmentGroupRankings:
    """A run judged separately by each judgment group, for all topics.

    Duck-types the parts of :class:`yardstick.judging.judged.JudgedRanking` the engine uses.

    Attributes
    ----------
    topics : ndarray of str, shape (T,)
    missing : ndarray of bool, shape (T,)
    num_qrels_topics : int
    groups : tuple of (str, JudgedRanking, ndarray)
        Per JG name (sorted): its judged ranking and, per topic of that
        ranking, the index into :attr:`topics`.
    """

    topics: np.ndarray
    missing: np.ndarray
    num_qrels_topics: int
    groups: tuple = field(repr=False)
    run: Run | None = field(default=None, repr=False)
    options: EvalOptions = field(default_factory=EvalOptions, repr=False)

    @property
    def num_topics(self) -> int:
        return len(self.topics)

    @property
    def num_jgs(self) -> np.ndarray:
        n = np.zeros(self.num_topics, np.int64)
        for _, _, idx in self.groups:
            n[idx] += 1
        return n

    def to_frame(self) -> pd.DataFrame:
        """One row per (topic, judgment group): documents retrieved, relevant, relevant
        retrieved."""
        import pandas as pd

        rows = [pd.DataFrame({"topic": self.topics[idx], "jg": name,
                              "num_ret": jr.num_ret, "num_rel": jr.num_rel,
                              "num_rel_ret": jr.num_rel_ret})
                for name, jr, idx in self.groups]
        if not rows:
            return pd.DataFrame(columns=["topic", "jg", "num_ret", "num_rel", "num_rel_ret"])
        return pd.concat(rows, ignore_index=True).sort_values(
            ["topic", "jg"], kind="stable").reset_index(drop=True)

    def average(self, kernel, params) -> np.ndarray:
        """Mean over each topic's JGs of ``kernel(jr, params)`` (sum, then / n if n > 1)."""
        acc = None
        for _, jr, idx in self.groups:
            v = np.asarray(kernel(jr, params), dtype=np.float64)
            if acc is None:
                acc = np.zeros((self.num_topics,) + v.shape[1:])
            acc[idx] += v
        if acc is None:
            acc = np.zeros(self.num_topics)
        n = self.num_jgs.reshape((-1,) + (1,) * (acc.ndim - 1))
        return np.where(n > 1, acc / np.maximum(n, 1), acc)


def build_judgment_group_rankings(run: Run, qrels_jg, options: EvalOptions | None = None
                                  ) -> JudgmentGroupRankings:
    """Judge ``run`` once per judgment group of ``qrels_jg`` (a
    :class:`~yardstick.inputs.io.prefs_file.QrelsJG`)."""
    options = options or EvalOptions()
    all_topics = qrels_jg.topics
    in_run = set(run.topics.tolist())
    has_run = np.array([t in in_run for t in all_topics.tolist()], dtype=bool)
    if options.complete and options.compat == 10:
        keep = np.ones(len(all_topics), bool)
    else:
        keep = has_run
    topics = all_topics[keep]
    pos = {t: i for i, t in enumerate(topics.tolist())}
    groups = []
    for name in qrels_jg.groups:
        qrels = qrels_jg.group(name)
        if not any(t in pos for t in qrels.topics.tolist()):
            continue                      # a group only of topics not evaluated
        jr: JudgedRanking = build_judged_ranking(run, qrels, options)
        idx = np.array([pos[t] for t in jr.topics.tolist()], dtype=np.int64)
        groups.append((name, jr, idx))
    return JudgmentGroupRankings(topics=topics, missing=~has_run[keep],
                                 num_qrels_topics=len(all_topics), groups=tuple(groups),
                                 run=run, options=options)


def _jgr(obj, name: str) -> JudgmentGroupRankings:
    if not isinstance(obj, JudgmentGroupRankings):
        raise MeasureError(f"{name} needs judgment-group qrels: -R qrels_jg")
    return obj



_measure = partial(measure, rel_format="qrels_jg")

@_measure("map_avgjg", DOUBLE, "Average precision per judgment group (user), averaged over "
         "the topic's groups; map when there is one group.", cite=CITE.format("map_avgjg"))
def map_avgjg(jgr, params):
    return _jgr(jgr, "map_avgjg").average(average_precision, params)


@_measure("P_avgjg", CUT_LONG, "Precision at cutoffs per judgment group, averaged over the "
         "topic's groups.", default_params=CUTS, cite=CITE.format("P_avgjg"))
def precision_avgjg(jgr, cutoffs):
    return _jgr(jgr, "P_avgjg").average(precision_at, cutoffs)


@_measure("Rprec_mult_avgjg", CUT_DOUBLE, "Precision at multiples of R per judgment group "
         "(R of that group), averaged over the topic's groups.",
         default_params=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
         cite=CITE.format("Rprec_mult_avgjg"))
def rprec_mult_avgjg(jgr, mults):
    return _jgr(jgr, "Rprec_mult_avgjg").average(r_precision_mult, mults)
