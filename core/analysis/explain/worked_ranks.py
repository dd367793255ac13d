"""Explainers for rank-based measures: AP (map, gm_map, map_cut), recip_rank,
interpolated precision (iprec_at_recall, 11pt_avg), bpref, gm_bpref, infAP, binG.

Worked examples, not kernels: plain-Python transliterations of trec_eval 10.0's
``m_map.c``, ``m_iprec_at_recall.c``, ``m_bpref.c``, ``m_infap.c``, ``m_binG.c`` that
write the arithmetic out for one topic of the judged ranking (:class:`TopicData`); the
value an explanation reports is the kernel's (:mod:`yardstick.evaluation.measures`).  AP is "the
average of the precision
value obtained after each relevant document is retrieved (when a relevant
document is not retrieved at all, its precision is assumed to be 0)" and the
interpolated precision at recall level i is "the maximum precision obtained for
the topic for any actual recall level greater than or equal to i" (TREC appendix,
TREC proceedings appendix, §1 and §2.1 II).
"""

from __future__ import annotations

import math

from yardstick.analysis.explain.explanation import ExplainContext, Worked, explainer, fmt, frac
from yardstick.analysis.explain.topic_data import TopicData
from yardstick.analysis.explain.worked_sets import ranks_text
from yardstick.evaluation.measures.average_precision import INFAP_EPSILON, MIN_GEO_MEAN
from yardstick.judging.judged import NONPOOL, UNJUDGED

SHOW = 12  # terms written out in a sum before eliding the middle


def sum_text(parts: list[str], show: int = SHOW) -> str:
    """``a + b + c``, eliding the middle of a long sum."""
    if not parts:
        return "0"
    if len(parts) > show:
        half = show // 2
        parts = parts[:half] + [f"… ({len(parts) - 2 * half} more) …"] + parts[-half:]
    return " + ".join(parts)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def precisions_at_relevant(td: TopicData, upto: int | None = None):
    """``[(i, rank, i/rank)]`` for the relevant retrieved documents (i-th relevant at rank)."""
    out = []
    for i, rank in enumerate(td.rel_ranks, start=1):
        if upto is not None and rank > upto:
            break
        out.append((i, rank, i / rank))
    return out


def average_precision_value(td: TopicData, upto: int | None = None) -> float:
    s = 0.0
    for _, _, p in precisions_at_relevant(td, upto):
        s += p
    return s / td.R if td.R else 0.0


def _ap_worked(td: TopicData, upto: int | None, name: str) -> tuple[list[str], tuple, float]:
    precs = precisions_at_relevant(td, upto)
    s = 0.0
    for _, _, p in precs:
        s += p
    v = s / td.R if td.R else 0.0
    terms = tuple((f"rank {r} ({td.docnos[r - 1]}): {i}/{r}", p) for i, r, p in precs)
    missed = td.R - len(precs)
    parts = [frac(i, r) for i, r, _ in precs]
    zeros = f" + 0 × {missed}" if missed > 0 else ""
    steps = [f"precision at each relevant document: {sum_text(parts)}{zeros}",
             f"sum = {fmt(s)}" + (f"  ({missed} relevant not counted: precision 0)"
                                  if missed > 0 else ""),
             f"{name} = {fmt(s)} / R = {fmt(s)} / {td.R} = {fmt(v)}"]
    if td.R == 0:
        steps = ["R = 0: AP is 0 by convention"]
    return steps, terms, v


@explainer("map")
def average_precision(td: TopicData, param, ctx: ExplainContext) -> Worked:
    steps, terms, v = _ap_worked(td, None, "AP")
    return Worked("AP = (1/R) Σ_{relevant d retrieved} rel(rank d) / rank d", tuple(steps), v,
                  terms=terms, notes=("MAP (the 'map' summary) is the mean of AP over topics.",))


@explainer("yaap")
def yet_another_average_precision(td: TopicData, param, ctx: ExplainContext) -> Worked:
    steps, terms, _ap = _ap_worked(td, None, "AP")
    s = sum(p for _, _, p in precisions_at_relevant(td, None))
    v = math.log((1.0 + s) / (1.0 + td.R - s))
    steps = steps[:2] + [f"yaap = ln((1 + S) / (1 + R - S)) = ln((1 + {fmt(s)}) / "
                         f"(1 + {td.R} - {fmt(s)})) = {fmt(v)}"]
    return Worked("yaap = ln((1 + S) / (1 + R - S)),  S = Σ_{relevant d retrieved} "
                  "rel(rank d) / rank d", tuple(steps), v, terms=terms,
                  notes=("Robertson, 'On Smoothing Average Precision', ECIR 2012: monotonic "
                         "with AP on one topic, but averages better over topics.",))


