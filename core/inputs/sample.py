"""The bundled sample collection: Cranfield with 17 real runs (``resources/sample``).

``yardstick`` opens it when started without files, so a newcomer sees real
data at once.  :func:`sample_paths` locates its files; :func:`build_sample`
regenerates them (deterministically) from the Cranfield files in
``../shared/data/cranfield``::

    .venv/bin/python -m yardstick.inputs.sample            # rewrite resources/sample
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

#: ``resources/`` of this checkout (or installed tree).
from yardstick.inputs.bundled import RESOURCES

SAMPLE_DIR = RESOURCES / "sample"
#: Depth of the bundled runs (1000 would not fit the 5 MB budget).
SAMPLE_DEPTH = 100


@dataclass(frozen=True)
class SamplePaths:
    """Where the sample's files are.

    Attributes
    ----------
    qrels, topics, documents, groups : Path
    runs : list of Path
        In the order of :data:`yardstick.inputs.runmaker.recipes.DEFAULT_SPECS`.
    """

    qrels: Path
    topics: Path
    documents: Path
    runs: list[Path]
    groups: Path

    def exists(self) -> bool:
        return all(p.exists() for p in [self.qrels, self.topics, self.documents, self.groups,
                                         *self.runs]) and bool(self.runs)


def sample_paths(root: str | os.PathLike | None = None) -> SamplePaths:
    """Paths of the bundled sample (``root`` defaults to ``resources/sample``).

    Runs are listed in ``groups.tsv`` order when it exists, else by file name.
    """
    root = Path(root) if root is not None else SAMPLE_DIR
    groups = root / "groups.tsv"
    run_dir = root / "runs"
    if groups.exists():
        from yardstick.inputs.io.groups_file import read_groups

        runs = []
        for tag in read_groups(groups):
            hits = sorted(run_dir.glob(f"{tag}")) + sorted(run_dir.glob(f"{tag}.*"))
            runs += hits[:1]
    else:
        runs = sorted(p for p in run_dir.glob("*") if p.is_file()) if run_dir.exists() else []
    return SamplePaths(qrels=root / "cranfield.qrels", topics=root / "cranfield.topics",
                       documents=root / "cranfield.trec.xz", runs=runs, groups=groups)


def load_sample(root: str | os.PathLike | None = None):
    """Read the sample: ``(qrels, topics, documents, runs)`` with runs' groups set."""
    from yardstick.inputs.io.documents_file import read_documents
    from yardstick.inputs.io.groups_file import read_groups
    from yardstick.inputs.io.qrels_file import read_qrels
    from yardstick.inputs.io.run_file import read_run
    from yardstick.inputs.io.text_source import display_name
    from yardstick.inputs.io.topics_file import read_topics

    p = sample_paths(root)
    groups = read_groups(p.groups)
    runs = [read_run(r, group=groups.get(display_name(r), "")) for r in p.runs]
    return read_qrels(p.qrels), read_topics(p.topics), read_documents(p.documents), runs


def build_sample(out: str | os.PathLike | None = None,
                 collection_root: str | os.PathLike | None = None,
                 depth: int = SAMPLE_DEPTH) -> SamplePaths:
    """Regenerate the sample from the Cranfield files (deterministic output)."""
    from yardstick.common.progress import run_sync
    from yardstick.inputs.collections import load_classic
    from yardstick.inputs.io.documents_file import write_trec_documents
    from yardstick.inputs.io.qrels_file import write_qrels
    from yardstick.inputs.io.topics_file import write_topics
    from yardstick.inputs.runmaker import make_runs

    out = Path(out) if out is not None else SAMPLE_DIR
    col = load_classic("cranfield", collection_root)
    out.mkdir(parents=True, exist_ok=True)
    write_qrels(col.qrels, out / "cranfield.qrels")
    write_topics(col.topics, out / "cranfield.topics")
    write_trec_documents(col.documents, out / "cranfield.trec.xz")
    runset = run_sync(make_runs(col.documents, col.topics, col.qrels, depth=depth, seed=0))
    run_dir = out / "runs"
    if run_dir.exists():
        for old in run_dir.iterdir():
            if old.is_file():
                old.unlink()
    runset.write(run_dir, compress="xz")
    (out / "groups.tsv").write_bytes((run_dir / "groups.tsv").read_bytes())
    (run_dir / "groups.tsv").unlink()
    return sample_paths(out)


if __name__ == "__main__":  # pragma: no cover - maintenance entry point
    paths = build_sample(sys.argv[1] if len(sys.argv) > 1 else None)
    total = sum(p.stat().st_size for p in [paths.qrels, paths.topics, paths.documents,
                                          paths.groups, *paths.runs])
    print(f"sample written: {len(paths.runs)} runs, {total / 1e6:.2f} MB")
