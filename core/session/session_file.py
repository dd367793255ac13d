"""Session files: versioned JSON, validated field by field, written atomically.

A session names files and records the user's choices (run names, groups,
colours, visible/pooled flags, measures, topic groups, notes, evaluation
options, panel extras); it never holds data and is never unpickled or
evaluated.  Every field is checked for type; unknown fields are dropped; a
file written by a newer Yardstick is refused with a message rather than
misread (napari's settings migrations are the model: STYLE.md).
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from yardstick.common.errors import FormatError
from yardstick.common.options import EvalOptions
from yardstick.inputs.io.atomic import atomic_write_text
from yardstick.inputs.io.text_source import decode_text, read_bytes

__all__ = ["SESSION_VERSION", "validate_session", "read_session", "write_session"]

SESSION_VERSION = 1
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _err(path: str, reason: str) -> FormatError:
    return FormatError(path, None, f"not a valid Yardstick session: {reason}")


def validate_session(data: Any, path: str = "<session>") -> dict[str, Any]:
    """Check a session dictionary and return a clean copy with every field present.

    Raises
    ------
    FormatError
        if ``data`` is not a session, is from a newer version, or a field has
        the wrong type.
    """
    if not isinstance(data, Mapping):
        raise _err(path, "expected a JSON object")
    if data.get("format") != "yardstick-session":
        raise _err(path, "missing \"format\": \"yardstick-session\"")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _err(path, f"bad version {version!r}")
    if version > SESSION_VERSION:
        raise _err(path, f"written by a newer Yardstick (session version {version}, "
                         f"this one reads up to {SESSION_VERSION})")

    def opt_str(key: str) -> str | None:
        v = data.get(key)
        if v is not None and not isinstance(v, str):
            raise _err(path, f"{key!r} must be a path or null")
        return v

    def str_field(obj: Mapping, key: str, default: str, where: str) -> str:
        v = obj.get(key, default)
        if not isinstance(v, str):
            raise _err(path, f"{where}{key!r} must be text")
        return v

    def bool_field(obj: Mapping, key: str, where: str) -> bool:
        v = obj.get(key, True)
        if not isinstance(v, bool):
            raise _err(path, f"{where}{key!r} must be true or false")
        return v

    runs = data.get("runs", [])
    if not isinstance(runs, list):
        raise _err(path, "'runs' must be a list")
    clean_runs = []
    for i, r in enumerate(runs):
        where = f"run {i + 1}: "
        if not isinstance(r, Mapping):
            raise _err(path, f"{where}expected an object")
        rpath = r.get("path")
        if not isinstance(rpath, str) or not rpath:
            raise _err(path, f"{where}'path' must be a file path")
        name = str_field(r, "name", os.path.basename(rpath), where) or os.path.basename(rpath)
        color = str_field(r, "color", "#1f77b4", where)
        if not _COLOR.match(color):
            raise _err(path, f"{where}colour {color!r} is not #rrggbb")
        clean_runs.append({"path": rpath, "name": name,
                           "group": str_field(r, "group", "", where), "color": color,
                           "visible": bool_field(r, "visible", where),
                           "pooled": bool_field(r, "pooled", where)})

    measures = data.get("measures", [])
    if not isinstance(measures, list) or not all(isinstance(m, str) for m in measures):
        raise _err(path, "'measures' must be a list of measure names")
    groups = data.get("topic_groups", {})
    if not isinstance(groups, Mapping) or not all(
            isinstance(k, str) and isinstance(v, list) and all(isinstance(t, str) for t in v)
            for k, v in groups.items()):
        raise _err(path, "'topic_groups' must map names to lists of topic ids")
    notes = data.get("notes", "")
    if not isinstance(notes, str):
        raise _err(path, "'notes' must be text")
    extras = data.get("extras", {})
    if not isinstance(extras, Mapping):
        raise _err(path, "'extras' must be an object")
    return {"format": "yardstick-session", "version": SESSION_VERSION,
            "qrels": opt_str("qrels"), "topics": opt_str("topics"),
            "documents": opt_str("documents"), "runs": clean_runs,
            "measures": list(measures), "topic_groups": {k: list(v) for k, v in groups.items()},
            "notes": notes, "options": _options(data.get("options", {}), path),
            "extras": dict(extras)}


def _options(obj: Any, path: str) -> dict[str, Any]:
    if not isinstance(obj, Mapping):
        raise _err(path, "'options' must be an object")
    defaults = EvalOptions()
    out = {}
    for f in fields(EvalOptions):
        v = obj.get(f.name, getattr(defaults, f.name))
        d = getattr(defaults, f.name)
        ok = (v is None or isinstance(v, int) and not isinstance(v, bool)) \
            if f.name == "max_docs" else \
            isinstance(v, type(d)) and not (isinstance(d, int) and not isinstance(d, bool)
                                            and isinstance(v, bool))
        if not ok:
            raise _err(path, f"option {f.name!r} has a bad value {v!r}")
        out[f.name] = v
    try:
        EvalOptions(**out)  # its own range checks (max_docs >= 0, compat 9 or 10 ...)
    except (ValueError, TypeError) as e:
        raise _err(path, f"bad options: {e}") from None
    return out


def read_session(path: str | os.PathLike) -> dict[str, Any]:
    """Read and validate a session file (relative paths in it are taken from its folder)."""
    spath = str(path)
    text = decode_text(read_bytes(path, "Yardstick session (JSON)"))
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise FormatError(spath, e.lineno, f"not valid JSON: {e.msg}") from None
    except ValueError as e:
        raise FormatError(spath, None, f"not valid JSON: {e}") from None
    except RecursionError:
        raise FormatError(spath, None, "not a Yardstick session: its JSON is nested too deeply "
                                       f"(more than {sys.getrecursionlimit()} levels)") from None
    data = validate_session(data, spath)
    base = os.path.dirname(os.path.abspath(spath))
    for key in ("qrels", "topics", "documents"):
        if data[key] and not os.path.isabs(data[key]):
            data[key] = os.path.join(base, data[key])
    for r in data["runs"]:
        if not os.path.isabs(r["path"]):
            r["path"] = os.path.join(base, r["path"])
    return data


def _no_constant(name: str):
    raise ValueError(f"{name} is not allowed")


def write_session(path: str | os.PathLike, data: Mapping[str, Any]) -> None:
    """Validate and write a session atomically (temp file, then rename)."""
    clean = validate_session(data, str(path))
    text = json.dumps(clean, indent=2, ensure_ascii=False, allow_nan=False,
                      default=_jsonable)
    atomic_write_text(path, text + "\n")


def _jsonable(obj: Any):
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if isinstance(obj, (set, tuple)):
        return list(obj)
    raise TypeError(f"{type(obj).__name__} cannot be saved in a session")
