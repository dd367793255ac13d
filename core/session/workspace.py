"""What the user has loaded: qrels, runs, topics, documents, choices and notes.

A :class:`Workspace` is a plain, Qt-free object (glue's "state object" habit,
STYLE.md): the GUI wraps it in ``yardstick.gui.app_state.AppState`` and panels read it;
the CLI and tests can build one directly.  It saves itself as a versioned JSON
dictionary (:meth:`Workspace.to_session`) holding only *paths* and the user's
choices, never data; :func:`load_session` reads the files back (a progress
generator) and reports, rather than fails on, files that have gone missing.
See :mod:`yardstick.session.session_file` for the on-disk format, validation and migration.
"""

from __future__ import annotations

import os
import re
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from yardstick.common.errors import FormatError
from yardstick.common.options import EvalOptions
from yardstick.common.progress import Progress

if TYPE_CHECKING:  # pandas, numpy: imported when used (the window paints before them)
    import pandas as pd

    from yardstick.inputs.qrels import Qrels
    from yardstick.inputs.run import Run

__all__ = ["RunEntry", "Workspace", "PALETTE", "DEFAULT_MEASURES", "load_session",
           "SESSION_VERSION", "guess_groups"]

#: Version of the dictionary written by :meth:`Workspace.to_session`.
SESSION_VERSION = 1

#: Measures shown when nothing was chosen (trec_eval names).
DEFAULT_MEASURES = ["map", "P.10", "ndcg_cut.10", "Rprec", "recip_rank", "bpref"]

#: Run colours in order of loading (matplotlib's tab10, then tab20's light half).
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896",
           "#c5b0d5", "#c49c94", "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5"]


@dataclass
class RunEntry:
    """One loaded run and the user's settings for it.

    ``run.name`` and ``run.group`` are kept equal to ``name`` and ``group``
    (the workspace re-makes the frozen :class:`~yardstick.inputs.run.Run` when they change),
    so ``entry.run`` can be handed to any core function as it is.
    """

    run: Run
    name: str
    group: str = ""
    color: str = PALETTE[0]
    visible: bool = True
    pooled: bool = True

    @property
    def path(self) -> str | None:
        return self.run.path

    def to_json(self) -> dict[str, Any]:
        return {"path": self.run.path, "name": self.name, "group": self.group,
                "color": self.color, "visible": self.visible, "pooled": self.pooled}


