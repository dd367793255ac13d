"""Where the real data a test reads lives.

``tests/data/<name>`` when the repository carries it (see ``tests/data/SOURCES.md``:
source, licence, checksums), else ``../shared/data/<name>`` next to the checkout
(larger collections the team keeps there; tests that need only those are extra
checks and skip without them).
"""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
SHARED = TESTS.parent.parent / "shared" / "data"


def data_dir(name: str) -> Path:
    """``tests/data/<name>`` if present, else ``../shared/data/<name>``."""
    local = TESTS / "data" / name
    return local if local.exists() else SHARED / name
