"""relstring: the relevance of the first N ranked documents as a string (trec_eval m_relstring.c).

Digits are relevance levels (``>`` above 9), ``-`` not in the pool, ``.`` in the
pool but unjudged, ``<`` any other negative value.  Printed per topic only.
"""

from __future__ import annotations

import numpy as np

from core.measures.registry import STRING, measure


def relstring_of(rel: np.ndarray) -> str:
    out = []
    for r in rel.tolist():
        if r > 9:
            out.append(">")
        elif r >= 0:
            out.append(chr(48 + r))
        elif r == -1:
            out.append("-")
        elif r == -2:
            out.append(".")
        else:
            out.append("<")
    return "".join(out)


@measure("relstring", STRING, "Relevance of the first N documents as a string (default "
         "N = 10): digit = level, '-' unpooled, '.' pooled but unjudged.", default_params=(10.0,),
         average="none", cite="trec_eval m_relstring.c", range="text")
def relstring(jr, params):
    n = max(int(params[0]), 0)
    return [relstring_of(jr.rel[jr.start[t]:min(jr.start[t] + n, jr.start[t + 1])])
            for t in range(jr.num_topics)]
