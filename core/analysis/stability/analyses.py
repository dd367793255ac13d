"""The registry of stability analyses: one entry per analysis the report can run.

:func:`yardstick.analysis.stability.report.run_stability` looks each requested name up in
:data:`REGISTRY` and calls its ``run``; the CLI's ``--analysis`` choices, the
Stability panel's analysis list and its chart menu read the same entries.  A new
analysis is one function here and one :func:`register` call; nothing else
dispatches on analysis names.

Each ``run(job)`` is a generator (it yields :class:`yardstick.common.progress.Progress`
through ``job.each``) that adds its tables with ``job.table(...)`` and its result
objects to ``job.report.results[name]``.  ``job`` is the report's
:class:`~yardstick.analysis.stability.report._Job`: the score matrices, topic sets,
settings and tie-break scores of one report.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import pandas as pd

from yardstick.analysis.stability.aggregates import aggregate_for, lower_is_better
from yardstick.analysis.stability.bootstrap_swaps import bootstrap_swap_rates
from yardstick.analysis.stability.discriminative_power import discriminative_power
from yardstick.analysis.stability.error_rate import error_rate
from yardstick.analysis.stability.sensitivity import sensitivity
from yardstick.analysis.stability.swap_rates import swap_rates
from yardstick.analysis.stability.topic_groups import select_topics
from yardstick.analysis.stability.topic_set_size import topic_set_size
from yardstick.analysis.stability.tukey_hsd import tukey_hsd

__all__ = ["Analysis", "REGISTRY", "register", "summaries"]


@dataclass(frozen=True)
class Analysis:
    """One stability analysis.

    Attributes
    ----------
    name : str
        What the CLI's ``--analysis`` and sessions call it.
    title : str
        What tables, notes, progress and the panel call it.
    run : callable
        ``run(job)`` -> generator of progress (see the module docstring).
    resamples : bool
        Whether it draws samples per measure and topic set (it then counts in the
        progress total); the rank correlations and the topic-set-size design don't.
    chart_of_all : bool
        Whether one chart can show all its (measure, topic set) results together
        (the ASL curves, the error-rate bars).
    """

    name: str
    title: str
    run: Callable[[Any], Generator]
    resamples: bool = True
    chart_of_all: bool = False


REGISTRY: dict[str, Analysis] = {}


def register(analysis: Analysis) -> Analysis:
    if analysis.name in REGISTRY:
        raise ValueError(f"stability analysis {analysis.name!r} registered twice")
    REGISTRY[analysis.name] = analysis
    return analysis


def summaries(results) -> pd.DataFrame:
    """One row per (measure, topic set): each result's ``summary()``."""
    rows = []
    for (measure, group), res in results.items():
        s = res.summary().to_dict()
        s.pop("measure", None)
        rows.append({"measure": measure, "topics_set": group, **s})
    return pd.DataFrame(rows)


def _swaps(method: str, fn) -> Callable:
    """Voorhees & Buckley, "The effect of topic set size on retrieval experiment error",
    SIGIR 2002 (disjoint halves); Sakai, "Evaluating evaluation metrics based on the
    bootstrap", SIGIR 2006 (bootstrap samples)."""
    def run(job):
        st = job.settings
        name = "swap" if method == "disjoint" else "bootstrap"
        res = yield from job.each(name, fn, samples=st.samples, bin_width=st.bin_width,
                                  confidence=st.confidence)
        job.table(f"{method}_summary", f"Minimum difference for {st.confidence:.0%} confidence "
                  f"({REGISTRY[name].title})", summaries(res))
        for (m, g), r in res.items():
            if r.min_difference == 0:
                # 0.0000 read as "any difference is reliable"; it is "below one bin"
                job.report.notes.append(
                    f"{REGISTRY[name].title}: {m}, {g} topics: the smallest difference bin, "
                    f"[0, {r.bin_width:g}), already has an error rate of at most "
                    f"{r.target:.0%} at {r.n_topics} topics, so the minimum difference is below "
                    f"{r.bin_width:g} (printed as its lower edge, 0); a smaller bin width "
                    "resolves it")
            job.table(f"{method}_fits_{m}_{g}", f"{method} swap rates: {m}, {g} topics — fit "
                      "per difference bin", r.to_frame(), show=False)
            job.table(f"{method}_rates_{m}_{g}", f"{method} swap rates per size and bin: {m}, "
                      f"{g}", r.rates_frame(), show=False)
    return run


