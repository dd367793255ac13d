"""Explainers for counting, set and cutoff measures: P, recall, relative_P, success,
unj, Rprec, Rprec_mult, set_*, utility, num_*, runid, relstring.

Each reproduces trec_eval 10.0's ``m_*.c`` arithmetic for one topic in plain
Python (the TREC appendix "Common Evaluation Measures",
TREC proceedings appendix §1 and §2.1 III, for precision,
recall and R-precision; §4 for the filtering set measures).
"""

from __future__ import annotations

import numpy as np

from yardstick.analysis.explain.explanation import ExplainContext, Worked, explainer, fmt, frac
from yardstick.analysis.explain.topic_data import TopicData
from yardstick.evaluation.measures.relstring import relstring_of


def ranks_text(ranks, limit: int = 25) -> str:
    ranks = list(ranks)
    if not ranks:
        return "none"
    if len(ranks) > limit:
        return ", ".join(map(str, ranks[:limit])) + f", ... ({len(ranks)} in all)"
    return ", ".join(map(str, ranks))


def _top_k_lines(td: TopicData, k: int) -> list[str]:
    n = td.rel_in_top(k)
    ranks = [r for r in td.rel_ranks if r <= k]
    lines = [f"relevant among ranks 1..{k}: relret({k}) = {n}   (ranks {ranks_text(ranks)})"]
    if td.num_ret < k:
        lines.append(f"only {td.num_ret} documents retrieved: ranks {td.num_ret + 1}..{k} "
                     "count as not relevant")
    return lines


def _div(a, b) -> float:
    return a / b if b else 0.0


@explainer("P")
def precision(td: TopicData, k: int, ctx: ExplainContext) -> Worked:
    n = td.rel_in_top(k)
    v = n / k
    return Worked(f"P@{k} = relret({k}) / {k}", tuple(_top_k_lines(td, k))
                  + (f"P@{k} = {frac(n, k)} = {fmt(v)}",), v, cutoff=k,
                  notes=("The divisor is always k, even when fewer than k documents were "
                         "retrieved.",))


@explainer("recall")
def recall(td: TopicData, k: int, ctx: ExplainContext) -> Worked:
    n = td.rel_in_top(k)
    v = _div(n, td.R)
    steps = _top_k_lines(td, k) + [f"recall@{k} = relret({k}) / R = {frac(n, td.R)} = {fmt(v)}"]
    if td.R == 0:
        steps[-1] = f"R = 0: recall@{k} is 0 by convention"
    return Worked(f"recall@{k} = relret({k}) / R", tuple(steps), v, cutoff=k)


@explainer("relative_P")
def relative_precision(td: TopicData, k: int, ctx: ExplainContext) -> Worked:
    n = td.rel_in_top(k)
    den = min(k, td.R)
    v = _div(n, den)
    steps = _top_k_lines(td, k) + [f"min(k, R) = min({k}, {td.R}) = {den}",
                                   f"relative_P@{k} = {frac(n, den)} = {fmt(v)}"]
    if td.R == 0:
        steps = [f"R = 0: relative_P@{k} is 0"]
    return Worked(f"relative_P@{k} = relret({k}) / min({k}, R)", tuple(steps), v, cutoff=k)


@explainer("success")
def success(td: TopicData, k: int, ctx: ExplainContext) -> Worked:
    n = td.rel_in_top(k)
    v = 1.0 if n > 0 else 0.0
    first = td.rel_ranks[0] if td.rel_ranks else None
    return Worked(f"success@{k} = 1 if relret({k}) > 0 else 0",
                  tuple(_top_k_lines(td, k)) + (
                      f"first relevant document at rank {first if first else 'none'}",
                      f"success@{k} = {fmt(v)}"), v, cutoff=k)


@explainer("unj")
def unjudged(td: TopicData, k: int, ctx: ExplainContext) -> Worked:
    ranks = [i + 1 for i, r in enumerate(td.rel[:k]) if r < 0]
    u = len(ranks)
    v = u / k
    return Worked(f"unj@{k} = unjudged({k}) / {k}",
                  (f"unjudged among ranks 1..{k} (not in qrels, or judged < 0): {u}   "
                   f"(ranks {ranks_text(ranks)})", f"unj@{k} = {frac(u, k)} = {fmt(v)}"),
                  v, cutoff=k)