@dataclass
class Workspace:
    """Everything loaded, plus the user's choices (see module docstring).

    Attributes
    ----------
    qrels : Qrels or None
    runs : dict of str to RunEntry
        In loading order; keys are the entries' names (unique).
    topics : pandas.DataFrame or None
        Columns ``topic``, ``title``, ``desc``, ``narr`` (str).
    documents : Mapping of str to str or None
        docno -> text.
    measures : list of str
        Chosen measures, trec_eval names (``"map"``, ``"P.5,10"``).
    topic_groups : dict of str to list of str
    notes : str
    options : EvalOptions
    topics_path, documents_path : str or None
        Where topics and documents came from (qrels and runs carry their own path).
    extras : dict
        JSON-serialisable state panels want saved in the session (what-if edits,
        seeds ...), keyed by panel.
    """

    qrels: Qrels | None = None
    runs: dict[str, RunEntry] = field(default_factory=dict)
    topics: pd.DataFrame | None = None
    documents: Mapping[str, str] | None = None
    measures: list[str] = field(default_factory=lambda: list(DEFAULT_MEASURES))
    topic_groups: dict[str, list[str]] = field(default_factory=dict)
    notes: str = ""
    options: EvalOptions = field(default_factory=EvalOptions)
    topics_path: str | None = None
    documents_path: str | None = None
    extras: dict[str, Any] = field(default_factory=dict)

    # ----------------------------------------------------------------- runs
    def visible_runs(self) -> list[Run]:
        """Runs whose *visible* flag is on, in loading order (names = entry names)."""
        return [e.run for e in self.runs.values() if e.visible]

    def pooled_runs(self) -> list[Run]:
        """Runs whose *pooled* flag is on (the pool diagnostics' contributing runs)."""
        return [e.run for e in self.runs.values() if e.pooled]

    def all_runs(self) -> list[Run]:
        return [e.run for e in self.runs.values()]

    def unique_name(self, name: str) -> str:
        """``name``, or ``name (2)``, ``name (3)`` ... if it is taken."""
        if name not in self.runs:
            return name
        k = 2
        while f"{name} ({k})" in self.runs:
            k += 1
        return f"{name} ({k})"

    def next_color(self) -> str:
        used = {e.color for e in self.runs.values()}
        for c in PALETTE:
            if c not in used:
                return c
        return PALETTE[len(self.runs) % len(PALETTE)]

    def add_run(self, run: Run, name: str | None = None, group: str | None = None,
                color: str | None = None, visible: bool = True, pooled: bool = True,
                replace_same_path: bool = True) -> RunEntry:
        """Add a run (a unique name is made if needed); returns its entry.

        A run loaded again from the same path replaces the old entry in place
        and keeps its settings, unless they are given.
        """
        old = None
        if replace_same_path and run.path:
            old = next((e for e in self.runs.values() if e.path == run.path), None)
        if old is not None:
            name = name or old.name
            group = old.group if group is None else group
            color = color or old.color
            visible, pooled = old.visible, old.pooled
            entry = RunEntry(run.renamed(name, group), name, group, color, visible, pooled)
            self.runs = {(name if k == old.name else k): (entry if k == old.name else v)
                         for k, v in self.runs.items()}
            return entry
        name = self.unique_name(name or run.name)
        group = run.group if group is None else group
        entry = RunEntry(run.renamed(name, group), name, group, color or self.next_color(),
                         visible, pooled)
        self.runs[name] = entry
        return entry

    def remove_run(self, name: str) -> None:
        self.runs.pop(name)

    def update_run(self, name: str, /, **changes: Any) -> RunEntry:
        """Change ``name``, ``group``, ``color``, ``visible`` or ``pooled`` of one run.

        Renaming keeps the loading order; a name already taken raises ValueError.
        """
        entry = self.runs[name]
        bad = set(changes) - {f.name for f in fields(RunEntry)} | ({"run"} & set(changes))
        if bad:
            raise ValueError(f"cannot change {sorted(bad)} of a run")
        new_name = changes.get("name", name)
        if not new_name or not str(new_name).strip():
            raise ValueError("a run needs a name")
        new_name = str(new_name).strip()
        if new_name != name and new_name in self.runs:
            raise ValueError(f"there is already a run called {new_name!r}")
        changes["name"] = new_name
        new = replace(entry, **changes)
        new.run = entry.run.renamed(new.name, new.group)
        self.runs = {(new_name if k == name else k): (new if k == name else v)
                     for k, v in self.runs.items()}
        return new

    def move_run(self, name: str, index: int) -> None:
        items = [(k, v) for k, v in self.runs.items() if k != name]
        items.insert(max(0, min(index, len(items))), (name, self.runs[name]))
        self.runs = dict(items)

    def apply_groups(self, groups: Mapping[str, str]) -> int:
        """Set groups from ``{run name or tag or file name: group}``; returns how many matched."""
        n = 0
        for name, e in list(self.runs.items()):
            base = os.path.basename(e.path) if e.path else None
            for key in (name, e.run.tag, base):
                if key and key in groups:
                    self.update_run(name, group=groups[key])
                    n += 1
                    break
        return n

    def guess_missing_groups(self) -> None:
        """Fill empty groups from common run-tag prefixes (:func:`guess_groups`)."""
        guess = guess_groups([e.run.tag or e.name for e in self.runs.values()])
        for (name, e), g in zip(list(self.runs.items()), guess):
            if not e.group and g:
                self.update_run(name, group=g)

    # ----------------------------------------------------------- topics
    def topic_ids(self) -> list[str]:
        """Every topic known from qrels, topics file or runs, in trec_eval (strcmp) order."""
        ids: set[str] = set()
        if self.qrels is not None:
            ids.update(map(str, self.qrels.topics))
        if self.topics is not None:
            ids.update(self.topics["topic"].astype(str))
        for e in self.runs.values():
            ids.update(map(str, e.run.topics))
        return sorted(ids)

    def topic_text(self, topic: str) -> dict[str, str]:
        """``{"title", "desc", "narr"}`` for a topic ("" when unknown)."""
        empty = {"title": "", "desc": "", "narr": ""}
        if self.topics is None:
            return empty
        rows = self.topics[self.topics["topic"].astype(str) == str(topic)]
        if rows.empty:
            return empty
        row = rows.iloc[0]
        import pandas as pd

        return {k: ("" if pd.isna(row.get(k, "")) else str(row.get(k, ""))) for k in empty}

    # ----------------------------------------------------------- sessions
    def to_session(self) -> dict[str, Any]:
        """A JSON-serialisable dictionary: paths, names, groups, colours, flags, choices."""
        o = self.options
        return {
            "format": "yardstick-session",
            "version": SESSION_VERSION,
            "qrels": self.qrels.path if self.qrels is not None else None,
            "topics": self.topics_path,
            "documents": self.documents_path,
            "runs": [e.to_json() for e in self.runs.values() if e.path],
            "measures": list(self.measures),
            "topic_groups": {k: list(v) for k, v in self.topic_groups.items()},
            "notes": self.notes,
            "options": {f.name: getattr(o, f.name) for f in fields(o)},
            "extras": self.extras,
        }

    @classmethod
    def from_session(cls, data: Mapping[str, Any], base_dir: str | None = None) -> "Workspace":
        """Rebuild a workspace synchronously; problems are in ``ws.extras['load_problems']``.

        See :func:`load_session` for the generator the GUI runs.
        """
        from yardstick.common.progress import run_sync

        ws, problems = run_sync(load_session(data, base_dir))
        ws.extras["load_problems"] = problems
        return ws


