"""The docstring examples of the public API run (doctest), and the README's walk-through works."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = ["yardstick", "yardstick.api", "yardstick.api.evaluation", "yardstick.interop",
           "yardstick.evaluation.measures.spec", "yardstick.session.autosave"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    mod = importlib.import_module(name)
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0
    if name != "yardstick":
        assert res.attempted > 0


def test_every_public_name_is_documented_and_typed():
    import inspect

    import yardstick

    for name in yardstick.__all__:
        if name.startswith("__"):
            continue
        obj = getattr(yardstick, name)
        assert inspect.getdoc(obj), name
        if inspect.isfunction(obj):
            assert "return" in obj.__annotations__, name


def test_readme_python_walkthrough_runs(tmp_path, monkeypatch):
    """The README's "Python API" code block, executed as a notebook would."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Python API", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "the README has no Python API walk-through"
    monkeypatch.chdir(tmp_path)
    import matplotlib

    matplotlib.use("Agg")
    scope: dict = {}
    for code in blocks:
        exec(compile(code, "README.md", "exec"), scope)  # noqa: S102 - our own README
    assert (tmp_path / "comparison.xlsx").exists()
    assert (tmp_path / "recall_precision.svg").read_text().startswith("<?xml")
