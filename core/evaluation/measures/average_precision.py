"""Rank-based measures: AP and its relatives, reciprocal rank, interpolated precision,
bpref, infAP and binG.

Definitions follow trec_eval 10.0 (``m_map.c``, ``m_gm_map.c``, ``m_map_cut.c``,
``m_recip_rank.c``, ``m_iprec_at_recall.c``, ``m_11pt_avg.c``, ``m_bpref.c``,
``m_gm_bpref.c``, ``m_infap.c``, ``m_binG.c``) and the TREC appendix "Common
Evaluation Measures": average precision is the mean, over the R relevant
documents, of the precision at the rank of each (0 for those not retrieved);
interpolated precision at recall r is the highest precision at any recall >= r.
"""

from __future__ import annotations

import numpy as np

from yardstick.evaluation.measures.definition import CUT_DOUBLE, CUT_LONG, DOUBLE, P_DOUBLE, measure
from yardstick.evaluation.measures.segments import divide

APPENDIX = "TREC Common Evaluation Measures appendix (Voorhees & Harman)"
BUCKLEY = ("Buckley & Voorhees, 'Retrieval System Evaluation', in TREC: Experiment and "
           "Evaluation in Information Retrieval, MIT Press 2005")
CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
MIN_GEO_MEAN = 0.00001
INFAP_EPSILON = 0.00001



def precision_at_relevant(jr) -> np.ndarray:
    """For each relevant retrieved document (flat, in rank order): rel_so_far / rank."""
    def compute():
        r = jr.relevant
        return r.cum / (r.pos + 1.0)
    return jr.cached("prec_at_rel", compute)


@measure("map", DOUBLE, "Average precision: mean over the R relevant documents of the "
         "precision at each one's rank (0 if not retrieved); MAP is its mean over topics.",
         cite=BUCKLEY + "; " + APPENDIX, aliases={"ir_measures": "AP", "ranx": "map"})
def average_precision(jr, params):
    return jr.cached("ap", lambda: _average_precision(jr))


def _average_precision(jr):
    s = np.bincount(jr.relevant.tix, weights=precision_at_relevant(jr), minlength=jr.num_topics)
    return divide(s, jr.num_rel)


@measure("yaap", DOUBLE, "Yet Another Average Precision: log((1 + S) / (1 + R - S)), S the sum "
         "over retrieved relevant documents of precision at their rank; monotonic with AP on "
         "one topic but averages better over topics (trec_eval 10, by name only).",
         range="(-inf, +inf)",
         cite="Robertson, 'On Smoothing Average Precision', ECIR 2012, LNCS 7224, pp. 158-169; "
              "trec_eval m_yaap.c")
def yet_another_average_precision(jr, params):
    s = np.bincount(jr.relevant.tix, weights=precision_at_relevant(jr), minlength=jr.num_topics)
    return np.log((1.0 + s) / (1.0 + jr.num_rel - s))


@measure("gm_map", DOUBLE, "Geometric mean of AP over topics (AP floored at 1e-5); reported "
         "only as a summary.", average="gm", per_topic=False, cite="trec_eval m_gm_map.c; "
         "Robertson, 'On GMAP', CIKM 2006", aliases={"ir_measures": "GMAP"})
def gm_average_precision(jr, params):
    return np.log(np.maximum(average_precision(jr, params), MIN_GEO_MEAN))


@measure("map_cut", CUT_LONG, "AP with the ranking cut at k (still divided by R).",
         default_params=CUTS, cite="trec_eval m_map_cut.c", aliases={"ir_measures": "AP@k",
                                                                      "ranx": "map@k"})
def average_precision_cut(jr, cutoffs):
    contrib = precision_at_relevant(jr)
    pos = jr.relevant.pos
    tix = jr.relevant.tix
    out = np.empty((jr.num_topics, len(cutoffs)))
    for j, k in enumerate(cutoffs):
        m = pos < k
        out[:, j] = np.bincount(tix[m], weights=contrib[m], minlength=jr.num_topics)
    return divide(out, jr.num_rel[:, None])


