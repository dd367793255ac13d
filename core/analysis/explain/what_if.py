"""What-if: change judgments on a copy of the qrels and watch every measure move.

A :class:`WhatIfSession` holds the original :class:`~yardstick.inputs.qrels.Qrels`
(never modified, never written) and a set of overrides ``(topic, docno) ->
grade`` (``None``: not judged).  Each edit re-judges the runs' existing
rankings in place of re-reading anything: the judged ranking of every run is
copied with the edited documents' codes and the topic's grade counts changed
(:meth:`yardstick.judging.judged.JudgedRanking.with_rel`), then the measure kernels run
again.  Edits that change which topics are evaluated (a topic's first or last
judgment), and ``-J``/``-c`` evaluations, rebuild the judged ranking from the
edited qrels instead.  Undo/redo walk the edit history; :meth:`export` writes
the edited qrels with :func:`yardstick.inputs.io.write_qrels`.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.common.options import EvalOptions
from yardstick.common.progress import Progress
from yardstick.evaluation.engine import evaluate_judged
from yardstick.evaluation.evaluation_service import Evaluation
from yardstick.evaluation.measures.registry import parse_requests
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.judged import NONPOOL, UNJUDGED, JudgedRanking, build_judged_ranking


@dataclass(frozen=True)
class Edit:
    """One change of judgment: ``old``/``new`` grades, ``None`` when not in the qrels."""

    topic: str
    docno: str
    old: int | None
    new: int | None

    def inverse(self) -> "Edit":
        return Edit(self.topic, self.docno, self.new, self.old)


def _code(grade: int | None) -> int:
    if grade is None:
        return NONPOOL
    return UNJUDGED if grade < 0 else int(grade)


def evaluation_of(run: Run, jr: JudgedRanking, requests, options: EvalOptions) -> Evaluation:
    """An :class:`Evaluation` from a judged ranking (as
    :func:`yardstick.evaluation.engine.evaluate_run`)."""
    return evaluate_judged(run, jr, requests, options)


class WhatIfSession:
    """Edits to a copy of the qrels, with undo/redo and cheap re-evaluation of every run.

    Parameters
    ----------
    qrels : Qrels
        The original judgments (left untouched).
    runs : mapping name -> Run, or sequence of Run
    measures : str or sequence of str
        Requests as for :func:`yardstick.evaluation.evaluation_service.evaluate_run`.
    options : EvalOptions, optional
    """

    def __init__(self, qrels: Qrels, runs: Mapping[str, Run] | Sequence[Run],
                 measures: Sequence[str] | str = ("official",),
                 options: EvalOptions | None = None):
        self.original = qrels
        self.runs: dict[str, Run] = (dict(runs) if isinstance(runs, Mapping)
                                     else {r.name: r for r in runs})
        self.measures = [measures] if isinstance(measures, str) else list(measures)
        self.options = options or EvalOptions()
        self.requests = parse_requests(self.measures, self.options.compat)
        self.overrides: dict[tuple[str, str], int | None] = {}
        self.done: list[Edit] = []
        self.undone: list[Edit] = []
        # each topic's original judgments, read from the qrels when first asked: the
        # whole qrels as dictionaries (465,000 judgments on a 150-run track) held the
        # GIL ~0.1 s at a time in the window's job and were only needed for edits
        self._orig: dict[str, dict[str, int]] = {}
        self._topics = {str(t) for t in qrels.topics}
        self._stale = False   # judged rankings must be rebuilt from the edited qrels
        self.version = 0      # bumped by every change of judgments
        self._jr = {n: build_judged_ranking(r, qrels, self.options) for n, r in self.runs.items()}
        self._base = {n: evaluation_of(r, self._jr[n], self.requests, self.options)
                      for n, r in self.runs.items()}
        self._evals: dict[str, Evaluation] | None = dict(self._base)
        self._qrels_cache: Qrels | None = qrels

    # ------------------------------------------------------------ judgments
    def judgment(self, topic: str, docno: str) -> int | None:
        """The current grade of a document (``None``: not in the qrels)."""
        key = (str(topic), str(docno))
        return self.overrides[key] if key in self.overrides else self.original_judgment(*key)

    def original_judgment(self, topic: str, docno: str) -> int | None:
        return self._original(str(topic)).get(str(docno))

    def _original(self, topic: str) -> dict[str, int]:
        """``{docno: grade}`` of ``topic`` in the original qrels (empty if not judged)."""
        got = self._orig.get(topic)
        if got is None:
            topics, codes = self.original.topic_index
            k = {str(t): i for i, t in enumerate(topics)}.get(topic, -1)
            rows = np.flatnonzero(codes == k) if k >= 0 else np.empty(0, np.int64)
            f = self.original.frame
            got = self._orig[topic] = dict(zip(f["docno"].iloc[rows].tolist(),
                                               f["rel"].iloc[rows].astype(int).tolist()))
        return got

    @property
    def qrels(self) -> Qrels:
        """The edited qrels (a new object; the original is unchanged)."""
        if self._qrels_cache is None:
            self._qrels_cache = self._qrels_from(dict(self.overrides))
        return self._qrels_cache

    def _qrels_from(self, overrides: dict) -> Qrels:
        if not overrides:
            return self.original
        f = self.original.frame
        keep = [(t, d) not in overrides for t, d in zip(f["topic"].tolist(), f["docno"].tolist())]
        base = f.loc[keep, ["topic", "docno", "rel"]]
        add = pd.DataFrame([(t, d, g) for (t, d), g in overrides.items() if g is not None],
                           columns=["topic", "docno", "rel"])
        frame = pd.concat([base, add], ignore_index=True) if len(add) else base
        return self.original.with_frame(frame, name=f"{self.original.name} (what-if)")

    def changed_topics(self) -> list[str]:
        return sorted({t for t, _ in self.overrides})

    # ------------------------------------------------------------ editing
    def mark(self, topic: str, docno: str, grade: int | None) -> Edit | None:
        """Set a document's judgment (``None``: remove it from the qrels); returns the edit."""
        topic, docno = str(topic), str(docno)
        old = self.judgment(topic, docno)
        new = None if grade is None else int(grade)
        if old == new:
            return None
        edit = Edit(topic, docno, old, new)
        self._apply(edit)
        self.done.append(edit)
        self.undone.clear()
        return edit

    def mark_relevant(self, topic: str, docno: str, grade: int | None = None) -> Edit | None:
        """Mark relevant (at ``grade``, default the relevance level)."""
        return self.mark(topic, docno, max(self.options.relevance_level, 1)
                         if grade is None else grade)

    def mark_nonrelevant(self, topic: str, docno: str) -> Edit | None:
        return self.mark(topic, docno, 0)

    def mark_unjudged(self, topic: str, docno: str) -> Edit | None:
        return self.mark(topic, docno, None)

    def toggle(self, topic: str, docno: str) -> Edit | None:
        """Relevant <-> non-relevant (unjudged documents become relevant)."""
        g = self.judgment(topic, docno)
        rel = g is not None and g >= self.options.relevance_level
        return self.mark_nonrelevant(topic, docno) if rel else self.mark_relevant(topic, docno)

    @property
    def can_undo(self) -> bool:
        return bool(self.done)

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def undo(self) -> Edit | None:
        if not self.done:
            return None
        edit = self.done.pop()
        self._apply(edit.inverse())
        self.undone.append(edit)
        return edit

    def redo(self) -> Edit | None:
        if not self.undone:
            return None
        edit = self.undone.pop()
        self._apply(edit)
        self.done.append(edit)
        return edit

    def reset(self) -> None:
        """Back to the original qrels (history cleared)."""
        self.overrides.clear()
        self.done.clear()
        self.undone.clear()
        self._qrels_cache = self.original
        self._jr = {n: e.judged for n, e in self._base.items()}
        self._evals = dict(self._base)
        self._stale = False
        self.version += 1

    def _apply(self, edit: Edit) -> None:
        key = (edit.topic, edit.docno)
        if edit.new == self.original_judgment(*key):
            self.overrides.pop(key, None)
        else:
            self.overrides[key] = edit.new
        self.version += 1
        self._qrels_cache = None
        self._evals = None
        had_topic = edit.topic in self._topics
        has_topic = self._has_judgments(edit.topic)
        if has_topic:
            self._topics.add(edit.topic)
        else:
            self._topics.discard(edit.topic)
        if had_topic != has_topic or self.options.judged_only or self.options.complete:
            self._stale = True          # rebuilt (once) when next evaluated
        if not self._stale:
            self._jr = {n: _rejudge(jr, edit) for n, jr in self._jr.items()}

    def _has_judgments(self, topic: str) -> bool:
        """Whether the edited qrels still have (or now have) a row for ``topic``."""
        orig = self._original(topic)
        if any(self.overrides.get((topic, d), 0) is not None for d in orig):
            return True
        return any(g is not None and t == topic and d not in orig
                   for (t, d), g in self.overrides.items())

    # ------------------------------------------------------------ results
    def evaluation_job(self) -> Generator[Progress, None, dict[str, Evaluation]]:
        """Progress generator: ``{run name: Evaluation}`` under the current judgments.

        It works on a snapshot taken now (edits replace, never mutate, the judged
        rankings), so it may run in another thread while the user goes on
        editing; hand the result to :meth:`set_evaluations` with the
        :attr:`version` of the snapshot.
        """
        return self._evaluate(self._stale, dict(self._jr), dict(self.overrides))

    def _evaluate(self, stale: bool, jrs: dict, overrides: dict):
        n = len(self.runs)
        if stale:
            qrels = self._qrels_from(overrides)
            for i, (name, run) in enumerate(self.runs.items()):
                yield Progress(i, 2 * n, f"judging {name}")
                jrs[name] = build_judged_ranking(run, qrels, self.options)
        out = {}
        for i, (name, jr) in enumerate(jrs.items()):
            yield Progress(n * stale + i, n * (1 + stale), f"re-evaluating {name}")
            out[name] = evaluation_of(self.runs[name], jr, self.requests, self.options)
        yield Progress(1, 1, "re-evaluated")
        return out

    def evaluations(self) -> dict[str, Evaluation]:
        """Current evaluations of every run (computed on demand, then cached)."""
        if self._evals is None:
            from yardstick.common.progress import run_sync

            self.set_evaluations(run_sync(self.evaluation_job()))
        return self._evals

    def set_evaluations(self, evals: dict[str, Evaluation], version: int | None = None
                        ) -> bool:
        """Store evaluations of the current judgments (False if ``version`` is outdated)."""
        if version is not None and version != self.version:
            return False
        self._evals = dict(evals)
        self._jr = {n: e.judged for n, e in evals.items()}
        self._stale = False
        return True

    def original_evaluations(self) -> dict[str, Evaluation]:
        return dict(self._base)

    def judged(self, run_name: str) -> JudgedRanking:
        """The current judged ranking of a run (for explanations and lessons)."""
        if self._stale:
            return build_judged_ranking(self.runs[run_name], self.qrels, self.options)
        return self._jr[run_name]

    def ranking(self, measure: str = "map", evals: dict[str, Evaluation] | None = None
                ) -> pd.DataFrame:
        """Runs by ``measure`` under the edited and the original qrels.

        Columns ``value``, ``rank``, ``original``, ``original_rank``, ``delta``,
        ``rank_change`` (positive: moved up); index: run name, best first.
        """
        evals = evals if evals is not None else self.evaluations()
        now = pd.Series({n: float(e.summary[measure]) for n, e in evals.items()})
        was = pd.Series({n: float(e.summary[measure]) for n, e in self._base.items()})
        f = pd.DataFrame({"value": now, "original": was.reindex(now.index)})
        f["rank"] = f["value"].rank(ascending=False, method="min").astype(int)
        f["original_rank"] = f["original"].rank(ascending=False, method="min").astype(int)
        f["delta"] = f["value"] - f["original"]
        f["rank_change"] = f["original_rank"] - f["rank"]
        f.index.name = "run"
        return f.sort_values(["rank", "value"], ascending=[True, False])[
            ["value", "rank", "original", "original_rank", "delta", "rank_change"]]

    def changes(self, run_name: str, evals: dict[str, Evaluation] | None = None
                ) -> pd.DataFrame:
        """Summary values of one run now and originally (``measure`` index)."""
        evals = evals if evals is not None else self.evaluations()
        now, was = evals[run_name].summary, self._base[run_name].summary
        f = pd.DataFrame({"original": was, "now": now.reindex(was.index)})
        f["delta"] = f["now"] - f["original"]
        f.index.name = "measure"
        return f

    def topic_changes(self, run_name: str, topic: str,
                      evals: dict[str, Evaluation] | None = None) -> pd.DataFrame:
        """Per-topic values of one run on ``topic`` now and originally (NaN: not evaluated)."""
        evals = evals if evals is not None else self.evaluations()
        was = self._base[run_name].per_topic
        now = evals[run_name].per_topic
        cols = [c for c in was.columns if c != "relstring"]
        f = pd.DataFrame({
            "original": (was.loc[topic, cols] if topic in was.index
                         else pd.Series(np.nan, index=cols)).astype(float),
            "now": (now.loc[topic, cols] if topic in now.index
                    else pd.Series(np.nan, index=cols)).astype(float)})
        f["delta"] = f["now"] - f["original"]
        f.index.name = "measure"
        return f

    def export(self, path) -> None:
        """Write the edited qrels (TREC format, atomically) — never over the original."""
        from pathlib import Path

        from yardstick.inputs.io import write_qrels

        if self.original.path and Path(path).resolve() == Path(self.original.path).resolve():
            raise ValueError("refusing to overwrite the original qrels file; choose another name")
        write_qrels(self.qrels, path)