@explainer("Rprec")
def r_precision(td: TopicData, param, ctx: ExplainContext) -> Worked:
    look = min(td.num_ret, td.R)
    n = td.rel_in_top(look)
    v = _div(n, td.R) if look else 0.0
    steps = [f"R = {td.R}; look at the first min(num_ret, R) = min({td.num_ret}, {td.R}) = "
             f"{look} documents", f"relevant among them: {n}   (ranks "
             f"{ranks_text([r for r in td.rel_ranks if r <= look])})",
             f"Rprec = {frac(n, td.R)} = {fmt(v)}"]
    if look == 0:
        steps[-1] = "nothing to look at: Rprec = 0"
    return Worked("Rprec = relret(R) / R", tuple(steps), v, cutoff=td.R,
                  notes=("R-precision is where precision equals recall: after R documents "
                         "both are relret(R)/R (TREC appendix §2.1 III.B).",))


@explainer("Rprec_mult")
def r_precision_mult(td: TopicData, m: float, ctx: ExplainContext) -> Worked:
    cut = int(m * td.R + 0.9)
    n = td.rel_in_top(cut)
    v = _div(n, cut)
    steps = [f"cutoff = (long)(m·R + 0.9) = (long)({m:g} × {td.R} + 0.9) = {cut}"]
    steps += _top_k_lines(td, cut) if cut else []
    steps.append(f"Rprec_mult_{m:3.2f} = {frac(n, cut)} = {fmt(v)}" if cut else
                 "cutoff 0: value 0")
    return Worked(f"Rprec_mult@{m:g} = relret(c) / c,  c = (long)({m:g}·R + 0.9)", tuple(steps),
                  v, cutoff=m, extra=(("cutoff_docs", cut),))


@explainer("set_P")
def set_precision(td: TopicData, param, ctx: ExplainContext) -> Worked:
    v = _div(td.rel_ret, td.num_ret)
    return Worked("set_P = rel_ret / num_ret",
                  (f"set_P = {frac(td.rel_ret, td.num_ret)} = {fmt(v)}",), v)


@explainer("set_recall")
def set_recall(td: TopicData, param, ctx: ExplainContext) -> Worked:
    v = _div(td.rel_ret, td.R)
    return Worked("set_recall = rel_ret / R",
                  (f"set_recall = {frac(td.rel_ret, td.R)} = {fmt(v)}",), v)


@explainer("set_relative_P")
def set_relative_precision(td: TopicData, param, ctx: ExplainContext) -> Worked:
    den = min(td.num_ret, td.R)
    v = td.rel_ret / den if td.num_ret and td.R else 0.0
    return Worked("set_relative_P = rel_ret / min(num_ret, R)",
                  (f"min(num_ret, R) = min({td.num_ret}, {td.R}) = {den}",
                   f"set_relative_P = {frac(td.rel_ret, den)} = {fmt(v)}"), v)


@explainer("set_map")
def set_map(td: TopicData, param, ctx: ExplainContext) -> Worked:
    a, ret, R = td.rel_ret, td.num_ret, td.R
    v = (float(a) * float(a)) / (float(ret) * float(R)) if ret and R else 0.0
    return Worked("set_map = set_P × set_recall = rel_ret² / (num_ret · R)",
                  (f"set_map = {a}² / ({ret} × {R}) = {a * a}/{ret * R} = {fmt(v)}",), v)


