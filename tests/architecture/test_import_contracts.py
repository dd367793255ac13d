"""Import contracts, checked on the source (ast), every import counted — top-level and lazy.

1. No import cycles anywhere in ``yardstick`` (a function-level import that closes a
   circle is still a circle: it hides an ordering bug until the day it bites).
2. Layers: a module imports only from its own layer or the layers below it.  The layers
   are the folders of ``core/``, bottom to top (``docs/ARCHITECTURE.md``)::

       common        errors, options, progress, threads, seeds, provenance (+ yardstick.version)
       inputs        runs, qrels, topics, documents and their file readers
       judging       a ranking joined with the judgments (the one judged ranking)
       evaluation    the measures, the engine, trec_eval's output
       analysis      significance, stability, pool, explain
       presentation  charts, reports, table export
       session       the session model, loading, workspaces
       interfaces    yardstick.cli, yardstick.api, yardstick.interop, yardstick.gui

   A folder of ``core/`` that is not in ``LAYER_FOLDERS`` (or a module at the root other
   than ``ROOT_MODULES``) is in no layer and fails ``test_every_module_has_a_layer``.

3. The core (everything but ``yardstick.gui``) never imports the GUI, Qt or pyqtgraph
   (``tests/test_core_is_qt_free.py`` also imports every module and checks sys.modules).

Every module must belong to a layer, so a new module is placed on purpose.

Imports are read from the source: ``import``, ``from`` (absolute and relative) and
``importlib.import_module`` / ``__import__`` with a constant name, at any depth.
``test_the_contracts_catch_a_bad_package`` scans a package written to break each
rule and checks that every break is reported.  ``make test`` runs this file (it is
not marked ``serial``, so it is in the parallel pass).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {"yardstick": ROOT / "core", "yardstick.gui": ROOT / "gui"}

#: The folders of core/, bottom to top: the layers.
LAYER_FOLDERS = ("common", "inputs", "judging", "evaluation", "analysis", "presentation",
                 "session")
#: The modules that stay at the package root, and the layer each belongs to.
ROOT_MODULES = {"yardstick.version": "common", "yardstick.api": "interfaces",
                "yardstick.interop": "interfaces", "yardstick.cli": "interfaces",
                "yardstick.gui": "interfaces"}
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    *((name, (f"yardstick.{name}",) + tuple(m for m, layer in ROOT_MODULES.items()
                                            if layer == name))
      for name in LAYER_FOLDERS),
    ("interfaces", tuple(m for m, layer in ROOT_MODULES.items() if layer == "interfaces")),
]
QT = ("PySide6", "PyQt5", "PyQt6", "pyqtgraph", "qtpy")


def scan(sources: dict[str, Path]) -> tuple[dict[str, Path], dict[str, tuple[set, set]]]:
    """Modules under ``sources`` ({package: folder}) and, per module, what it imports."""
    modules = {}
    for pkg, base in sources.items():
        for p in base.rglob("*.py"):
            parts = p.relative_to(base).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join((pkg, *parts))] = p
    return modules, {m: _imports(m, p, modules) for m, p in modules.items()}


def _resolve(name: str, modules) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    """``from ..x import y`` in ``module`` as an absolute name."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def _imports(module: str, path: Path, modules) -> tuple[set[str], set[str]]:
    """(yardstick modules, other top-level packages) that a file imports anywhere:
    ``import``, ``from`` (absolute or relative), and ``importlib.import_module`` /
    ``__import__`` with a constant name."""
    ours, other = set(), set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, path, node) if node.level else node.module
            names = [f"{base}.{a.name}" for a in node.names]
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name) and node.func.id in ("__import__",
                                                                            "import_module")))):
            names = [node.args[0].value]
        else:
            continue
        for n in names:
            if n.startswith("yardstick"):
                r = _resolve(n, modules)
                if r:
                    ours.add(r)
            else:
                other.add(n.split(".")[0])
    return ours, other


MODULES, GRAPH = scan(SOURCES)


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


def cycles(graph) -> list[list[str]]:
    return _cycles({m: {d for d in ours if d != m} for m, (ours, _o) in graph.items()})


def unlayered(graph) -> list[str]:
    return sorted(m for m in graph if m != "yardstick" and _layer(m) is None)


def upward_imports(graph) -> list[str]:
    bad = []
    for m, (ours, _other) in graph.items():
        lm = _layer(m)
        for d in ours:
            ld = _layer(d)
            if lm is not None and ld is not None and ld > lm:
                bad.append(f"{m} ({LAYERS[lm][0]}) imports {d} ({LAYERS[ld][0]})")
    return sorted(bad)


def gui_in_core(graph) -> list[str]:
    bad = []
    for m, (ours, other) in graph.items():
        if m.startswith("yardstick.gui"):
            continue
        bad += [f"{m} imports {d}" for d in ours if d.startswith("yardstick.gui")]
        bad += [f"{m} imports {q}" for q in other if q in QT]
    return sorted(bad)


def test_no_import_cycles():
    assert cycles(GRAPH) == []


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_module_has_a_layer():
    assert unlayered(GRAPH) == []


