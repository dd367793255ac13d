"""One installed package: pyproject's explicit package list covers every source folder.

``pyproject.toml`` maps ``yardstick`` to ``core/``, ``yardstick.gui`` to ``gui/`` and
``yardstick.resources`` to ``resources/``; a new sub-folder that is not listed there
would be missing from a wheel, so this test compares the list with the tree.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _declared() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(data["tool"]["setuptools"]["packages"])


def _on_disk() -> set[str]:
    found = {"yardstick.resources"}
    for folder, name in (("core", "yardstick"), ("gui", "yardstick.gui")):
        for init in (ROOT / folder).rglob("__init__.py"):
            found.add(".".join((name, *init.parent.relative_to(ROOT / folder).parts)))
    return found


def test_every_package_folder_is_listed():
    assert _declared() == _on_disk()


def test_only_yardstick_at_the_top_level():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    tops = {name.split(".")[0] for name in data["tool"]["setuptools"]["packages"]}
    assert tops == {"yardstick"}
    assert data["project"]["scripts"] == {"yardstick": "yardstick.gui.launcher:main"}


def test_no_module_imports_the_old_top_level_names():
    offenders = []
    for path in [*ROOT.glob("core/**/*.py"), *ROOT.glob("gui/**/*.py"), *ROOT.glob("tests/*.py"),
                 *ROOT.glob("benchmarks/*.py")]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            s = line.strip()
            if s.startswith(("from core", "import core", "from gui", "import gui")):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {s}")
    assert offenders == []
