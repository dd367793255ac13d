"""trec_eval's ordering of a run: score descending, then docno descending.

``form_res_rels.c`` sorts each topic's documents with ``comp_sim_docno``: higher
similarity first, ties broken by ``strcmp`` on the docno, the larger docno
first.  The rank column of the file is ignored.  With ``compat=9`` scores are
compared as C ``float`` (trec_eval 9.0.8 stores ``sim`` as float), which merges
scores that differ only beyond float precision into one tie group.
"""

from __future__ import annotations

import numpy as np


def trec_order(topic_code: np.ndarray, score: np.ndarray, doc_code: np.ndarray,
               compat: int = 10) -> np.ndarray:
    """Indices that sort lines by topic, score descending, docno descending.

    ``doc_code`` must index docnos sorted in byte order (see :class:`core.run.Run`).
    """
    s = score.astype(np.float32) if compat == 9 else score
    # lexsort: last key is primary
    return np.lexsort((-doc_code.astype(np.int64), -s, topic_code))
