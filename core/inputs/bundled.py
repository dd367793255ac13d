"""Where the bundled data lives: ``resources/`` of a checkout, installed as
``yardstick/resources/``.

The source layout keeps ``resources/`` beside ``core/`` and ``gui/``; ``pip install``
ships it inside the package (``pyproject.toml`` maps the ``yardstick/resources/`` folder to it),
so both an editable checkout and a wheel find the sample and the worked examples.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path


def _resources_dir() -> Path:
    spec = importlib.util.find_spec("yardstick.resources")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(__file__).resolve().parents[2] / "resources"  # pragma: no cover - source tree


#: The folder holding ``sample/``, ``sample_fallback/`` and ``examples/``.
RESOURCES: Path = _resources_dir()
