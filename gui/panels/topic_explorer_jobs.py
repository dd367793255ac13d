"""The Topic explorer's work in jobs, from plain data: the what-if session of the
workspace (with the edits of the one it replaces) or of a worked example of the TREC
appendix, and a run's lesson on a topic with the what-if tables.
"""

from __future__ import annotations

from yardstick.analysis.explain.topic_lesson import appendix_example, lesson_from_judged
from yardstick.analysis.explain.what_if import WhatIfSession
from yardstick.gui.teaching_views import what_if_frames

__all__ = ["examples_offered", "new_session", "example_session", "lesson_and_tables"]


def examples_offered() -> list[tuple[str, str]]:
    """(name, title) of the worked examples."""
    from yardstick.inputs.examples import examples

    return [(e.name, e.title) for e in examples()]


def new_session(qrels, runs, measures, options, edits) -> WhatIfSession:
    """A what-if session, with the edits of the one it replaces (measures or runs changed)."""
    s = WhatIfSession(qrels, runs, measures, options)
    for e in edits:
        s.mark(e.topic, e.docno, e.new)
    if edits:
        s.evaluations()
    return s


def example_session(name: str) -> WhatIfSession:
    """A what-if session on a worked example of the TREC appendix (read from its files)."""
    from yardstick.common.options import EvalOptions

    run, qrels = appendix_example(name)
    return WhatIfSession(qrels, {run.name: run}, ["official"], EvalOptions())


def lesson_and_tables(session: WhatIfSession, run: str, topic: str, evals: dict | None,
                       measure: str):
    """``(lesson, what-if tables or None, error message or None)`` from plain data."""
    from yardstick.analysis.explain import ExplainError

    try:
        lesson = lesson_from_judged(session.judged(run), topic)
    except ExplainError as e:
        return None, None, str(e)
    frames = (what_if_frames(session, lesson, evals, measure)
              if evals is not None and run in evals else None)
    return lesson, frames, None