def _rejudge(jr: JudgedRanking, edit: Edit) -> JudgedRanking:
    """``jr`` with one document's judgment changed (same topics, same ranking)."""
    topics = [str(t) for t in jr.topics.tolist()]
    if edit.topic not in topics:
        return jr
    t = topics.index(edit.topic)
    s, e = int(jr.start[t]), int(jr.start[t + 1])
    rel = jr.rel
    run = jr.run
    lines = jr.line[s:e]
    ok = lines >= 0
    if run is not None and ok.any():
        docnos = run.docnos[run.doc_code[lines[ok]]]
        hit = np.flatnonzero(ok)[docnos == edit.docno]
        if len(hit):
            rel = rel.copy()
            rel[s + hit] = _code(edit.new)
    levels = jr.rel_levels
    need = max([levels.shape[1]] + [g + 1 for g in (edit.old, edit.new)
                                    if g is not None and g >= 0])
    levels = np.pad(levels, ((0, 0), (0, need - levels.shape[1])))
    if edit.old is not None and edit.old >= 0:
        levels[t, edit.old] -= 1
    if edit.new is not None and edit.new >= 0:
        levels[t, edit.new] += 1
    nz = np.flatnonzero(levels.any(axis=0))
    levels = levels[:, :(nz[-1] + 1 if len(nz) else 1)]
    return jr.with_rel(rel, levels)
