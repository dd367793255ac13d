"""core/ must never import Qt or pyqtgraph (the CLI, notebooks and tests use it headless)."""

import ast
import pathlib
import subprocess
import sys

CORE = pathlib.Path(__file__).resolve().parents[2] / "core"
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "pyqtgraph", "qtpy", "shiboken6", "gui")


def test_no_module_under_core_imports_qt_or_gui():
    offenders = []
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for n in names:
                if n.split(".")[0] in FORBIDDEN:
                    offenders.append(f"{path.relative_to(CORE.parent)}:{node.lineno} imports {n}")
    assert offenders == []


def test_importing_every_core_module_loads_no_qt():
    mods = sorted("yardstick." + ".".join(p.relative_to(CORE).with_suffix("").parts)
                  for p in CORE.rglob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    code = ("import importlib, sys\n"
            f"for m in {mods!r}:\n"
            "    importlib.import_module(m)\n"
            "qt = ('PySide6', 'pyqtgraph', 'PyQt5', 'PyQt6')\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in qt]\n"
            "print(bad)\nassert not bad, bad\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=CORE.parent / "tests")  # not the checkout root: import the package
    assert r.returncode == 0, r.stdout + r.stderr
