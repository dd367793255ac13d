"""Precision- and recall-type measures at document cutoffs and over the whole set.

Definitions follow trec_eval 10.0 (``m_P.c``, ``m_recall.c``, ``m_rel_P.c``,
``m_success.c``, ``m_unjudged.c``, ``m_Rprec.c``, ``m_Rprec_mult.c``,
``m_set_*.c``, ``m_utility.c``) and the TREC appendix "Common Evaluation
Measures" (precision, recall, R-precision).  A cutoff beyond the documents
retrieved counts the missing ones as non-relevant ("P@20 of a 15-document
list with 4 relevant is 4/20").
"""

from __future__ import annotations

import numpy as np

from yardstick.evaluation.measures.definition import CUT_DOUBLE, CUT_LONG, DOUBLE, P_DOUBLE, measure
from yardstick.evaluation.measures.segments import divide

CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
APPENDIX = "TREC Common Evaluation Measures appendix (Voorhees & Harman)"



@measure("P", CUT_LONG, "Precision at cutoffs: relevant in the first k / k.",
         default_params=CUTS, cite=APPENDIX + "; trec_eval m_P.c",
         aliases={"ir_measures": "P@k", "ranx": "precision@k"})
def precision_at(jr, cutoffs):
    k = np.asarray(cutoffs, dtype=np.int64)[None, :]
    return jr.rel_in_top(np.broadcast_to(k, (jr.num_topics, k.shape[1]))) / k


@measure("recall", CUT_LONG, "Recall at cutoffs: relevant in the first k / R.",
         default_params=CUTS, cite=APPENDIX + "; trec_eval m_recall.c",
         aliases={"ir_measures": "R@k", "ranx": "recall@k"})
def recall_at(jr, cutoffs):
    k = np.broadcast_to(np.asarray(cutoffs, dtype=np.int64)[None, :],
                        (jr.num_topics, len(cutoffs)))
    return divide(jr.rel_in_top(k), jr.num_rel[:, None])


@measure("relative_P", CUT_LONG,
         "Relative precision at cutoffs: relevant in the first k / min(k, R).",
         default_params=CUTS, cite="trec_eval m_rel_P.c")
def relative_precision_at(jr, cutoffs):
    k = np.broadcast_to(np.asarray(cutoffs, dtype=np.int64)[None, :],
                        (jr.num_topics, len(cutoffs)))
    return divide(jr.rel_in_top(k), np.minimum(k, jr.num_rel[:, None]))


@measure("success", CUT_LONG, "1 if a relevant document is in the first k, else 0.",
         default_params=(1, 5, 10), cite="trec_eval m_success.c (Tomlinson)",
         aliases={"ir_measures": "Success@k", "ranx": "hit_rate@k"})
def success_at(jr, cutoffs):
    k = np.broadcast_to(np.asarray(cutoffs, dtype=np.int64)[None, :],
                        (jr.num_topics, len(cutoffs)))
    return (jr.rel_in_top(k) > 0).astype(float)


@measure("unj", CUT_LONG, "Fraction of the first k documents that are not judged.",
         default_params=(5, 10, 20), cite="trec_eval m_unjudged.c",
         aliases={"ir_measures": "Judged@k (1 - value)"})
def unjudged_at(jr, cutoffs):
    k = np.broadcast_to(np.asarray(cutoffs, dtype=np.int64)[None, :],
                        (jr.num_topics, len(cutoffs)))
    # not judged = the first min(k, retrieved) minus the judged among them
    shown = np.minimum(k, jr.num_ret[:, None])
    return (shown - jr.judged_in_top(k)) / k


@measure("Rprec", DOUBLE, "R-precision: precision after R documents (R = relevant for "
         "the topic); the point where precision equals recall.", cite=APPENDIX,
         aliases={"ir_measures": "Rprec", "ranx": "r-precision"})
def r_precision(jr, params):
    look = np.minimum(jr.num_ret, jr.num_rel)
    return divide(jr.rel_in_top(look), jr.num_rel)


def rprec_mult_cutoffs(num_rel: np.ndarray, mults) -> np.ndarray:
    """``(long)(mult * R + 0.9)`` per topic and multiple (m_Rprec_mult.c)."""
    return (np.asarray(mults)[None, :] * num_rel[:, None] + 0.9).astype(np.int64)


@measure("Rprec_mult", CUT_DOUBLE, "Precision at multiples of R: relevant in the first "
         "m*R documents / (m*R), m*R rounded as (long)(m*R + 0.9).",
         default_params=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
         cite="trec_eval m_Rprec_mult.c")
def r_precision_mult(jr, mults):
    cut = rprec_mult_cutoffs(jr.num_rel, mults)
    return divide(jr.rel_in_top(cut), cut)


@measure("set_P", DOUBLE, "Set precision: relevant retrieved / retrieved.",
         cite=APPENDIX + " (filtering: set precision)")
def set_precision(jr, params):
    return divide(jr.num_rel_ret, jr.num_ret)


@measure("set_relative_P", DOUBLE, "Relative set precision: relevant retrieved / "
         "min(retrieved, R).", cite="trec_eval m_set_rel_P.c")
def set_relative_precision(jr, params):
    ok = (jr.num_ret > 0) & (jr.num_rel > 0)
    return np.where(ok, divide(jr.num_rel_ret, np.minimum(jr.num_ret, jr.num_rel)), 0.0)


@measure("set_recall", DOUBLE, "Set recall: relevant retrieved / R.",
         cite=APPENDIX + " (filtering: set recall)")
def set_recall(jr, params):
    return divide(jr.num_rel_ret, jr.num_rel)


@measure("set_map", DOUBLE, "Set average precision: set_P * set_recall.",
         cite="trec_eval m_set_map.c")
def set_map(jr, params):
    ok = (jr.num_ret > 0) & (jr.num_rel > 0)
    return np.where(ok, divide(jr.num_rel_ret.astype(float) ** 2,
                             jr.num_ret.astype(float) * jr.num_rel), 0.0)


@measure("set_F", P_DOUBLE, "Set F-measure (van Rijsbergen): (b+1)PR / (bP + R), b the "
         "parameter (default 1; the TREC filtering T10F uses 0.5).", default_params=(1.0,),
         cite="van Rijsbergen, Information Retrieval, 1979; trec_eval m_set_F.c")
def set_f(jr, params):
    beta = params[0]
    P = divide(jr.num_rel_ret, jr.num_ret)
    R = divide(jr.num_rel_ret, jr.num_rel)
    return np.where(jr.num_rel_ret > 0, divide((beta + 1.0) * P * R, beta * P + R), 0.0)


@measure("utility", P_DOUBLE, "Set utility p1*a + p2*b + p3*c + p4*d over the contingency "
         "table (a relevant retrieved, b non-relevant retrieved, c relevant missed, d the rest "
         "of the collection, -N).", default_params=(1.0, -1.0, 0.0, 0.0),
         cite="trec_eval m_utility.c; TREC filtering track (T10U = 2a - b)",
         range="(-inf, inf)")
def utility(jr, params):
    if len(params) != 4:
        from yardstick.evaluation.measures.definition import MeasureError

        raise MeasureError("utility: improper number of coefficients (need 4)")
    p1, p2, p3, p4 = params
    N = jr.options.num_docs_in_coll if jr.options is not None else 0
    a, ret, R = jr.num_rel_ret, jr.num_ret, jr.num_rel
    return p1 * a + p2 * (ret - a) + p3 * (R - a) + p4 * (N + a - ret - R)
