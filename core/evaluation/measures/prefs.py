"""Preference measures (trec_eval ``m_prefs_*.c``; ``-R prefs`` or ``-R qrels_prefs``).

Every kernel is a vectorised function over topics of the counts built by
:func:`yardstick.evaluation.measures.prefs_counts.build_preference_counts`.  With the five
counts of a judgment group (JG) — fulfilled and possible among retrieved
documents (``ret``), with exactly one retrieved (``imp``, implied), and neither
retrieved (``notoccur``) — the measures are, per topic:

* ``prefs_simp``  = sum_JG (ful_ret + ful_imp) / sum_JG (poss_ret + poss_imp + notoccur)
  (``_ret``: retrieved pairs only; ``_imp``: ignoring pairs with neither retrieved);
* ``prefs_avgjg`` = mean over JGs of the same ratio per JG (a JG with nothing
  possible adds 0; the topic scores 0 unless the sum is positive);
* ``prefs_pair``  = mean over document pairs of the share of the pair's
  preferences (over all JGs) that the ranking fulfils;
* ``prefs_avgjg_Rnonrel`` = ``prefs_avgjg`` with each JG's non-relevant
  documents (``rel_level == 0``) set to R, its relevant ones: R - N fulfilled
  preferences per retrieved relevant document are added when there are fewer
  (N < R), only the first R non-relevant documents kept when there are more
  (akin to bpref, Buckley & Voorhees, SIGIR 2004).

As in trec_eval, a JG whose possible count is 0 in the ``Rnonrel`` measures
makes the topic's sum NaN and its value 0.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from yardstick.evaluation.measures.definition import DOUBLE, LONG, MeasureError, measure
from yardstick.evaluation.measures.prefs_counts import PreferenceCounts

CITE = "trec_eval 10.0 m_{}.c and form_prefs_counts.c (C. Buckley, NIST)"
NEEDS = "needs preference judgments: -R prefs or -R qrels_prefs"


def _pc(obj, name: str) -> PreferenceCounts:
    if not isinstance(obj, PreferenceCounts):
        raise MeasureError(f"{name} {NEEDS}")
    return obj


def _ratio(num, den) -> np.ndarray:
    """num / den with 0 where den == 0 (the C code's ``if (poss)``)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    return np.divide(num, den, out=np.zeros(num.shape), where=den != 0)


def _counts(pc: PreferenceCounts, kind: str):
    """(fulfilled, possible) per JG for kind ``all`` | ``ret`` | ``imp``."""
    g = pc.jg
    if kind == "ret":
        return g("ful_ret"), g("poss_ret")
    ful = g("ful_ret") + g("ful_imp")
    poss = g("poss_ret") + g("poss_imp")
    return (ful, poss + g("notoccur")) if kind == "all" else (ful, poss)


def _simp(pc, kind):
    ful, poss = _counts(pc, kind)
    return _ratio(pc.topic_sum(ful), pc.topic_sum(poss))


def _avgjg(pc, kind):
    ful, poss = _counts(pc, kind)
    s = pc.topic_sum(_ratio(ful, poss))
    return np.where(s > 0.0, _ratio(s, pc.num_jgs), 0.0)


def _avgjg_rnonrel(pc, retrieved_only: bool):
    g = pc.jg
    if retrieved_only:
        R, N = g("num_rel_ret"), g("num_nonrel_ret")
        ful, poss = g("ful_ret"), g("poss_ret")
        alt_ful, alt_poss = g("rnr_ful"), g("rnr_poss")
    else:
        R, N = g("num_rel"), g("num_nonrel")
        ful, poss = _counts(pc, "all")
        alt_ful, alt_poss = g("rn_ful"), g("rn_poss")
    more_rel = R >= N
    # sic: the possible count adds num_rel * (R - N) in both measures
    ful = np.where(more_rel, ful + g("num_rel_ret") * (R - N), alt_ful).astype(np.float64)
    poss = np.where(more_rel, poss + g("num_rel") * (R - N), alt_poss).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = pc.topic_sum(ful / poss)            # 0/0 -> NaN, as in C
        return np.where(s > 0.0, s / np.maximum(pc.num_jgs, 1), 0.0)



_measure = partial(measure, rel_format="prefs")

@_measure("prefs_num_prefs_poss", LONG, "Number of preferences that could be fulfilled, "
         "whether or not their documents are retrieved (sum over topics).", average="sum",
         cite=CITE.format("prefs_num_prefs_poss"), range="count")
def num_prefs_possible(pc, params):
    pc = _pc(pc, "prefs_num_prefs_poss")
    return pc.topic_sum(_counts(pc, "all")[1])


@_measure("prefs_num_prefs_ful", LONG, "Number of preferences fulfilled, implied ones (only "
         "the preferred document retrieved) included (sum over topics).", average="sum",
         cite=CITE.format("prefs_num_prefs_ful"), range="count")
def num_prefs_fulfilled(pc, params):
    pc = _pc(pc, "prefs_num_prefs_ful")
    return pc.topic_sum(_counts(pc, "all")[0])


@_measure("prefs_num_prefs_ful_ret", LONG, "Number of preferences fulfilled among retrieved "
         "documents (both retrieved; sum over topics).", average="sum",
         cite=CITE.format("prefs_num_prefs_ful_ret"), range="count")
def num_prefs_fulfilled_ret(pc, params):
    pc = _pc(pc, "prefs_num_prefs_ful_ret")
    return pc.topic_sum(pc.jg("ful_ret"))


@_measure("prefs_simp", DOUBLE, "Preferences fulfilled / preferences possible (a pair with "
         "neither document retrieved counts as a failure).", cite=CITE.format("prefs_simp"))
def prefs_simple(pc, params):
    return _simp(_pc(pc, "prefs_simp"), "all")


@_measure("prefs_pair", DOUBLE, "Mean over document pairs of the share of the pair's "
         "preferences (from all judgment groups) that the ranking fulfils.",
         cite=CITE.format("prefs_pair"))
def prefs_pair(pc, params):
    pc = _pc(pc, "prefs_pair")
    return _ratio(pc.pair_sum_imp, pc.num_pairs)


@_measure("prefs_avgjg", DOUBLE, "prefs_simp computed per judgment group (user), averaged "
         "over the groups.", cite=CITE.format("prefs_avgjg"))
def prefs_avgjg(pc, params):
    return _avgjg(_pc(pc, "prefs_avgjg"), "all")


@_measure("prefs_avgjg_Rnonrel", DOUBLE, "prefs_avgjg with each group's non-relevant "
         "documents counted as many as its relevant ones (R); akin to bpref.",
         cite=CITE.format("prefs_avgjg_Rnonrel"))
def prefs_avgjg_rnonrel(pc, params):
    return _avgjg_rnonrel(_pc(pc, "prefs_avgjg_Rnonrel"), retrieved_only=False)


@_measure("prefs_simp_ret", DOUBLE, "prefs_simp over preferences between two retrieved "
         "documents only.", cite=CITE.format("prefs_simp_ret"))
def prefs_simple_ret(pc, params):
    return _simp(_pc(pc, "prefs_simp_ret"), "ret")


@_measure("prefs_pair_ret", DOUBLE, "prefs_pair over pairs of two retrieved documents only.",
         cite=CITE.format("prefs_pair_ret"))
def prefs_pair_ret(pc, params):
    pc = _pc(pc, "prefs_pair_ret")
    return _ratio(pc.pair_sum_ret, pc.num_pairs_ret)


@_measure("prefs_avgjg_ret", DOUBLE, "prefs_avgjg over preferences between two retrieved "
         "documents only.", cite=CITE.format("prefs_avgjg_ret"))
def prefs_avgjg_ret(pc, params):
    return _avgjg(_pc(pc, "prefs_avgjg_ret"), "ret")


@_measure("prefs_avgjg_Rnonrel_ret", DOUBLE, "prefs_avgjg_Rnonrel over retrieved documents "
         "only (R and N counted among the retrieved).",
         cite=CITE.format("prefs_avgjg_Rnonrel_ret"))
def prefs_avgjg_rnonrel_ret(pc, params):
    return _avgjg_rnonrel(_pc(pc, "prefs_avgjg_Rnonrel_ret"), retrieved_only=True)


@_measure("prefs_simp_imp", DOUBLE, "prefs_simp ignoring preferences whose two documents "
         "are both unretrieved.", cite=CITE.format("prefs_simp_imp"))
def prefs_simple_imp(pc, params):
    return _simp(_pc(pc, "prefs_simp_imp"), "imp")


@_measure("prefs_pair_imp", DOUBLE, "prefs_pair ignoring pairs whose two documents are both "
         "unretrieved.", cite=CITE.format("prefs_pair_imp"))
def prefs_pair_imp(pc, params):
    pc = _pc(pc, "prefs_pair_imp")
    return _ratio(pc.pair_sum_imp, pc.num_pairs_imp)


@_measure("prefs_avgjg_imp", DOUBLE, "prefs_avgjg ignoring preferences whose two documents "
         "are both unretrieved.", cite=CITE.format("prefs_avgjg_imp"))
def prefs_avgjg_imp(pc, params):
    return _avgjg(_pc(pc, "prefs_avgjg_imp"), "imp")
