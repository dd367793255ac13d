"""Which runs a chart draws: a filter shared by every chart of the Charts panel.

A real track has 100–150 runs; drawn at once their curves are a tangle and their
legend covers the plot.  :class:`RunFilter` picks the runs to draw from the runs
ticked in the Collection panel:

* ``auto`` (the default): every run when there are at most :data:`AUTO_LIMIT`,
  otherwise the top ``n`` by the chosen measure;
* ``top``: the ``n`` runs with the highest mean of the measure;
* ``team``: the runs of one team (group, from the groups file or run-tag prefixes);
* ``search``: runs whose name or team contains the text (case-insensitive);
* ``all``: every ticked run.

:meth:`RunFilter.select` returns a :class:`RunSelection` whose ``description``
goes into the chart's caption ("top 12 of 150 runs by map"), so a figure always
says which runs it shows — on screen and in every export.  The Charts panel keeps
its filter in ``workspace.extras[EXTRAS_KEY]``; the Stability panel's Tukey chart
applies the same filter (ranked by the analysed measure's means).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["RunFilter", "RunSelection", "AUTO_LIMIT", "MODES", "EXTRAS_KEY"]

#: above this many runs the default filter shows only the top ``n``
AUTO_LIMIT = 12
MODES = ("auto", "top", "team", "search", "all")
#: where the window keeps the filter for the other panels' run charts (``workspace.extras``)
EXTRAS_KEY = "chart_run_filter"


@dataclass(frozen=True)
class RunSelection:
    """The runs chosen (in the order of the input), out of ``total``, and why."""

    runs: tuple[str, ...]
    total: int
    description: str

    @property
    def filtered(self) -> bool:
        return len(self.runs) < self.total


@dataclass(frozen=True)
class RunFilter:
    """A choice of runs: ``mode`` (see :data:`MODES`), ``n`` for top-n, ``team``,
    ``text`` for the search.  Plain data: kept in the session file as a dict."""

    mode: str = "auto"
    n: int = AUTO_LIMIT
    team: str = ""
    text: str = ""

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"run filter mode must be one of {', '.join(MODES)}, "
                             f"not {self.mode!r}")
        if self.n < 1:
            raise ValueError("the run filter's n must be at least 1")

    def select(self, runs: Sequence[str], means: Mapping[str, float] | None = None,
               teams: Mapping[str, str] | None = None, measure: str = "",
               keep: Sequence[str] = ()) -> RunSelection:
        """The runs of ``runs`` (the ticked runs, in loading order) this filter keeps
        (top-n: best first; otherwise in the order of ``runs``).

        ``means``: each run's mean of ``measure`` (for top-n; runs without a
        finite mean rank last, ties by name).  ``teams``: run -> team.  ``keep``:
        runs always kept (a baseline), added even when the filter drops them.
        """
        runs = list(runs)
        total = len(runs)
        teams = teams or {}
        mode = self.mode
        if mode == "auto":
            mode = "top" if total > AUTO_LIMIT and means else "all"
        if mode == "top" and means:
            def rank_key(r):
                v = means.get(r)
                ok = v is not None and math.isfinite(v)
                return (0 if ok else 1, -(v if ok else 0.0), r)
            top = set(sorted(runs, key=rank_key)[:self.n])
            chosen = [r for r in runs if r in top]
            chosen.sort(key=rank_key)
            what = (f"top {len(chosen)} of {total} runs by {measure}" if len(chosen) < total
                    else f"all {total} runs")
        elif mode == "team":
            chosen = [r for r in runs if (teams.get(r) or r) == self.team]
            what = f"team {self.team}: {len(chosen)} of {total} runs"
        elif mode == "search" and self.text.strip():
            t = self.text.strip().lower()
            chosen = [r for r in runs if t in r.lower() or t in (teams.get(r) or "").lower()]
            what = f"runs matching '{self.text.strip()}': {len(chosen)} of {total}"
        else:
            chosen = runs
            what = f"all {total} runs"
        extra = [r for r in keep if r in runs and r not in chosen]
        if extra:
            chosen = chosen + extra
            what += f" (+ {', '.join(extra)})"
        return RunSelection(tuple(chosen), total, what)

    def to_dict(self) -> dict:
        return {"mode": self.mode, "n": self.n, "team": self.team, "text": self.text}

    @classmethod
    def from_dict(cls, d: Mapping | None) -> RunFilter:
        """A filter from its :meth:`to_dict` (unknown or bad values give the default)."""
        if not isinstance(d, Mapping):
            return cls()
        try:
            return cls(str(d.get("mode", "auto")), int(d.get("n", AUTO_LIMIT)),
                       str(d.get("team", "")), str(d.get("text", "")))
        except (TypeError, ValueError):
            return cls()
