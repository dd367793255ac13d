"""The panels the main window hosts, in the order of its tabs/docks.

Each module ``gui/panels/<name>_panel.py`` defines one ``QWidget`` subclass with
a class attribute ``TITLE`` and ``__init__(self, state, jobs, parent=None)``.
Modules listed in :data:`PANEL_MODULES` come first, in that order; any other
``*_panel.py`` module found in this package is added after them.  A module that
fails to import (or has no panel class) is left out of the window and the reason
kept in :data:`SKIPPED`, which the window shows to the user as an error: one broken
panel never keeps the window from opening, and never goes unnoticed.

A panel may be created after files were loaded (the window creates heavy panels
after its first paint), so it must draw itself from ``state`` in ``__init__``,
not only in response to ``state.changed``.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import pkgutil

log = logging.getLogger(__name__)

PANEL_MODULES = [
    "yardstick.gui.panels.collection_panel",
    "yardstick.gui.panels.measures_panel",
    "yardstick.gui.panels.compare_panel",
    "yardstick.gui.panels.topic_panel",
    "yardstick.gui.panels.charts_panel",
    "yardstick.gui.panels.stability_panel",
    "yardstick.gui.panels.pool_panel",
    "yardstick.gui.panels.judgments_panel",
    "yardstick.gui.panels.topic_explorer_panel",
]

#: Each listed panel's tab title (its class's ``TITLE``), so the window can show its tabs
#: before importing the panels (``tests/test_gui_lazy_panels.py`` holds them equal).
PANEL_TITLES = {
    "collection": "Collection", "measures": "Measures", "compare": "Compare", "topic": "Topic",
    "charts": "Charts", "stability": "Stability", "pool": "Pool", "judgments": "Judgments",
    "topic_explorer": "Topic explorer",
}

#: module name -> why it was skipped (filled by :func:`load_panel_classes`)
SKIPPED: dict[str, str] = {}


def panel_module_names() -> list[str]:
    """Listed modules, then any other ``*_panel`` module in this package."""
    names = list(PANEL_MODULES)
    for info in pkgutil.iter_modules(__path__):
        full = f"{__name__}.{info.name}"
        if info.name.endswith("_panel") and full not in names:
            names.append(full)
    return names


def panel_key(module_name: str) -> str:
    """``yardstick.gui.panels.topic_explorer_panel`` -> ``topic_explorer``."""
    return module_name.rsplit(".", 1)[-1].removesuffix("_panel")


def find_panel_class(module) -> type | None:
    """The QWidget subclass with a ``TITLE`` defined in ``module``."""
    from PySide6.QtWidgets import QWidget

    for _, obj in inspect.getmembers(module, inspect.isclass):
        if (obj.__module__ == module.__name__ and issubclass(obj, QWidget)
                and isinstance(getattr(obj, "TITLE", None), str)):
            return obj
    return None


def record_skip(name: str, e: BaseException) -> None:
    """Remember (and log) why panel module ``name`` could not be imported."""
    if isinstance(e, ModuleNotFoundError) and e.name == name:
        SKIPPED[name] = "not written yet"
        log.info("panel %s: not present", name)
    else:
        SKIPPED[name] = f"import failed: {type(e).__name__}: {e}"
        log.warning("panel %s skipped: %s", name, e, exc_info=True)


def load_panel_classes(import_now=None) -> list[tuple[str, type | None]]:
    """``[(module name, panel class)]`` of every panel that imports, in tab order.

    With ``import_now`` (a collection of module names), other modules are not
    imported yet and come back with class ``None`` (the window creates them
    after its first paint).
    """
    out: list[tuple[str, type | None]] = []
    SKIPPED.clear()
    for name in panel_module_names():
        if import_now is not None and name not in import_now:
            out.append((name, None))
            continue
        try:
            module = importlib.import_module(name)
        except Exception as e:  # noqa: BLE001 - a broken panel must not stop the app
            record_skip(name, e)
            continue
        cls = find_panel_class(module)
        if cls is None:
            SKIPPED[name] = "no QWidget subclass with a TITLE"
            log.warning("panel %s skipped: no QWidget subclass with a TITLE", name)
            continue
        out.append((name, cls))
    return out
