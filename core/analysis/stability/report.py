"""Run several stability analyses over measures and topic groups: one job, one report.

Shared by ``yardstick stability`` (:mod:`yardstick.cli.stability_cmd`) and the
Stability panel: the caller gives score matrices (one per measure label, see
:func:`score_matrices`), the analyses, the topic sets (``"all"`` plus any
groups) and the settings; :func:`run_stability` is a progress generator
returning a :class:`StabilityReport` — named tables with titles, and the
underlying result objects for charts.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from yardstick.analysis.assumptions import Assumptions
from yardstick.analysis.stability.aggregates import (
    aggregate_for,
    lower_is_better,
    per_topic_measure,
)
from yardstick.analysis.stability.analyses import REGISTRY
from yardstick.analysis.stability.input_notes import input_warnings, once_for_every_measure
from yardstick.analysis.stability.rank_correlation import correlation_matrix, ranking_strings
from yardstick.analysis.stability.topic_groups import group_rank_correlation, select_topics
from yardstick.common.executor import Executor, InProcess
from yardstick.common.progress import Progress, run_sync
from yardstick.common.threads import blas_single_threaded

__all__ = ["ANALYSES", "ANALYSIS_TITLES", "StabilitySettings", "ReportTable", "StabilityReport",
           "run_stability", "score_matrices"]

#: Analysis names in the order the CLI, the panel and ``all`` use (the registry's order).
ANALYSES = tuple(REGISTRY)
ANALYSIS_TITLES = {name: a.title for name, a in REGISTRY.items()}


@dataclass(frozen=True)
class StabilitySettings:
    """Parameters shared by every analysis (see each module for their meaning)."""

    samples: int = 1000
    seed: int = 0
    bin_width: float = 0.01
    subset_size: int | None = None
    fuzziness: float = 0.05
    confidence: float = 0.95
    alpha: float = 0.05
    beta: float = 0.20
    min_diffs: tuple[float, ...] = (0.02, 0.05, 0.1)


@dataclass(frozen=True, eq=False)
class ReportTable:
    """A named table: ``show`` = worth printing (others are detail for files)."""

    name: str
    title: str
    frame: pd.DataFrame
    show: bool = True
    index: bool = False


@dataclass(frozen=True, eq=False)
class StabilityReport:
    """Tables in order, and result objects per analysis and (measure, topic set)."""

    settings: StabilitySettings
    tables: list[ReportTable] = field(default_factory=list)
    results: dict[str, dict[tuple[str, str], Any]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: runs, topics, measures, seed and B, stated once (:func:`stability_assumptions`)
    assumptions: Assumptions | None = None

    def table(self, name: str) -> pd.DataFrame:
        for t in self.tables:
            if t.name == name:
                return t.frame
        raise KeyError(name)

    def to_frame(self) -> pd.DataFrame:
        """The first table shown (the analysis summary)."""
        shown = [t for t in self.tables if t.show] or self.tables
        return shown[0].frame if shown else pd.DataFrame()


def score_matrices(evaluations: Mapping[str, Any], measures: Sequence[str],
                   ) -> tuple[dict[str, pd.DataFrame], pd.DataFrame | None]:
    """``{measure label: topics × runs}`` from evaluations, and the MAP matrix (tie-break).

    ``area`` / ``map_worst`` take the per-topic ``map`` column (their aggregate
    re-ranks each sample's worst topics).  A topic a run lacks scores 0
    (trec_eval ``-c``).
    """
    from yardstick.evaluation.evaluation_service import score_matrix

    out = {m: score_matrix(evaluations, per_topic_measure(m)).fillna(0.0) for m in measures}
    first = next(iter(evaluations.values()), None)
    has_map = first is not None and "map" in first.per_topic.columns
    return out, (score_matrix(evaluations, "map").fillna(0.0) if has_map else None)


def _means(label: str, mat: pd.DataFrame, topics: Sequence[str]) -> pd.Series:
    sub = select_topics(mat, topics)
    return pd.Series(aggregate_for(label).full(sub.to_numpy(float)), index=sub.columns)


def run_stability(matrices: Mapping[str, pd.DataFrame], analyses: Sequence[str],
                  sets: Mapping[str, Sequence[str]], settings: StabilitySettings,
                  tie_break: pd.DataFrame | None = None, executor: Executor | None = None,
                  ) -> Generator[Progress, None, StabilityReport]:
    """Run ``analyses`` on every measure and topic set (progress generator).

    Parameters
    ----------
    matrices : mapping of str to DataFrame
        Measure label -> topics × runs score matrix.
    analyses : sequence of str
        Names from :data:`ANALYSES`.
    sets : mapping of str to list of str
        Topic sets: usually ``{"all": every topic, group: its topics, ...}``.
    settings : StabilitySettings
    tie_break : DataFrame, optional
        Topics × runs MAP, to order tied runs in rankings (robust overview Table 3).
    executor : Executor, optional
        Where each (analysis, measure, topic set) runs (:mod:`yardstick.common.executor`);
        default here, on a thread per core (``InProcess(threads=None)``: two measures' tasks
        side by side, progress per task; ``InProcess()`` runs them one after the other with
        progress inside each).  Each such task seeds its own generator with
        ``settings.seed`` exactly as in-process, so the report is the same wherever it runs.
    """
    unknown = [a for a in analyses if a not in REGISTRY]
    if unknown:
        raise ValueError(f"unknown analysis {unknown[0]!r}; expected one of {ANALYSES}")
    owned = executor is None
    job = _Job(StabilityReport(settings), matrices, sets, settings, tie_break,
               InProcess(threads=None) if owned else executor)
    job.report.notes.extend(input_warnings(matrices, sets))
    resampled = sum(REGISTRY[a].resamples for a in analyses)
    job.steps = max(1, resampled * len(matrices) * len(sets))
    try:
        with blas_single_threaded():          # the tasks run a core each: no BLAS threads of theirs
            job.submit_ahead(analyses)
            for analysis in analyses:
                yield from REGISTRY[analysis].run(job)
    finally:
        job.cancel_ahead()
        if owned:
            job.executor.close()
    merged = once_for_every_measure(job.report.notes, list(matrices))
    job.report.notes[:] = merged
    yield Progress(job.steps, job.steps, "done")
    return replace(job.report,
                   assumptions=stability_assumptions(matrices, sets, settings, analyses))


#: the columns that answer a stability question, in the order shown: they come right after
#: the measure (and before parameters such as seed, samples, confidence)
ANSWER_COLUMNS = ("min_difference", "percent_of_top", "error_rate_%", "ties_%",
                  "percent_exceeding", "discriminative_power", "difference_needed")


def answer_first(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the measure, then the answer columns, then the rest (parameters)."""
    lead = [c for c in ("measure", *ANSWER_COLUMNS) if c in frame.columns]
    if not lead or lead == ["measure"]:
        return frame
    return frame[lead + [c for c in frame.columns if c not in lead]]


def stability_assumptions(matrices: Mapping[str, pd.DataFrame],
                          sets: Mapping[str, Sequence[str]], settings: StabilitySettings,
                          analyses: Sequence[str] = ()) -> Assumptions:
    """What a stability report assumed: its runs, topics (a topic a run lacks scores 0,
    trec_eval ``-c``), measures, seed and B."""
    from yardstick.analysis.assumptions import runs_statement

    first = next(iter(matrices.values()), None)
    runs = [str(c) for c in first.columns] if first is not None else []
    n_topics = len(first.index) if first is not None else 0
    groups = [g for g in sets if g != "all"]
    topics = (f"{n_topics} topics; a topic a run lacks scores 0 (trec_eval -c)"
              + (f"; topic groups: {', '.join(groups)}" if groups else ""))
    resampled = any(REGISTRY[a].resamples for a in analyses if a in REGISTRY)
    return Assumptions(runs=runs_statement(runs), topics=topics,
                       measure=", ".join(matrices), seed=settings.seed if resampled else None,
                       resamples=settings.samples if resampled else None)


class _Planned(Exception):
    """An analysis's tasks were submitted ahead (:meth:`_Job.submit_ahead`)."""


class _Job:
    """One report being built: what every registered analysis reads and writes
    (:mod:`yardstick.analysis.stability.analyses`)."""

    def __init__(self, report: StabilityReport, matrices: Mapping[str, pd.DataFrame],
                 sets: Mapping[str, Sequence[str]], settings: StabilitySettings,
                 tie_break: pd.DataFrame | None, executor: Executor | None = None):
        self.report, self.matrices, self.sets = report, matrices, sets
        self.settings, self.tie_break = settings, tie_break
        self.steps, self.step = 1, 0
        self.executor = executor
        self._scattered: dict[str, Any] = {}
        self._ahead: dict[str, tuple[list, list]] = {}      # analysis -> (plan, futures)
        self._planning = False

    def table(self, name: str, title: str, frame: pd.DataFrame, show: bool = True,
              index: bool = False) -> None:
        self.report.tables.append(ReportTable(name, title, answer_first(frame), show, index))

    def each(self, analysis: str, fn, linear_only: bool = False, per_measure=None, **kw):
        """Run ``fn`` (a progress generator) on every measure and topic set; results by
        (measure, topic set).  A ValueError skips that pair with a note saying why."""
        ex = self.executor
        if ex is not None and (not ex.local or getattr(ex, "parallel", False)):
            return (yield from self._each_remote(analysis, fn, linear_only, per_measure, kw))
        title = REGISTRY[analysis].title
        rep, out = self.report, {}
        for m, mat in self.matrices.items():
            if linear_only and not aggregate_for(m).linear:
                rep.notes.append(f"{title}: {m} skipped (not a mean over topics)")
                self.step += len(self.sets)
                continue
            for g, topics in self.sets.items():
                extra = per_measure(m) if per_measure is not None else {}
                gen = fn(select_topics(mat, topics), seed=self.settings.seed, measure=m, **kw,
                         **extra)
                try:
                    while True:
                        p = next(gen)
                        yield Progress(self.step + p.fraction, self.steps, f"{title}: {m}, {g}")
                except StopIteration as stop:
                    out[(m, g)] = stop.value
                except ValueError as e:
                    rep.notes.append(f"{title}: {m}, {g} topics skipped: {e}")
                self.step += 1
        rep.results[analysis] = out
        return out

    def _each_remote(self, analysis: str, fn, linear_only: bool, per_measure, kw):
        """:meth:`each` with one executor task per (measure, topic set), the score matrix
        scattered once per measure (on threads in-process: no copy); results, notes and
        their order as in-process.  The tasks may have been submitted ahead
        (:meth:`submit_ahead`); while planning, they are submitted and the analysis stops."""
        title = REGISTRY[analysis].title
        ex, rep = self.executor, self.report
        if analysis in self._ahead:
            plan, futures = self._ahead.pop(analysis)
        else:
            plan, futures = self._submit(analysis, fn, linear_only, per_measure, kw)
            if self._planning:
                self._ahead[analysis] = plan, futures
                raise _Planned
        keys = [k for what, k in plan if what == "task"]
        self.step += len(self.sets) * sum(what == "note" for what, _ in plan)
        done: dict[tuple[str, str], Any] = {}
        try:
            for pos, value, error in ex.results(futures):
                if error is not None and not isinstance(error, ValueError):
                    raise error
                done[keys[pos]] = error if error is not None else value
                self.step += 1
                m, g = keys[pos]
                yield Progress(self.step, self.steps, f"{title}: {m}, {g}")
        finally:
            ex.cancel(futures)
        out = {}
        for what, item in plan:
            if what == "note":
                rep.notes.append(item)
            elif isinstance(done[item], ValueError):
                rep.notes.append(f"{title}: {item[0]}, {item[1]} topics skipped: {done[item]}")
            else:
                out[item] = done[item]
        rep.results[analysis] = out
        return out

    def _submit(self, analysis: str, fn, linear_only: bool, per_measure, kw):
        title = REGISTRY[analysis].title
        ex = self.executor
        plan: list[tuple[str, Any]] = []        # ("note", text) or ("task", (m, g))
        futures = []
        for m, mat in self.matrices.items():
            if linear_only and not aggregate_for(m).linear:
                plan.append(("note", f"{title}: {m} skipped (not a mean over topics)"))
                continue
            if m not in self._scattered:
                self._scattered[m] = ex.scatter(mat)
            extra = per_measure(m) if per_measure is not None else {}
            for g, topics in self.sets.items():
                futures.append(ex.submit(run_task, fn, self._scattered[m], list(topics),
                                         self.settings.seed, m, {**kw, **extra}))
                plan.append(("task", (m, g)))
        return plan, futures

    def submit_ahead(self, analyses: Sequence[str]) -> None:
        """On threads or a cluster: submit the tasks of every resampling analysis now, so
        that the executor never idles between two analyses (a worker done with its
        measure's swap rates starts on the bootstrap while the other finishes).  Each
        analysis's ``run`` is started in planning mode and stops at its first
        :meth:`each` (every resampling analysis calls it before anything else)."""
        ex = self.executor
        if ex is None or (ex.local and not getattr(ex, "parallel", False)):
            return
        for analysis in analyses:
            if not REGISTRY[analysis].resamples or analysis in self._ahead:
                continue
            self._planning = True
            gen = REGISTRY[analysis].run(self)
            try:
                next(gen)
            except (_Planned, StopIteration):
                pass
            finally:
                self._planning = False
                gen.close()

    def cancel_ahead(self) -> None:
        for _, futures in self._ahead.values():
            self.executor.cancel(futures)
        self._ahead.clear()

    def correlations(self, analysis: str) -> None:
        _correlations(self.report, analysis, self.matrices, self.sets, self.tie_break)


def run_task(fn, matrix: pd.DataFrame, topics: list[str], seed: int, measure: str,
             kw: dict) -> Any:
    """One analysis on one measure and topic set, run to the end (an executor task), with
    BLAS on one thread (:func:`yardstick.common.threads.blas_single_threaded`)."""
    with blas_single_threaded():
        return run_sync(fn(select_topics(matrix, topics), seed=seed, measure=measure, **kw))


def _correlations(rep: StabilityReport, analysis: str, matrices: Mapping[str, pd.DataFrame],
                  sets: Mapping[str, Sequence[str]], tie_break: pd.DataFrame | None) -> None:
    """Groups' rankings compared per measure (Table 3), or measures' rankings (Figure 3)."""
    names = {t.name for t in rep.tables}
    groups = {k: v for k, v in sets.items() if k != "all"}
    if len(groups) >= 2:
        if "rank_correlation_groups" in names:       # kendall and taup share it
            return
        gnames = list(groups)
        rows, strings, tb = [], {}, {}
        for m, mat in matrices.items():
            for b in gnames[1:]:
                r = group_rank_correlation(mat, groups[gnames[0]], groups[b], gnames[0], b,
                                           tie_break=tie_break, measure=m,
                                           lower_is_better=lower_is_better(m))
                rep.results.setdefault(analysis, {})[(m, f"{gnames[0]} vs {b}")] = r
                rows.append({"measure": m, "a": gnames[0], "b": b,
                             **r.summary().drop(["a", "b"]).to_dict()})
            for g in gnames:
                strings[f"{m} {g}"] = _means(m, mat, groups[g])
                if tie_break is not None:
                    tb[f"{m} {g}"] = select_topics(tie_break, groups[g]).mean()
        rep.tables.append(ReportTable("rank_correlation_groups", "Rank correlation between "
                                      "topic groups (Kendall τ, τ_AP)", pd.DataFrame(rows)))
    else:
        if len(matrices) < 2:
            rep.notes.append(f"{ANALYSIS_TITLES[analysis]}: needs two measures or two topic "
                             "groups")
            return
        topics = sets.get("all", next(iter(sets.values())))
        table = pd.DataFrame({m: _means(m, mat, topics) for m, mat in matrices.items()})
        how = "kendall" if analysis == "kendall" else "tau_ap"
        mean_tb = None if tie_break is None else select_topics(tie_break, topics).mean()
        lower = [m for m in table.columns if lower_is_better(m)]
        matrix = correlation_matrix(table, how, tie_break=mean_tb, lower_is_better=lower)
        rep.results.setdefault(analysis, {})[("measures", "all")] = matrix
        rep.tables.append(ReportTable(f"{analysis}_matrix", f"{ANALYSIS_TITLES[analysis]} "
                                      "between the measures' system rankings", matrix,
                                      index=True))
        strings = {m: table[m] for m in table.columns}
        tb = mean_tb
    if "ranking_strings" in names:
        return
    order = None
    if tie_break is not None:
        order = list(tie_break.mean().sort_values(ascending=False, kind="stable").index)
    lower = [lbl for lbl in strings if lower_is_better(lbl.split(" ")[0])]
    if isinstance(tb, dict) and not tb:
        tb = None
    rs = ranking_strings(strings, tb, symbol_order=order, lower_is_better=lower)
    width = max((len(c) for c in rs.symbols.values()), default=1)
    each = "one character per run" if width == 1 else f"a {width}-character code per run"
    rep.tables.append(ReportTable("ranking_strings", f"System rankings, {each} "
                                  "(ties broken by MAP)", rs.to_frame()))
    rep.tables.append(ReportTable("ranking_legend", "Ranking-string legend", rs.legend()))
