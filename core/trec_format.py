"""trec_eval's text output, byte for byte (``meas_print_single.c``, ``meas_print_final.c``).

``measure<TAB>topic<TAB>value`` with the measure name left-justified in 22
characters, doubles as ``%6.4f``, counts as ``%ld``, relstring quoted; per-topic
lines (``-q``) topic by topic, then the summary (``all``) unless ``-n``.
With ``-Z`` every name is prefixed by ``Z`` and counts print as doubles.
"""

from __future__ import annotations

import math

import numpy as np

from core.measures.registry import LONG, NUM_Q, RUNID, STRING


def _num(v: float) -> str:
    if math.isnan(v):  # C printf("%6.4f") of a NaN keeps its sign bit
        return ("-nan" if math.copysign(1.0, v) < 0 else "nan").rjust(6)
    return f"{v:6.4f}"


def _long(v: float) -> str:
    return str(int(v)) if math.isfinite(v) else _num(v)


def _column_text(c, zscore: bool) -> list[str]:
    """Formatted per-topic values of one column."""
    d = c.request.definition
    if d.kind == STRING:
        return [f"'{v}'" for v in c.values]
    v = np.asarray(c.values, dtype=np.float64)
    if d.kind == LONG and not zscore:
        if np.isfinite(v).all():
            return [str(x) for x in v.astype(np.int64).tolist()]
        return [_long(x) for x in v.tolist()]
    if np.isfinite(v).all():
        return [f"{x:6.4f}" for x in v.tolist()]
    return [_num(x) for x in v.tolist()]


def format_trec_eval(ev, query_flag: bool = False, summary_flag: bool = True,
                     zscore: bool = False) -> str:
    """The text trec_eval prints for one evaluation."""
    jr = ev.judged
    cols = ev.columns
    z = "Z" if zscore else ""
    out: list[str] = []
    if query_flag:
        show = np.ones(jr.num_topics, bool)
        if ev.options.compat == 9:
            show = ~jr.missing
        topics = [f"\t{t}\t" for t in jr.topics.tolist()]
        per_col = []
        for c in cols:
            d = c.request.definition
            if not d.per_topic or d.kind in (RUNID, NUM_Q):
                continue
            prefix = ("" if d.kind == STRING or (d.kind == LONG and not zscore) else z) \
                + f"{c.name:<22}"
            per_col.append([prefix + t + v + "\n"
                            for t, v in zip(topics, _column_text(c, zscore))])
        if per_col:
            rows = ["".join(parts) for parts in zip(*per_col)]
            out.extend(r for r, keep in zip(rows, show.tolist()) if keep)
    if summary_flag:
        for c in cols:
            d = c.request.definition
            if d.kind == STRING:
                continue
            if d.kind == RUNID:
                out.append(f"{'runid':<22}\tall\t{ev.runid}\n")
            elif d.kind in (LONG, NUM_Q) and not zscore:
                out.append(f"{c.name:<22}\tall\t{_long(ev.summary[c.name])}\n")
            else:
                out.append(f"{z}{c.name:<22}\tall\t{_num(ev.summary[c.name])}\n")
    return "".join(out)
