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
