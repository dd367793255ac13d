"""argparse types that refuse nonsense before any work starts (issue: never a silent wrong number).

Each returns a function for ``add_argument(type=...)``: a value outside its range is an
argparse error naming the option and what is allowed (exit status 2), not a number
computed from it minutes later.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def _number(text: str, kind: type):
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None


def whole(minimum: int, why: str = "") -> Callable[[str], int]:
    """A whole number >= ``minimum``."""
    def parse(text: str) -> int:
        v = _number(text, int)
        if v < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more{why}, not {v}")
        return v
    return parse


def fraction(low: float = 0.0, high: float = 1.0, low_open: bool = True,
             high_open: bool = True) -> Callable[[str], float]:
    """A number in the interval between ``low`` and ``high`` (open or closed ends)."""
    lo, hi = ("(" if low_open else "["), (")" if high_open else "]")

    def parse(text: str) -> float:
        v = _number(text, float)
        ok = (v > low if low_open else v >= low) and (v < high if high_open else v <= high)
        if not ok:
            raise argparse.ArgumentTypeError(f"must lie in {lo}{low:g}, {high:g}{hi}, not {v:g}")
        return v
    return parse


def positive() -> Callable[[str], float]:
    """A finite number > 0."""
    def parse(text: str) -> float:
        v = _number(text, float)
        if not (v > 0 and v != float("inf")):
            raise argparse.ArgumentTypeError(f"must be a number above 0, not {text}")
        return v
    return parse


def whole_list(minimum: int, why: str = "") -> Callable[[str], tuple[int, ...]]:
    """Comma-separated whole numbers, each >= ``minimum`` (at least one)."""
    one = whole(minimum, why)

    def parse(text: str) -> tuple[int, ...]:
        parts = [x.strip() for x in text.split(",") if x.strip()]
        if not parts:
            raise argparse.ArgumentTypeError("expected whole numbers separated by commas")
        return tuple(one(x) for x in parts)
    return parse


def choice_of(check: Callable[[str], str | None]) -> Callable[[str], str]:
    """A value that ``check`` accepts (``check`` returns None, or why it refuses)."""
    def parse(text: str) -> str:
        why = check(text)
        if why:
            raise argparse.ArgumentTypeError(why)
        return text
    return parse


def add_dask_argument(p) -> None:
    """``--dask local|local:N|tcp://HOST:PORT`` (:func:`yardstick.common.executor.connect`)."""
    p.add_argument("--dask", metavar="WHERE", default=None, type=_dask_where,
                   help="run the heavy work on Dask: local (a LocalCluster, one worker per "
                        "core), local:N (N workers) or tcp://HOST:PORT (a running scheduler); "
                        "needs the 'dask' extra.  Results are identical to in-process")


def _dask_where(text: str) -> str:
    """argparse type of ``--dask``: ``local``, ``local:N`` (N >= 1) or a scheduler address
    ``[tcp://]HOST:PORT`` (:func:`yardstick.common.dask_address.why_not`) where something
    accepts a connection (:func:`~yardstick.common.dask_address.unreachable`), once Dask is
    known to be installed (else a message saying how to get it, not a traceback)."""
    from importlib.util import find_spec

    from yardstick.common.dask_address import unreachable, why_not

    why = why_not(text)
    if why:
        raise argparse.ArgumentTypeError(why)
    if find_spec("distributed") is None:
        raise argparse.ArgumentTypeError("needs Dask, which is not installed: "
                                         "pip install 'yardstick-ir[dask]'")
    why = unreachable(text)             # before any file is read, not minutes later
    if why:
        raise argparse.ArgumentTypeError(why)
    return text


@contextmanager
def dask_executor(where: str | None, threads: int | None = 1) -> Iterator:
    """The executor ``--dask WHERE`` names (in-process for None; ``threads`` as
    :func:`yardstick.common.executor.connect`), closed on leaving.

    A scheduler that does not answer within
    :data:`~yardstick.common.dask_address.CONNECT_TIMEOUT_S` seconds, or an address where
    something else answers, is a :class:`~yardstick.common.errors.FormatError` naming the
    address (the command's message and exit status 1), not Dask's traceback after 30 s;
    a scheduler without workers is said on standard error (its tasks wait).
    """
    from yardstick.common.dask_address import DaskUnavailable, connect_within, lost_scheduler
    from yardstick.common.errors import FormatError
    from yardstick.common.executor import connect

    if not where:
        with connect(None, threads=threads) as ex:
            yield ex
        return
    try:
        ex = connect_within(where, threads=threads)
    except DaskUnavailable as e:
        raise FormatError("--dask", None, str(e)) from None
    with ex:
        client = getattr(ex, "client", None)
        if client is not None and not client.scheduler_info().get("workers"):
            print(f"yardstick: note: the Dask scheduler at {where} has no workers yet; the "
                  f"tasks wait for one (start 'dask worker {where}')", file=sys.stderr)
        try:
            yield ex
        except Exception as e:
            said = lost_scheduler(where, e)
            if said is None:
                raise
            raise FormatError("--dask", None, said) from None


def baselines_and_runs(baseline: list[str] | None, runs: list[str]
                       ) -> tuple[list[str] | None, list[str], int]:
    """``--baseline``'s names (comma lists split) and the RUN files, mended when
    ``--baseline A [B …]`` stood just before the run files and took them all (its
    ``nargs="+"``): the longest tail of existing files is the runs.  Returns the
    baselines, the runs and how many files were moved; ``ValueError`` when there are no
    runs."""
    import os

    names = None if baseline is None else \
        [n.strip() for b in baseline for n in b.split(",") if n.strip()]
    if runs or not names:
        if not runs:
            raise ValueError("the following arguments are required: RUN")
        return names, runs, 0
    for i in range(1, len(names)):
        if all(os.path.isfile(n) for n in names[i:]):
            return names[:i], names[i:], len(names) - i
    raise ValueError("no RUN files: --baseline takes every name after it; put the run "
                     "files before --baseline, or end its names with --")
