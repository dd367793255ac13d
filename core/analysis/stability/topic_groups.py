"""Topic groups: define them, run any diagnostic per group, compare groups.

The robust 2003 overview (Voorhees 2003, §2) compares the 50 old
topics with the 50 new ones; the web-track note (Soboroff, SIGIR 2004, §2)
compares named-page with homepage topics.  A topic group is a name and a list
of topic ids, made from

* a range spec: ``"301-350"``, ``"301-350,401,405-410"`` (numeric ranges match
  topic ids that are integers; anything else is taken literally);
* a file (:func:`read_topic_groups`): ``name: spec`` lines, ``name<TAB>topic``
  lines, or bare topic ids (one group named after the file);
* a list (a selection in a table or chart, or a diagnostic such as "the 25
  hardest topics").

:func:`run_per_group` runs any diagnostic progress generator on the score
matrix restricted to each group; :func:`compare_groups` puts their summaries
side by side, and :func:`group_rank_correlation` correlates the system
rankings the groups give (robust overview Table 3).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from yardstick.analysis.stability.aggregates import Aggregate, aggregate_for
from yardstick.analysis.stability.rank_correlation import RankCorrelation, compare_rankings
from yardstick.common.errors import FormatError
from yardstick.common.progress import Progress

__all__ = ["parse_topic_spec", "parse_group_arg", "read_topic_groups", "select_topics",
           "GroupedResult", "run_per_group", "compare_groups", "group_rank_correlation"]

_RANGE = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*$")


def parse_topic_spec(spec: str, known: Iterable[str] | None = None) -> list[str]:
    """Topic ids from ``"301-350,401,405-410"`` (commas or whitespace separate items).

    With ``known`` (the topics of a collection) a range keeps only the known
    topics in it, in their numeric order, and a single id must be known;
    without it a range expands to every integer in it.

    Raises
    ------
    ValueError
        For a reversed range, an unknown topic, or an empty result.
    """
    known_list = None if known is None else [str(t) for t in known]
    known_set = None if known_list is None else set(known_list)
    out: list[str] = []
    for item in re.split(r"[,\s]+", spec.strip()):
        if not item:
            continue
        m = _RANGE.match(item)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo > hi:
                raise ValueError(f"reversed topic range {item!r}")
            if known_list is None:
                out.extend(str(t) for t in range(lo, hi + 1))
            else:
                inside = [t for t in known_list if t.strip().isdigit() and lo <= int(t) <= hi]
                out.extend(sorted(inside, key=int))
        else:
            if known_set is not None and item not in known_set:
                raise ValueError(f"unknown topic {item!r}")
            out.append(item)
    seen: set[str] = set()
    unique = [t for t in out if not (t in seen or seen.add(t))]
    if not unique:
        raise ValueError(f"topic spec {spec!r} selects no topics")
    return unique


def parse_group_arg(arg: str, known: Iterable[str] | None = None) -> tuple[str, list[str]]:
    """``"NAME=SPEC"`` (as given to ``--topic-group``) -> ``(name, topics)``."""
    name, sep, spec = arg.partition("=")
    if not sep or not name.strip():
        raise ValueError(f"topic group must look like NAME=301-350, not {arg!r}")
    return name.strip(), parse_topic_spec(spec, known)


def read_topic_groups(path: str | Path, known: Iterable[str] | None = None,
                      ) -> dict[str, list[str]]:
    """Read topic groups from a text file.

    Each non-empty line not starting with ``#`` is one of ``name: spec``,
    ``name<TAB or spaces>topic`` (two fields; lines with the same name add
    up), or a lone topic id / spec (group named after the file's stem).

    Raises
    ------
    yardstick.common.errors.FormatError
        With the line number, for a spec that selects nothing or an unknown topic.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise FormatError(str(path), None, f"cannot read topic groups: {e.strerror}") from e
    known = None if known is None else list(known)
    groups: dict[str, list[str]] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if ":" in s:
            name, _, spec = s.partition(":")
        else:
            fields = s.split()
            if len(fields) == 2 and not _RANGE.match(fields[0]) and not fields[0].isdigit():
                name, spec = fields
            else:
                name, spec = path.stem, s
        try:
            topics = parse_topic_spec(spec, known)
        except ValueError as e:
            raise FormatError(str(path), lineno, str(e), line) from e
        groups.setdefault(name.strip(), [])
        groups[name.strip()] += [t for t in topics if t not in groups[name.strip()]]
    if not groups:
        raise FormatError(str(path), None, "no topic groups in the file")
    return groups


def select_topics(scores: pd.DataFrame, topics: Sequence[str]) -> pd.DataFrame:
    """Rows of ``scores`` for ``topics`` (in the matrix's order); error if none are there."""
    wanted = {str(t) for t in topics}
    mask = scores.index.astype(str).isin(wanted)
    if not mask.any():
        raise ValueError("none of the group's topics are in the score matrix")
    return scores.loc[mask]


@dataclass(frozen=True, eq=False)
class GroupedResult:
    """One diagnostic result per topic group.

    Attributes
    ----------
    results : dict of str to object
        Group name -> the diagnostic's result (each has ``to_frame()``).
    topics : dict of str to list of str
        The topics actually used per group.
    """

    results: dict[str, Any]
    topics: dict[str, list[str]]

    def to_frame(self) -> pd.DataFrame:
        """Every group's ``to_frame()`` stacked, with a leading ``group`` column."""
        parts = []
        for name, res in self.results.items():
            f = res.to_frame().copy()
            f.insert(0, "group", name)
            parts.append(f)
        return pd.concat(parts, ignore_index=True)


def run_per_group(diagnostic: Callable[..., Generator[Progress, None, Any]],
                  scores: pd.DataFrame, groups: Mapping[str, Sequence[str]], **kwargs: Any,
                  ) -> Generator[Progress, None, GroupedResult]:
    """Run a diagnostic generator on each group's rows of ``scores`` (progress generator).

    ``diagnostic`` is any of the progress generators of :mod:`yardstick.analysis.stability`
    (``swap_rates``, ``error_rate``, ``discriminative_power`` ...); ``kwargs``
    (seed, samples ...) go to every call, so groups get the same settings.
    """
    results: dict[str, Any] = {}
    used: dict[str, list[str]] = {}
    k = len(groups)
    for i, (name, topics) in enumerate(groups.items()):
        sub = select_topics(scores, topics)
        used[name] = [str(t) for t in sub.index]
        gen = diagnostic(sub, **kwargs)
        try:
            while True:
                p = next(gen)
                yield Progress(i + p.fraction, k, f"{name}: {p.message}")
        except StopIteration as stop:
            results[name] = stop.value
    yield Progress(k, k, "done")
    return GroupedResult(results, used)


def compare_groups(grouped: GroupedResult) -> pd.DataFrame:
    """The groups' ``summary()`` Series side by side (one column per group)."""
    return pd.DataFrame({name: res.summary() for name, res in grouped.results.items()})


def group_rank_correlation(scores: pd.DataFrame, group_a: Sequence[str],
                           group_b: Sequence[str], label_a: str = "a", label_b: str = "b",
                           tie_break: pd.DataFrame | None = None,
                           lower_is_better: bool = False, measure: str = "",
                           aggregate: Aggregate | None = None) -> RankCorrelation:
    """Kendall tau / tau_AP between the system rankings of two topic groups.

    ``tie_break``: a topics × runs matrix of the tie-break measure (MAP in the
    robust overview's Table 3), averaged over each group's topics.  ``measure``
    picks how a group's scores are aggregated (the mean, or ``area`` / ``map_worst``
    over the group's own worst topics: :mod:`yardstick.analysis.stability.aggregates`).
    """
    agg = aggregate or aggregate_for(measure)
    sa, sb = select_topics(scores, group_a), select_topics(scores, group_b)
    ma = pd.Series(agg.full(sa.to_numpy(float)), index=sa.columns)
    mb = pd.Series(agg.full(sb.to_numpy(float)), index=sb.columns)
    ta = tb = None
    if tie_break is not None:
        ta = select_topics(tie_break, group_a).mean()
        tb = select_topics(tie_break, group_b).mean()
    return compare_rankings(ma, mb, label_a, label_b, ta, tb, lower_is_better, lower_is_better)
