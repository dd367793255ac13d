"""The measure registry: every measure's name, parameters, help, citation and kernel.

Modelled on trec_eval's ``measures.c`` (one ordered table, named groups such
as ``official`` and ``all_trec``) and ir_measures' measures-as-values: a request
is text such as ``"P.5,10"``, ``"ndcg_cut.10"``, ``"set_F.0.5"``,
``"ndcg.1=3,2=9"`` or ``"rbp.p=0.5"``, parsed exactly as trec_eval's
``mark_measure``/``meas_init.c`` do, and the printed names (``P_5``,
``ndcg_cut_10``, ``set_F_0.5``) are those trec_eval prints.

Kernels live in sibling modules and register themselves with
:func:`yardstick.evaluation.measures.definition.measure`.
Each takes ``(jr, params)`` (a :class:`yardstick.judging.judged.JudgedRanking` and the parsed
parameters) and returns per-topic values: shape (T,) for single measures, (T, C)
for cutoff measures, a list of str for ``relstring``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

# importing the kernel modules registers them in DEFINITIONS
from yardstick.evaluation.measures import (  # noqa: F401
    average_precision,
    counts,
    gain,
    judgment_groups,
    precision,
    prefs,
    relstring,
    robust,
)

# (the kinds, MeasureDef, MeasureError and measure are re-exported for existing callers)
from yardstick.evaluation.measures.definition import (  # noqa: F401
    CUT_DOUBLE,
    CUT_LONG,
    DEFINITIONS,
    DOUBLE,
    LONG,
    NICKNAMES,
    NUM_Q,
    P_DOUBLE,
    P_PAIR,
    RUNID,
    STRING,
    TABLE_ORDER,
    MeasureDef,
    MeasureError,
    measure,
)

_REGISTRY = DEFINITIONS


def _load() -> None:
    """Kept for callers of the old lazy registry: the kernels register on import."""


def get(name: str) -> MeasureDef:
    _load()
    return _REGISTRY[name]


def all_measures(rel_format: str | None = "qrels") -> list[MeasureDef]:
    """Registered measures for a judgment format (None: all), trec_eval table order first."""
    _load()
    known = [n for n in TABLE_ORDER if n in _REGISTRY]
    extra = [n for n in _REGISTRY if n not in TABLE_ORDER]
    return [_REGISTRY[n] for n in known + extra
            if rel_format is None or _REGISTRY[n].rel_format in (rel_format, "any")]


def order_key(name: str) -> int:
    try:
        return TABLE_ORDER.index(name)
    except ValueError:
        return len(TABLE_ORDER) + list(_REGISTRY).index(name)


# ---------------------------------------------------------------------------
# Requests: "P.5,10" -> MeasureRequest(P, cutoffs (5, 10)), names as trec_eval prints
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class MeasureRequest:
    """A measure with its parameters, as asked for on the command line."""

    definition: MeasureDef
    params: tuple
    printable: str | None  # the parameter text as given (None: defaults)

    @property
    def name(self) -> str:
        return self.definition.name

    def output_names(self) -> list[str]:
        """Column / printed names: ``P_5``, ``iprec_at_recall_0.10``, ``set_F_0.5`` ..."""
        d = self.definition
        if d.kind == CUT_LONG:
            return [f"{d.name}_{int(c)}" for c in self.params]
        if d.kind == CUT_DOUBLE:
            return [f"{d.name}_{c:3.2f}" for c in self.params]
        if d.kind in (P_DOUBLE, P_PAIR, STRING) and self.printable is not None:
            return [f"{d.name}_{self.printable}"]
        return [d.name]

    def __str__(self) -> str:
        return self.name if self.printable is None else f"{self.name}.{self.printable}"


def _atol(text: str) -> int:
    """C ``atol``: leading integer, 0 if none."""
    import re

    m = re.match(r"\s*([+-]?\d+)", text)
    return int(m.group(1)) if m else 0


def _atof(text: str) -> float:
    """C ``atof``: longest leading float, 0.0 if none."""
    import re

    m = re.match(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)", text)
    return float(m.group(1)) if m else 0.0


def parse_params(d: MeasureDef, text: str) -> tuple:
    """Parse a parameter string as ``meas_init.c`` does for the measure's kind."""
    if d.kind == CUT_LONG:
        vals = sorted(_atol(p) for p in text.split(","))
        if vals[0] <= 0:
            raise MeasureError(f"{d.name}: cutoffs must be positive ({text!r})")
        if len(set(vals)) != len(vals):
            raise MeasureError(f"{d.name}: duplicate cutoffs ({text!r})")
        return tuple(vals)
    if d.kind == CUT_DOUBLE:
        vals = sorted(_atof(p) for p in text.split(","))
        if len(set(vals)) != len(vals):
            raise MeasureError(f"{d.name}: duplicate cutoffs ({text!r})")
        return tuple(vals)
    if d.kind == P_DOUBLE:
        return tuple(_atof(p) for p in text.split(","))
    if d.kind == P_PAIR:
        pairs = []
        for item in text.split(","):
            if item.count("=") != 1 or not item.split("=")[0]:
                raise MeasureError(f"{d.name}: malformed pair parameters in {text!r} "
                                   "(expected name=value,...)")
            k, v = item.split("=")
            pairs.append((k, _atof(v)))
        return tuple(pairs)
    if d.kind == STRING:
        return (_atof(text),)
    raise MeasureError(f"measure {d.name!r} takes no parameters")


