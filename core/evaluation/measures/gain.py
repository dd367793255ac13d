"""Graded-gain measures: nDCG and its variants, G, rank-biased precision.

Definitions follow trec_eval 10.0 (``m_ndcg.c``, ``m_ndcg_cut.c``, ``m_ndcg_rel.c``,
``m_Rndcg.c``, ``m_G.c``, ``m_rbp.c``, ``m_rbp_resid.c``, ``gain_init.c``):

* nDCG (Järvelin & Kekäläinen, TOIS 2002): DCG = Σ_i gain(rel_i) / log2(i + 2)
  over the whole ranking, divided by the DCG of the ideal ordering of every
  judged document.  Gains default to the relevance level; ``ndcg.1=3,2=9``
  overrides them (``gain_init.c``).
* RBP (Moffat & Zobel, TOIS 27(1), 2008, eq. 5): RBP = (1 - p) Σ_i g_i p^(i-1),
  gains scaled into [0, 1].  trec_eval 10.0's ``m_rbp.c`` reads ``min``/``max``
  before setting them (undefined behaviour); Yardstick computes min and max over
  the topic's gain table, as the definition intends.
"""

from __future__ import annotations

from functools import cmp_to_key

import numpy as np

from yardstick.evaluation.measures.definition import CUT_LONG, P_PAIR, measure
from yardstick.evaluation.measures.segments import divide, running_sum, sum_before
from yardstick.judging.judged import Docs

JK = ("Järvelin & Kekäläinen, 'Cumulated gain-based evaluation of IR techniques', "
      "ACM TOIS 20(4), 2002")
CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)



def _valid_int(name: str) -> bool:
    s = name[1:] if name[:1] in "+-" else name
    return s.isdigit()


def gain_table(jr, pairs) -> list[tuple[int, float]]:
    """(level, gain) in trec_eval's walk order: sorted by increasing gain.

    ``setup_gains`` lists the ``level=gain`` parameters first, then the levels
    0..L-1 not given (gain = level), and qsorts them with a comparator that
    truncates the gain difference to an int; a stable sort with the same
    comparator reproduces it.
    """
    table = [(int(k), float(v)) for k, v in pairs if _valid_int(k)]
    given = {lvl for lvl, _ in table}
    L = jr.rel_levels.shape[1]
    table += [(lvl, float(lvl)) for lvl in range(L) if lvl not in given]
    return sorted(table, key=cmp_to_key(lambda a, b: int(a[1] - b[1])))


def gain_vector(jr, pairs) -> tuple[np.ndarray, int, list[tuple[int, float]]]:
    """(gain of each level from ``lo`` up, ``lo``, the gain table)."""
    table = gain_table(jr, pairs)
    lookup = {lvl: g for lvl, g in table}
    lo = min(NONPOOL_LEVELS[-1], min(lookup, default=0))
    hi = max(jr.rel_levels.shape[1] - 1, max(lookup, default=0), 0)
    vec = np.zeros(hi - lo + 1)
    for lvl, g in lookup.items():
        vec[lvl - lo] = g
    return vec, lo, table


#: the codes of ranked documents without a judgment (yardstick.judging.judged NONPOOL, UNJUDGED)
NONPOOL_LEVELS = (-1, -2)


def scored_docs(jr, pairs):
    """(documents, their gains, the gain table) for the documents a gain map can touch.

    Documents outside the qrels (code -1) have gain 0 and are left out, unless the
    parameters name level -1: then every ranked document is included.
    """
    vec, lo, table = gain_vector(jr, pairs)
    if any(_valid_int(k) and int(k) == -1 for k, _ in pairs) or vec[-1 - lo] != 0:
        d = Docs(np.arange(len(jr.rel)), jr.tix, jr.pos, jr.rel, jr.num_topics)
    else:
        d = jr.qrels_docs
    return d, vec[d.rel - lo], table


def ideal_gains(jr, table) -> tuple[np.ndarray, np.ndarray]:
    """Flat ideal gain sequence per topic (CSR: values, start offsets).

    Levels are walked from the highest gain down, each repeated as often as it
    was judged, stopping at the first gain <= 0 (the ``ideal_gain > 0`` loops).
    """
    walk = []
    for lvl, g in reversed(table):
        if g <= 0:
            break
        walk.append((lvl, g))
    T = jr.num_topics
    if not walk:
        return np.zeros(0), np.zeros(T + 1, np.int64)
    L = jr.rel_levels.shape[1]
    counts = np.stack([jr.rel_levels[:, lvl] if 0 <= lvl < L else np.zeros(T, np.int64)
                       for lvl, _ in walk], axis=1)               # (T, W)
    g = np.array([gv for _, gv in walk])
    values = np.repeat(np.tile(g, T), counts.ravel())
    start = np.concatenate([[0], np.cumsum(counts.sum(axis=1))]).astype(np.int64)
    return values, start


