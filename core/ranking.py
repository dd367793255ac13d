"""trec_eval's ordering of a run: score descending, then docno descending.

``form_res_rels.c`` sorts each topic's documents with ``comp_sim_docno``: higher
similarity first, ties broken by ``strcmp`` on the docno, the larger docno
first.  The rank column of the file is ignored.  With ``compat=9`` scores are
compared as C ``float`` (trec_eval 9.0.8 stores ``sim`` as float), which merges
scores that differ only beyond float precision into one tie group.
"""

from __future__ import annotations

import numpy as np


def trec_order(topic_code: np.ndarray, score: np.ndarray, docno_bytes: np.ndarray,
               compat: int = 10) -> np.ndarray:
    """Indices that sort lines by topic code, score descending, docno descending.

    Parameters
    ----------
    topic_code : int array
        Codes into byte-ordered topic ids.
    score : float array
    docno_bytes : numpy ``S`` array or int array
        Docnos (NUL-padded bytes compare like ``strcmp``) or codes into
        byte-ordered docnos.
    compat : {10, 9}

    Notes
    -----
    Only documents whose (topic, score) is shared with another document need
    the docno comparison, so the string sort is restricted to tie groups
    (a few percent of a real run).
    """
    if compat == 9:  # C float: huge scores become inf, as (float) atof(...) does
        with np.errstate(over="ignore"):
            s = score.astype(np.float32).astype(np.float64)
    else:
        s = score
    n = len(s)
    if n == 0:
        return np.zeros(0, np.int64)
    tc = topic_code.astype(np.int64)
    # Most files are grouped by topic and sorted by score already: then putting
    # the topic blocks in order keeps the within-topic order.
    order = _group_by_topic(tc)
    ts, ss = tc[order], s[order]
    same_topic = ts[1:] == ts[:-1]
    if not np.all(ss[1:][same_topic] <= ss[:-1][same_topic]):
        order = np.lexsort((-s, tc))
        ts, ss = tc[order], s[order]
        same_topic = ts[1:] == ts[:-1]
    tied = same_topic & (ss[1:] == ss[:-1])
    if not tied.any():
        return order
    # tie groups: runs of equal (topic, score); order each by docno descending
    in_group = np.zeros(n, bool)
    in_group[1:] |= tied
    in_group[:-1] |= tied
    pos = np.flatnonzero(in_group)
    starts = np.ones(n, bool)
    starts[1:] = ~tied
    group_id = np.cumsum(starts)[pos]
    members = order[pos]
    docs = docno_bytes[members]
    if docs.dtype.kind == "S":
        doc_rank = np.empty(len(docs), np.int64)
        doc_rank[np.argsort(docs, kind="stable")] = np.arange(len(docs))
    else:
        doc_rank = docs.astype(np.int64)
    sub = np.lexsort((-doc_rank, group_id))
    order = order.copy()
    order[pos] = members[sub]
    return order


def _group_by_topic(tc: np.ndarray) -> np.ndarray:
    """A stable sort by topic code, in O(n) when each topic is one contiguous block."""
    n = len(tc)
    bstarts = np.concatenate([[0], np.flatnonzero(tc[1:] != tc[:-1]) + 1])
    heads = tc[bstarts]
    if len(np.unique(heads)) != len(heads):
        return np.argsort(tc, kind="stable")
    border = np.argsort(heads, kind="stable")
    lens = np.diff(np.concatenate([bstarts, [n]]))[border]
    new_starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    return np.repeat(bstarts[border] - new_starts, lens) + np.arange(n)