@explainer("gm_map")
def gm_average_precision(td: TopicData, param, ctx: ExplainContext) -> Worked:
    steps, terms, ap = _ap_worked(td, None, "AP")
    v = math.log(max(ap, MIN_GEO_MEAN))
    steps.append(f"log term = ln(max(AP, {MIN_GEO_MEAN})) = ln({fmt(max(ap, MIN_GEO_MEAN))}) "
                 f"= {fmt(v)}")
    return Worked("gm_map = exp( (1/N) Σ_topics ln(max(AP, 0.00001)) )", tuple(steps), v,
                  terms=terms, notes=("This is the topic's term of the geometric mean; "
                                      "gm_map itself is exp(mean of these terms) over topics.",))


@explainer("map_cut")
def average_precision_cut(td: TopicData, k: int, ctx: ExplainContext) -> Worked:
    steps, terms, v = _ap_worked(td, k, f"AP@{k}")
    steps.insert(0, f"only relevant documents at ranks 1..{k} count; still divided by R")
    return Worked(f"AP@{k} = (1/R) Σ_{{relevant d, rank d <= {k}}} rel(rank d) / rank d",
                  tuple(steps), v, terms=terms, cutoff=k)


@explainer("recip_rank")
def reciprocal_rank(td: TopicData, param, ctx: ExplainContext) -> Worked:
    if not td.rel_ranks:
        return Worked("RR = 1 / rank of the first relevant document",
                      ("no relevant document retrieved: RR = 0",), 0.0)
    r = td.rel_ranks[0]
    v = 1.0 / r
    return Worked("RR = 1 / rank of the first relevant document",
                  (f"first relevant document: rank {r} ({td.docnos[r - 1]})",
                   f"RR = 1/{r} = {fmt(v)}"), v)


def recall_cutoff(level: float, R: int, compat: int) -> int:
    """Relevant documents needed for a recall level (10.0: lround; 9.0.8: +0.9, truncated)."""
    x = level * R
    if compat == 9:
        return int(x + 0.9)
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def interpolated_values(td: TopicData, levels) -> list[float]:
    """trec_eval's loop (``m_iprec_at_recall.c``): walk the ranking backwards keeping
    the running maximum precision; a level is set when the relevant-so-far count
    reaches its cutoff."""
    cut = [recall_cutoff(x, td.R, td.compat) for x in levels]
    vals = [0.0] * len(levels)
    cc = len(levels) - 1
    while cc >= 0 and cut[cc] > td.rel_ret:
        cc -= 1
    precis = td.rel_ret / td.num_ret if td.num_ret else 0.0
    best = precis
    rel_so_far = td.rel_ret
    i = td.num_ret
    while i > 0 and rel_so_far > 0:
        precis = rel_so_far / i
        if best < precis:
            best = precis
        if td.is_rel(td.rel[i - 1]):
            while cc >= 0 and rel_so_far == cut[cc]:
                vals[cc] = best
                cc -= 1
            rel_so_far -= 1
        i -= 1
    while cc >= 0:
        vals[cc] = best
        cc -= 1
    return vals


def _iprec_steps(td: TopicData, level: float, value: float) -> list[str]:
    k = recall_cutoff(level, td.R, td.compat)
    rule = "lround" if td.compat != 9 else "(long)(x + 0.9)"
    steps = [f"recall level {level:.2f} × R = {level:.2f} × {td.R} = {fmt(level * td.R)} → "
             f"k = {rule} = {k} relevant documents"]
    precs = precisions_at_relevant(td)
    if k > td.rel_ret:
        steps.append(f"only {td.rel_ret} relevant retrieved < {k}: interpolated precision 0")
        return steps
    from_i = max(k, 1)
    seen = [(i, r, p) for i, r, p in precs if i >= from_i]
    where = ("over the whole ranking" if k <= 0 else
             f"at and after the {ordinal(k)} relevant document (rank {precs[k - 1][1]})")
    steps.append(f"precision at the relevant documents {where}: "
                 f"{sum_text([frac(i, r) for i, r, _ in seen]).replace(' + ', ', ')}")
    steps.append(f"interpolated precision = max = {fmt(value)}")
    return steps


@explainer("iprec_at_recall")
def iprec_at_recall(td: TopicData, level: float, ctx: ExplainContext) -> Worked:
    v = interpolated_values(td, [level])[0]
    notes = ["Int_Prec(x) = max Prec(y) over recall y >= x (TREC appendix §1)."]
    if td.compat != 9:
        notes.append("trec_eval 10.0 rounds x·R with lround; 9.0.8 (and the appendix's "
                     "worked example) used (long)(x·R + 0.9): --compat 9.")
    return Worked(f"iprec@{level:.2f} = max {{ P(rank) : recall(rank) >= {level:.2f} }}",
                  tuple(_iprec_steps(td, level, v)), v, cutoff=level,
                  extra=(("k (relevant documents needed)",
                          recall_cutoff(level, td.R, td.compat)),), notes=tuple(notes))


@explainer("11pt_avg")
def eleven_point_average(td: TopicData, levels, ctx: ExplainContext) -> Worked:
    levels = list(levels)
    vals = interpolated_values(td, levels)
    s = 0.0
    for v in reversed(vals):  # trec_eval adds them from the highest level down
        s += v
    v = s / len(levels)
    terms = tuple((f"iprec@{x:.2f}", p) for x, p in zip(levels, vals))
    return Worked("11pt_avg = (1/n) Σ_levels iprec@level",
                  (f"interpolated precision at {len(levels)} levels: "
                   + ", ".join(fmt(p) for p in vals),
                   f"11pt_avg = {fmt(s)} / {len(levels)} = {fmt(v)}"), v, terms=terms)


