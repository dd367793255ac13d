"""Names and one-line descriptions of the measures a user can pick.

An adapter over the measure registry (:mod:`core.measures.registry`), which
may expose its descriptors in a few shapes; when it cannot be imported the
catalog falls back to a fixed list of trec_eval measures, so the measure
picker and table-header tooltips work either way.  Descriptions of the
fallback follow trec_eval 10.0's help texts (``m_*.c``) and the TREC
appendix "Common Evaluation Measures".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MeasureInfo", "catalog", "describe", "search"]


@dataclass(frozen=True)
class MeasureInfo:
    """One pickable measure: trec_eval name, description, default parameters."""

    name: str
    description: str = ""
    params: str = ""

    @property
    def spec(self) -> str:
        """What to ask the engine for: ``name`` or ``name.params``."""
        return f"{self.name}.{self.params}" if self.params else self.name


FALLBACK = [
    MeasureInfo("map", "Mean average precision: mean over relevant documents of the precision "
                       "at each relevant document's rank (unretrieved relevant count 0)."),
    MeasureInfo("P", "Precision at cutoff k: relevant retrieved in the top k, divided by k.",
                "5,10,15,20,30,100,200,500,1000"),
    MeasureInfo("recall", "Recall at cutoff k: relevant retrieved in the top k over all relevant.",
                "5,10,15,20,30,100,200,500,1000"),
    MeasureInfo("Rprec", "R-precision: precision after R documents, R = number of relevant."),
    MeasureInfo("recip_rank", "Reciprocal rank of the first relevant document."),
    MeasureInfo("bpref", "Binary preference: how many judged non-relevant documents are ranked "
                         "above each relevant one (Buckley & Voorhees 2004)."),
    MeasureInfo("infAP", "Inferred AP for incomplete, sampled judgments (Yilmaz & Aslam 2006)."),
    MeasureInfo("ndcg", "Normalized discounted cumulative gain over the whole ranking "
                        "(Järvelin & Kekäläinen 2002), gains = relevance grades."),
    MeasureInfo("ndcg_cut", "nDCG at cutoff k.", "5,10,15,20,30,100,200,500,1000"),
    MeasureInfo("map_cut", "Mean average precision at cutoff k.", "5,10,15,20,30,100,200,500,1000"),
    MeasureInfo("iprec_at_recall", "Interpolated precision at the 11 standard recall levels.",
                "0.00,0.10,0.20,0.30,0.40,0.50,0.60,0.70,0.80,0.90,1.00"),
    MeasureInfo("gm_map", "Geometric mean of average precision (robust track)."),
    MeasureInfo("Rprec_mult", "Precision after R x m documents.", "0.20,0.40,0.60,0.80,1.00"),
    MeasureInfo("success", "1 if a relevant document is in the top k.", "1,5,10"),
    MeasureInfo("set_P", "Precision of the whole retrieved set."),
    MeasureInfo("set_recall", "Recall of the whole retrieved set."),
    MeasureInfo("set_F", "F-measure of the retrieved set (beta = 1)."),
    MeasureInfo("num_ret", "Number of documents retrieved."),
    MeasureInfo("num_rel", "Number of relevant documents in the qrels."),
    MeasureInfo("num_rel_ret", "Number of relevant documents retrieved."),
    MeasureInfo("num_q", "Number of topics evaluated."),
]


def _text(obj, *names: str) -> str:
    for n in names:
        v = obj.get(n) if isinstance(obj, dict) else getattr(obj, n, None)
        if callable(v):
            try:
                v = v()
            except TypeError:
                continue
        if v not in (None, ""):
            return v if isinstance(v, str) else (
                ",".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v))
    return ""


def _from_registry() -> list[MeasureInfo] | None:
    try:
        from core.measures import registry as reg
    except Exception:  # noqa: BLE001 - not written yet, or broken: use the fallback
        return None
    items = None
    for fn in ("all_measures", "measures", "descriptors", "list_measures"):
        f = getattr(reg, fn, None)
        if callable(f):
            try:
                items = f()
                break
            except Exception:  # noqa: BLE001
                continue
    if items is None:
        for attr in ("REGISTRY", "MEASURES", "registry"):
            v = getattr(reg, attr, None)
            if isinstance(v, (dict, list, tuple)):
                items = v
                break
    if items is None:
        return None
    if isinstance(items, dict):
        items = [v if not isinstance(v, (str, type(None))) else {"name": k} for k, v in
                 items.items()]
    out = []
    for d in items:
        name = d if isinstance(d, str) else _text(d, "name", "trec_name", "trec_eval_name")
        if not name:
            continue
        desc = "" if isinstance(d, str) else _text(d, "description", "help", "definition", "doc")
        params = "" if isinstance(d, str) else _text(d, "default_params", "params", "cutoffs")
        out.append(MeasureInfo(name, " ".join(desc.split()), params))
    return out or None


_CACHE: list[MeasureInfo] | None = None


def catalog(refresh: bool = False) -> list[MeasureInfo]:
    """Every pickable measure (from the registry when it can be imported)."""
    global _CACHE
    if _CACHE is None or refresh:
        _CACHE = _from_registry() or list(FALLBACK)
    return _CACHE


def describe(column: str) -> str:
    """A tooltip for a per-topic column name (``P_10`` -> precision at cutoff 10 ...)."""
    by_name = {m.name: m for m in catalog()}
    if column in by_name:
        return f"{column}: {by_name[column].description}".strip(": ")
    m = re.match(r"^(.*?)_([0-9.]+)$", column)
    if m and m.group(1) in by_name:
        base = by_name[m.group(1)]
        return f"{column}: {base.description} (k = {m.group(2)})"
    return column


def search(text: str) -> list[MeasureInfo]:
    """Measures whose name or description contains every word of ``text`` (case-insensitive)."""
    words = text.lower().split()
    return [m for m in catalog()
            if all(w in (m.name + " " + m.description).lower() for w in words)]
