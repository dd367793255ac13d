"""Explainers for graded-gain measures: ndcg, dcg, ideal_dcg, ndcg_cut, ndcg_rel, Rndcg,
G, rbp, rbp_resid.

Plain-Python transliterations of trec_eval 10.0's ``m_ndcg.c``, ``m_ndcg_cut.c``,
``m_ndcg_rel.c``, ``m_Rndcg.c``, ``m_G.c``, ``m_rbp.c``, ``m_rbp_resid.c`` and
``gain_init.c`` (nDCG: Järvelin & Kekäläinen, ACM TOIS 20(4) 2002; RBP: Moffat &
Zobel, ACM TOIS 27(1) 2008, eq. 5), walking the topic's ranking and its ideal
ranking side by side as trec_eval does.
"""

from __future__ import annotations

import math
from functools import cmp_to_key

from yardstick.analysis.explain.explanation import ExplainContext, Worked, explainer, fmt
from yardstick.analysis.explain.topic_data import TopicData
from yardstick.analysis.explain.worked_ranks import sum_text
from yardstick.evaluation.measures.gain import rbp_persistence


def _valid_int(name: str) -> bool:
    s = name[1:] if name[:1] in "+-" else name
    return s.isdigit()


def gain_table(td: TopicData, pairs) -> list[list]:
    """``[[level, gain, count], ...]`` sorted by increasing gain (``setup_gains``).

    The ``level=gain`` parameters first, then the topic's levels ``0..L-1`` not
    given (gain = level); sorted with trec_eval's comparator, which truncates
    the gain difference to an int (a stable sort, as glibc's qsort is here).
    """
    table = [[int(k), float(v), 0] for k, v in pairs if _valid_int(str(k))]
    for lvl, n in enumerate(td.rel_levels):
        for row in table:
            if row[0] == lvl:
                row[2] = n
                break
        else:
            table.append([lvl, float(lvl), n])
    return sorted(table, key=cmp_to_key(lambda a, b: int(a[1] - b[1])))


def get_gain(rel: int, table) -> float:
    for lvl, g, _ in table:
        if lvl == rel:
            return g
    return 0.0


class IdealWalk:
    """trec_eval's walk down the ideal ranking: levels from the highest gain down."""

    def __init__(self, table):
        self.table = table
        self.cur = len(table) - 1
        self.gain = table[self.cur][1] if self.cur >= 0 else 0.0
        self.n_at = 0

    def step(self) -> float:
        self.n_at += 1
        while self.cur >= 0 and self.n_at > self.table[self.cur][2]:
            self.n_at = 1
            self.cur -= 1
            self.gain = self.table[self.cur][1] if self.cur >= 0 else 0.0
        return self.gain


def side_by_side(td: TopicData, table):
    """``(i, gain, ideal gain)`` at rank ``i + 1`` of the ranking and of the ideal ranking,
    walked as trec_eval's three loops do (``m_ndcg.c``, ``m_ndcg_rel.c``, ``m_G.c``): both
    while the ranking lasts and the ideal gain is positive, then the rest of the
    ranking (ideal gain ``None``), then the rest of the ideal ranking (gain ``None``)."""
    walk = IdealWalk(table)
    i = 0
    while i < td.num_ret and walk.gain > 0.0:
        yield i, get_gain(td.rel[i], table), walk.step()
        i += 1
    while i < td.num_ret:
        yield i, get_gain(td.rel[i], table), None
        i += 1
    while walk.gain > 0.0:
        yield i, None, walk.step()
        i += 1


def _table_text(table) -> str:
    return ", ".join(f"grade {lvl} → gain {fmt(g)} ({n} judged)" for lvl, g, n in
                     reversed(table))


def dcg_walk(td: TopicData, pairs):
    """(dcg, ideal dcg, terms, ideal terms) following ``m_ndcg.c``."""
    table = gain_table(td, pairs)
    dcg = idcg = 0.0
    terms, iterms = [], []
    for i, g, ig in side_by_side(td, table):
        if g is not None and g != 0:
            dcg += g / math.log2(i + 2)
            terms.append((f"rank {i + 1}: {fmt(g)}/log2({i + 2})", g / math.log2(i + 2)))
        if ig is not None and ig > 0.0:
            idcg += ig / math.log2(i + 2)
            iterms.append((f"ideal rank {i + 1}: {fmt(ig)}/log2({i + 2})", ig / math.log2(i + 2)))
    return dcg, idcg, terms, iterms, table


NDCG_FORMULA = "nDCG = DCG / IDCG,  DCG = Σ_i gain(d_i) / log2(i + 1)  (i = rank)"


