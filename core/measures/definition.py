"""What a measure is: its kind, its definition record and the decorator that registers it.

The kernel modules (``average_precision``, ``precision``, ``gain`` …) import this
module and register themselves with :func:`measure`; :mod:`yardstick.measures.registry`
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
