"""Every cross-reference in a docstring names something that exists (issue 29, item 4).

Sphinx roles (``:func:``, ``:mod:``, ``:class:``, ``:meth:``, ``:data:``, ``:attr:``,
``:exc:``) and backticked dotted names under ``yardstick.`` in the docstrings of core/
and gui/ are resolved the way a reader would: ``yardstick.a.b.name`` by importing the
longest module prefix and looking the rest up with getattr; a bare or relative name
(``:class:`Evaluation```, ``:meth:`JudgedRanking.with_rel```) in the module that holds
the docstring, then in the class the docstring belongs to.  A module renamed or a
function removed leaves a reference here that fails.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROLE = re.compile(r":(?:func|mod|class|meth|data|attr|exc|obj):`~?([^`<>]+?)`")
DOTTED = re.compile(r"``(yardstick(?:\.\w+)+)(?:\(\))?``")
HAS_QT = importlib.util.find_spec("PySide6") is not None


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT)
    parts = list(rel.with_suffix("").parts)
    top = ["yardstick"] if parts[0] == "core" else ["yardstick", "gui"]
    parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(top + parts)


def _docstrings(tree: ast.Module):
    """(docstring, enclosing class names) of the module, its classes and functions (a
    class's own docstring counts as inside the class)."""
    def walk(node, classes):
        inner = classes + [node.name] if isinstance(node, ast.ClassDef) else classes
        doc = ast.get_docstring(node, clean=False) if isinstance(
            node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) else None
        if doc:
            yield doc, inner
        for child in ast.iter_child_nodes(node):
            yield from walk(child, inner)
    yield from walk(tree, [])


def _resolve_absolute(name: str) -> bool:
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        try:
            for attr in parts[k:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def _has(obj, name: str) -> bool:
    """``obj.a.b`` exists, or its last part is a declared (dataclass) field."""
    *path, last = name.split(".")
    try:
        for attr in path:
            obj = getattr(obj, attr)
    except AttributeError:
        return False
    if hasattr(obj, last) or last in getattr(obj, "__annotations__", {}):
        return True
    # an instance attribute a class sets in its methods (``self.version = 0``)
    try:
        return isinstance(obj, type) and f"self.{last} =" in inspect.getsource(obj)
    except (OSError, TypeError):
        return False


def _resolve_local(module, classes: list[str], name: str) -> bool:
    """``name`` in the enclosing classes (innermost first), the module, or a class the
    module defines (a module docstring naming its main class's methods)."""
    scopes = [module]
    obj = module
    for c in classes:
        obj = getattr(obj, c, None)
        if obj is None:
            break
        scopes.insert(0, obj)
    scopes += [v for v in vars(module).values()
               if isinstance(v, type) and v.__module__ == module.__name__]
    return any(_has(scope, name) for scope in scopes)


def _references():
    files = sorted((ROOT / "core").rglob("*.py"))
    if HAS_QT:
        files += sorted((ROOT / "gui").rglob("*.py"))
    for path in files:
        tree = ast.parse(path.read_text(), str(path))
        for doc, classes in _docstrings(tree):
            for m in ROLE.finditer(doc):
                yield path, classes, m.group(1).strip().rstrip("()")
            for m in DOTTED.finditer(doc):
                yield path, classes, m.group(1)


def _unresolved() -> list[str]:
    bad = []
    modules = {}
    for path, classes, name in _references():
        if name.startswith("yardstick."):
            ok = _resolve_absolute(name)
        elif "." in name and name.split(".")[0] in ("numpy", "pandas", "scipy", "pyarrow",
                                                       "matplotlib", "concurrent", "dask"):
            ok = _resolve_absolute(name)
        else:
            mod_name = _module_name(path)
            if mod_name not in modules:
                modules[mod_name] = importlib.import_module(mod_name)
            ok = _resolve_local(modules[mod_name], classes, name)
        if not ok:
            bad.append(f"{path.relative_to(ROOT)}: {name}")
    return sorted(set(bad))


def test_every_docstring_reference_resolves():
    assert _unresolved() == []


def test_the_check_finds_a_broken_reference(tmp_path, monkeypatch):
    """The checker itself: a reference to a module that does not exist is reported."""
    assert not _resolve_absolute("yardstick.evaluation.no_such_module.thing")
    assert not _resolve_absolute("yardstick.evaluation.engine.no_such_function")
    assert _resolve_absolute("yardstick.evaluation.engine.topic_average")
    import yardstick.evaluation.engine as engine

    assert _resolve_local(engine, [], "Column")
    assert not _resolve_local(engine, [], "NoSuchName")


@pytest.mark.skipif(not HAS_QT, reason="the gui/ docstrings are checked where PySide6 is")
def test_gui_docstrings_are_checked():
    assert any(p.parts[-2:] == ("gui", "app_state.py") or "gui" in p.parts
               for p, _, _ in _references())