def first_relevant_rank(jr) -> np.ndarray:
    """1-based rank of the first relevant document per topic (0 if none)."""
    r = jr.relevant
    out = np.zeros(jr.num_topics, dtype=np.int64)
    t = r.tix
    if len(t):
        first = np.concatenate([[True], t[1:] != t[:-1]])
        out[t[first]] = r.pos[first] + 1
    return out


@measure("recip_rank", DOUBLE, "Reciprocal rank of the first relevant document (0 if none).",
         cite="trec_eval m_recip_rank.c; TREC QA and known-item tracks",
         aliases={"ir_measures": "RR", "ranx": "mrr"})
def reciprocal_rank(jr, params):
    r = first_relevant_rank(jr)
    return divide(np.where(r > 0, 1.0, 0.0), r)


def recall_cutoffs(num_rel: np.ndarray, levels, compat: int) -> np.ndarray:
    """Recall levels as numbers of relevant documents, per topic.

    trec_eval 10.0 rounds with ``lround`` (half away from zero); 9.0.8 used
    ``(long)(level * R + 0.9)``.
    """
    x = np.asarray(levels, dtype=np.float64)[None, :] * num_rel[:, None]
    if compat == 9:
        return (x + 0.9).astype(np.int64)
    return np.floor(np.abs(x) + 0.5).astype(np.int64) * np.sign(x).astype(np.int64)


def interpolated_precision(jr, levels) -> np.ndarray:
    """Interpolated precision at recall levels, (T, len(levels)) (m_iprec_at_recall.c).

    Int_Prec(X) = max Prec(Y) for all Y >= X.  A level needing more relevant
    documents than were retrieved scores 0; a level of 0 relevant documents gets
    the maximum precision over the whole ranking.
    """
    T = jr.num_topics
    compat = jr.options.compat if jr.options is not None else 10
    cut = recall_cutoffs(jr.num_rel, levels, compat)
    prec = precision_at_relevant(jr)                 # precision at each relevant doc
    tix = jr.relevant.tix
    n = len(prec)
    # suffix maximum of precision within each topic (exact: keys only order the values)
    if n:
        key = prec - 2.0 * tix                       # later topics lower -> reset on reversal
        rev = np.maximum.accumulate(key[::-1])[::-1]
        order = np.argsort(key, kind="stable")
        hit = np.searchsorted(key[order], rev, side="left")
        suffix = prec[order[np.minimum(hit, n - 1)]]
    else:
        suffix = prec
    # index of the k-th relevant retrieved document of each topic
    first = np.zeros(T, dtype=np.int64)
    counts = np.bincount(tix, minlength=T) if n else np.zeros(T, np.int64)
    first[1:] = np.cumsum(counts)[:-1]
    num_rel_ret = counts
    # precision at the last retrieved document (the interpolation's starting point)
    with np.errstate(invalid="ignore", divide="ignore"):
        tail = jr.num_rel_ret / jr.num_ret.astype(float)
    out = np.zeros(cut.shape)
    k = cut  # number of relevant documents that must be reached
    ok = (k >= 1) & (k <= num_rel_ret[:, None])
    idx = first[:, None] + k - 1
    if n:
        out = np.where(ok, suffix[np.clip(idx, 0, n - 1)], 0.0)
    # level of 0 documents: max precision over everything (or the tail precision)
    zero = k <= 0
    if zero.any():
        best = np.where(num_rel_ret > 0, suffix[np.clip(first, 0, max(n - 1, 0))] if n else 0.0,
                        tail)
        best = np.maximum(best, np.where(num_rel_ret > 0, tail, best))
        out = np.where(zero, best[:, None], out)
    return out