def _bpref(td: TopicData):
    nonrel_so_far = 0
    total = 0.0
    terms = []
    den = min(td.num_nonrel, td.R)
    for j, r in enumerate(td.rel):
        if r == NONPOOL or r == UNJUDGED:
            continue
        if td.is_nonrel(r):
            nonrel_so_far += 1
        else:
            if nonrel_so_far > 0:
                t = 1.0 - (min(nonrel_so_far, td.R) / den)
                label = (f"rank {j + 1}: 1 - min({nonrel_so_far}, {td.R})/{den}")
            else:
                t = 1.0
                label = f"rank {j + 1}: no judged non-relevant above"
            total += t
            terms.append((label, t))
    v = total / td.R if td.R else total
    return v, total, terms, den


@explainer("bpref")
def bpref(td: TopicData, param, ctx: ExplainContext) -> Worked:
    v, total, terms, den = _bpref(td)
    return Worked("bpref = (1/R) Σ_{relevant r retrieved} (1 - min(|n ranked above r|, R) / "
                  "min(N, R))",
                  (f"N = judged non-relevant = {td.num_nonrel}; min(N, R) = {den}",
                   "unjudged documents are skipped (only judged documents count)",
                   f"terms: {sum_text([fmt(t) for _, t in terms])}",
                   f"bpref = {fmt(total)} / {td.R} = {fmt(v)}"), v, terms=tuple(terms),
                  notes=("Buckley & Voorhees (SIGIR 2004): depends only on the relative "
                         "order of judged documents.",))


@explainer("gm_bpref")
def gm_bpref(td: TopicData, param, ctx: ExplainContext) -> Worked:
    b, total, terms, _ = _bpref(td)
    v = math.log(max(b, MIN_GEO_MEAN))
    return Worked("gm_bpref = exp( (1/N) Σ_topics ln(max(bpref, 0.00001)) )",
                  (f"bpref = {fmt(total)} / {td.R} = {fmt(b)}",
                   f"log term = ln(max(bpref, {MIN_GEO_MEAN})) = {fmt(v)}"), v,
                  terms=tuple(terms),
                  notes=("The topic's term of the geometric mean (see gm_map).",))


@explainer("infAP")
def inferred_ap(td: TopicData, param, ctx: ExplainContext) -> Worked:
    nonrel = rel_so_far = unj = 0
    s = 0.0
    terms = []
    for j, r in enumerate(td.rel):
        if r == NONPOOL:
            continue
        if r == UNJUDGED:
            unj += 1
            continue
        if td.is_nonrel(r):
            nonrel += 1
            continue
        rel_so_far += 1
        if j == 0:
            t = 1.0
        else:
            fj = float(j)
            t = (1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((rel_so_far - 1 + nonrel + unj) / fj)
                 * ((rel_so_far - 1 + INFAP_EPSILON)
                    / (rel_so_far - 1 + nonrel + 2 * INFAP_EPSILON)))
        s += t
        terms.append((f"rank {j + 1}: above it {rel_so_far - 1} rel, {nonrel} nonrel, "
                      f"{unj} pooled-unjudged", t))
    v = s / td.R if td.R else 0.0
    return Worked("infAP = (1/R) Σ_{relevant at rank k} [1/k + ((k-1)/k) · (|pooled above|/(k-1))"
                  " · (rel above + ε)/(rel above + nonrel above + 2ε)]",
                  (f"terms: {sum_text([fmt(t) for _, t in terms])}",
                   f"infAP = {fmt(s)} / {td.R} = {fmt(v)}"), v, terms=tuple(terms),
                  notes=("Documents not in the qrels count as non-relevant through |pooled "
                         "above| < k-1; pooled-but-unjudged ones are assumed relevant in the "
                         "proportion of the judged ones (Yilmaz & Aslam, CIKM 2006).",))


@explainer("binG")
def binary_g(td: TopicData, param, ctx: ExplainContext) -> Worked:
    s = 0.0
    terms = []
    for i_rel, rank in enumerate(td.rel_ranks, start=1):
        i = rank - 1
        t = 1.0 / math.log2(3 + i - i_rel)
        s += t
        terms.append((f"rank {rank}: 1/log2(2 + {i + 1 - i_rel} non-relevant above)", t))
    v = s / td.R if td.rel_ranks and td.R else 0.0
    return Worked("binG = (1/R) Σ_{relevant d} 1 / log2(2 + non-relevant ranked above d)",
                  (f"terms: {sum_text([fmt(t) for _, t in terms])}",
                   f"binG = {fmt(s)} / {td.R} = {fmt(v)}"), v, terms=tuple(terms))


__all__ = ["average_precision_value", "interpolated_values", "precisions_at_relevant",
           "recall_cutoff", "ranks_text"]
