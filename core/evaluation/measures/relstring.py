"""relstring: the relevance of the first N ranked documents as a string (trec_eval m_relstring.c).

Digits are relevance levels (``>`` above 9), ``-`` not in the pool, ``.`` in the
pool but unjudged, ``<`` any other negative value.  Printed per topic only.
"""

from __future__ import annotations

import numpy as np

from yardstick.evaluation.measures.definition import STRING, measure


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


#: the character of each relevance code from -2 up to 9 (anything above 9 is ">")
_CHARS = np.frombuffer(b".-0123456789", dtype=np.uint8)


@measure("relstring", STRING, "Relevance of the first N documents as a string (default "
         "N = 10): digit = level, '-' unpooled, '.' pooled but unjudged.", default_params=(10.0,),
         average="none", cite="trec_eval m_relstring.c", range="text")
def relstring(jr, params):
    n = max(int(params[0]), 0)
    # the first min(n, retrieved) codes of every topic, one byte each, decoded at once
    take = np.minimum(jr.num_ret, n)
    idx = np.repeat(jr.start[:-1] - np.concatenate([[0], np.cumsum(take)[:-1]]), take) \
        + np.arange(int(take.sum()))
    r = jr.rel[idx]
    chars = np.where(r > 9, ord(">"), np.where(r < -2, ord("<"),
                                               _CHARS[np.clip(r, -2, 9) + 2])).astype(np.uint8)
    text = chars.tobytes().decode("ascii")
    ends = np.cumsum(take).tolist()
    return [text[a:z] for a, z in zip([0] + ends[:-1], ends)]