def test_the_layers_are_the_folders_of_core():
    """Every folder of core/ is a layer or an interface (cli, api), and every layer is a
    folder."""
    folders = {p.name for p in SOURCES["yardstick"].iterdir()
               if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(LAYER_FOLDERS) | {"cli", "api"}
    root = {p.stem for p in SOURCES["yardstick"].glob("*.py")} - {"__init__"}
    assert {f"yardstick.{m}" for m in root} <= set(ROOT_MODULES)


def test_layers_import_only_downwards():
    assert upward_imports(GRAPH) == []


def test_core_never_imports_the_gui_or_qt():
    assert gui_in_core(GRAPH) == []


def test_the_contracts_catch_a_bad_package(tmp_path):
    """A package written to break every rule, scanned like the real one: every break is
    reported (so the contracts above can fail)."""
    core, gui = tmp_path / "core", tmp_path / "gui"
    files = {
        core / "__init__.py": "",
        core / "common" / "__init__.py": "",
        core / "common" / "errors.py": "",
        core / "inputs" / "__init__.py": "",
        # a reader that reads the judged ranking (lazily, inside a function)
        core / "inputs" / "run_file.py": "def f():\n    from yardstick.judging.judged import J\n",
        core / "judging" / "__init__.py": "",
        # the judged ranking that imports a measure, relatively
        core / "judging" / "judged.py": "from ..evaluation import ap\n",
        core / "evaluation" / "__init__.py": "",
        # a measure that imports an analysis and Qt
        core / "evaluation" / "ap.py": "import yardstick.analysis.report\nimport PySide6\n",
        core / "analysis" / "__init__.py": "",
        # an analysis that imports the CLI by name, and the GUI through importlib
        core / "analysis" / "report.py": (
            "import importlib\nfrom yardstick.cli import main\n"
            "def g():\n    return importlib.import_module('yardstick.gui.window')\n"),
        core / "cli" / "__init__.py": "from yardstick.analysis import report\n",
        core / "newthing.py": "",                       # a module in no layer
        core / "newlayer" / "__init__.py": "",          # a folder in no layer
        gui / "__init__.py": "",
        gui / "window.py": "import PySide6\nfrom yardstick.analysis import report\n",
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    _modules, graph = scan({"yardstick": core, "yardstick.gui": gui})
    assert upward_imports(graph) == [
        "yardstick.analysis.report (analysis) imports yardstick.cli (interfaces)",
        "yardstick.analysis.report (analysis) imports yardstick.gui.window (interfaces)",
        "yardstick.evaluation.ap (evaluation) imports yardstick.analysis.report (analysis)",
        "yardstick.inputs.run_file (inputs) imports yardstick.judging.judged (judging)",
        "yardstick.judging.judged (judging) imports yardstick.evaluation.ap (evaluation)",
    ]
    assert gui_in_core(graph) == ["yardstick.analysis.report imports yardstick.gui.window",
                                  "yardstick.evaluation.ap imports PySide6"]
    assert cycles(graph) == [["yardstick.analysis.report", "yardstick.cli",
                              "yardstick.gui.window"]]
    assert unlayered(graph) == ["yardstick.newlayer", "yardstick.newthing"]


def hidden_import_failures(sources: dict[str, Path]) -> list[str]:
    """``try`` blocks that import one of our own modules and catch ``ImportError`` (or
    ``ModuleNotFoundError``, or everything): a module of ours that fails to import must be
    an error the user sees, not a feature that silently disappears (issue #17, item 5)."""
    caught = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}
    bad = []
    for _package, folder in sources.items():
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Try):
                    continue
                names = set()
                for h in node.handlers:
                    types = (h.type.elts if isinstance(h.type, ast.Tuple) else [h.type])
                    names |= {"*" if t is None else getattr(t, "id", getattr(t, "attr", ""))
                              for t in types}
                if not names & (caught | {"*"}) or _reported(node, path):
                    continue
                ours = [m for stmt in node.body for n in ast.walk(stmt)
                        for m in _imported_names(n) if m.startswith("yardstick")
                        or m.startswith(".")]
                if ours:
                    bad.append(f"{path.relative_to(folder.parent)}:{node.lineno} "
                               f"catches the import of {ours[0]}")
    return bad


def _reported(node: ast.Try, path: Path) -> bool:
    """The handler hands the failure on: it re-raises, calls ``record_skip`` (the window
    lists the panels that failed to import, Help > Panels), or says ``reported elsewhere``
    on its ``except`` line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for h in node.handlers:
        body = [n for stmt in h.body for n in ast.walk(stmt)]
        if any(isinstance(n, ast.Raise) for n in body):
            continue
        if any(isinstance(n, ast.Call) and getattr(n.func, "id", "") == "record_skip"
               for n in body):
            continue
        if "reported elsewhere" in lines[h.lineno - 1]:
            continue
        return False
    return True


def _imported_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        return ["." * node.level + (node.module or "")]
    if (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", ""))
            in ("import_module", "__import__")):
        return ["yardstick"]       # a computed name: treat it as ours
    return []


def test_no_hidden_import_failures():
    assert hidden_import_failures(SOURCES) == []


def test_hidden_import_failure_is_found(tmp_path):
    pkg = tmp_path / "core"
    pkg.mkdir()
    (pkg / "a.py").write_text(
        "try:\n    from yardstick.inputs.examples import examples\nexcept ImportError:\n"
        "    examples = None\n"
        "try:\n    import bm25s\nexcept ImportError:\n    bm25s = None\n")
    assert hidden_import_failures({"yardstick": pkg}) == [
        "core/a.py:1 catches the import of yardstick.inputs.examples"]