@explainer("ndcg", "dcg", "ideal_dcg")
def ndcg(td: TopicData, pairs, ctx: ExplainContext) -> Worked:
    dcg, idcg, terms, iterms, table = dcg_walk(td, pairs)
    which = ctx.column.split("_")[0] if not ctx.column.startswith("ideal") else "ideal_dcg"
    steps = [f"gains: {_table_text(table)}",
             f"DCG = {sum_text([t.split(': ')[1] for t, _ in terms])} = {fmt(dcg)}",
             f"ideal ranking: every judged document by decreasing gain; IDCG = "
             f"{sum_text([t.split(': ')[1] for t, _ in iterms])} = {fmt(idcg)}"]
    if which == "dcg":
        return Worked("DCG = Σ_i gain(d_i) / log2(i + 1)", tuple(steps[:2]), dcg,
                      terms=tuple(terms))
    if which == "ideal_dcg":
        return Worked("IDCG = DCG of the ideal ordering of the judged documents",
                      (steps[0], steps[2]), idcg, terms=tuple(iterms))
    v = dcg / idcg if idcg > 0.0 else 0.0
    steps.append(f"nDCG = {fmt(dcg)} / {fmt(idcg)} = {fmt(v)}")
    return Worked(NDCG_FORMULA, tuple(steps), v, terms=tuple(terms),
                  notes=("Over the whole ranking; gains default to the grades "
                         "(ndcg.1=3,2=9 overrides them).",))


@explainer("ndcg_cut")
def ndcg_cut(td: TopicData, k: int, ctx: ExplainContext) -> Worked:
    dcg = 0.0
    terms = []
    for i, r in enumerate(td.rel[:k]):
        if r > 0:
            dcg += r / math.log2(i + 2)
            terms.append((f"rank {i + 1}: {r}/log2({i + 2})", r / math.log2(i + 2)))
    ideal = []
    for lvl in range(len(td.rel_levels) - 1, 0, -1):
        ideal += [lvl] * td.rel_levels[lvl]
    idcg = 0.0
    for i, g in enumerate(ideal[:k]):
        idcg += g / math.log2(i + 2)
    v = dcg / idcg if idcg > 0.0 else dcg
    return Worked(f"nDCG@{k} = DCG@{k} / IDCG@{k}  (gain = grade)",
                  (f"DCG@{k} = {sum_text([t.split(': ')[1] for t, _ in terms])} = {fmt(dcg)}",
                   f"ideal top {k} grades: {sum_text([str(g) for g in ideal[:k]], 20)}; "
                   f"IDCG@{k} = {fmt(idcg)}",
                   f"nDCG@{k} = {fmt(dcg)} / {fmt(idcg)} = {fmt(v)}"), v, terms=tuple(terms),
                  cutoff=k, notes=("ndcg_cut uses the grades as gains (no gain parameters).",))


@explainer("ndcg_rel")
def ndcg_rel(td: TopicData, pairs, ctx: ExplainContext) -> Worked:
    table = gain_table(td, pairs)
    dcg = idcg = s = 0.0
    n_rel = n_rel_ret = 0
    terms = []
    for i, g, ig in side_by_side(td, table):
        if g is not None and g != 0:
            dcg += g / math.log2(i + 2)
        if ig is not None and ig > 0.0:
            n_rel += 1
            idcg += ig / math.log2(i + 2)
        if g is not None and g > 0:
            s += dcg / idcg
            n_rel_ret += 1
            terms.append((f"rank {i + 1}: nDCG@{i + 1}", dcg / idcg))
    with_missing = s + (n_rel - n_rel_ret) * dcg / idcg if idcg > 0 else float("nan")
    v = with_missing / n_rel if with_missing > 0.0 else 0.0
    return Worked("ndcg_rel = mean of nDCG at the rank of each positive-gain document "
                  "(final nDCG for those not retrieved)",
                  (f"nDCG at the retrieved positive-gain documents: "
                   f"{sum_text([fmt(t) for _, t in terms])}",
                   f"{n_rel - n_rel_ret} not retrieved, each counted at the final nDCG "
                   f"{fmt(dcg / idcg) if idcg > 0 else 'n/a'}",
                   f"ndcg_rel = {fmt(with_missing)} / {n_rel} = {fmt(v)}"), v,
                  terms=tuple(terms))


