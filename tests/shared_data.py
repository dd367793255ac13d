"""Where the real data a test reads lives.

``tests/data/<name>`` when the repository carries it (see ``tests/data/SOURCES.md``:
source, licence, checksums), else ``../shared/data/<name>`` next to the checkout
(larger collections the team keeps there; tests that need only those are extra
checks and skip without them, saying "extra check").  Where the real data cannot
be carried, tests run on generated stand-ins (``robust03_dir``, and
``tests/sample_collections.py``, ``tests/classic_formats.py``): see
``tests/data/SOURCES.md``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: ``../shared/data``; ``YARDSTICK_TESTS_NO_SHARED=1`` hides it, to run the suite as a
#: fresh clone on its own does.
SHARED = TESTS.parent.parent / "shared" / "data"
if os.environ.get("YARDSTICK_TESTS_NO_SHARED"):
    SHARED = TESTS / "no-shared-data"


def data_dir(name: str) -> Path:
    """``tests/data/<name>`` if present, else ``../shared/data/<name>``."""
    local = TESTS / "data" / name
    return local if local.exists() else SHARED / name


#: True when the 17 real TREC 2003 Robust runs are next to the checkout.
REAL_ROBUST03 = (SHARED / "trectools_robust03" / "runs").is_dir()


def robust03_dir() -> Path:
    """The real ``trectools_robust03`` folder if present, else the generated track with the
    same layout, run tags and topic ids (:mod:`tests.generated_track`).  Published numbers
    hold only when :data:`REAL_ROBUST03`; oracle comparisons hold on both."""
    if REAL_ROBUST03:
        return SHARED / "trectools_robust03"
    from tests.generated_track import generated_robust03

    return generated_robust03()


def generated_folder(name: str, sources: Iterable[Path], write: Callable[[Path], None]) -> Path:
    """A folder of generated test data, written once per machine by ``write(folder)``.

    Named after ``name`` and the hash of ``sources`` (the generator's own file and its
    inputs), in the temporary directory; the workers of ``pytest -n`` share it (it is
    written aside and renamed into place, so it appears whole or not at all).
    """
    h = hashlib.sha256()
    for p in sources:
        h.update(Path(p).read_bytes())
    dest = Path(tempfile.gettempdir()) / f"yardstick-tests-{name}-{h.hexdigest()[:12]}"
    if not dest.is_dir():
        tmp = Path(tempfile.mkdtemp(prefix=dest.name + ".", dir=dest.parent))
        write(tmp / "data")
        try:
            os.rename(tmp / "data", dest)
        except OSError:          # another worker got there first
            pass
        shutil.rmtree(tmp, ignore_errors=True)
    return dest
