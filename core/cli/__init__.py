"""The headless half of the ``yardstick`` command.

Each subcommand lives in its own module ``core/cli/<name>_cmd.py`` exposing
``add_arguments(parser)`` and ``run(args) -> int``.  ``yardstick.gui.launcher.main`` sends
any argv whose first word is a subcommand here, and everything else to the GUI.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from yardstick.common.errors import FormatError

#: subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "eval": ("yardstick.cli.eval_cmd", "evaluate runs exactly as trec_eval does"),
    "report": ("yardstick.cli.report_cmd", "write ad hoc / known-item / filtering / QA reports"),
    "stability": ("yardstick.cli.stability_cmd", "topic-set stability diagnostics"),
    "pool": ("yardstick.cli.pool_cmd", "pool-quality diagnostics"),
    "archive": ("yardstick.cli.archive_cmd", "the same diagnostics across many tracks"),
    "convert": ("yardstick.cli.convert_cmd", "convert classic collections to TREC files"),
    "make-runs": ("yardstick.cli.make_runs_cmd", "make runs with real retrieval models"),
    "explain": ("yardstick.cli.explain_cmd", "explain how a measure value is made"),
    "qrels-compare": ("yardstick.cli.qrels_compare_cmd",
                      "compare judgment sets: agreement and what they do to the evaluation"),
    "compare-systems": ("yardstick.cli.compare_systems_cmd",
                        "compare systems made of several runs (mixed model)"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``yardstick`` parser; with ``only``, import just that subcommand's module.

    Subcommand modules import what they need (scipy, matplotlib ...) at import
    time, so ``yardstick eval`` must not pay for ``report`` or ``stability``.
    """
    parser = argparse.ArgumentParser(
        prog="yardstick",
        description="Information-retrieval evaluation workbench. Without a subcommand, "
                    "opens the window.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        if only is not None and name != only:
            sub.add_parser(name, help=help_text)
            continue
        mod = importlib.import_module(module)
        p = sub.add_parser(name, help=help_text, description=(mod.__doc__ or help_text).strip(),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
        p.set_defaults(_module=mod)
    return parser


def one_blas_thread() -> None:
    """Keep OpenBLAS to one thread (unless the user set ``OPENBLAS_NUM_THREADS``).

    Call before numpy is imported.  numpy's OpenBLAS starts a thread per core on
    import, and each spins for a while before it sleeps: 0.12 s of CPU on the
    2-core development machine (``python -c "import numpy"``: 0.19 s of CPU, 0.07 s
    with one thread), taken from the core that reads the files.  Yardstick does no
    dense linear algebra, so nothing is lost.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv: list[str] | None = None) -> int:
    """Run a subcommand; return its exit status (FormatError -> message, status 1)."""
    argv = sys.argv[1:] if argv is None else argv
    one_blas_thread()
    only = argv[0] if argv and argv[0] in SUBCOMMANDS else None
    parser = build_parser(only)
    args = parser.parse_args(argv)
    if getattr(args, "_module", None) is None:
        parser.print_help()
        return 2
    try:
        return int(args._module.run(args) or 0)
    except FormatError as e:
        print(f"yardstick {args.command}: {e.message}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


def exit_now(status: int) -> None:
    """End a headless command's process once its output is flushed (``os._exit``).

    Skips tearing down gigabytes of arrays object by object (a large ``eval`` saves
    ~0.3 s) and pyarrow's thread-pool shutdown at interpreter exit, which now and then
    aborts the process with "terminate called without an active exception" after all
    output is written (apache/arrow #34314, #39862; about 1 run in 20 of ``eval``).
    """
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    sys.stderr.flush()
    os._exit(status)
