"""Explainers for the TREC 2003 robust-track measures: no_rel_10, map_worst, area.

Voorhees, *Overview of the TREC 2003 Robust Retrieval Track*
(Voorhees 2003, §2): the percentage of topics
with no relevant document in the top 10, MAP(X) over the X worst topics, and
the area under MAP(X) for X = 1 .. N/4.  ``map_worst`` and ``area`` are values
over all topics; their explanation shows where the chosen topic stands.
"""

from __future__ import annotations

from yardstick.analysis.explain.explanation import ExplainContext, Worked, explainer, fmt
from yardstick.analysis.explain.topic_data import TopicData
from yardstick.analysis.explain.worked_ranks import sum_text


def topic_aps(jr) -> list[tuple[str, float]]:
    """(topic, AP) for every evaluated topic, in plain Python from the judged ranking."""
    out = []
    lvl = jr.relevance_level
    rels = jr.rel.tolist()
    R = jr.num_rel.tolist()
    for t, topic in enumerate(jr.topics.tolist()):
        s = 0.0
        n = 0
        for i, r in enumerate(rels[jr.start[t]:jr.start[t + 1]]):
            if r >= lvl:
                n += 1
                s += n / (i + 1)
        out.append((str(topic), s / R[t] if R[t] else 0.0))
    return out


@explainer("no_rel_10")
def no_relevant_in_top10(td: TopicData, param, ctx: ExplainContext) -> Worked:
    n = td.rel_in_top(10)
    v = 1.0 if n == 0 else 0.0
    return Worked("no_rel_10 = 1 if relret(10) = 0 else 0",
                  (f"relevant among ranks 1..10: {n}", f"no_rel_10 = {fmt(v)}"), v, cutoff=10,
                  notes=("Its mean over topics is the robust track's %no (fraction of topics "
                         "with no relevant document in the top 10).",))


def _worst(ctx: ExplainContext, td: TopicData):
    aps = topic_aps(ctx.jr)
    order = sorted(aps, key=lambda x: x[1])
    pos = [t for t, _ in order].index(td.topic) + 1
    ap = dict(aps)[td.topic]
    return order, pos, ap


@explainer("map_worst")
def map_worst(td: TopicData, params, ctx: ExplainContext) -> Worked:
    order, pos, ap = _worst(ctx, td)
    N = len(order)
    X = int(params[0]) if params else N // 4
    X = min(max(X, 0), N)
    worst = order[:X]
    s = 0.0
    for _, v in worst:
        s += v
    value = s / X if X else 0.0
    inside = pos <= X
    return Worked("MAP(X) = (1/X) Σ_{the X topics with the lowest AP} AP",
                  (f"topic {td.topic}: AP = {fmt(ap)}, rank {pos} of {N} from the worst "
                   f"({'among' if inside else 'not among'} the {X} worst)",
                   f"X = {X}" + ("" if params else f" = N/4 = {N}/4"),
                   f"worst {X} APs: {sum_text([fmt(v) for _, v in worst])} = {fmt(s)}",
                   f"MAP({X}) = {fmt(s)} / {X} = {fmt(value)}"), value,
                  terms=tuple((f"topic {t}", v) for t, v in worst), level="run")


@explainer("area")
def area(td: TopicData, params, ctx: ExplainContext) -> Worked:
    order, pos, ap = _worst(ctx, td)
    N = len(order)
    xmax = min(int(params[0]), N) if params else N // 4
    curve = []
    s = 0.0
    for x in range(1, xmax + 1):
        s += order[x - 1][1]
        curve.append(s / x)
    total = 0.0
    for c in curve:
        total += c
    value = total / len(curve) if curve else 0.0
    return Worked("area = (1/Xmax) Σ_{X=1..Xmax} MAP(X),  Xmax = N/4",
                  (f"topic {td.topic}: AP = {fmt(ap)}, rank {pos} of {N} from the worst",
                   f"MAP(X) for X = 1..{xmax}: {sum_text([fmt(c) for c in curve])}",
                   f"area = {fmt(total)} / {xmax} = {fmt(value)}"), value,
                  terms=tuple((f"MAP({x})", c) for x, c in enumerate(curve, start=1)),
                  level="run")
