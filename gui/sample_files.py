"""Which files make the bundled sample collection (``yardstick`` with no files)."""

from __future__ import annotations

import os

from yardstick.bundled import RESOURCES


def sample_items() -> list[tuple[str, str | None]]:
    """Files of the bundled sample: ``yardstick.sample.sample_paths()`` if present, else the fallback."""
    try:
        from yardstick.sample import sample_paths

        paths = sample_paths()
    except Exception:  # noqa: BLE001 - sample not written yet: use the fallback
        paths = None
    if paths:
        if isinstance(paths, dict):
            return sample_items_from_dict(paths)
        if hasattr(paths, "__dict__") or hasattr(paths, "_asdict"):
            d = paths._asdict() if hasattr(paths, "_asdict") else vars(paths)
            return sample_items_from_dict(d)
        return [(str(p), None) for p in paths]
    fb = RESOURCES / "sample_fallback"
    items = [(str(fb / "robust03.qrels.gz"), "qrels"), (str(fb / "robust03.topics.txt"), "topics")]
    items += [(str(p), "run") for p in sorted(fb.glob("*.run.gz"))]
    return items


def sample_items_from_dict(d: dict) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for kind, v in d.items():
        kind = {"docs": "documents", "runs": "run"}.get(kind, kind)
        for p in (v if isinstance(v, (list, tuple)) else [v]):
            if p and os.path.exists(str(p)):
                out.append((str(p), kind if kind in ("qrels", "run", "topics", "documents",
                                                     "groups") else None))
    return out
