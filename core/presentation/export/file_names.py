"""File names that say what a file holds (``recall_precision_map_12runs.png``,
``compare_map_vs_BM25.csv``), offered by the window's export dialogs instead of
``chart.png`` / ``table.csv``.

:func:`file_stem` joins the parts that name the content (kind, measure, runs, baseline)
into one portable name; :func:`chart_stem` finds them in a figure spec (its ``name``,
the measure its title or axes name, the runs it draws).
"""

from __future__ import annotations

import re

__all__ = ["file_stem", "chart_stem", "measure_in"]

#: longest stem offered (characters); longer ones are cut at a part boundary
MAX_STEM = 80
#: longest single part (a long table title) in characters
MAX_PART = 48
_UNSAFE = re.compile(r"[^A-Za-z0-9_.+=-]+")


def _slug(part: str) -> str:
    return _UNSAFE.sub("-", str(part)).strip("-.")


def file_stem(*parts) -> str:
    """The non-empty ``parts`` made safe for any file system and joined with ``_``:
    letters, digits and ``_ . + = -`` kept, every other run of characters one ``-``."""
    slugs = [s[:MAX_PART] for s in (_slug(p) for p in parts if p not in (None, "")) if s]
    stem = "_".join(slugs) or "export"
    while len(stem) > MAX_STEM and len(slugs) > 1:
        slugs.pop()
        stem = "_".join(slugs)
    return stem[:MAX_STEM]


def measure_in(text: str) -> str | None:
    """The first measure named in ``text`` as trec_eval prints it (``map``, ``P_10``,
    ``ndcg_cut_20``), or None."""
    from yardstick.evaluation.measure_catalog import catalog

    names = {m.name for m in catalog()} | {"map_worst", "area"}
    for word in re.findall(r"[A-Za-z0-9_.]+", text):
        base = re.sub(r"_[0-9.]+$", "", word)
        if word in names or (base != word and base in names):
            return word
    return None


def chart_stem(spec) -> str:
    """``<figure name>_<measure>_<runs>``: the run's name when one run is drawn, ``12runs``
    when several."""
    texts = [spec.title] + [f"{p.y.label} {p.x.label}" for p in spec.plots]
    measure = next((m for m in (measure_in(t) for t in texts) if m), None)
    runs = spec.runs
    who = runs[0] if len(runs) == 1 else f"{len(runs)}runs" if runs else ""
    name = spec.name if spec.name and spec.name != "chart" else spec.title
    if measure and measure in name.split("_"):
        measure = None                       # already in the name (map_at_x)
    return file_stem(name, measure, who)