def _error_rate(job):
    st = job.settings
    res = yield from job.each("error-rate", error_rate, subset_size=st.subset_size,
                              samples=st.samples, fuzziness=st.fuzziness)
    rows = [{"measure": m, "topics_set": g, "subset_size": r.subset_size,
             "error_rate_%": 100 * r.error_rate, "ties_%": 100 * r.tie_rate}
            for (m, g), r in res.items()]
    job.table("error_rate", f"Error rate and ties ({st.samples} sets, fuzziness "
              f"{st.fuzziness:.0%})", pd.DataFrame(rows))


def _sensitivity(job):
    st = job.settings
    res = yield from job.each("sensitivity", sensitivity, subset_size=st.subset_size,
                              samples=st.samples, confidence=st.confidence,
                              bin_width=st.bin_width)
    job.table("sensitivity", "Sensitivity: minimum difference and % of comparisons at or "
              "above it", summaries(res))


def _discriminative(job):
    st = job.settings
    res = yield from job.each("discriminative", discriminative_power, linear_only=True,
                              samples=st.samples, alpha=st.alpha)
    job.table("discriminative_power", f"Discriminative power (paired bootstrap, "
              f"B = {st.samples}, α = {st.alpha})", summaries(res))
    for (m, g), r in res.items():
        job.table(f"asl_curve_{m}_{g}", f"ASL curve: {m}, {g}", r.asl_curve(), show=False)


def _tukey(job):
    st = job.settings
    res = yield from job.each("tukey", tukey_hsd, samples=st.samples, alpha=st.alpha,
                              per_measure=lambda m: {"lower_is_better": lower_is_better(m)})
    for (m, g), r in res.items():
        others = len(r.top_group()) - 1          # the top group counts the best run itself
        job.table(f"tukey_{m}_{g}", f"Randomised Tukey HSD: {m}, {g} topics — "
                  f"{others} other run{'' if others == 1 else 's'} not distinguishable from "
                  f"{r.best}", r.to_frame())


def _topic_set_size(job):
    """Sakai, "Topic set size design", Information Retrieval Journal 2016 (t-test based)."""
    st, title = job.settings, REGISTRY["topic-set-size"].title
    res = {}
    for m, mat in job.matrices.items():
        if not aggregate_for(m).linear:
            continue
        for g, topics in job.sets.items():
            try:
                res[(m, g)] = topic_set_size(select_topics(mat, topics), st.min_diffs,
                                             st.alpha, st.beta, measure=m)
            except ValueError as e:
                job.report.notes.append(f"{title}: {m}, {g} topics skipped: {e}")
    job.report.results["topic-set-size"] = res
    for (m, g), r in res.items():
        job.table(f"topic_set_size_{m}_{g}", f"Topics needed: {m}, {g} topics (σ² = "
                  f"{r.variance:.4f}, α = {st.alpha}, β = {st.beta}, {r.systems} systems)",
                  r.to_frame())
    yield from ()


def _correlation(name: str) -> Callable:
    def run(job):
        job.correlations(name)
        yield from ()
    return run


for _a in (
    Analysis("swap", "Swap rates (Voorhees–Buckley)", _swaps("disjoint", swap_rates)),
    Analysis("bootstrap", "Swap rates (bootstrap, Sakai)",
             _swaps("bootstrap", bootstrap_swap_rates)),
    Analysis("error-rate", "Error rate and ties", _error_rate, chart_of_all=True),
    Analysis("sensitivity", "Sensitivity", _sensitivity),
    Analysis("kendall", "Rank correlation (Kendall τ)", _correlation("kendall"),
             resamples=False),
    Analysis("taup", "Rank correlation (τ_AP)", _correlation("taup"), resamples=False),
    Analysis("discriminative", "Discriminative power", _discriminative, chart_of_all=True),
    Analysis("tukey", "Tukey HSD", _tukey),
    Analysis("topic-set-size", "Topic-set size", _topic_set_size, resamples=False),
):
    register(_a)
