"""Which files make the bundled sample collection (``yardstick`` with no files)."""

from __future__ import annotations

import os
from dataclasses import asdict

from yardstick.inputs.sample import sample_paths


def sample_items() -> list[tuple[str, str | None]]:
    """Files of the bundled sample (:func:`yardstick.inputs.sample.sample_paths`) as ``(path,
    kind)``."""
    return sample_items_from_dict(asdict(sample_paths()))


def sample_items_from_dict(d: dict) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for kind, v in d.items():
        kind = {"docs": "documents", "runs": "run"}.get(kind, kind)
        for p in (v if isinstance(v, (list, tuple)) else [v]):
            if p and os.path.exists(str(p)):
                out.append((str(p), kind if kind in ("qrels", "run", "topics", "documents",
                                                     "groups") else None))
    return out
