"""Where Yardstick keeps its own files: QSettings (geometry, docks, last folders, recent files,
where analyses run) and the last session, under one data directory (``YARDSTICK_DATA_DIR``
overrides it; tests set it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

MAX_RECENT = 12


def data_dir() -> Path:
    env = os.environ.get("YARDSTICK_DATA_DIR")
    if env:
        d = Path(env)
    else:
        base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
        d = Path(base or Path.home() / ".yardstick")
    d.mkdir(parents=True, exist_ok=True)
    return d


def settings() -> QSettings:
    return QSettings(str(data_dir() / "settings.ini"), QSettings.Format.IniFormat)


def last_session_path() -> Path:
    return data_dir() / "last_session.json"


def last_dir(kind: str) -> str:
    v = settings().value(f"dirs/{kind}", "")
    return str(v) if v and os.path.isdir(str(v)) else str(Path.home())


def remember_dir(kind: str, path: str) -> None:
    d = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
    settings().setValue(f"dirs/{kind}", d)


def recent_files() -> list[tuple[str, str]]:
    """``[(kind, path)]``, newest first."""
    raw = settings().value("recent", "[]")
    try:
        items = json.loads(str(raw))
        return [(str(k), str(p)) for k, p in items][:MAX_RECENT]
    except (ValueError, TypeError):
        return []


def add_recent(kind: str, path: str) -> None:
    add_recents([(kind, path)])


def add_recents(files: list[tuple[str, str]]) -> None:
    """Put ``[(kind, path)]`` first in the recent files (the last one newest), in one write:
    opening 150 runs must not rewrite the settings file 150 times."""
    new = [(k, os.path.abspath(p)) for k, p in files][-MAX_RECENT:][::-1]
    paths = {p for _, p in new}
    items = new + [(k, p) for k, p in recent_files() if p not in paths]
    settings().setValue("recent", json.dumps(items[:MAX_RECENT]))


def clear_recent() -> None:
    settings().setValue("recent", "[]")


def compute_spec() -> str:
    """Where Stability and Pool jobs run (:mod:`yardstick.gui.compute_place`): ``""`` for
    this machine, ``local`` / ``local:N`` or a Dask scheduler address."""
    return str(settings().value("compute/dask", "") or "")


def set_compute_spec(spec: str) -> None:
    settings().setValue("compute/dask", spec)
