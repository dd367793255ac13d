"""Import contracts, checked on the source (ast), every import counted — top-level and lazy.

1. No import cycles anywhere in ``yardstick`` (a function-level import that closes a
   circle is still a circle: it hides an ordering bug until the day it bites).
2. Layers: a module imports only from its own layer or the layers below it::

       readers      yardstick.io, run, qrels, ranking, options, errors, collections …
       judged       yardstick.judged, judged_runs (the one judged ranking, one run or all)
       measures     yardstick.measures.*
       evaluation   engine, evaluation, evaluation_service, trec_format, preference_eval …
       diagnostics  significance, stability, pool, explain, charts, reports, export,
                    loading, workspace, sessions …
       interfaces   yardstick.cli, yardstick.api, yardstick.interop, yardstick.gui

3. The core (everything but ``yardstick.gui``) never imports the GUI, Qt or pyqtgraph
   (``tests/test_core_is_qt_free.py`` also imports every module and checks sys.modules).

Every module must belong to a layer, so a new module is placed on purpose.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {"yardstick": ROOT / "core", "yardstick.gui": ROOT / "gui"}

LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("readers", ("yardstick.errors", "yardstick.options", "yardstick.progress",
                 "yardstick.seeds", "yardstick.bundled", "yardstick.run", "yardstick.qrels",
                 "yardstick.ranking", "yardstick.io", "yardstick.documents",
                 "yardstick.collections", "yardstick.run_names", "yardstick.provenance",
                 "yardstick.topic_order", "yardstick.topic_coverage")),
    ("judged", ("yardstick.judged", "yardstick.judgment_table", "yardstick.judged_runs")),
    ("measures", ("yardstick.measures",)),
    ("evaluation", ("yardstick.engine", "yardstick.evaluation", "yardstick.evaluation_service",
                    "yardstick.trec_format", "yardstick.preference_eval",
                    "yardstick.evaluation_tables", "yardstick.measure_catalog")),
    ("diagnostics", ("yardstick.significance", "yardstick.stability", "yardstick.pool",
                     "yardstick.explain", "yardstick.charts", "yardstick.reports",
                     "yardstick.export", "yardstick.runmaker", "yardstick.examples",
                     "yardstick.sample", "yardstick.loading", "yardstick.workspace",
                     "yardstick.session_file", "yardstick.autosave", "yardstick.what_if_state",
                     "yardstick.topic_group_spec", "yardstick.collection_stats")),
    ("interfaces", ("yardstick.cli", "yardstick.api", "yardstick.interop", "yardstick.gui")),
]
QT = ("PySide6", "PyQt5", "PyQt6", "pyqtgraph", "qtpy")


def _modules() -> dict[str, Path]:
    out = {}
    for pkg, base in SOURCES.items():
        for p in base.rglob("*.py"):
            parts = p.relative_to(base).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join((pkg, *parts))] = p
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(path: Path) -> tuple[set[str], set[str]]:
    """(yardstick modules, other top-level packages) that a file imports anywhere."""
    ours, other = set(), set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for n in names:
            if n.startswith("yardstick"):
                r = _resolve(n)
                if r:
                    ours.add(r)
            else:
                other.add(n.split(".")[0])
    return ours, other


GRAPH = {m: _imports(p) for m, p in MODULES.items()}


def _layer(module: str) -> int | None:
    best = None
    for i, (_name, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and (best is None or len(p) > best[1]):
                best = (i, len(p))
    return None if best is None else best[0]


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in edges:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    edges = {m: {d for d in ours if d != m} for m, (ours, _o) in GRAPH.items()}
    assert _cycles(edges) == []


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_module_has_a_layer():
    assert [m for m in MODULES if m != "yardstick" and _layer(m) is None] == []


def test_layers_import_only_downwards():
    bad = []
    for m, (ours, _other) in GRAPH.items():
        lm = _layer(m)
        for d in ours:
            ld = _layer(d)
            if lm is not None and ld is not None and ld > lm:
                bad.append(f"{m} ({LAYERS[lm][0]}) imports {d} ({LAYERS[ld][0]})")
    assert sorted(bad) == []


def test_core_never_imports_the_gui_or_qt():
    bad = []
    for m, (ours, other) in GRAPH.items():
        if m.startswith("yardstick.gui"):
            continue
        bad += [f"{m} imports {d}" for d in ours if d.startswith("yardstick.gui")]
        bad += [f"{m} imports {q}" for q in other if q in QT]
    assert bad == []
