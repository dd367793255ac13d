"""Tidy column names, shared by every table that leaves Yardstick as data (CSV, TSV, XLSX).

The window and the PDF/HTML reports label columns for reading (``p t-test``,
``CI low``, ``Summary Statistics``); a file meant for pandas, R or a spreadsheet
gets one header row of tidy names instead (Wickham, "Tidy data", Journal of
Statistical Software 59(10), 2014: one variable per column, one name per
variable), the same name for the same thing in every table:

=====================  ==================================================================
``run``                a run's name (also ``run_a``/``run_b`` for the two runs of a pair,
                       ``baseline`` for the run compared against)
``topic``              a topic number; ``docno``, ``rel`` a judged document and its grade
``measure``            a trec_eval measure name (``map``, ``P_10``); a column *named* by a
                       measure holds that measure's value
``value``              the one value of a label/value table
``mean``               mean over topics (``mean_a``, ``mean_b``, ``mean_run``,
                       ``mean_baseline``); ``mean_difference`` run minus baseline / a - b
``n_topics``           how many topics (``n_runs``: how many runs)
``p_value``            the p-value of the table's test; ``p_value_<test>`` when a table
                       holds several tests (``p_value_t``, ``p_value_wilcoxon``,
                       ``p_value_sign``, ``p_value_permutation``); ``p_value_corrected``
                       after the multiple-testing correction; ``<measure>_p_value`` in a
                       table of several measures
``asl``                Sakai's achieved significance level (bootstrap test)
``ci_low``/``ci_high`` the confidence interval's ends
``*_pct``              a percentage (``error_rate_pct``)
``<column>_marker``    the significance markers of ``<column>`` (numbers stay numbers)
=====================  ==================================================================

Any other label with a space or a ``%`` is made tidy by a rule: ``%`` becomes ``pct``,
every run of spaces and punctuation one ``_``; the case is kept, because measure names
(``P_10``, ``Rprec``) are case-sensitive.  Labels without spaces are identifiers (run
names such as ``input.aplrob03a`` or ``run#2``, measure names such as ``nDCG@10``) and
are kept as they are, so a topics x runs table keeps its run names.  A matrix whose
columns are its row labels (the Tukey p-value matrix, the Kendall tau matrix) keeps its
labels, and an unnamed index is called ``label``.
"""

from __future__ import annotations

import re

import pandas as pd

__all__ = ["TIDY_NAMES", "FRACTION_WORDS", "tidy_name", "tidy_frames", "marker_columns",
           "is_fraction_label", "whole_numbers_as_integers"]

#: display label -> tidy name (labels used by the Compare panel, the stability and pool
#: diagnostics, the report tables)
TIDY_NAMES = {
    "name": "run", "Run": "run", "runid": "run",
    "p": "p_value", "p-value": "p_value", "pvalue": "p_value", "p_val": "p_value",
    "p_t": "p_value_t", "p t-test": "p_value_t", "p wilcoxon": "p_value_wilcoxon",
    "p sign": "p_value_sign", "p permutation": "p_value_permutation",
    "p_corrected": "p_value_corrected", "p_vs_best": "p_value_vs_best",
    "diff": "mean_difference", "mean_diff": "mean_difference",
    "mean baseline": "mean_baseline", "mean run": "mean_run",
    "effect size d": "effect_size_d", "CI low": "ci_low", "CI high": "ci_high",
    "topics": "n_topics", "runs": "n_runs", "topics_set": "topic_set",
    "ResErr": "residual_error", "5%int": "interval_5pct",
    "Summary Statistics": "statistic", "Document Level Averages": "cutoff",
    "Recall": "recall", "Precision": "precision",
}

# "<measure> <suffix>" columns of the Compare panel's several-measure table: pattern, suffix
_SUFFIXES = ((re.compile(r"^(\S+) \+$"), "_wins"), (re.compile(r"^(\S+) -$"), "_losses"),
             (re.compile(r"^(\S+) \*$"), "_marker"), (re.compile(r"^(.+) marker$"), "_marker"),
             (re.compile(r"^(\S+) p-value$"), "_p_value"),
             (re.compile(r"^(\S+) p-value \((\w+)\)$"), "_p_value_{1}"))
_CORRECTED = re.compile(r"^p [\w-]+ \((\w+)\)$")     # "p t (holm)" -> p_value_corrected