def guess_groups(tags: Iterable[str], min_prefix: int = 3) -> list[str]:
    """Guess each run's team from run tags sharing a prefix.

    TREC run tags usually start with the team's name (``pircRB04t1``,
    ``pircRB04d2``; ``uogRobDBase``, ``uogRobSWR10``).  A tag's group is the
    longest leading alphabetic prefix (at least ``min_prefix`` letters) it
    shares with at least one other tag; a tag that shares nothing gets its own
    alphabetic prefix only if that is at least ``min_prefix`` letters long,
    else ``""``.

    >>> guess_groups(["pircRB04t1", "pircRB04d2", "uogRobDBase", "uogRobSWR10", "x1"])
    ['pircRB', 'pircRB', 'uogRob', 'uogRob', '']
    """
    tags = list(tags)
    heads = []
    for t in tags:
        k = 0
        while k < len(t) and t[k].isalpha():
            k += 1
        heads.append(t[:k])
    # the longest prefix a head shares with any other is the one it shares with a
    # neighbour in sorted order: n log n rather than every pair (150 runs: 64 ms)
    order = sorted(range(len(heads)), key=heads.__getitem__)
    shared = [0] * len(heads)
    for a, b in zip(order, order[1:]):
        k = len(os.path.commonprefix([heads[a], heads[b]]))
        shared[a] = max(shared[a], k)
        shared[b] = max(shared[b], k)
    out = []
    for i, h in enumerate(heads):
        k = shared[i]
        best = h[:k] if k >= min_prefix else ""
        out.append(best or (h if len(h) >= min_prefix and h != tags[i] else ""))
    return out


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def load_session(data: Mapping[str, Any], base_dir: str | None = None
                 ) -> Generator[Progress, None, tuple[Workspace, list[str]]]:
    """Read every file a session names; returns ``(workspace, problems)``.

    ``problems`` lists one human-readable line per file that is missing or no
    longer readable (it is skipped; the rest loads).  ``data`` is validated by
    :func:`yardstick.session.session_file.validate_session` first (FormatError if it is not
    a session at all).
    """
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.session.session_file import validate_session

    data = validate_session(data)
    ws = Workspace()
    problems: list[str] = []

    def resolve(p: str | None) -> str | None:
        if not p:
            return None
        if base_dir and not os.path.isabs(p):
            p = os.path.join(base_dir, p)
        return p

    def attempt(what: str, path: str, fn):
        # A session is untrusted input: it may name any file on the machine, so a
        # problem is reported by file, line and reason, never with the file's text.
        shown = os.path.normpath(path)
        if not os.path.exists(path):
            problems.append(f"{what} {shown}: file not found (skipped)")
            return None
        try:
            return fn(path)
        except FormatError as e:
            where = shown if e.line is None else f"{shown}, line {e.line}"
            reason = _QUOTED.sub("…", e.reason)  # a reason may quote a field of the line
            problems.append(f"{what} {where}: {reason} (skipped)")
        except OSError as e:
            problems.append(f"{what} {shown}: {e.strerror or e} (skipped)")
        return None

    runs = data["runs"]
    total = len(runs) + 3
    step = 0
    yield Progress(step, total, "reading qrels")
    if (p := resolve(data["qrels"])) is not None:
        ws.qrels = attempt("qrels", p, read_qrels)
    step += 1
    if (p := resolve(data["topics"])) is not None:
        yield Progress(step, total, "reading topics")
        ws.topics = attempt("topics", p, _read_topics)
        if ws.topics is not None:
            ws.topics_path = os.path.abspath(p)
    step += 1
    if (p := resolve(data["documents"])) is not None:
        yield Progress(step, total, "reading documents")
        ws.documents = attempt("documents", p, _read_documents)
        if ws.documents is not None:
            ws.documents_path = os.path.abspath(p)
    step += 1
    for r in runs:
        yield Progress(step, total, f"reading run {r['name']}")
        step += 1
        p = resolve(r["path"])
        run = attempt("run", p, partial(read_run, name=r["name"], group=r["group"]))
        if run is not None:
            ws.add_run(run, name=r["name"], group=r["group"], color=r["color"],
                       visible=r["visible"], pooled=r["pooled"],
                       replace_same_path=False)  # one file listed twice: two runs
    ws.measures = list(data["measures"])
    ws.topic_groups = {k: list(v) for k, v in data["topic_groups"].items()}
    ws.notes = data["notes"]
    ws.options = EvalOptions(**data["options"])
    ws.extras = dict(data["extras"])
    yield Progress(total, total, "session loaded")
    return ws, problems


