"""One installed package: pyproject's explicit package list covers every source folder.

``pyproject.toml`` maps ``yardstick`` to ``core/``, ``yardstick.gui`` to ``gui/`` and
``yardstick.resources`` to ``resources/``; a new sub-folder that is not listed there
would be missing from a wheel, so this test compares the list with the tree.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _declared() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(data["tool"]["setuptools"]["packages"])


def _on_disk() -> set[str]:
    # the bundled data's folders are packages of data (listed so setuptools packs them
    # without "Package would be ignored" warnings)
    found = {".".join(("yardstick", *d.relative_to(ROOT).parts))
             for d in [ROOT / "resources", *(ROOT / "resources").rglob("*")]
             if d.is_dir() and d.name != "__pycache__"}
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


# ------------------------------------------------------------ the Qt-free install (#29)

#: a meta-path finder that makes Qt look not installed (as after ``pip install yardstick-ir``)
BLOCK_QT = """
import importlib.abc, sys
class _NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _NoQt())
"""


def _without_qt(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK_QT + code], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)


def test_qt_is_an_extra():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = data["project"]
    qt = ("pyside6", "pyqtgraph")
    assert not [d for d in project["dependencies"] if d.lower().startswith(qt)]
    assert sorted(d.split(">")[0].split("<")[0].lower()
                  for d in project["optional-dependencies"]["gui"]) == \
        ["pyqtgraph", "pyside6-essentials"]
    assert "yardstick-ir[gui]" in project["optional-dependencies"]["test"]
    assert {d.split(">")[0] for d in project["optional-dependencies"]["dask"]} == \
        {"dask", "distributed"}
    # an SPDX expression (PEP 639), which setuptools reads from version 77
    assert project["license"] == "MIT"
    assert "setuptools>=77" in data["build-system"]["requires"]


def test_core_and_headless_commands_work_without_qt():
    data = ROOT / "tests" / "data" / "trec_eval_tests" / "v10.0_HEAD"
    r = _without_qt(
        "import yardstick\n"
        "from yardstick.gui.launcher import main\n"
        f"status = main(['eval', {str(data / 'qrels.test')!r}, {str(data / 'results.test')!r}])\n"
        f"df = yardstick.evaluate({str(data / 'qrels.test')!r}, "
        f"[{str(data / 'results.test')!r}], ['map'], per_topic=False)\n"
        "print('MAP', round(float(df['value'].iloc[0]), 4), status)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')]\n"
        "print('QT', bad)\n")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    # trec_eval's own output for this pair, to the byte
    expected = (data / "out.test").read_text().splitlines()
    assert lines[:len(expected)] == expected
    want = next(ln.split()[2] for ln in expected if ln.split()[:2] == ["map", "all"])
    assert lines[-2:] == [f"MAP {float(want)} 0", "QT []"]


def test_the_window_without_qt_says_how_to_get_it():
    r = _without_qt("from yardstick.gui.launcher import main\nraise SystemExit(main([]))\n")
    assert r.returncode == 1
    assert 'pip install "yardstick-ir[gui]"' in r.stderr
    assert "Traceback" not in r.stderr and "eval" in r.stderr