def tidy_name(label) -> str:
    """The tidy name of a column or index label (module docstring)."""
    if isinstance(label, tuple):
        return "_".join(tidy_name(p) for p in label if p not in ("", None)) or "label"
    s = "" if label is None else str(label)
    if s in TIDY_NAMES:
        return TIDY_NAMES[s]
    if _CORRECTED.match(s):
        return "p_value_corrected"
    for pattern, suffix in _SUFFIXES:
        m = pattern.match(s)
        if m:
            return tidy_name(m.group(1)) + suffix.format(*m.groups())
    if not s.strip():
        return "label"
    if not re.search(r"[\s%]", s):
        return s                     # an identifier: a measure or run name (``run#2``, ``P_10``)
    s = s.replace("%", "pct")
    s = re.sub(r"[^\w.@#]+", "_", s).strip("_")
    return s or "label"


def tidy_frames(frame: pd.DataFrame, *parallel: pd.DataFrame | None):
    """``frame`` (and frames parallel to it: markers, bold) with tidy column and index names.

    Columns that are the frame's own row labels (a runs x runs matrix) are kept; a name
    that two columns would share keeps its original label.
    """
    rows = {str(x) for x in frame.index[:2000]} if frame.shape[1] else set()
    matrix = frame.shape[1] > 0 and all(str(c) in rows for c in frame.columns)
    mapping: dict = {}
    if not matrix:
        taken: set[str] = set()
        for c in frame.columns:
            t = tidy_name(c)
            mapping[c] = t if t not in taken else c
            taken.add(str(mapping[c]))
    names = [tidy_name(n) if n is not None or frame.index.nlevels == 1 else f"level_{i}"
             for i, n in enumerate(frame.index.names)]
    out = _renamed(frame, mapping, names)
    return (out, *(None if p is None else _renamed(p, mapping, names) for p in parallel))


def _renamed(frame: pd.DataFrame, mapping: dict, names: list[str]) -> pd.DataFrame:
    f = frame.copy(deep=False)
    if mapping:
        f.columns = pd.Index([mapping.get(c, c) for c in f.columns])
    if not (isinstance(f.index, pd.RangeIndex) and f.index.name is None):
        f.index = f.index.set_names(names if f.index.nlevels > 1 else names[0])
    return f


def marker_columns(frame: pd.DataFrame, markers: pd.DataFrame | None,
                   true_text: str = "†") -> pd.DataFrame:
    """``frame`` with a ``<column>_marker`` text column after every column ``markers``
    covers, present even where no cell has a mark (files that join on a fixed set of
    columns); ``True`` becomes ``true_text``, no mark ``""``."""
    if markers is None or not len(markers.columns):
        return frame
    out = frame.copy(deep=False)
    for c in [c for c in frame.columns if c in markers.columns][::-1]:
        col = markers[c].reindex(frame.index) if not markers.index.equals(frame.index) \
            else markers[c]
        text = [(true_text if v else "") if isinstance(v, bool) or type(v).__name__ == "bool_"
                else ("" if v is None or (isinstance(v, float) and v != v) else str(v))
                for v in col.tolist()]
        name = f"{c}_marker"
        if name not in out.columns:
            out.insert(out.columns.get_loc(c) + 1, name, text)
    return out


#: words of a summary's label that say its value is not a count (``share_judged``,
#: ``mean_unjudged_10``, ``mean_pool_size``): a whole value stays a float there (1.0, not 1)
FRACTION_WORDS = frozenset({"mean", "share", "rate", "ratio", "percent", "pct", "fraction",
                            "proportion", "diff", "difference", "tau", "median", "std", "sd",
                            "average", "avg", "probability", "power", "asl", "p", "ci"})


def is_fraction_label(label) -> bool:
    """A summary label whose value is a mean, share, rate ... (:data:`FRACTION_WORDS`)."""
    return bool(FRACTION_WORDS & set(re.split(r"[^a-z]+", str(label).lower())))


def whole_numbers_as_integers(frame):
    """A label/value summary (a Series or frame of mixed counts and fractions in one float
    column) with its counts' whole numbers as Python ints, so that a file reads
    ``topics,30``, not ``topics,30.0``; rows whose label names a fraction
    (:func:`is_fraction_label`: ``share_judged``, ``mean_unjudged_10``) keep their floats,
    so a share of 1 reads ``1.0`` like the ``0.9731`` beside it; the other values are
    left as they are."""
    import math

    def fix(col: pd.Series) -> pd.Series:
        if not pd.api.types.is_float_dtype(col.dtype):
            return col
        return pd.Series([int(v) if isinstance(v, float) and math.isfinite(v)
                          and v.is_integer() and abs(v) < 2 ** 53
                          and not is_fraction_label(k) else v
                          for k, v in zip(col.index, col.tolist(), strict=True)],
                         index=col.index, name=col.name, dtype=object)

    if isinstance(frame, pd.Series):
        return fix(frame)
    return frame.apply(fix)
