"""What a measure is: its kind, its definition record and the decorator that registers it.

The kernel modules (``average_precision``, ``precision``, ``gain`` …) import this
module and register themselves with :func:`measure`; :mod:`yardstick.evaluation.measures.registry`
imports the kernel modules and answers look-ups.  Nothing here imports a kernel, so
the import graph has no cycle: ``definition`` ← kernels ← ``registry``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

#: kinds, after trec_eval's init/print routines
LONG = "long"            # te_init_meas_s_long: integer, summed over topics
DOUBLE = "double"        # te_init_meas_s_double
CUT_LONG = "cut_long"    # te_init_meas_a_double_cut_long: name_<cutoff>
CUT_DOUBLE = "cut_double"  # te_init_meas_a_double_cut_double: name_<%3.2f>
P_DOUBLE = "p_double"    # te_init_meas_s_double_p_double: name[_<params>]
P_PAIR = "p_pair"        # te_init_meas_s_double_p_pair: name[_<k=v,...>]
STRING = "string"        # relstring
RUNID = "runid"
NUM_Q = "num_q"


@dataclass(frozen=True)
class MeasureDef:
    """One measure (or family of measures with cutoffs) as trec_eval defines it."""

    name: str
    kind: str
    kernel: Callable
    description: str
    default_params: tuple = ()
    average: str = "mean"          # mean | gm | sum | none
    per_topic: bool = True         # printed with -q
    cite: str = ""
    range: str = "[0, 1]"
    aliases: dict = field(default_factory=dict)  # {"ir_measures": "P@k", "ranx": "precision@k"}
    trec_eval: bool = True         # a trec_eval measure (False: Yardstick's own, e.g. robust)
    #: summary-only measures with their own aggregate: f(per_topic_values, params) -> float
    aggregate: Callable | None = None
    #: the judgment format the measure needs (trec_eval -R): qrels, prefs or qrels_jg
    rel_format: str = "qrels"



#: trec_eval 10.0's measure table order (measures.c ``te_trec_measures``)
TABLE_ORDER = [
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
    "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref",
    "Rprec_mult", "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel",
    "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P",
    "set_recall", "set_map", "set_F", "num_nonrel_judged_ret",
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
    "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
    "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
    "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap", "rbp", "rbp_resid",
    "unj",
]

NICKNAMES: dict[str, list[str]] = {
    "official": ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"],
    "set": ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F"],
    "all_trec": ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
                 "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
                 "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
                 "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall",
                 "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"],
    "all_prefs": ["runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
                  "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
                  "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
                  "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
                  "prefs_avgjg_imp"],
    "prefs": ["runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
              "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg"],
    "qrels_jg": ["runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"],
    # Yardstick's own group: the TREC 2003 robust track measures
    "robust": ["num_q", "map", "gm_map", "P", "no_rel_10", "map_worst", "area"],
}


class MeasureError(ValueError):
    """An unknown measure or malformed parameters (trec_eval: 'illegal measure')."""


#: every registered measure by trec_eval name (filled by the kernel modules on import)
DEFINITIONS: dict[str, MeasureDef] = {}


def measure(name: str, kind: str, description: str, **kw) -> Callable:
    """Decorator registering a kernel under ``name``."""
    def deco(fn: Callable) -> Callable:
        DEFINITIONS[name] = MeasureDef(name=name, kind=kind, kernel=fn,
                                       description=description.strip(), **kw)
        return fn
    return deco
