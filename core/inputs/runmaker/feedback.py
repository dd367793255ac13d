"""Query rewriting from documents: RM3 pseudo-relevance feedback and routing queries.

Both build a new weighted query (queries x terms) from term distributions of
documents, in numpy/scipy over all topics at once.

RM3 (Lavrenko and Croft 2001, "Relevance-based language models", SIGIR;
interpolated with the query as in Abdul-Jaleel et al. 2004, "UMass at TREC
2004", and as Anserini runs it, Yang, Lu and Lin 2019): take the top
``fb_docs`` documents of a first retrieval, estimate

    P(w | R) ∝ Σ_d  P(w | d) · P(Q | d),   P(w | d) = tf(w, d) / |d|,

with ``P(Q | d)`` the first-pass scores normalised over the feedback documents
(Anserini's choice), keep the ``fb_terms`` most probable terms, renormalise,
and mix with the query's own term distribution:
``P'(w) = λ · P(w | Q) + (1 - λ) · P(w | R)``.

Routing (Buckley et al. 2007, “Bias and the limits of pooling for large collections”, Information
Retrieval 2007, section 3.2): run sab05ror1 built
each query from "the 250 terms that occurred most often in the relevant
documents" of an earlier collection.  A single collection has no earlier one,
so :func:`routing_queries` splits the *documents* in two halves at random
(``seed``): documents of one half are ranked by a query built from the topic
plus the relevant documents of the *other* half, and vice versa.  No document's
own judgment touches its score, yet the queries describe relevant documents
rather than the topic's words -- the property that let sab05ror1 find relevant
documents with few title words that the other runs had missed.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def _row_normalise(m: sp.csr_matrix) -> sp.csr_matrix:
    sums = np.asarray(m.sum(axis=1)).ravel()
    inv = np.divide(1.0, sums, out=np.zeros_like(sums), where=sums > 0)
    return sp.diags(inv) @ m


def _top_terms(dense: np.ndarray, k: int, tiebreak: np.ndarray | None = None) -> sp.csr_matrix:
    """Keep the ``k`` largest positive entries per row (ties: higher tiebreak, then lower id)."""
    n_q, n_t = dense.shape
    k = min(k, n_t)
    neg_id = np.broadcast_to(-np.arange(n_t, dtype=np.float64), dense.shape)
    # lexsort sorts ascending on its last key first; reversed, that is: value desc,
    # tiebreak desc, -id desc (= id asc)
    keys = (neg_id, dense) if tiebreak is None else (neg_id, tiebreak, dense)
    order = np.lexsort(keys, axis=-1)[:, ::-1][:, :k]
    rows = np.repeat(np.arange(n_q), k)
    cols = order.ravel()
    vals = dense[rows, cols]
    keep = vals > 0
    return sp.csr_matrix((vals[keep], (rows[keep], cols[keep])), shape=dense.shape)


def doc_term_probabilities(tf: sp.csr_matrix) -> sp.csr_matrix:
    """``P(w | d) = tf(w, d) / |d|`` (documents x terms)."""
    return _row_normalise(tf.tocsr())


def rm3(query: sp.csr_matrix, scores: np.ndarray, matched: np.ndarray, tf: sp.csr_matrix,
        fb_docs: int = 10, fb_terms: int = 20, original_weight: float = 0.5) -> sp.csr_matrix:
    """RM3 expanded queries (see the module docstring).

    Parameters
    ----------
    query : scipy.sparse matrix, queries x terms
        Original query term weights (counts).
    scores, matched : numpy.ndarray, queries x documents
        First-pass scores and which documents were retrieved at all.
    tf : scipy.sparse matrix, documents x terms
    fb_docs, fb_terms, original_weight : int, int, float
        Anserini's defaults are 10, 10 and 0.5.

    Returns
    -------
    scipy.sparse.csr_matrix, queries x terms
        Each row sums to 1 (or 0 for a query with no terms).
    """
    n_q, n_d = scores.shape
    masked = np.where(matched, scores, -np.inf)
    k = min(fb_docs, n_d)
    doc_ids = np.arange(n_d)[None, :].repeat(n_q, 0)
    top = np.lexsort((doc_ids, -masked), axis=-1)[:, :k]   # score desc, then file order
    w = np.take_along_axis(masked, top, axis=1)
    w = np.where(np.isfinite(w), np.maximum(w, 0.0), 0.0)
    sums = w.sum(axis=1, keepdims=True)
    w = np.divide(w, sums, out=np.zeros_like(w), where=sums > 0)
    weights = sp.csr_matrix((w.ravel(), (np.repeat(np.arange(n_q), k), top.ravel())),
                            shape=(n_q, n_d))
    relevance_model = np.asarray((weights @ doc_term_probabilities(tf)).todense())
    expansion = _row_normalise(_top_terms(relevance_model, fb_terms))
    return (original_weight * _row_normalise(query.tocsr())
            + (1.0 - original_weight) * expansion).tocsr()


def document_halves(n_docs: int, seed: int = 0) -> np.ndarray:
    """A random half of the documents (bool mask), from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    mask = np.zeros(n_docs, dtype=bool)
    mask[rng.permutation(n_docs)[: n_docs // 2]] = True
    return mask


def routing_queries(query: sp.csr_matrix, relevant: sp.csr_matrix, tf: sp.csr_matrix,
                    n_terms: int = 250, original_weight: float = 0.5) -> sp.csr_matrix:
    """Queries built from known relevant documents, as sab05ror1's were.

    Parameters
    ----------
    query : queries x terms
        The topics' own term weights.
    relevant : queries x documents, 0/1
        The training relevant documents of each topic.
    tf : documents x terms

    Returns
    -------
    scipy.sparse.csr_matrix, queries x terms
        ``λ · P(w | Q) + (1 - λ) · centroid`` over the ``n_terms`` terms found in
        the most training relevant documents (ties by centroid weight), where
        the centroid is the mean of ``P(w | d)`` over those documents; topics
        with no training relevant document keep their own query.
    """
    relevant = sp.csr_matrix(relevant, dtype=np.float64)
    n_rel = np.asarray(relevant.sum(axis=1)).ravel()
    centroid = np.asarray((_row_normalise(relevant) @ doc_term_probabilities(tf)).todense())
    doc_freq = np.asarray((relevant @ (tf > 0).astype(np.float64)).todense())
    rows, cols = _top_terms(doc_freq, n_terms, tiebreak=centroid).nonzero()
    expansion = _row_normalise(sp.csr_matrix((centroid[rows, cols], (rows, cols)),
                                             shape=centroid.shape))
    own = _row_normalise(query.tocsr())
    lam = np.where(n_rel > 0, original_weight, 1.0)
    return (sp.diags(lam) @ own + sp.diags(1.0 - lam) @ expansion).tocsr()
