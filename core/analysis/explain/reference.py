"""The measure reference: every registry measure with its definition, formula,
parameters, range, names in trec_eval / ir_measures / ranx, and source.

Built from the registry (:mod:`yardstick.evaluation.measures.registry`: description, kind,
default parameters, citation, aliases) plus the formulas and the few
ir_measures/ranx names the registry does not carry.  Searchable
(:func:`search_measures`) and used for table-header tooltips (:func:`tooltip`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pandas as pd

from yardstick.evaluation.measures.registry import (
    CUT_DOUBLE,
    CUT_LONG,
    LONG,
    NUM_Q,
    P_DOUBLE,
    P_PAIR,
    RUNID,
    STRING,
    all_measures,
)

#: formulas in the notation of the explanations: a document is relevant when its grade is at
#: least the relevance level l in force (trec_eval -l, default 1); R = relevant documents in
#: the qrels; relret(k) = how many relevant documents ranks 1..k hold (a count: with graded
#: qrels a grade-2 document counts 1, as a grade-1 one); r_i = rank of the i-th relevant
#: document (TREC appendix "Common Evaluation Measures", §2.1)
FORMULAS = {
    "runid": "the run tag of the file's last line",
    "num_q": "number of topics averaged over",
    "num_ret": "|retrieved|",
    "num_rel": "R = |qrels documents with grade >= relevance level|",
    "num_rel_ret": "|relevant ∩ retrieved|",
    "num_nonrel_judged_ret": "|retrieved and judged non-relevant|",
    "map": "AP = (1/R) Σ_i i / r_i,  i = relret(r_i)   (MAP = mean AP over topics)",
    "yaap": "yaap = ln((1 + S) / (1 + R − S)),  S = Σ_i i / r_i",
    "gm_map": "exp( mean over topics of ln(max(AP, 0.00001)) )",
    "Rprec": "relret(R) / R",
    "bpref": "(1/R) Σ_{relevant r} (1 - min(|judged non-relevant above r|, R) / min(N, R))",
    "recip_rank": "1 / r_1",
    "iprec_at_recall": "iprec(x) = max { P(k) : recall(k) >= x }",
    "P": "P@k = relret(k) / k",
    "relstring": "the grades of ranks 1..N as characters",
    "recall": "recall@k = relret(k) / R",
    "infAP": "(1/R) Σ_{relevant at rank k} [1/k + ((k-1)/k)·(pooled above/(k-1))·"
             "(rel above + ε)/(judged above + 2ε)]",
    "gm_bpref": "exp( mean over topics of ln(max(bpref, 0.00001)) )",
    "Rprec_mult": "relret(c) / c,  c = (long)(m·R + 0.9)",
    "utility": "p1·a + p2·b + p3·c + p4·d (a rel ret, b nonrel ret, c rel missed, d rest)",
    "11pt_avg": "(1/11) Σ_{x = 0, 0.1, ..., 1} iprec(x)",
    "binG": "(1/R) Σ_{relevant d} 1 / log2(2 + non-relevant above d)",
    "G": "Σ_i g_i / log2(2 + idealcost(i) - gain so far(i)) / Σ ideal gains",
    "dcg": "DCG = Σ_i g_i / log2(i + 1)",
    "ideal_dcg": "DCG of the judged documents sorted by decreasing gain",
    "ndcg": "DCG / ideal DCG (whole ranking)",
    "ndcg_rel": "mean of nDCG at the rank of each positive-gain document",
    "Rndcg": "mean of nDCG at the ranks where the ideal gain changes",
    "ndcg_cut": "nDCG@k = DCG@k / ideal DCG@k (gain = grade)",
    "map_cut": "AP@k = (1/R) Σ_{r_i <= k} i / r_i",
    "relative_P": "relret(k) / min(k, R)",
    "success": "1 if relret(k) > 0 else 0",
    "set_P": "rel_ret / num_ret",
    "set_relative_P": "rel_ret / min(num_ret, R)",
    "set_recall": "rel_ret / R",
    "set_map": "rel_ret² / (num_ret · R)",
    "set_F": "(β+1)·P·R / (β·P + R)",
    "rbp": "(1 - p) Σ_i g_i p^(i-1)",
    "rbp_resid": "p^n + (1 - p) Σ_{unjudged i} p^(i-1)",
    "unj": "|unjudged among the first k| / k",
    "no_rel_10": "1 if relret(10) = 0 else 0",
    "map_worst": "MAP(X) = mean AP of the X worst topics (X = N/4)",
    "area": "mean of MAP(X) for X = 1..N/4",
}

#: names in other toolkits the registry does not list
EXTRA_ALIASES = {
    "set_P": {"ir_measures": "SetP"}, "set_recall": {"ir_measures": "SetR"},
    "set_F": {"ir_measures": "SetF(beta=)"}, "set_map": {"ir_measures": "SetAP"},
    "set_relative_P": {"ir_measures": "SetRelP"}, "bpref": {"ranx": "bpref"},
    "rbp": {"ranx": "rbp"}, "dcg": {"ranx": "dcg"}, "relative_P": {},
}

KIND_TEXT = {CUT_LONG: "document cutoffs k", CUT_DOUBLE: "levels", P_DOUBLE: "numbers",
             P_PAIR: "name=value pairs", STRING: "length N"}


@dataclass(frozen=True)
class MeasureReference:
    """One row of the reference."""

    name: str
    definition: str
    formula: str
    parameters: str
    range: str
    summary: str
    trec_eval_name: str
    ir_measures: str
    ranx: str
    source: str

    def text(self) -> str:
        """A multi-line description (tooltips, ``yardstick explain --reference``)."""
        lines = [f"{self.name}: {self.definition}", f"  formula: {self.formula}",
                 f"  parameters: {self.parameters}", f"  range: {self.range}; summary: "
                 f"{self.summary}", f"  trec_eval: {self.trec_eval_name}"]
        if self.ir_measures or self.ranx:
            lines.append(f"  ir_measures: {self.ir_measures or '-'}; ranx: {self.ranx or '-'}")
        lines.append(f"  source: {self.source}")
        return "\n".join(lines)


def _summary_text(d) -> str:
    if d.aggregate is not None:
        return "over all topics (own aggregate)"
    if d.kind == RUNID:
        return "text"
    if d.kind == NUM_Q:
        return "count of topics"
    if d.average == "gm":
        return "geometric mean over topics"
    if d.kind == LONG:
        return "sum over topics"
    if d.kind == STRING:
        return "per topic only"
    return "mean over topics"


def _params_text(d) -> str:
    if not d.default_params and d.kind not in (P_PAIR,):
        return "none" if d.kind not in KIND_TEXT else f"{KIND_TEXT[d.kind]} (no default)"
    if d.kind == P_PAIR:
        return "gains as level=gain pairs (default: gain = grade)" + (
            "; p=persistence (default 0.9)" if d.name.startswith("rbp") else "")
    vals = ",".join(f"{p:g}" if isinstance(p, float) else str(p) for p in d.default_params)
    example = {CUT_LONG: vals.split(",")[0], CUT_DOUBLE: "0.5", P_DOUBLE: vals,
               STRING: vals}.get(d.kind, vals)
    return f"{KIND_TEXT.get(d.kind, 'parameters')}: {vals} (e.g. {d.name}.{example})"


def _te_name(d) -> str:
    if not d.trec_eval:
        return "(Yardstick only; not in trec_eval)"
    if d.kind == CUT_LONG:
        return f"{d.name}_<k> (e.g. {d.name}_{d.default_params[0] if d.default_params else 10})"
    if d.kind == CUT_DOUBLE:
        return f"{d.name}_<x.xx> (e.g. {d.name}_0.20)"
    return d.name


def measure_reference() -> list[MeasureReference]:
    """Every registry measure, in trec_eval's table order then Yardstick's own."""
    return list(_rows(len(all_measures())))


@lru_cache(maxsize=4)
def _rows(n_registered: int) -> tuple[MeasureReference, ...]:
    """The rows, built once per registry size (the registry only grows by imports)."""
    out = []
    for d in all_measures():
        al = {**d.aliases, **EXTRA_ALIASES.get(d.name, {})}
        out.append(MeasureReference(
            name=d.name, definition=d.description, formula=FORMULAS.get(d.name, ""),
            parameters=_params_text(d), range=d.range, summary=_summary_text(d),
            trec_eval_name=_te_name(d), ir_measures=al.get("ir_measures", ""),
            ranx=al.get("ranx", ""), source=d.cite or "trec_eval 10.0"))
    return tuple(out)


def reference_frame() -> pd.DataFrame:
    """The reference as a table (index: measure name)."""
    rows = [r.__dict__ for r in measure_reference()]
    return pd.DataFrame(rows).set_index("name")


def search_measures(text: str) -> list[MeasureReference]:
    """Measures matching every word of ``text`` (case-insensitive), best first.

    Words are looked for in the name, definition, formula, aliases and source;
    a measure whose name equals the text comes first, then names starting with it.
    """
    words = text.lower().split()
    rows = measure_reference()
    if not words:
        return rows

    def hay(r: MeasureReference) -> str:
        return " ".join([r.name, r.definition, r.formula, r.ir_measures, r.ranx, r.source,
                         r.trec_eval_name]).lower()

    hits = [r for r in rows if all(w in hay(r) for w in words)]
    q = text.strip().lower()
    return sorted(hits, key=lambda r: (r.name.lower() != q, not r.name.lower().startswith(q)))


def reference_for(name: str) -> MeasureReference | None:
    return {r.name: r for r in measure_reference()}.get(name)


def tooltip(column: str) -> str:
    """Tooltip for a printed column (``P_10``, ``ndcg_cut_20``, ``map``)."""
    ref = reference_for(column)
    param = ""
    if ref is None:
        names = sorted((r.name for r in measure_reference()), key=len, reverse=True)
        for n in names:
            if column.startswith(n + "_"):
                ref, param = reference_for(n), column[len(n) + 1:]
                break
    if ref is None:
        return column
    head = f"{column}: {ref.definition}"
    if param:
        sym = "k" if param.isdigit() else "parameter"
        head += f"  [{sym} = {param}]"
    return f"{head}\n{ref.formula}\nSource: {ref.source}"
