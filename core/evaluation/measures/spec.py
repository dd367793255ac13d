"""Measures as values: one ``-m`` argument, in trec_eval's, ir_measures' or ranx's spelling.

A :class:`MeasureSpec` is parsed once from text and prints back to the same
(canonical) text; it is what the CLI, the window, sessions, reports and the
Python API pass around (ir_measures' measure objects are the model:
MacAvaney, Macdonald and Ounis, "Streamlining Evaluation with ir-measures",
ECIR 2022).  Three spellings are understood:

* trec_eval's: ``map``, ``P.5,10``, ``ndcg_cut.10``, ``iprec_at_recall.0.1,0.5``,
  ``official`` (the text after the first dot is the measure's parameters, as in
  trec_eval's ``-m``);
* ir_measures': ``AP``, ``nDCG@10``, ``P(rel=2)@5``, ``AP(judged_only=True)``,
  ``R@1000``, ``RR``, ``Success@10``, ``IPrec@0.5``, ``SetF(beta=0.5)`` …;
* ranx's: ``map``, ``ndcg@10``, ``precision@10``, ``recall@100``, ``mrr``,
  ``r-precision``, ``hit_rate@5``, ``bpref`` ….

Each maps to exactly one trec_eval measure (with an optional relevance level
``-l`` and ``-J`` that apply to that measure alone); a name with no exact
trec_eval equivalent is refused with the nearest known names, never
approximated (:data:`REFUSED` says why for the well-known ones).

>>> s = parse_measure("nDCG@10")
>>> s.trec_eval, str(s), s.dialect
('ndcg_cut.10', 'nDCG@10', 'ir_measures')
>>> parse_measure("P(rel=2)@5").rel_level
2
>>> str(parse_measure("P.5,10"))
'P.5,10'
>>> parse_measure("precision@10").trec_eval
'P.10'
>>> parse_measure("ERR@10")
Traceback (most recent call last):
...
yardstick.evaluation.measures.definition.MeasureError: 'ERR@10' has no exact trec_eval equivalent:
trec_eval has no ERR (Chapelle et al. 2009); nearest: ndcg_cut.10, recip_rank
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from yardstick.evaluation.measures.definition import (
    CUT_DOUBLE,
    CUT_LONG,
    DEFINITIONS,
    NICKNAMES,
    MeasureError,
)

__all__ = ["MeasureSpec", "parse_measure", "parse_measures", "output_label", "NAME_TABLE",
           "REFUSED"]

TREC = "trec_eval"
IRM = "ir_measures"
RANX = "ranx"

# ir_measures name -> (trec_eval measure, how a cutoff/parameter is passed)
#   "cut": Name@k -> measure.k (no @k -> the measure with its defaults, if allowed)
#   "none": no cutoff allowed;  "recall": IPrec@r -> iprec_at_recall.r
_IRM: dict[str, tuple[str | None, str | None]] = {
    # name: (measure without @k, measure with @k)
    "AP": ("map", "map_cut"), "MAP": ("map", "map_cut"),
    "P": (None, "P"), "Precision": (None, "P"),
    "R": (None, "recall"), "Recall": (None, "recall"),
    "nDCG": ("ndcg", "ndcg_cut"), "NDCG": ("ndcg", "ndcg_cut"),
    "RR": ("recip_rank", None), "MRR": ("recip_rank", None),
    "Rprec": ("Rprec", None), "RPrec": ("Rprec", None),
    "Bpref": ("bpref", None), "BPref": ("bpref", None),
    "infAP": ("infAP", None),
    "Success": (None, "success"),
    "IPrec": (None, "iprec_at_recall"),
    "NumRet": ("num_ret", None), "NumRel": ("num_rel", None),
    "NumRelRet": ("num_rel_ret", None), "NumQ": ("num_q", None),
    "SetP": ("set_P", None), "SetR": ("set_recall", None), "SetAP": ("set_map", None),
    "SetRelP": ("set_relative_P", None), "SetF": ("set_F", None),
}
# ranx name -> (measure without @k, measure with @k)
_RANX: dict[str, tuple[str | None, str | None]] = {
    "map": ("map", "map_cut"), "ndcg": ("ndcg", "ndcg_cut"), "precision": ("set_P", "P"),
    "recall": ("set_recall", "recall"), "mrr": ("recip_rank", None),
    "r-precision": ("Rprec", None), "hit_rate": (None, "success"), "bpref": ("bpref", None),
}
#: well-known names with no exact trec_eval equivalent, and why
REFUSED: dict[str, str] = {
    "ERR": "trec_eval has no ERR (Chapelle et al. 2009)",
    "nERR": "trec_eval has no ERR (Chapelle et al. 2009)",
    "Judged": "trec_eval reports unj (the unjudged share), not Judged; Judged@k = 1 - unj_k",
    "RBP": "trec_eval's rbp takes p as rbp.p=<p>; ask for it in trec_eval's spelling",
    "Compat": "trec_eval has no compatibility measure (Clarke et al. 2020)",
    "alpha_nDCG": "trec_eval has no diversity measures (use ndeval)",
    "hits": "trec_eval has no count of relevant documents at k (P.k times k)",
    "f1": "trec_eval has no F1 at a cutoff (set_F is over the whole ranking)",
    "mrr@": "trec_eval's recip_rank has no cutoff",
    "RR@": "trec_eval's recip_rank has no cutoff",
    "ndcg_burges": "trec_eval's ndcg uses linear gains, not 2^rel - 1",
    "dcg": "ranx's dcg is not trec_eval's dcg (different cutoff and gain conventions)",
    "dcg_burges": "trec_eval's dcg uses linear gains, not 2^rel - 1",
}
_IRM_NAME = re.compile(r"^(?P<name>[A-Za-z_α]+)(?:\((?P<args>[^()]*)\))?(?:@(?P<cut>[^@]+))?$")
_RANX_NAME = re.compile(r"^(?P<name>[a-z][a-z_\-]*)(?:@(?P<cut>\d+))?$")


@dataclass(frozen=True)
class MeasureSpec:
    """One requested measure: its text, the trec_eval request it means and its options.

    Attributes
    ----------
    text : str
        The canonical text as written (``nDCG@10``, ``P.5,10``, ``map``); ``str(spec)``.
    dialect : str
        ``trec_eval``, ``ir_measures`` or ``ranx``.
    trec_eval : str
        The trec_eval ``-m`` text it means (``ndcg_cut.10``).
    rel_level : int or None
        A relevance level for this measure alone (ir_measures' ``rel=``); None: the
        evaluation's ``-l``.
    judged_only : bool
        ``-J`` for this measure alone (ir_measures' ``judged_only=True``).
    """

    text: str
    dialect: str
    trec_eval: str
    rel_level: int | None = None
    judged_only: bool = False

    def __str__(self) -> str:
        return self.text

    @property
    def measure(self) -> str:
        """trec_eval's measure name (``ndcg_cut``)."""
        return self.trec_eval.partition(".")[0]

    @property
    def has_own_options(self) -> bool:
        """True when the spec carries its own ``-l`` or ``-J``."""
        return self.rel_level is not None or self.judged_only


def _nearest(text: str) -> str:
    pool = list(DEFINITIONS) + list(_IRM) + [f"{n}@k" for n in _RANX]
    near = difflib.get_close_matches(text.split("@")[0].split("(")[0].split(".")[0], pool, n=3,
                                     cutoff=0.5)
    return ", ".join(near) if near else "see 'yardstick eval --list'"


def _spelling_hint(t: str) -> str | None:
    """What the user most likely meant: a printed column name (``P_10`` is how trec_eval
    prints ``P.10``) or a known name in another case (``p@10``, ``MAP``).

    >>> _spelling_hint("P_10")
    "P_10 is how trec_eval prints P.10: ask for 'P.10'"
    >>> _spelling_hint("p@10"), _spelling_hint("MAP")
    ("did you mean 'P@10'?", "did you mean 'map'?")
    """
    base, _, cut = t.rpartition("_")
    if base in DEFINITIONS and cut and DEFINITIONS[base].kind in (CUT_LONG, CUT_DOUBLE):
        return f"{t} is how trec_eval prints {base}.{cut}: ask for '{base}.{cut}'"
    name, at, rest = t.partition("@")
    for known in (*DEFINITIONS, *NICKNAMES, *_IRM, *_RANX):
        if known != name and known.lower() == name.lower():
            return f"did you mean '{known}{at}{rest}'?"
    return None


def _refuse(text: str, why: str, nearest: str | None = None) -> MeasureError:
    return MeasureError(f"{text!r} has no exact trec_eval equivalent: {why}; "
                        f"nearest: {nearest or _nearest(text)}")


def _bool(v: str, text: str) -> bool:
    if v in ("True", "true", "1"):
        return True
    if v in ("False", "false", "0"):
        return False
    raise MeasureError(f"{text!r}: expected True or False, found {v!r}")


def _parse_irm(text: str, m: re.Match) -> MeasureSpec:
    name, args, cut = m.group("name"), m.group("args"), m.group("cut")
    if name in REFUSED or (cut is not None and f"{name}@" in REFUSED):
        key = name if name in REFUSED else f"{name}@"
        near = {"ERR": f"ndcg_cut.{cut}, recip_rank" if cut else "ndcg, recip_rank",
                "Judged": f"unj.{cut}" if cut else "unj", "RR@": "recip_rank",
                "RBP": "rbp.p=0.8"}.get(key)
        raise _refuse(text, REFUSED[key], near)
    without, with_cut = _IRM[name]
    kw: dict[str, str] = {}
    for item in filter(None, (a.strip() for a in (args or "").split(","))):
        k, eq, v = item.partition("=")
        if not eq:
            raise MeasureError(f"{text!r}: parameters are name=value ({item!r})")
        kw[k.strip()] = v.strip()
    rel = None
    if "rel" in kw:
        try:
            rel = int(kw.pop("rel"))
        except ValueError:
            raise MeasureError(f"{text!r}: rel must be a whole number") from None
        if name in ("R", "Recall", "nDCG", "NDCG"):
            raise _refuse(text, f"ir_measures' {name} has no rel= in trec_eval")
        if name == "NumRet":
            without = "num_rel_ret"  # ir_measures: NumRet(rel=k) is trec_eval's num_rel_ret
    judged = _bool(kw.pop("judged_only", "False"), text)
    params = None
    if name == "SetF" and "beta" in kw:
        params = kw.pop("beta")
    if name in ("SetP",) and _bool(kw.pop("relative", "False"), text):
        without = "set_relative_P"
    if kw:
        raise _refuse(text, f"parameters {sorted(kw)} have no trec_eval equivalent")
    if cut is not None:
        if with_cut is None:
            raise _refuse(text, f"trec_eval's {without} has no cutoff", without)
        if with_cut == "iprec_at_recall":
            try:
                float(cut)
            except ValueError:
                raise MeasureError(f"{text!r}: IPrec@ takes a recall level") from None
        elif not cut.isdigit() or int(cut) <= 0:
            raise MeasureError(f"{text!r}: the cutoff must be a positive whole number")
        trec = f"{with_cut}.{cut}"
    elif without is None:
        raise MeasureError(f"{text!r}: ir_measures' {name} needs a cutoff ({name}@k)")
    else:
        trec = without if params is None else f"{without}.{params}"
    return MeasureSpec(text, IRM, trec, rel, judged)


def _parse_ranx(text: str, m: re.Match) -> MeasureSpec:
    name, cut = m.group("name"), m.group("cut")
    if name in REFUSED or (cut is not None and f"{name}@" in REFUSED):
        key = name if name in REFUSED else f"{name}@"
        near = {"hits": f"P.{cut}" if cut else "num_rel_ret", "mrr@": "recip_rank",
                "f1": "set_F"}.get(key)
        raise _refuse(text, REFUSED[key], near)
    without, with_cut = _RANX[name]
    if cut is None:
        if without is None:
            raise MeasureError(f"{text!r}: ranx's {name} needs a cutoff ({name}@k)")
        return MeasureSpec(text, RANX, without)
    if with_cut is None:
        raise _refuse(text, f"trec_eval's {without} has no cutoff", without)
    if int(cut) <= 0:
        raise MeasureError(f"{text!r}: the cutoff must be a positive whole number")
    return MeasureSpec(text, RANX, f"{with_cut}.{cut}")


def parse_measure(text: str) -> MeasureSpec:
    """Parse one measure name in any of the three spellings (see module docstring)."""
    t = text.strip()
    if not t:
        raise MeasureError("empty measure name")
    head = t.partition(".")[0]
    if head in DEFINITIONS or head in NICKNAMES:  # trec_eval's spelling wins (map, bpref …)
        if "@" not in t and "(" not in t:
            return MeasureSpec(t, TREC, t)
    m = _RANX_NAME.match(t)
    if m and (m.group("name") in _RANX or m.group("name") in REFUSED
              or f"{m.group('name')}@" in REFUSED):
        return _parse_ranx(t, m)
    m = _IRM_NAME.match(t)
    if m and (m.group("name") in _IRM or m.group("name") in REFUSED
              or f"{m.group('name')}@" in REFUSED):
        return _parse_irm(t, m)
    hint = _spelling_hint(t)
    if hint:
        raise MeasureError(f"unknown measure {t!r}; {hint}")
    near = _nearest(t)
    raise MeasureError(f"unknown measure {t!r}; " + (
        f"nearest: {near} (see 'yardstick eval --list')" if not near.startswith("see ")
        else f"{near} for every name"))


def parse_measures(texts) -> list[MeasureSpec]:
    """Parse a name or a sequence of names (``MeasureSpec`` values pass through)."""
    if isinstance(texts, (str, MeasureSpec)):
        texts = [texts]
    return [t if isinstance(t, MeasureSpec) else parse_measure(t) for t in texts]


# ---------------------------------------------------------------- output names
_LABEL_IRM = {"map": "AP", "recip_rank": "RR", "Rprec": "Rprec", "bpref": "Bpref",
              "infAP": "infAP", "num_ret": "NumRet", "num_rel": "NumRel",
              "num_rel_ret": "NumRelRet", "num_q": "NumQ", "set_P": "SetP",
              "set_recall": "SetR", "set_map": "SetAP", "set_relative_P": "SetRelP",
              "set_F": "SetF", "ndcg": "nDCG"}
_CUT_IRM = {"P": "P", "recall": "R", "ndcg_cut": "nDCG", "map_cut": "AP", "success": "Success",
            "iprec_at_recall": "IPrec"}
_LABEL_RANX = {"map": "map", "recip_rank": "mrr", "Rprec": "r-precision", "bpref": "bpref",
               "ndcg": "ndcg", "set_P": "precision", "set_recall": "recall"}
_CUT_RANX = {"P": "precision", "recall": "recall", "ndcg_cut": "ndcg", "map_cut": "map",
             "success": "hit_rate"}


def output_label(column: str, names: str = TREC) -> str:
    """A printed trec_eval column name (``P_10``) in another library's spelling (``P@10``).

    Columns with no equivalent in that library keep trec_eval's name.

    >>> output_label("ndcg_cut_10", "ir_measures"), output_label("P_10", "ranx")
    ('nDCG@10', 'precision@10')
    >>> output_label("iprec_at_recall_0.10", "ir_measures")
    'IPrec@0.1'
    """
    if names == TREC:
        return column
    plain, cuts = (_LABEL_IRM, _CUT_IRM) if names == IRM else (_LABEL_RANX, _CUT_RANX)
    if names not in (IRM, RANX):
        raise ValueError(f"names must be trec_eval, ir_measures or ranx, not {names!r}")
    if column in plain:
        return plain[column]
    base, _, cut = column.rpartition("_")
    if base in cuts and cut:
        if base == "iprec_at_recall":
            cut = f"{float(cut):g}"
        return f"{cuts[base]}@{cut}"
    return column


def _table() -> list[tuple[str, str, str]]:
    rows = []
    for trec, irm in _LABEL_IRM.items():
        rows.append((trec, irm, _LABEL_RANX.get(trec, "")))
    for trec, irm in _CUT_IRM.items():
        rows.append((f"{trec}.k", f"{irm}@k", f"{_CUT_RANX[trec]}@k" if trec in _CUT_RANX
                     else ""))
    return rows


#: (trec_eval, ir_measures, ranx) rows for the README's name table
NAME_TABLE: list[tuple[str, str, str]] = _table()


# ---------------------------------------------------------------- several cutoffs
def merge_cutoffs(specs, every: bool = False) -> list[MeasureSpec]:
    """Specs with the cutoffs of one measure gathered into its first request.

    trec_eval keeps the parameters of the *first* ``-m`` that names a measure
    (``-m P.5 -m P.10`` prints only ``P_5``; ``meas_init.c``), and ``yardstick eval``
    does the same for trec_eval's spelling.  A name in ir_measures' or ranx's
    spelling means one measure at one cutoff, so ``P@5`` and ``P@10`` together ask
    for both: the cutoffs of that measure, in any spelling, are merged into one
    request (``P.5,10``); with ``every=True`` (the Python API) trec_eval's spelling
    alone is merged too.  Only cutoff measures (``P``, ``recall``, ``ndcg_cut``,
    ``iprec_at_recall`` …) are merged; a spec with options of its own
    (``P(rel=2)@5``) stays apart.

    >>> [s.text for s in merge_cutoffs(["P@5", "map", "P@10", "nDCG@10"])]
    ['P.5,10', 'map', 'nDCG@10']
    >>> [s.text for s in merge_cutoffs(["P.5", "P.10"])], \
[s.text for s in merge_cutoffs(["P.5", "P.10"], every=True)]
    (['P.5', 'P.10'], ['P.5,10'])
    >>> [s.text for s in merge_cutoffs(["P.5", "P@10"])]
    ['P.5,10']
    """
    specs = parse_measures(specs)

    def cutoff_name(s: MeasureSpec) -> str | None:
        name, dot, _ = s.trec_eval.partition(".")
        d = DEFINITIONS.get(name)
        if dot and not s.has_own_options and d is not None and d.kind in (CUT_LONG, CUT_DOUBLE):
            return name
        return None

    names = [cutoff_name(s) for s in specs]
    merged = {n for n, s in zip(names, specs) if n and (every or s.dialect != TREC)}
    cutoffs: dict[str, dict[float | str, str]] = {n: {} for n in merged}
    for n, s in zip(names, specs):
        if n in merged:
            for p in s.trec_eval.partition(".")[2].split(","):
                cutoffs[n].setdefault(_cutoff_key(p), p)     # 10 and 10.0 are one cutoff
    out = []
    for n, s in zip(names, specs):
        if n not in merged:
            out.append(s)
        elif n in cutoffs:                                    # its first request
            text = f"{n}.{','.join(cutoffs.pop(n).values())}"
            out.append(s if s.trec_eval == text else MeasureSpec(text, TREC, text))
    return out


def _cutoff_key(p: str) -> float | str:
    try:
        return float(p)
    except ValueError:                  # malformed: kept, for the registry to refuse
        return p

