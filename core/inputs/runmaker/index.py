"""An index for the run maker: bm25s's term-score matrix plus term frequencies.

bm25s (Lù 2024, "BM25S: Orders of magnitude faster lexical search via eager
sparse scoring", arXiv:2407.03618) precomputes, for every (document, term),
the term's BM25 contribution -- for Lucene's BM25, Robertson's original, ATIRE,
BM25L and BM25+ (Trotman, Puurula and Burgess 2014, "Improvements to BM25 and
language models examined", ADCS) -- so a query's score is a sparse sum.  We
keep that matrix ``M`` (documents x terms) and score *weighted* queries
``Q`` (queries x terms) in one product, ``S = Q Mᵀ`` (plus bm25s's constant
"non-occurrence" term for BM25L/BM25+), which is what pseudo-relevance
feedback and routing queries need and bm25s's own ``retrieve`` cannot take.
Term frequencies (``tf``) are kept for the feedback models.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp

from yardstick.inputs.runmaker.analysis import Analyzer, require_runs_extra

METHODS = ("lucene", "robertson", "atire", "bm25l", "bm25+")


@dataclass(frozen=True, eq=False)
class TermIndex:
    """Analysed documents: vocabulary and term frequencies (no ranking function yet)."""

    analyzer: Analyzer
    docnos: np.ndarray          # object, file order
    vocab: dict[str, int]       # term -> column (terms sorted, so ids are deterministic)
    token_ids: list[np.ndarray]  # per document, its tokens as term ids
    tf: sp.csr_matrix           # documents x terms, float64 counts

    @classmethod
    def build(cls, docnos: list[str], texts: list[str], analyzer: Analyzer,
              raw_tokens: list[list[str]] | None = None) -> "TermIndex":
        """Analyse ``texts`` (or ``raw_tokens``,
        :func:`~yardstick.inputs.runmaker.analysis.tokenize`'s
        output for them, shared between analyzers) and count terms."""
        tokens = analyzer.process(raw_tokens) if raw_tokens is not None else analyzer.analyze(texts)
        lengths = np.array([len(t) for t in tokens], np.int64)
        flat = pd.array([t for ts in tokens for t in ts], dtype=object)
        codes, uniques = pd.factorize(np.asarray(flat, dtype=object))
        order = np.argsort(np.asarray(uniques, dtype=str), kind="stable")  # sorted vocabulary
        rank = np.empty(len(order), np.int64)
        rank[order] = np.arange(len(order))
        cols = rank[codes] if len(codes) else np.zeros(0, np.int64)
        terms = [str(uniques[i]) for i in order]
        vocab = {t: i for i, t in enumerate(terms)}
        token_ids = np.split(cols, np.cumsum(lengths)[:-1]) if len(lengths) else []
        rows = np.repeat(np.arange(len(docnos)), lengths)
        tf = sp.csr_matrix((np.ones(len(cols)), (rows, cols)),
                           shape=(len(docnos), max(1, len(terms))), dtype=np.float64)
        tf.sum_duplicates()
        return cls(analyzer, np.asarray(docnos, dtype=object), vocab, token_ids, tf)

    @property
    def num_docs(self) -> int:
        return len(self.docnos)

    @property
    def doc_len(self) -> np.ndarray:
        return np.asarray(self.tf.sum(axis=1)).ravel()

    def query_matrix(self, queries: list[str]) -> sp.csr_matrix:
        """Query term counts (queries x terms); out-of-vocabulary terms dropped."""
        toks = self.analyzer.analyze(queries)
        rows, cols = [], []
        for i, ts in enumerate(toks):
            ids = [self.vocab[t] for t in ts if t in self.vocab]
            rows += [i] * len(ids)
            cols += ids
        q = sp.csr_matrix((np.ones(len(cols)), (rows, cols)),
                          shape=(len(queries), self.tf.shape[1]), dtype=np.float64)
        q.sum_duplicates()
        return q


@dataclass(frozen=True, eq=False)
class BM25Index:
    """bm25s's BM25 term scores over a :class:`TermIndex`."""

    terms: TermIndex
    method: str
    k1: float
    b: float
    delta: float
    scores: sp.csr_matrix       # terms x documents (transposed for fast Q @ scores)
    nonoccurrence: np.ndarray   # per term; zeros except for BM25L / BM25+

    @classmethod
    def build(cls, terms: TermIndex, method: str = "lucene", k1: float = 1.2, b: float = 0.75,
              delta: float = 0.5) -> "BM25Index":
        if method not in METHODS:
            raise ValueError(f"unknown BM25 variant {method!r}: expected one of {METHODS}")
        bm25s = require_runs_extra()
        model = bm25s.BM25(k1=k1, b=b, delta=delta, method=method, dtype="float64")
        vocab = dict(terms.vocab) or {"": 0}   # a copy: bm25s may add its empty token to it
        model.index(([t.tolist() for t in terms.token_ids], vocab), show_progress=False)
        s = model.scores
        n_terms = len(s["indptr"]) - 1
        m = sp.csc_matrix((s["data"], s["indices"], s["indptr"]),
                          shape=(s["num_docs"], n_terms), dtype=np.float64)
        non = (np.zeros(n_terms) if model.nonoccurrence_array is None
               else np.asarray(model.nonoccurrence_array, np.float64)[:n_terms])
        return cls(terms, method, k1, b, delta, m.T.tocsr(), non)

    def score(self, queries: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
        """Scores and match mask, both queries x documents.

        ``scores[q, d] = Σ_t w_qt · bm25(t, d)`` exactly as bm25s computes it
        (terms a document lacks add bm25s's non-occurrence value for BM25L and
        BM25+); ``matched[q, d]`` says the document holds a query term.  Only
        matched documents are retrieved, as an inverted index would.
        """
        s = np.asarray((queries @ self.scores).todense())
        s += (queries @ self.nonoccurrence)[:, None]
        has = (queries > 0).astype(np.float64) @ (self.terms.tf > 0).astype(np.float64).T
        return s, np.asarray(has.todense()) > 0
