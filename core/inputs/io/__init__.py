"""Readers and writers for TREC and classic IR file formats.

The names are loaded on first use, so reading a run does not import pandas
(``yardstick eval`` imports it on a second thread while the run is parsed).
"""

from __future__ import annotations

import importlib

__all__ = ["read_qrels", "write_qrels", "read_run", "write_run"]

_WHERE = {"read_qrels": "yardstick.inputs.io.qrels_file",
          "write_qrels": "yardstick.inputs.io.qrels_file",
          "read_run": "yardstick.inputs.io.run_file",
          "write_run": "yardstick.inputs.io.run_file"}


def __getattr__(name: str):
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'yardstick.inputs.io' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
