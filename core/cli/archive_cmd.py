"""An archive study: the same diagnostics on many tracks, one row per track.

  yardstick archive TRACK_DIR... --out DIR [--format csv|tsv|xlsx|latex|markdown]
        [-B 1000] [--seed N] [--depth 100] [--difference 0.05] [--measure map ...]
        [--dask local|local:N|tcp://HOST:PORT]

Each TRACK_DIR holds a qrels file (``qrels*`` or ``*.qrels``), the runs under
``runs/`` and optionally ``groups.tsv`` (run<TAB>group) and ``pooled.txt`` (the
pooled runs).  The table (``archive.<format>``) has per track: runs, topics, judged
depth, the minimum difference for a 5 % swap rate at 25 and 50 topics (Voorhees &
Buckley 2002), discriminative power (Sakai 2006), Kendall's tau between the measures'
rankings, the leave-out-uniques largest drop (Buckley et al. 2007) and the topic-set
size for ``--difference`` (Sakai 2016); ``archive.png`` (``.pdf``, ``.svg``) compares
the tracks;
``tracks/<name>.<format>`` holds each track's row with that track's provenance.
With ``--dask`` every track is one task on the cluster, read there from its paths.
"""

from __future__ import annotations

import argparse
import os
import sys

from yardstick.cli.option_types import add_dask_argument, positive, whole

_SUFFIX = {"csv": "csv", "tsv": "tsv", "xlsx": "xlsx", "latex": "tex", "markdown": "md"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("tracks", nargs="+", metavar="TRACK_DIR", help="track directories")
    p.add_argument("--out", required=True, metavar="DIR", help="where the table and charts go")
    p.add_argument("--format", choices=list(_SUFFIX), default="csv",
                   help="table format (default csv)")
    p.add_argument("--measure", "-m", action="append", dest="measures", metavar="NAME",
                   help="measures (repeatable; default map and P_10; the first is the one "
                        "the swap rates, discriminative power and topic-set size use)")
    p.add_argument("-B", "--samples", type=whole(2), default=1000,
                   help="samples of the swap rates and bootstrap tests (default 1000)")
    p.add_argument("--seed", type=whole(0), default=0, help="random seed (default 0)")
    p.add_argument("--depth", type=whole(1), default=100,
                   help="pool depth of the leave-out-uniques test (default 100)")
    p.add_argument("--difference", type=positive(), default=0.05,
                   help="difference the topic-set size is for (default 0.05)")
    p.add_argument("-l", dest="level", type=whole(0), default=1, help="relevance level (1)")
    add_dask_argument(p)


def run(args: argparse.Namespace) -> int:
    from yardstick.cli.option_types import dask_executor
    from yardstick.common.errors import FormatError
    from yardstick.common.options import EvalOptions
    from yardstick.common.provenance import Provenance
    from yardstick.presentation.charts.archive_figure import archive_figure
    from yardstick.presentation.export.cells import console_text
    from yardstick.presentation.export.tables import write_table
    from yardstick.session.archive_study import (
        ArchiveSettings,
        archive_table,
        check_measures,
        tracks,
    )

    settings = ArchiveSettings(measures=tuple(args.measures or ("map", "P_10")),
                               samples=args.samples, seed=args.seed, depth=args.depth,
                               difference=args.difference, level=args.level)
    check_measures(settings)            # the measures, directories and --out checked
    files = tracks(args.tracks)         # before any work starts
    names = [f.name for f in files]
    try:
        os.makedirs(os.path.join(args.out, "tracks"), exist_ok=True)
    except OSError as e:
        raise FormatError(args.out, None, f"cannot write the results there ({e.strerror})"
                          ) from None
    with dask_executor(args.dask) as executor:
        table = archive_table(args.tracks, settings, executor)
        stats = executor.stats
    suffix = _SUFFIX[args.format]
    opts = EvalOptions(relevance_level=args.level, complete=True)
    common = {"samples": args.samples, "depth": args.depth, "difference": args.difference}
    shown = table.drop(columns=["qrels", "run_files"])
    for f, (_, row) in zip(files, shown.iterrows()):
        prov = Provenance.build(f.qrels, [(p, os.path.basename(p)) for p in f.runs],
                                settings.measures, opts, seeds={"archive": args.seed},
                                extra={**common, "track": f.name,
                                       "directory": os.path.dirname(f.qrels),
                                       "groups_file": f.groups or "(none: each run its own group)",
                                       "pooled_file": f.pooled or "(none: every run pooled)"})
        path = os.path.join(args.out, "tracks", f"{f.name}.{suffix}")
        os.makedirs(os.path.dirname(path), exist_ok=True)    # a/trec8 and b/trec8
        write_table(row.to_frame().T.reset_index(drop=True), path, args.format,
                    provenance=prov)
    prov = Provenance.build(None, [], settings.measures, opts, seeds={"archive": args.seed},
                            extra={**common, "tracks": " ".join(names)})
    write_table(shown, os.path.join(args.out, f"archive.{suffix}"), args.format,
                provenance=prov)
    for fmt in ("png", "pdf", "svg"):
        archive_figure(shown, os.path.join(args.out, f"archive.{fmt}"))
    import pandas as pd

    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(console_text(shown, index=False))
    print(f"yardstick archive: {len(files)} track{'s' * (len(files) != 1)}, {stats.tasks} "
          f"task{'s' * (stats.tasks != 1)}, "
          f"{stats.scattered_bytes + stats.argument_bytes} bytes sent; written to {args.out}",
          file=sys.stderr)
    return 0
