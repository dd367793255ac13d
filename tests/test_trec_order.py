"""trec_order against trec_eval's comparator, on random runs of every shape.

``form_res_rels.c`` sorts a topic's documents with ``comp_sim_docno``: score
descending, ties by ``strcmp`` on the docno, larger first (trec_eval 9.0.8
compares scores as C ``float``).  The reference here is that comparator written
with Python's ``sorted``; :func:`yardstick.ranking.trec_order` takes shortcuts (topic
blocks already sorted by score are only put in order; tie groups sorted by one
packed key), and every shortcut must give the same order.
"""

from __future__ import annotations

import numpy as np
import pytest

from yardstick.ranking import trec_order


def _comparator_order(tc, score, docs, compat):
    if compat == 9:
        with np.errstate(over="ignore"):
            score = score.astype(np.float32).astype(np.float64)
    # docno descending in strcmp order: negate the bytes, a shorter prefix sorts after
    return sorted(range(len(score)),
                  key=lambda i: (int(tc[i]), -float(score[i]), [-b for b in docs[i]] + [1]))


@pytest.mark.parametrize("compat", [10, 9])
@pytest.mark.parametrize("shape", ["sorted blocks in order", "sorted blocks shuffled",
                                   "unsorted", "topics interleaved", "unsorted, ulp apart"])
def test_trec_order_is_trec_evals_comparator(shape, compat):
    rng = np.random.default_rng(abs(hash((shape, compat))) % 2**32)
    for _ in range(300):
        n, topics = int(rng.integers(1, 60)), int(rng.integers(1, 6))
        tc = rng.integers(0, topics, n).astype(np.int32)
        scale = rng.choice([1.0, 1e-9, 1e40])   # 1e-9: float ties; 1e40: inf as float
        score = rng.integers(0, 5, n).astype(np.float64) * scale + rng.choice([0, 1e-12])
        if shape.endswith("ulp apart"):
            # scores one or two ulps apart, signs mixed and -0.0: the packed sort keeps
            # only a score's high bits, and must still order these exactly
            score = np.nextafter(score * rng.choice([-1.0, 1.0], n),
                                 np.inf * rng.choice([-1, 1], n)) * rng.integers(0, 2, n)
            score[rng.random(n) < 0.2] = -0.0
        if shape.startswith("sorted"):
            tc = np.sort(tc)
            if shape.endswith("shuffled"):
                tc = rng.permutation(topics)[tc].astype(np.int32)
            for t in np.unique(tc):
                m = np.flatnonzero(tc == t)
                score[m] = np.sort(score[m])[::-1]
        docs = [bytes(rng.choice(list(b"abcz"), int(rng.integers(1, 12)))) + str(i).encode()
                for i in range(n)]
        expected = _comparator_order(tc, score, docs, compat)
        assert trec_order(tc, score, np.array(docs), compat).tolist() == expected
        codes = np.argsort(np.argsort(np.array(docs), kind="stable"))  # byte-ordered codes
        assert trec_order(tc, score, codes, compat).tolist() == expected