def _read_topics(path: str) -> pd.DataFrame:
    from yardstick.inputs.io.topics_file import read_topics  # written by the collections helper

    return read_topics(path)


def _read_documents(path: str) -> Mapping[str, str]:
    from yardstick.inputs.io.documents_file import read_documents

    return read_documents(path)


# ------------------------------------------------------------------ panel choices
#: ``extras`` key holding each panel's choices (baseline, measure, analysis ...).
PANEL_STATE_KEY = "panels"
#: Version of that dict's layout; a session with another version keeps default choices.
PANEL_STATE_VERSION = 1


def panel_states(ws: Workspace) -> dict[str, dict[str, Any]]:
    """``{panel key: {choice: JSON value}}`` saved in the session ({} if absent or unknown)."""
    saved = ws.extras.get(PANEL_STATE_KEY)
    if not isinstance(saved, dict) or saved.get("version") != PANEL_STATE_VERSION:
        return {}
    states = saved.get("states")
    if not isinstance(states, dict):
        return {}
    return {str(k): dict(v) for k, v in states.items() if isinstance(v, dict)}


def set_panel_states(ws: Workspace, states: dict[str, dict[str, Any]]) -> None:
    """Keep the panels' choices in ``ws.extras`` (written with the session)."""
    ws.extras[PANEL_STATE_KEY] = {"version": PANEL_STATE_VERSION,
                                  "states": {k: dict(v) for k, v in states.items()}}
