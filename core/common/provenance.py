"""What an exported table, figure or report was computed from.

One :class:`Provenance` travels with every export: the Yardstick version, the
date, the qrels file (name and SHA-256), the run files with their run tags,
the measures, trec_eval's options (``-l``, ``-c``, ``-M``, ``-J``, ``-N``), the
compatibility mode, the interpolation rule of the recall-precision figures and
the seeds of randomised analyses.  Each writer shows it the way its format
allows: a provenance sheet in XLSX, a ``.provenance.json`` file beside CSV and
Markdown, a comment block in LaTeX, the footer of HTML/PDF reports and the
metadata of SVG/PDF figures (:meth:`Provenance.matplotlib_metadata`).

The interpolation rule follows trec_eval's ``m_iprec_at_recall.c``: trec_eval
10.0 turns recall level *r* into ``lround(r x R)`` relevant documents, 9.0.8
into ``(long)(r x R + 0.9)``; the TREC appendix ("Common Evaluation Measures",
TREC proceedings appendix) prints 9.0.8's values.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["RunSource", "Provenance", "file_sha256", "interpolation_rule", "workspace_provenance",
           "workspace_sources"]

_RULES = {
    10: "trec_eval 10.0: recall level r -> lround(r x R) relevant documents",
    9: "trec_eval 9.0.8 (the TREC appendix): recall level r -> (long)(r x R + 0.9) "
       "relevant documents",
}


def interpolation_rule(compat: int) -> str:
    """The sentence naming the recall-precision interpolation rule of ``compat`` (9 or 10)."""
    return _RULES[int(compat)]


def file_sha256(path: str | os.PathLike) -> str:
    """Hex SHA-256 of a file's bytes ("" when it cannot be read, e.g. a FIFO already drained).

    A regular file is hashed once per (path, size, modification time): the window
    records the provenance of 150 run files on every export, and re-reading
    gigabytes per click would freeze it.
    """
    try:
        st = os.stat(path)
    except OSError:
        return ""
    if not os.path.isfile(path):
        return _hash_file(path)
    return _hash_regular_file(os.path.realpath(path), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=4096)
def _hash_regular_file(path: str, size: int, mtime_ns: int) -> str:
    return _hash_file(path)


def _hash_file(path) -> str:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return ""
    return h.hexdigest()


@dataclass(frozen=True)
class RunSource:
    """One run: its file name, its run tag (what trec_eval prints) and the file's SHA-256."""

    file: str
    tag: str
    sha256: str = ""