@measure("iprec_at_recall", CUT_DOUBLE, "Interpolated precision at recall levels (the "
         "11-point recall-precision curve).", default_params=RECALL_LEVELS,
         cite=APPENDIX + " (Figure 1)", aliases={"ir_measures": "IPrec@r"})
def iprec_at_recall(jr, levels):
    return interpolated_precision(jr, levels)


@measure("11pt_avg", P_DOUBLE, "Interpolated precision averaged over the 11 recall levels "
         "0.0 .. 1.0 (or the given levels).", default_params=RECALL_LEVELS,
         cite=APPENDIX + "; trec_eval m_11pt_avg.c")
def eleven_point_average(jr, levels):
    if not len(levels):
        from yardstick.evaluation.measures.definition import MeasureError

        raise MeasureError("11pt_avg: no cutoff values")
    return interpolated_precision(jr, levels).sum(axis=1) / len(levels)


def bpref_values(jr) -> np.ndarray:
    return jr.cached("bpref", lambda: _bpref_values(jr))


def _bpref_values(jr) -> np.ndarray:
    r = jr.relevant
    R = jr.num_rel
    tix = r.tix
    nb = r.nonrel_before
    denom = np.minimum(jr.num_nonrel, R)[tix].astype(float)
    frac = np.divide(np.minimum(nb, R[tix]), denom, out=np.zeros(len(nb)), where=denom != 0)
    contrib = np.where(nb > 0, 1.0 - frac, 1.0)
    return divide(np.bincount(tix, weights=contrib, minlength=jr.num_topics), R)


@measure("bpref", DOUBLE, "Binary preference: for each relevant retrieved document, 1 - "
         "(judged non-relevant above it, at most R) / min(judged non-relevant, R); "
         "summed and divided by R.  Uses judged documents only.",
         cite="Buckley & Voorhees, 'Retrieval Evaluation with Incomplete Information', "
              "SIGIR 2004", aliases={"ir_measures": "Bpref"})
def bpref(jr, params):
    return bpref_values(jr)


@measure("gm_bpref", DOUBLE, "Geometric mean of bpref over topics (floored at 1e-5).",
         average="gm", per_topic=False, cite="trec_eval m_gm_bpref.c")
def gm_bpref(jr, params):
    return np.log(np.maximum(bpref_values(jr), MIN_GEO_MEAN))


@measure("infAP", DOUBLE, "Inferred AP (Yilmaz & Aslam): AP estimated from a sampled pool, "
         "documents in the pool but unjudged (rel < 0 in qrels) assumed relevant in the "
         "proportion of the judged ones.",
         cite="Yilmaz & Aslam, 'Estimating Average Precision with Incomplete and Imperfect "
              "Judgments', CIKM 2006", aliases={"ir_measures": "infAP"})
def inferred_ap(jr, params):
    r = jr.relevant
    rel_before = r.cum - 1                           # relevant strictly above (rel_so_far - 1)
    j = r.pos.astype(float)
    nb = r.nonrel_before.astype(float)
    ub = r.unjudged_before.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        term = (1.0 / (j + 1.0) + (j / (j + 1.0)) * ((rel_before + nb + ub) / j)
                * ((rel_before + INFAP_EPSILON) / (rel_before + nb + 2 * INFAP_EPSILON)))
    contrib = np.where(j == 0, 1.0, term)
    s = np.bincount(r.tix, weights=contrib, minlength=jr.num_topics)
    return divide(s, jr.num_rel)


@measure("binG", DOUBLE, "Binary G: mean over the R relevant documents of "
         "1 / log2(2 + non-relevant retrieved before it).", cite="trec_eval m_binG.c "
         "(Buckley, experimental, 2008)")
def binary_g(jr, params):
    r = jr.relevant
    contrib = 1.0 / np.log2(3.0 + r.pos - r.cum)
    return divide(np.bincount(r.tix, weights=contrib, minlength=jr.num_topics), jr.num_rel)
