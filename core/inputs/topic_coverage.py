"""Which topics an analysis of several runs drops or scores as zero, in words.

trec_eval evaluates a run on the topics that have both results and judgments;
a run's topic missing from the qrels is never scored, and a qrels topic
missing from the run is ignored, or with ``-c`` scored 0 (``trec_eval.c``,
``-c``: "average over the complete set of queries in the relevance judgments").
An analysis of several runs at once (a report, the stability and pool
diagnostics, the window) must say the same thing out loud, since the numbers
change with it: :func:`topic_coverage` finds the topics, and
:meth:`TopicCoverage.messages` says what happened to them.  The CLI prints the
messages on standard error, the reports carry them as notes, the window shows
them in its message area.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from yardstick.inputs.io.text_source import shown
from yardstick.inputs.topic_order import natural_key


@dataclass(frozen=True)
class TopicCoverage:
    """Topics outside the common ground of qrels and runs.

    Attributes
    ----------
    unjudged : dict
        Topic -> names of the runs that have results for it but which the
        qrels do not judge (never scored, by any tool).
    missing : dict
        Qrels topic -> names of the runs without results for it.
    complete : bool
        Whether missing topics score 0 (``-c``) or are left out of that run's mean.
    """

    unjudged: dict[str, list[str]]
    missing: dict[str, list[str]]
    complete: bool
    n_runs: int

    def messages(self, limit: int = 10, has_c_option: bool = True) -> list[str]:
        """One sentence per kind of topic, naming at most ``limit`` topics (the hint
        names ``-c`` only where the command has it); bytes that are not UTF-8 are
        shown as U+FFFD, so the text prints anywhere."""
        out = []
        if self.unjudged:
            out.append(f"{len(self.unjudged)} topic(s) have results but no judgments and are "
                       f"dropped: {_listing(self.unjudged, self.n_runs, limit)}")
        if self.missing:
            what = ("scored 0 for the runs without results (-c)" if self.complete else
                    "left out of those runs' means " + ("(use -c to score them 0)"
                                                        if has_c_option else
                                                        "(as trec_eval without -c)"))
            out.append(f"{len(self.missing)} judged topic(s) lack results in some run and are "
                       f"{what}: {_listing(self.missing, self.n_runs, limit)}")
        return out


def _listing(topics: dict[str, list[str]], n_runs: int, limit: int) -> str:
    keys = sorted(topics, key=natural_key)
    parts = []
    for t in keys[:limit]:
        runs = topics[t]
        parts.append(f"{shown(t)} (all runs)" if len(runs) == n_runs else
                     f"{shown(t)} ({', '.join(map(shown, runs[:3]))}"
                     f"{' ...' if len(runs) > 3 else ''})")
    return "; ".join(parts) + (f"; and {len(keys) - limit} more" if len(keys) > limit else "")


def topic_coverage(qrels_topics: Sequence[str], runs: Sequence, complete: bool
                   ) -> TopicCoverage:
    """The topics of ``runs`` (objects with ``name`` and ``topics``) against the qrels'."""
    judged = set(map(str, qrels_topics))
    unjudged: dict[str, list[str]] = {}
    missing: dict[str, list[str]] = {}
    for r in runs:
        have = set(map(str, r.topics))
        for t in have - judged:
            unjudged.setdefault(t, []).append(r.name)
        for t in judged - have:
            missing.setdefault(t, []).append(r.name)
    return TopicCoverage(unjudged, missing, complete, len(runs))
