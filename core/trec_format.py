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


def format_trec_eval(ev, query_flag: bool = False, summary_flag: bool = True,
                     zscore: bool = False) -> str:
    """The text trec_eval prints for one evaluation."""
    jr = ev.judged
    cols = ev.columns
    lines: list[str] = []
    z = "Z" if zscore else ""
    if query_flag:
        show = np.ones(jr.num_topics, bool)
        if ev.options.compat == 9:
            show = ~jr.missing
        for t, topic in enumerate(jr.topics.tolist()):
            if not show[t]:
                continue
            for c in cols:
                d = c.request.definition
                if not d.per_topic or d.kind in (RUNID, NUM_Q):
                    continue
                if d.kind == STRING:
                    lines.append(f"{c.name:<22}\t{topic}\t'{c.values[t]}'")
                elif d.kind == LONG and not zscore:
                    lines.append(f"{c.name:<22}\t{topic}\t{_long(c.values[t])}")
                else:
                    lines.append(f"{z}{c.name:<22}\t{topic}\t{_num(c.values[t])}")
    if summary_flag:
        for c in cols:
            d = c.request.definition
            if d.kind == STRING:
                continue
            if d.kind == RUNID:
                lines.append(f"{'runid':<22}\tall\t{ev.runid}")
            elif d.kind in (LONG, NUM_Q) and not zscore:
                lines.append(f"{c.name:<22}\tall\t{_long(ev.summary[c.name])}")
            else:
                lines.append(f"{z}{c.name:<22}\tall\t{_num(ev.summary[c.name])}")
    return "".join(line + "\n" for line in lines)