@explainer("set_F")
def set_f(td: TopicData, params, ctx: ExplainContext) -> Worked:
    beta = float(params[0])
    a = td.rel_ret
    if not a:
        return Worked("F = (β+1)·P·R / (β·P + R)", ("no relevant document retrieved: F = 0",),
                      0.0, cutoff=beta)
    P = a / td.num_ret
    Rc = a / td.R
    v = (beta + 1.0) * P * Rc / (beta * P + Rc)
    return Worked("F = (β+1)·P·R / (β·P + R)",
                  (f"P = set precision = {frac(a, td.num_ret)} = {fmt(P)}",
                   f"R = set recall = {frac(a, td.R)} = {fmt(Rc)}",
                   f"F = ({fmt(beta)}+1) × {fmt(P)} × {fmt(Rc)} / ({fmt(beta)} × {fmt(P)} + "
                   f"{fmt(Rc)}) = {fmt(v)}"), v, cutoff=beta,
                  notes=("β is trec_eval's parameter: set_F.0.5 weighs precision more "
                         "(the TREC 2001 filtering track's T10F, appendix §4).",))


@explainer("utility")
def utility(td: TopicData, params, ctx: ExplainContext) -> Worked:
    p1, p2, p3, p4 = (float(x) for x in params)
    a, ret, R, N = td.rel_ret, td.num_ret, td.R, td.num_docs_in_coll
    b, c, d = ret - a, R - a, N + a - ret - R
    v = p1 * a + p2 * (ret - a) + p3 * (R - a) + p4 * (N + a - ret - R)
    return Worked("utility = p1·a + p2·b + p3·c + p4·d",
                  (f"a = relevant retrieved = {a}; b = non-relevant retrieved = {ret} - {a} = {b}",
                   f"c = relevant missed = {R} - {a} = {c}; d = rest of the collection "
                   f"(N = {N}, -N) = {d}",
                   f"utility = {fmt(p1)}×{a} + {fmt(p2)}×{b} + {fmt(p3)}×{c} + {fmt(p4)}×{d} "
                   f"= {fmt(v)}"), v,
                  notes=("The TREC 2001 filtering T10U is utility.2,-1,0,0 (2a - b).",))


def _count(formula: str, text: str, v: int) -> Worked:
    return Worked(formula, (f"{text} = {v}",), float(v))


@explainer("num_ret")
def num_ret(td, param, ctx):
    return _count("num_ret = |retrieved|", "documents retrieved for the topic", td.num_ret)


@explainer("num_rel")
def num_rel(td, param, ctx):
    return Worked("num_rel = R = |qrels documents with grade >= relevance level|",
                  (f"grades >= {td.relevance_level}: "
                   + " + ".join(str(n) for n in td.rel_levels[max(td.relevance_level, 0):])
                   + f" = {td.R}",), float(td.R))


@explainer("num_rel_ret")
def num_rel_ret(td, param, ctx):
    return _count("num_rel_ret = |relevant ∩ retrieved|",
                  f"relevant retrieved (ranks {ranks_text(td.rel_ranks)})", td.rel_ret)


@explainer("num_nonrel_judged_ret")
def num_nonrel_judged_ret(td, param, ctx):
    v = td.num_ret - td.nonpool_ret - td.pool_unjudged_ret - td.rel_ret
    return Worked("num_nonrel_judged_ret = num_ret - unjudged - rel_ret",
                  (f"{td.num_ret} - {td.nonpool_ret} (not in qrels) - {td.pool_unjudged_ret} "
                   f"(pooled, unjudged) - {td.rel_ret} (relevant) = {v}",), float(v))


@explainer("num_q")
def num_q(td, param, ctx):
    jr = ctx.jr
    complete = bool(jr.options is not None and jr.options.complete)
    n = jr.num_qrels_topics if complete else jr.num_topics
    text = (f"every qrels topic (-c): {n}" if complete else
            f"topics with both run lines and judgments: {n}")
    return Worked("num_q = number of topics averaged over", (text,), float(n), level="run")


@explainer("runid")
def runid(td, param, ctx):
    return Worked("runid = the tag column of the run file's last line",
                  (f"runid = {td.runid}",), td.runid, level="run")


@explainer("relstring")
def relstring(td, params, ctx):
    n = max(int(params[0]), 0)
    s = relstring_of(np.asarray(td.rel[:n], dtype=np.int64))
    return Worked(f"relstring = the judgments of ranks 1..{n} as characters",
                  (f"ranks 1..{min(n, td.num_ret)}: {s}",
                   "digit = grade, '-' not in the qrels, '.' pooled but unjudged, "
                   "'>' grade above 9"), s, cutoff=n)