@dataclass(frozen=True)
class Provenance:
    """Where an export's numbers come from (see the module docstring).

    ``options`` holds trec_eval's flags by name (``relevance_level``, ``max_docs``,
    ``complete``, ``judged_only``, ``num_docs_in_coll``); ``seeds`` the seed of each
    randomised analysis by name (e.g. ``{"randomisation": 42}``); ``extra`` any
    further key/value the exporting analysis wants recorded (test, correction, alpha).
    """

    yardstick_version: str = ""
    created: str = ""
    qrels_file: str = ""
    qrels_sha256: str = ""
    runs: tuple[RunSource, ...] = ()
    measures: tuple[str, ...] = ()
    options: Mapping[str, object] = field(default_factory=dict)
    compat: int = 10
    interpolation: str = ""
    seeds: Mapping[str, int] = field(default_factory=dict)
    extra: Mapping[str, object] = field(default_factory=dict)

    @classmethod
    def build(cls, qrels_path: str | os.PathLike | None = None,
              runs: Iterable[tuple[str | os.PathLike, str]] = (),
              measures: Iterable[str] = (), options=None,
              seeds: Mapping[str, int] | None = None,
              extra: Mapping[str, object] | None = None,
              created: str | None = None) -> "Provenance":
        """Provenance of an analysis of ``runs`` (``(path, run tag)`` pairs) against ``qrels_path``.

        ``options`` is an :class:`~yardstick.common.options.EvalOptions` (or ``None`` for the
        defaults); files are hashed here.  ``created`` defaults to now (UTC, ISO 8601).
        """
        from yardstick.version import __version__

        compat = int(getattr(options, "compat", 10)) if options is not None else 10
        opts: dict[str, object] = {}
        for name in ("relevance_level", "max_docs", "complete", "judged_only",
                     "num_docs_in_coll"):
            if options is not None and hasattr(options, name):
                opts[name] = getattr(options, name)
        return cls(
            yardstick_version=__version__,
            created=created or _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            qrels_file=Path(qrels_path).name if qrels_path is not None else "",
            qrels_sha256=file_sha256(qrels_path) if qrels_path is not None else "",
            runs=tuple(RunSource(Path(p).name, str(tag), file_sha256(p)) for p, tag in runs),
            measures=tuple(measures),
            options=opts,
            compat=compat,
            interpolation=interpolation_rule(compat),
            seeds=dict(seeds or {}),
            extra=dict(extra or {}),
        )

    def with_extra(self, **items) -> "Provenance":
        """A copy with ``items`` added to :attr:`extra` (seeds go in ``seeds=``)."""
        seeds = dict(self.seeds)
        seeds.update(items.pop("seeds", {}) or {})
        extra = dict(self.extra)
        extra.update(items)
        return Provenance(self.yardstick_version, self.created, self.qrels_file,
                          self.qrels_sha256, self.runs, self.measures, dict(self.options),
                          self.compat, self.interpolation, seeds, extra)

    def to_dict(self) -> dict:
        """Plain JSON-ready dict (runs as ``{"file", "tag", "sha256"}`` dicts)."""
        return {
            "yardstick_version": self.yardstick_version,
            "created": self.created,
            "qrels": {"file": self.qrels_file, "sha256": self.qrels_sha256},
            "runs": [{"file": r.file, "tag": r.tag, "sha256": r.sha256} for r in self.runs],
            "measures": list(self.measures),
            "options": {k: _jsonable(v) for k, v in self.options.items()},
            "compat": self.compat,
            "interpolation": self.interpolation,
            "seeds": {k: _jsonable(v) for k, v in self.seeds.items()},
            "extra": {k: _jsonable(v) for k, v in self.extra.items()},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, d: Mapping) -> "Provenance":
        """Inverse of :meth:`to_dict`."""
        return cls(d.get("yardstick_version", ""), d.get("created", ""),
                   d.get("qrels", {}).get("file", ""), d.get("qrels", {}).get("sha256", ""),
                   tuple(RunSource(r["file"], r["tag"], r.get("sha256", ""))
                         for r in d.get("runs", ())),
                   tuple(d.get("measures", ())), dict(d.get("options", {})),
                   int(d.get("compat", 10)), d.get("interpolation", ""),
                   dict(d.get("seeds", {})), dict(d.get("extra", {})))

    def items(self) -> list[tuple[str, str]]:
        """(label, text) pairs for a human reader: XLSX sheet, LaTeX comment, report footer."""
        out = [("Yardstick version", self.yardstick_version), ("Created", self.created),
               ("Qrels", self.qrels_file), ("Qrels SHA-256", self.qrels_sha256)]
        for r in self.runs:
            out.append(("Run", f"{r.tag} ({r.file}) sha256 {r.sha256}"))
        if self.measures:
            out.append(("Measures", ", ".join(self.measures)))
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        out.append(("Options", opts))
        out.append(("Compatibility", f"trec_eval {'10.0' if self.compat == 10 else '9.0.8'}"))
        out.append(("Interpolation", self.interpolation))
        for k, v in self.seeds.items():
            out.append((f"Seed ({k})", str(v)))
        for k, v in self.extra.items():
            out.append((str(k), str(v)))
        return out

    def lines(self) -> list[str]:
        """:meth:`items` as ``label: text`` lines."""
        return [f"{k}: {v}" for k, v in self.items()]

    def summary(self) -> str:
        """One sentence for a report footer or caption."""
        n = len(self.runs)
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return (f"Yardstick {self.yardstick_version}, {self.created}; qrels {self.qrels_file} "
                f"(SHA-256 {self.qrels_sha256}); {n} run{'s' if n != 1 else ''}; "
                f"options {opts or 'defaults'}; compatibility trec_eval "
                f"{'10.0' if self.compat == 10 else '9.0.8'}; interpolation {self.interpolation}"
                + (f"; measures {', '.join(self.measures)}" if self.measures else "")
                + "".join(f"; seed {k}={v}" for k, v in self.seeds.items()) + ".")

    def matplotlib_metadata(self, fmt: str) -> dict[str, str]:
        """``metadata=`` for matplotlib's ``savefig`` in ``fmt`` (``svg`` or ``pdf``; ``png`` too).

        SVG gets Dublin Core fields (``Creator``, ``Date``, ``Source``, ``Description``),
        PDF its info dictionary (``Creator``, ``Subject``, ``Keywords``), PNG text chunks.
        """
        creator = f"Yardstick {self.yardstick_version}"
        text = self.to_json()
        fmt = fmt.lower()
        if fmt == "svg":
            return {"Creator": creator, "Date": self.created, "Source": self.qrels_file,
                    "Description": text}
        if fmt == "pdf":
            return {"Creator": creator, "Subject": self.summary(), "Keywords": text}
        return {"Software": creator, "Source": self.qrels_file, "Description": text}


def _jsonable(v):
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if hasattr(v, "item"):
        return v.item()
    return str(v)


def workspace_sources(workspace, measures: Iterable[str] | None = None,
                      runs: Iterable[str] | None = None, **extra) -> dict:
    """What :meth:`Provenance.build` needs to describe what the window shows, as plain
    data (paths, tags, names, options) read from ``workspace`` without touching any file:
    its qrels file, the runs (all loaded, or ``runs`` by name), the chosen measures and
    trec_eval options; ``extra`` records anything else (the chart's run filter …).

    Cheap, so a window captures it on its own thread and hashes the files in a job
    (``Provenance.build(**sources)``).  ``workspace`` is a
    :class:`yardstick.session.workspace.Workspace` (read, never changed).
    """
    qrels = getattr(workspace, "qrels", None)
    entries = workspace.runs.values() if runs is None else \
        [workspace.runs[n] for n in runs if n in workspace.runs]
    # the other judgment sets of the session, by name (yardstick.session.qrels_sets)
    for s in getattr(workspace, "extras", {}).get("qrels_sets", []) or []:
        if isinstance(s, dict) and s.get("name") and s.get("path"):
            extra.setdefault(f"qrels {s['name']}", str(s["path"]))
    return dict(qrels_path=getattr(qrels, "path", None) or None,
                runs=[(e.path, e.run.tag or e.name) for e in entries if e.path],
                measures=list(measures) if measures is not None else list(workspace.measures),
                options=getattr(workspace, "options", None),
                extra={k: v for k, v in extra.items() if v not in (None, "")})


def workspace_provenance(workspace, measures: Iterable[str] | None = None,
                         runs: Iterable[str] | None = None, **extra) -> Provenance:
    """:meth:`Provenance.build` of :func:`workspace_sources` (hashes the files)."""
    return Provenance.build(**workspace_sources(workspace, measures, runs, **extra))
