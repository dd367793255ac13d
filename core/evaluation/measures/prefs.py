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


def _avgjg_rnonrel(pc, kind: str):
    g = pc.jg
    if kind == "ret":
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

#: The counts (summed over topics): what is counted, and the per-JG count it sums.
_COUNTS = {
    "prefs_num_prefs_poss": ("Number of preferences that could be fulfilled, whether or not "
                             "their documents are retrieved (sum over topics).",
                             lambda pc: _counts(pc, "all")[1]),
    "prefs_num_prefs_ful": ("Number of preferences fulfilled, implied ones (only the "
                            "preferred document retrieved) included (sum over topics).",
                            lambda pc: _counts(pc, "all")[0]),
    "prefs_num_prefs_ful_ret": ("Number of preferences fulfilled among retrieved documents "
                                "(both retrieved; sum over topics).",
                                lambda pc: pc.jg("ful_ret")),
}


def _count_kernel(name: str, per_jg):
    def kernel(pc, params):
        pc = _pc(pc, name)
        return pc.topic_sum(per_jg(pc))

    kernel.__name__ = kernel.__qualname__ = name
    return kernel


for _name, (_text, _per_jg) in _COUNTS.items():
    _measure(_name, LONG, _text, average="sum", cite=CITE.format(_name),
             range="count")(_count_kernel(_name, _per_jg))


#: The ratio measures, each over every preference, over those between two retrieved
#: documents only (``_ret``) and ignoring those whose two documents are both
#: unretrieved (``_imp``), in trec_eval's order; the kernels take the kind of pairs.
_RATIOS = {
    "prefs_simp": "Preferences fulfilled / preferences possible (a pair with neither "
                  "document retrieved counts as a failure).",
    "prefs_pair": "Mean over document pairs of the share of the pair's preferences (from all "
                  "judgment groups) that the ranking fulfils.",
    "prefs_avgjg": "prefs_simp computed per judgment group (user), averaged over the groups.",
    "prefs_avgjg_Rnonrel": "prefs_avgjg with each group's non-relevant documents counted as "
                           "many as its relevant ones (R); akin to bpref.",
    "prefs_simp_ret": "prefs_simp over preferences between two retrieved documents only.",
    "prefs_pair_ret": "prefs_pair over pairs of two retrieved documents only.",
    "prefs_avgjg_ret": "prefs_avgjg over preferences between two retrieved documents only.",
    "prefs_avgjg_Rnonrel_ret": "prefs_avgjg_Rnonrel over retrieved documents only (R and N "
                               "counted among the retrieved).",
    "prefs_simp_imp": "prefs_simp ignoring preferences whose two documents are both "
                      "unretrieved.",
    "prefs_pair_imp": "prefs_pair ignoring pairs whose two documents are both unretrieved.",
    "prefs_avgjg_imp": "prefs_avgjg ignoring preferences whose two documents are both "
                       "unretrieved.",
}


def _pair(pc, kind):
    """prefs_pair: the pairs' summed shares over the number of pairs (sic: the plain
    measure sums the ``imp`` shares, as m_prefs_pair.c does)."""
    num, den = {"all": (pc.pair_sum_imp, pc.num_pairs),
                "ret": (pc.pair_sum_ret, pc.num_pairs_ret),
                "imp": (pc.pair_sum_imp, pc.num_pairs_imp)}[kind]
    return _ratio(num, den)


def _ratio_kernel(name: str):
    """The kernel of ``name`` in :data:`_RATIOS`: its family's function for its kind."""
    base, _, kind = name.rpartition("_")
    if kind not in ("ret", "imp"):
        base, kind = name, "all"
    family = {"prefs_simp": _simp, "prefs_pair": _pair, "prefs_avgjg": _avgjg,
              "prefs_avgjg_Rnonrel": _avgjg_rnonrel}[base]

    def kernel(pc, params):
        return family(_pc(pc, name), kind)

    kernel.__name__ = kernel.__qualname__ = name
    return kernel


for _name, _text in _RATIOS.items():
    _measure(_name, DOUBLE, _text, cite=CITE.format(_name))(_ratio_kernel(_name))