#: measures trec_eval 9.0.8 does not have (its all_trec set lacks unj, rbp, rbp_resid)
NOT_IN_V9 = {"dcg", "ideal_dcg", "rbp", "rbp_resid", "unj"}


def parse_requests(specs: Sequence[str] | str, compat: int = 10) -> list[MeasureRequest]:
    """Turn ``-m`` arguments into requests, in trec_eval's output order.

    As in trec_eval, a measure named several times takes the parameters of the
    first ``-m`` that gave it some; nicknames (``official``, ``all_trec`` ...)
    mark every measure they list.
    """
    _load()
    if isinstance(specs, str):
        specs = [specs]
    marked: list[str] = []
    params: dict[str, str] = {}
    for spec in specs:
        spec = _trec_text(spec)
        name, dot, ptext = spec.partition(".")
        if dot:
            if not ptext:
                raise MeasureError(f"improper measure in parameter {spec!r}")
            params.setdefault(name, ptext)
        names = NICKNAMES.get(name, [name])
        if compat == 9 and name in NICKNAMES:
            names = [n for n in names if n not in NOT_IN_V9]
        for n in names:
            if n not in _REGISTRY:
                raise MeasureError(f"unknown measure {spec!r} (see 'yardstick eval --list')")
            if n not in marked:
                marked.append(n)
    out = []
    for n in sorted(marked, key=order_key):
        d = _REGISTRY[n]
        if n in params and d.kind in (CUT_LONG, CUT_DOUBLE, P_DOUBLE, P_PAIR, STRING):
            out.append(MeasureRequest(d, parse_params(d, params[n]), params[n]))
        else:
            out.append(MeasureRequest(d, d.default_params, None))
    return out


def _trec_text(spec) -> str:
    """trec_eval's ``-m`` text of a name in any spelling (ir_measures', ranx's)."""
    from yardstick.evaluation.measures.spec import MeasureSpec, parse_measure

    if isinstance(spec, str) and spec.partition(".")[0] in (*_REGISTRY, *NICKNAMES):
        return spec
    s = spec if isinstance(spec, MeasureSpec) else parse_measure(spec)
    if s.has_own_options:
        raise MeasureError(f"{s.text!r} has its own relevance level or judged_only: it is "
                           "evaluated apart (yardstick.evaluation.engine.plan_measures)")
    return s.trec_eval


def describe(names: Iterable[str] | None = None) -> list[dict]:
    """Measure reference rows (name, kind, default parameters, description, citation)."""
    rows = []
    for d in all_measures(None):
        if names is not None and d.name not in names:
            continue
        rows.append({"name": d.name, "kind": d.kind,
                     "defaults": ",".join(str(p) for p in d.default_params),
                     "average": d.average, "range": d.range,
                     "ir_measures": d.aliases.get("ir_measures", ""),
                     "ranx": d.aliases.get("ranx", ""),
                     "description": d.description, "cite": d.cite,
                     "trec_eval": d.trec_eval})
    return rows


def as_array(values) -> np.ndarray:
    return np.asarray(values, dtype=np.float64)