def _positions(start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = np.diff(start)
    tix = np.repeat(np.arange(len(n)), n)
    return tix, np.arange(start[-1]) - start[:-1][tix]


class DcgParts:
    """What every DCG-family measure needs, computed once per gain map.

    Only ranked documents with a non-zero gain are kept (``t``, ``p``, ``g``: topic,
    0-based rank and gain of each); sums run per topic in rank order from 0, as
    trec_eval adds them (see :mod:`yardstick.evaluation.measures.segments`).
    """

    def __init__(self, jr, pairs):
        T = jr.num_topics
        d, gain, self.table = scored_docs(jr, pairs)
        nz = np.flatnonzero(gain != 0)
        self.t = d.tix[nz].astype(np.int64)
        self.p = d.pos[nz].astype(np.int64)
        self.g = gain[nz]
        self.contrib = self.g / np.log2(self.p + 2.0)        # m_ndcg.c: gain / log2(i + 2)
        self.dcg = np.bincount(self.t, weights=self.contrib, minlength=T)
        self.ivals, self.istart = ideal_gains(jr, self.table)
        self.itix, self.ipos = _positions(self.istart)
        self.L = np.diff(self.istart)
        self.idcg = np.bincount(self.itix, weights=self.ivals / np.log2(self.ipos + 2.0),
                                minlength=T)
        self.T = T

    @property
    def rcum(self) -> np.ndarray:
        """Running DCG at each non-zero-gain document."""
        if not hasattr(self, "_rcum"):
            self._rcum = running_sum(self.contrib, self.t, self.T)
        return self._rcum

    @property
    def icum(self) -> np.ndarray:
        """Running ideal DCG at each ideal position."""
        if not hasattr(self, "_icum"):
            self._icum = running_sum(self.ivals / np.log2(self.ipos + 2.0), self.itix, self.T)
        return self._icum


def dcg_parts(jr, pairs) -> DcgParts:
    """The DCG ingredients for a gain map, memoised on the judged ranking."""
    return jr.cached(("dcg", tuple(pairs)), lambda: DcgParts(jr, pairs))


@measure("ndcg", P_PAIR, "Normalised discounted cumulative gain over the whole ranking; "
         "gains default to the relevance levels (override: ndcg.1=3,2=9).", cite=JK,
         aliases={"ir_measures": "nDCG", "ranx": "ndcg"})
def ndcg(jr, pairs):
    d = dcg_parts(jr, pairs)
    return divide(d.dcg, d.idcg)


@measure("dcg", P_PAIR, "Discounted cumulative gain (not normalised).", cite=JK,
         range="[0, inf)")
def dcg(jr, pairs):
    return dcg_parts(jr, pairs).dcg


@measure("ideal_dcg", P_PAIR, "DCG of the ideal ranking of the judged documents.", cite=JK,
         range="[0, inf)")
def ideal_dcg(jr, pairs):
    return dcg_parts(jr, pairs).idcg


@measure("ndcg_cut", CUT_LONG, "nDCG of the first k documents, gains = relevance levels "
         "(normalised by the ideal DCG at k).", default_params=CUTS, cite=JK,
         aliases={"ir_measures": "nDCG@k", "ranx": "ndcg@k"})
def ndcg_cut(jr, cutoffs):
    T = jr.num_topics
    d = jr.qrels_docs
    pos_rel = d.rel > 0                                     # m_ndcg_cut.c: gain = rel level
    t = d.tix[pos_rel].astype(np.int64)
    p = d.pos[pos_rel].astype(np.int64)
    run = running_sum(d.rel[pos_rel] / np.log2(p + 2.0), t, T)
    k = np.broadcast_to(np.asarray(cutoffs, dtype=np.int64)[None, :], (T, len(cutoffs)))
    qt = np.broadcast_to(np.arange(T)[:, None], k.shape)
    dcg_k = sum_before(t, p, run, T, qt, k)
    # ideal: levels >= 1, highest first, each as often as judged
    L = jr.rel_levels.shape[1]
    levels = np.arange(L - 1, 0, -1)
    if len(levels):
        counts = jr.rel_levels[:, levels]
        ivals = np.repeat(np.tile(levels.astype(float), T), counts.ravel())
        istart = np.concatenate([[0], np.cumsum(counts.sum(axis=1))]).astype(np.int64)
    else:
        ivals, istart = np.zeros(0), np.zeros(T + 1, np.int64)
    itix, ipos = _positions(istart)
    icum = running_sum(ivals / np.log2(ipos + 2.0), itix, T)
    idcg_k = sum_before(itix, ipos, icum, T, qt, k)
    return np.where(idcg_k > 0, divide(dcg_k, idcg_k), dcg_k)


@measure("ndcg_rel", P_PAIR, "nDCG averaged over the ranks of the relevant documents "
         "(missing relevant documents count at the final nDCG).",
         cite=f"{JK} (the nDCG it averages; this average is trec_eval's, m_ndcg_rel.c)")
def ndcg_rel(jr, pairs):
    d = dcg_parts(jr, pairs)
    T = jr.num_topics
    L = d.L
    posg = d.g > 0
    t, i = d.t[posg], d.p[posg]
    # ideal DCG in force at rank i: over the first min(i + 1, L) ideal positions
    k = np.minimum(i + 1, L[t])
    ideal_at = np.where(k > 0, d.icum[np.clip(d.istart[:-1][t] + k - 1, 0,
                                                max(len(d.icum) - 1, 0))]
                        if len(d.icum) else 0.0, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.bincount(t, weights=d.rcum[posg] / ideal_at, minlength=T)
        n_rel_ret = np.bincount(t, minlength=T)
        # m_ndcg_rel.c: sum += (num_rel - num_rel_ret) * results_dcg / ideal_dcg
        s = s + ((L - n_rel_ret) * d.dcg) / d.idcg
    s = np.nan_to_num(s, nan=0.0)
    return np.where(s > 0, divide(s, L), 0.0)


@measure("Rndcg", P_PAIR, "nDCG averaged over the rank boundaries where the ideal gain "
         "changes (a recall-oriented nDCG).",
         cite=f"{JK} (the nDCG; these cutoffs are trec_eval's, m_Rndcg.c)")
def r_ndcg(jr, pairs):
    d = dcg_parts(jr, pairs)
    T = jr.num_topics
    L = d.L
    # boundaries b in 1..L where the ideal gain value changes (b = L: it drops to 0)
    change = np.zeros(len(d.ivals), bool)
    if len(d.ivals):
        change[1:] = d.ivals[1:] != d.ivals[:-1]
        change[d.istart[:-1][L > 0]] = False          # b = 0 never counts
    b_t = np.concatenate([d.itix[change], np.flatnonzero(L > 0)]).astype(np.int64)
    b = np.concatenate([d.ipos[change], L[L > 0]]).astype(np.int64)
    m = np.minimum(b, jr.num_ret[b_t])
    dcg_before = sum_before(d.t, d.p, d.rcum, T, b_t, m)
    idcg_before = d.icum[d.istart[:-1][b_t] + b - 1]
    s = np.bincount(b_t, weights=dcg_before / idcg_before, minlength=T)
    n = np.bincount(b_t, minlength=T).astype(float)
    # m_Rndcg.c: the tail term is added only when ranks remain after the one where
    # the ideal list ran out (the first loop ends at i = L + 1)
    extra = (L + 1 < jr.num_ret) & (d.idcg > 0)
    s = s + np.where(extra, divide(d.dcg, d.idcg), 0.0)
    n = n + extra
    # sum / num_changed_ideal_gain as the C code does: 0 / 0 where no boundary counted,
    # a NaN whose sign is the processor's (x86 prints -nan, as trec_eval does there)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = s / n
    return np.where(jr.num_rel == 0, 0.0, out)


@measure("G", P_PAIR, "Normalised gain G (Buckley, experimental): each document's gain over "
         "log2(2 + ideal cost so far - gain so far), normalised by the total ideal gain.",
         cite="trec_eval m_G.c")
def g_measure(jr, pairs):
    d = dcg_parts(jr, pairs)
    T = jr.num_topics
    L = d.L
    # sum_cost at rank i: the ideal gains (at least 1 each) while they last, then 1 per rank
    cost_cum = running_sum(np.maximum(d.ivals, 1.0), d.itix, T)
    Lt = L[d.t]
    k = np.minimum(d.p, Lt - 1)
    ideal_part = np.where(Lt > 0, cost_cum[np.clip(d.istart[:-1][d.t] + k, 0,
                                                   max(len(cost_cum) - 1, 0))]
                          if len(cost_cum) else 0.0, 0.0)
    cost = ideal_part + np.maximum(d.p - Lt + 1, 0)
    got = running_sum(d.g, d.t, T)
    with np.errstate(divide="ignore", invalid="ignore"):
        contrib = d.g / np.log2(2.0 + cost - got)
    sum_ideal = np.bincount(d.itix, weights=d.ivals, minlength=T)
    return divide(np.bincount(d.t, weights=contrib, minlength=T), sum_ideal)


def powers(p: float, n: int) -> np.ndarray:
    """p^0 .. p^n by repeated multiplication, as m_rbp.c updates ``cur_p``."""
    out = np.full(n + 1, p)
    out[0] = 1.0
    return np.cumprod(out)


def rbp_persistence(pairs) -> float:
    """RBP's persistence ``p`` from the request's ``p=`` parameter (default 0.9)."""
    p = 0.9
    for k, v in pairs:
        if k == "p":
            p = float(v)
    return p


@measure("rbp", P_PAIR, "Rank-biased precision (1 - p) Σ g_i p^(i-1), persistence p "
         "(default 0.9; rbp.p=0.5), gains scaled into [0, 1].",
         cite="Moffat & Zobel, 'Rank-biased precision for measurement of retrieval "
              "effectiveness', ACM TOIS 27(1), 2008, eq. 5",
         aliases={"ir_measures": "RBP(p=)"})
def rbp(jr, pairs):
    p = rbp_persistence(pairs)
    d, gain, table = scored_docs(jr, pairs)
    # the topic's gain table: the level=gain parameters plus levels 0..L_t-1, where
    # L_t is one more than the topic's highest judged level (form_res_rels.c)
    rl = jr.rel_levels
    L_t = np.where(rl.any(axis=1), rl.shape[1] - np.argmax(rl[:, ::-1] > 0, axis=1), 0)
    params = {int(k) for k, _ in pairs if _valid_int(k)}
    lo = np.full(jr.num_topics, np.inf)
    hi = np.full(jr.num_topics, -np.inf)
    for lvl, g in table:
        present = (lvl in params) | (lvl < L_t)
        lo = np.where(present, np.minimum(lo, g), lo)
        hi = np.where(present, np.maximum(hi, g), hi)
    scale = (lo < 0) | (hi > 1)
    in_table = d.rel >= 0
    if params:
        in_table |= np.isin(d.rel, list(params))
    idx = np.flatnonzero(in_table)  # in the table
    t = d.tix[idx]
    g = gain[idx]
    with np.errstate(divide="ignore", invalid="ignore"):
        g = np.where(scale[t], (g - lo[t]) / (hi[t] - lo[t]), g)
    keep = (g != 0) & np.isfinite(g)
    pw = powers(p, int(jr.num_ret.max(initial=0)))
    s = np.bincount(t[keep], weights=g[keep] * pw[d.pos[idx][keep]], minlength=jr.num_topics)
    return (1.0 - p) * s


@measure("rbp_resid", P_PAIR, "RBP residual: the weight of the unjudged documents plus the "
         "tail beyond the ranking, p^n + (1 - p) Σ_{unjudged} p^(i-1) (0 if all judged).",
         cite="Moffat & Zobel, TOIS 27(1), 2008, §4", range="[0, 1]")
def rbp_resid(jr, pairs):
    p = rbp_persistence(pairs)
    pw = powers(p, int(jr.num_ret.max(initial=0)))
    # Σ over the unjudged ranks = Σ over every rank (a running sum of p^i) minus Σ
    # over the judged ones, which are few; clamped at 0 against rounding
    every = np.cumsum(pw)
    n = jr.num_ret
    judged = jr.judged_docs
    s_all = np.where(n > 0, every[np.maximum(n - 1, 0)], 0.0)
    s_judged = np.bincount(judged.tix, weights=pw[judged.pos], minlength=jr.num_topics)
    s = np.maximum(s_all - s_judged, 0.0)
    has = (n - judged.per_topic()) > 0
    return np.where(has, pw[n] + (1.0 - p) * s, 0.0)
