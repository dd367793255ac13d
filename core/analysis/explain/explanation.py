"""The result of explaining one number: definition, ingredients, arithmetic, value.

:class:`Worked` is what a measure's explainer returns (the arithmetic for one
topic); :class:`Explanation` adds the measure's registry entry (definition,
citation) and the run/topic it belongs to, and renders itself as text or
Markdown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from yardstick.analysis.explain.topic_data import INGREDIENT_LABELS


def fmt(x, digits: int = 4) -> str:
    """A number as trec_eval prints it (4 decimals), integers without decimals."""
    if isinstance(x, str):
        return x
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    x = float(x)
    if math.isnan(x):
        return "nan"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.{digits}f}"


def frac(num, den) -> str:
    """``"3/10"``, with numbers formatted by :func:`fmt`."""
    return f"{fmt(num)}/{fmt(den)}"


@dataclass(frozen=True)
class Worked:
    """One measure's arithmetic for one topic (what an explainer returns).

    Attributes
    ----------
    formula : str
        The definition as a formula, with symbols (``P@k = rel(k) / k``).
    steps : tuple of str
        The arithmetic written out with the topic's numbers, last line the result.
    value : float or str
        The resulting value (as the engine reports it).
    terms : tuple of (str, float)
        The summands or factors the value is built from (AP's precisions at the
        relevant documents, DCG's discounted gains ...), labelled.
    cutoff : int, float or None
        The cutoff / parameter this column is about.
    extra : tuple of (str, object)
        Measure-specific ingredients (ideal gains, recall cutoff counts ...).
    notes : tuple of str
        trec_eval conventions worth knowing for this value.
    level : str
        ``"topic"`` (a per-topic value) or ``"run"`` (a value over all topics,
        such as ``num_q`` or ``map_worst``).
    """

    formula: str
    steps: tuple
    value: float | str
    terms: tuple = ()
    cutoff: object = None
    extra: tuple = ()
    notes: tuple = ()
    level: str = "topic"


@dataclass(frozen=True)
class Explanation:
    """How one measure value of one run on one topic is made.

    Attributes
    ----------
    measure : str
        The printed column, as trec_eval names it (``P_10``, ``ndcg_cut_20``).
    spec : str
        The request that gives it (``P.10``).
    base : str
        The registry measure (``P``).
    run_name, runid, topic : str
    definition : str
        The registry's description.
    formula : str
    ingredients : tuple of (str, object)
        R, num_ret, rel_ret, ranks of the relevant documents, relevant missed,
        judged/unjudged counts, relevance level, grade counts, the cutoff, then
        measure-specific ones.
    terms : tuple of (str, float)
    steps : tuple of str
        The arithmetic with the actual numbers.
    value : float or str
    cite : str
    notes : tuple of str
    level : str
        ``"topic"`` or ``"run"``.
    """

    measure: str
    spec: str
    base: str
    run_name: str
    runid: str
    topic: str
    definition: str
    formula: str
    ingredients: tuple
    terms: tuple
    steps: tuple
    value: float | str
    cite: str
    notes: tuple = ()
    level: str = "topic"
    #: a count (num_ret, num_q ...): printed without decimals
    count: bool = False
    #: the result of the worked arithmetic (``value`` is the kernel's; the tests hold
    #: them equal to 1e-12)
    worked_value: float | str | None = None

    def ingredient(self, key: str, default=None):
        """One ingredient by key (``"R"``, ``"rel_ranks"``, ``"cutoff"`` ...)."""
        for k, v in self.ingredients:
            if k == key:
                return v
        return default

    @property
    def value_text(self) -> str:
        """The value as trec_eval prints it (4 decimals; counts and text as they are)."""
        if isinstance(self.value, str) or self.count:
            return fmt(self.value)
        return f"{float(self.value):.4f}"

    def to_frame(self) -> pd.DataFrame:
        """Ingredients as a two-column table (``ingredient``, ``value``)."""
        return pd.DataFrame({"ingredient": [INGREDIENT_LABELS.get(k, k)
                                            for k, _ in self.ingredients],
                             "value": [_show(v) for _, v in self.ingredients]})

    def terms_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"term": [t for t, _ in self.terms],
                             "value": [float(v) for _, v in self.terms]})

    # ------------------------------------------------------------ rendering
    def _title(self) -> str:
        where = f"topic {self.topic}" if self.level == "topic" else "all topics"
        return f"{self.measure} = {self.value_text}   (run {self.run_name}, {where})"

    def to_text(self, max_terms: int = 40) -> str:
        """Plain text for a terminal (``yardstick explain``)."""
        out = [self._title(), "=" * len(self._title()), "",
               "Definition: " + self.definition, "", "Formula:", "  " + self.formula, "",
               "Ingredients:"]
        width = max((len(INGREDIENT_LABELS.get(k, k)) for k, _ in self.ingredients), default=0)
        for k, v in self.ingredients:
            out.append(f"  {INGREDIENT_LABELS.get(k, k):<{width}}  {_show(v)}")
        if self.terms:
            out += ["", f"Terms ({len(self.terms)}):"]
            out += ["  " + line for line in _term_lines(self.terms, max_terms)]
        out += ["", "Arithmetic:"] + ["  " + s for s in self.steps]
        if self.notes:
            out += ["", "Notes:"] + ["  - " + n for n in self.notes]
        out += ["", "Source: " + self.cite, ""]
        return "\n".join(out)

    def to_markdown(self, max_terms: int = 40) -> str:
        """Markdown (the GUI's "Explain this number" panel, reports)."""
        out = [f"### {self._title()}", "", f"**Definition.** {self.definition}", "",
               f"**Formula.** `{self.formula}`", "", "| ingredient | value |", "|---|---|"]
        for k, v in self.ingredients:
            out.append(f"| {INGREDIENT_LABELS.get(k, k)} | {_show(v)} |")
        if self.terms:
            out += ["", f"**Terms** ({len(self.terms)}):", ""]
            out += ["- " + line for line in _term_lines(self.terms, max_terms)]
        out += ["", "**Arithmetic.**", "", "```"] + list(self.steps) + ["```"]
        if self.notes:
            out += ["", "**Notes.**", ""] + ["- " + n for n in self.notes]
        out += ["", f"*Source:* {self.cite}", ""]
        return "\n".join(out)


def _show(v) -> str:
    if isinstance(v, tuple):
        if not v:
            return "none"
        if len(v) > 60:
            return ", ".join(fmt(x) for x in v[:50]) + f", ... ({len(v)} in all)"
        return ", ".join(fmt(x) for x in v)
    return fmt(v)


def _term_lines(terms, max_terms: int) -> list[str]:
    rows = [f"{label}: {fmt(val)}" for label, val in terms]
    if len(rows) > max_terms > 0:
        keep = max_terms // 2
        rows = rows[:keep] + [f"... {len(rows) - 2 * keep} more ..."] + rows[-keep:]
    return rows


# ---------------------------------------------------------------------------
# The explainer table: registry measure name -> fn(td, param, ctx) -> Worked
# ---------------------------------------------------------------------------
EXPLAINERS: dict = {}


def explainer(*names: str):
    """Register an explainer for the registry measures ``names``.

    The function takes ``(td, param, ctx)``: the
    :class:`~yardstick.analysis.explain.topic_data.TopicData`, the
    parameter of this column (one cutoff for cutoff measures, the parameter
    tuple otherwise) and an :class:`ExplainContext`.
    """
    def deco(fn):
        for n in names:
            EXPLAINERS[n] = fn
        return fn
    return deco


@dataclass(frozen=True, eq=False)
class ExplainContext:
    """What some explainers need beyond the topic: the whole judged ranking."""

    jr: object
    column: str
    params: tuple = ()
