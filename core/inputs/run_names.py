"""Naming runs: by file name, path or run tag, one resolver for every command.

A run is named on the command line (``yardstick report --run``, ``pool
--not-pooled``, ``stability``'s run list ...) either by its file (name or path,
``input.aplrob03a.gz``) or by its run tag, the name trec_eval prints
(``aplrob03a``).  :func:`unique_names` gives every run a distinct display name
first (two files with one file name in different folders become ``name`` and
``name#2``), :func:`resolve_run` then finds a run from any of these and, when a
tag names several runs, refuses with a message listing the files to use instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

__all__ = ["RunNameError", "NoSuchRun", "unique_names", "resolve_run", "resolve_runs", "run_labels",
           "guess_groups", "guessed_groups",
           "listed_runs"]


class RunNameError(ValueError):
    """A run name that matches no run, or a tag shared by several runs."""


class NoSuchRun(RunNameError):
    """A run name that matches no run (neither a file nor a run tag)."""


def unique_names(runs: Sequence) -> tuple[list, list[str]]:
    """``runs`` with distinct names (repeats get ``#2``, ``#3`` ...) and a note per rename."""
    seen: dict[str, int] = {}
    out, notes = [], []
    for r in runs:
        n = seen.get(r.name, 0) + 1
        seen[r.name] = n
        if n == 1:
            out.append(r)
            continue
        new = f"{r.name}#{n}"
        out.append(r.renamed(new))
        notes.append(f"two runs are called {r.name!r}: {r.path or r.name} is shown as {new!r} "
                     f"(name it by {new!r} or by its path)")
    return out, notes


def _keys(run) -> list[str]:
    keys = [run.name]
    if run.path:
        keys += [str(run.path), os.path.basename(str(run.path))]
    return keys


def _same_file(name: str, run) -> bool:
    """``name`` is a path (relative to the working folder or absolute) of ``run``'s file."""
    if not run.path or (os.sep not in name and "/" not in name):
        return False
    return os.path.abspath(name) == os.path.abspath(str(run.path))


def resolve_run(name: str, runs: Sequence, option: str = "--run"):
    """The run ``name`` means: its display name, file path or file name first, else its tag.

    Raises :class:`RunNameError` when nothing matches or when a tag is shared.
    """
    by_file = [r for r in runs if name in _keys(r) or _same_file(name, r)]
    if len(by_file) == 1:
        return by_file[0]
    if len(by_file) > 1:
        files = ", ".join(str(r.path or r.name) for r in by_file)
        shown = ", ".join(r.name for r in by_file)
        raise RunNameError(f"{option} {name!r} names {len(by_file)} run files ({files}); "
                           f"give the path or the shown name ({shown})")
    by_tag = [r for r in runs if r.tag == name]
    if len(by_tag) == 1:
        return by_tag[0]
    if len(by_tag) > 1:
        raise RunNameError(f"{option} {name!r} is the run tag of {len(by_tag)} runs "
                           f"({', '.join(r.name for r in by_tag)}); name one by its file name")
    labels = run_labels(runs)
    listed = ", ".join(labels) if len(labels) <= 12 else \
        f"{', '.join(labels[:10])} and {len(labels) - 10} more"
    raise NoSuchRun(f"{option} {name!r} is neither a run file nor a run tag of the "
                       f"{len(labels)} runs given ({listed})")


def resolve_runs(names: Iterable[str], runs: Sequence, option: str = "--run") -> list:
    """:func:`resolve_run` for each name, without repeats, in the order given."""
    out = []
    for n in names:
        r = resolve_run(n, runs, option)
        if all(r is not x for x in out):
            out.append(r)
    return out


def run_labels(runs: Sequence) -> list[str]:
    """``name`` or ``name (tag)`` when the tag differs, for messages."""
    return [r.name if r.tag == r.name else f"{r.name} (tag {r.tag})" for r in runs]


def listed_runs(path: str | os.PathLike, runs: Sequence, option: str = "--pooled"
                ) -> tuple[list, list[str]]:
    """The runs a list file names (a run name, tag or file a line, ``#`` comments), and the
    names that match none of ``runs`` (a track's ``pooled.txt`` names every run; a study may
    load a few).  A name that is ambiguous (a tag of several runs) raises
    :class:`RunNameError`."""
    from yardstick.inputs.io.text_source import decode_text, read_bytes

    out, missing = [], []
    for line in decode_text(read_bytes(path, "list of runs")).splitlines():
        name = line.split("#", 1)[0].strip()
        if not name:
            continue
        try:
            r = resolve_run(name, runs, option)
        except NoSuchRun:
            missing.append(name)
            continue
        if all(r is not x for x in out):
            out.append(r)
    return out, missing


def _stem(tag: str) -> str:
    """The part of a run tag that names the team, lower case: the leading letters, and the
    digits after them when more follows (a year or team number: ``apl04rsTw`` ->
    ``apl04``, ``team07b`` -> ``team07``); digits that end the tag number the run
    (``uic0401`` -> ``uic``, ``rutcor0325`` -> ``rutcor``)."""
    t = tag.lower()
    k = 0
    while k < len(t) and not t[k].isdigit():
        k += 1
    j = k
    while j < len(t) and t[j].isdigit():
        j += 1
    return t[:j] if j < len(t) else t[:k]


def _same_team(a: str, b: str, min_prefix: int) -> bool:
    """Two stems name one team: they share ``min_prefix`` characters and do not part at
    two different numbers (``team07`` / ``team08``, ``apl03`` / ``apl04``)."""
    p = len(os.path.commonprefix([a, b]))
    if p < min_prefix:
        return False
    if p == len(a) or p == len(b):
        return True
    return not (a[p].isdigit() and b[p].isdigit()) and not (a[p - 1].isdigit())


def guess_groups(tags: Iterable[str], min_prefix: int = 3) -> list[str]:
    """Guess each run's team from its run tag; ``""`` where unsure (a group of its own).

    TREC run tags start with the team's name, often followed by a year or team number,
    then the run's own letters and digits (``pircRB04t1``, ``pircRB04td2``;
    ``uogRobDBase``, ``uogRobSWR10``; ``uic0401``; generated ``team07a``).  Each tag's
    stem (:func:`_stem`) is compared, case aside, with the others': stems sharing at
    least ``min_prefix`` characters join one group unless they part at two different
    numbers.  The group is named by its tags' longest common prefix.  Measured on the
    Robust 2003-2005 tag lists (``tests/data/trec_run_tags``): no run put with another
    team's runs.

    >>> guess_groups(["pircRB04t1", "pircRB04d2", "uogRobDBase", "uogRobSWR10", "x1"])
    ['pircRB04', 'pircRB04', 'uogRob', 'uogRob', '']
    """
    tags = list(tags)
    stems = [_stem(t) for t in tags]
    # runs of one stem are one team (:func:`_same_team` of equal stems is true), so only
    # the distinct stems are compared: 47 teams' 150 runs are ~1,000 pairs, not ~11,000
    distinct = list(dict.fromkeys(stems))
    parent = list(range(len(distinct)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    buckets: dict[str, list[int]] = {}
    for i, s in enumerate(distinct):
        if len(s) >= min_prefix:
            buckets.setdefault(s[:min_prefix], []).append(i)
    for members in buckets.values():
        for x, i in enumerate(members):
            for j in members[x + 1:]:
                if find(i) != find(j) and _same_team(distinct[i], distinct[j], min_prefix):
                    parent[find(j)] = find(i)
    index = {s: i for i, s in enumerate(distinct)}
    # a stem shorter than min_prefix joins no one, not even its equals
    team = [find(index[s]) if len(s) >= min_prefix else -1 - i for i, s in enumerate(stems)]
    groups: dict[int, list[int]] = {}
    for i in range(len(tags)):
        groups.setdefault(team[i], []).append(i)
    out = [""] * len(tags)
    for members in groups.values():
        if len(members) < 2:
            continue
        name = os.path.commonprefix([tags[i] for i in members])
        if len(name) < min_prefix:       # mixed case: the lower-case common prefix
            name = os.path.commonprefix([tags[i].lower() for i in members])
        for i in members:
            out[i] = name
    return out


def groups_are_guess(names: Sequence[str], tags: Sequence[str], groups: Sequence[str]) -> bool:
    """True when each run's group is the guess from its tag (:func:`guess_groups`; a run
    the guess leaves alone is its own group): no groups file was given and none edited,
    so a result using the groups says "groups guessed from run names"."""
    guess = guess_groups([t or n for n, t in zip(names, tags)])
    return all((grp or n) == (g or n) for n, grp, g in zip(names, groups, guess))


def guessed_groups(runs: Sequence) -> dict[str, str]:
    """``{run name: group}``: a run's own group where it has one, else :func:`guess_groups`'s
    guess from its tag (or name), else the run alone."""
    guess = guess_groups([r.tag or r.name for r in runs])
    return {r.name: r.group or g or r.name for r, g in zip(runs, guess)}