@explainer("Rndcg")
def r_ndcg(td: TopicData, pairs, ctx: ExplainContext) -> Worked:
    table = gain_table(td, pairs)
    if td.R == 0:
        return Worked("Rndcg = mean nDCG at the ideal gain-level boundaries",
                      ("R = 0: Rndcg = 0",), 0.0)
    old = IdealWalk(table).gain
    dcg = idcg = s = 0.0
    n = 0
    terms = []
    ranking_outlasts = False        # the ranking goes on past the ideal gains
    for i, g, ig in side_by_side(td, table):
        if ig is None:
            ranking_outlasts = True
            if g != 0:
                dcg += g / math.log2(i + 2)
            continue
        if old != ig:
            if idcg > 0.0:
                s += dcg / idcg
                n += 1
                terms.append((f"boundary after rank {i}: nDCG@{i}" if g is not None else
                              f"boundary after ideal rank {i}: DCG / IDCG@{i}", dcg / idcg))
            old = ig
        if g is not None and g != 0:
            dcg += g / math.log2(i + 2)
        if ig > 0.0:
            idcg += ig / math.log2(i + 2)
    if ranking_outlasts and idcg > 0.0:
        s += dcg / idcg
        n += 1
        terms.append((f"end of the ranking (rank {td.num_ret}): nDCG@{td.num_ret}",
                      dcg / idcg))
    v = s / n if n else float("nan")
    return Worked("Rndcg = (1/B) Σ_b nDCG@b over the B ranks where the ideal gain changes",
                  (f"gains: {_table_text(table)}",
                   f"nDCG at the boundaries: {sum_text([fmt(t) for _, t in terms])}",
                   f"Rndcg = {fmt(s)} / {n} = {fmt(v)}"), v, terms=tuple(terms))


@explainer("G")
def g_measure(td: TopicData, pairs, ctx: ExplainContext) -> Worked:
    table = gain_table(td, pairs)
    res_g = sum_res = sum_ideal = cost = 0.0
    min_cost = 1.0
    terms = []
    for i, g, ig in side_by_side(td, table):
        if ig is not None and ig > 0.0:
            sum_ideal += ig
        if g is None:
            continue
        sum_res += g
        cost += ig if ig is not None and ig >= min_cost else min_cost
        if g != 0:
            t = g / math.log2(2 + cost - sum_res)
            res_g += t
            terms.append((f"rank {i + 1}: {fmt(g)}/log2(2 + {fmt(cost)} - {fmt(sum_res)})", t))
    v = res_g / sum_ideal if sum_ideal > 0.0 else 0.0
    return Worked("G = Σ_i gain(d_i) / log2(2 + idealcost(i) - gain so far(i)) / Σ ideal gains",
                  (f"terms: {sum_text([fmt(t) for _, t in terms])} = {fmt(res_g)}",
                   f"total ideal gain = {fmt(sum_ideal)}",
                   f"G = {fmt(res_g)} / {fmt(sum_ideal)} = {fmt(v)}"), v, terms=tuple(terms))


@explainer("rbp")
def rbp(td: TopicData, pairs, ctx: ExplainContext) -> Worked:
    p = rbp_persistence(pairs)
    table = gain_table(td, pairs)
    gains = [g for _, g, _ in table]
    lo, hi = (min(gains), max(gains)) if gains else (0.0, 0.0)
    scaled = lo < 0 or hi > 1
    if scaled:
        table = [[lvl, (g - lo) / (hi - lo), n] for lvl, g, n in table]
    s = 0.0
    cur = 1.0
    terms = []
    for i, r in enumerate(td.rel):
        g = get_gain(r, table)
        if g != 0:
            s += g * cur
            terms.append((f"rank {i + 1}: {fmt(g)} × {fmt(p)}^{i}", g * cur))
        cur *= p
    v = (1.0 - p) * s
    steps = [f"persistence p = {fmt(p)}"]
    if scaled:
        steps.append(f"gains scaled into [0, 1]: (g - {fmt(lo)}) / ({fmt(hi)} - {fmt(lo)})")
    steps += [f"Σ g_i p^(i-1) = {sum_text([fmt(t) for _, t in terms])} = {fmt(s)}",
              f"RBP = (1 - {fmt(p)}) × {fmt(s)} = {fmt(v)}"]
    return Worked("RBP = (1 - p) Σ_i g_i p^(i-1)", tuple(steps), v, terms=tuple(terms),
                  notes=("Unjudged documents count as gain 0; rbp_resid says how much RBP "
                         "could still grow.",))


@explainer("rbp_resid")
def rbp_resid(td: TopicData, pairs, ctx: ExplainContext) -> Worked:
    p = rbp_persistence(pairs)
    s = 0.0
    cur = 1.0
    ranks = []
    for i, r in enumerate(td.rel):
        if r < 0:
            ranks.append(i + 1)
            s += cur
        cur *= p
    v = cur + (1 - p) * s if ranks else 0.0
    return Worked("rbp_resid = p^n + (1 - p) Σ_{unjudged i} p^(i-1)",
                  (f"unjudged ranks: {', '.join(map(str, ranks[:30])) or 'none'}"
                   f"{' ...' if len(ranks) > 30 else ''}",
                   f"tail beyond rank {td.num_ret}: p^{td.num_ret} = {fmt(cur)}",
                   f"rbp_resid = {fmt(cur)} + (1 - {fmt(p)}) × {fmt(s)} = {fmt(v)}"
                   if ranks else "every retrieved document judged: rbp_resid = 0"), v)
