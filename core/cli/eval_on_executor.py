"""``yardstick eval --dask``: batches of runs read and evaluated on a Dask cluster.

The qrels (and ``-Z`` z-scores) go to the workers once (scattered); the runs are cut
into batches of at least :data:`~yardstick.evaluation.runs_on_executor.MIN_BATCH_LINES`
lines, about four a worker (:func:`~yardstick.evaluation.runs_on_executor.run_batches`),
each batch one task.  A task reads its run files where it runs (only their absolute paths
travel: a worker's working directory is not this one's; a run read from standard input
travels whole), evaluates each through the session's
:func:`yardstick.session.evaluating.measure` — the function the in-process path calls
— and sends back trec_eval's text (or, for ``--format csv|json|markdown``, the
evaluation's tables).  This process prints the runs in the order given, through the
in-process path's :func:`yardstick.cli.eval_output.write_run`: the output is the same,
byte for byte.  A remote scheduler's workers must see the run files at the same paths
(a shared file system).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from functools import partial

__all__ = ["RunOutput", "measure_batch", "print_on_executor", "estimated_lines"]


@dataclass
class RunOutput:
    """What a worker sends back for one run."""

    path: str
    tag: str = ""
    text: bytes | None = None        # trec_eval's text (UTF-8, as the in-process path writes)
    evaluation: object = None        # the Evaluation (judged ranking left on the worker)
    prints_runid: bool = False
    note: str | None = None          # qrels topics the run lacks
    error: str | None = None         # an unknown measure, no topics: printed, exit 1
    exception: BaseException | None = None   # raised here, in the run's turn


def measure_batch(sources, qrels, measures, options, zscores, fmt: str, query: bool,
                  summary: bool, names: str) -> list[RunOutput]:
    """One task: every source (the path as given and its absolute path, or a run read
    here) read, measured and formatted."""
    from yardstick.cli.eval_output import missing_note, no_topics, prints_runid, renamed
    from yardstick.evaluation.engine import evaluation
    from yardstick.evaluation.measures.registry import MeasureError
    from yardstick.evaluation.trec_format import trec_eval_parts
    from yardstick.session import evaluating

    out = []
    for path, source in sources:
        rec = RunOutput(path)
        out.append(rec)
        try:
            run_ = source if not isinstance(source, str) else _read_as(
                path, source, options.compat)
            rec.tag = run_.tag
            jr, cols, summ = evaluating.measure(run_, qrels, measures, options, zscores,
                                                keep_join_index=False)
        except MeasureError as e:
            rec.error = str(e)
            break
        except Exception as e:  # noqa: BLE001 - raised in the run's turn, as in-process
            rec.exception = e
            break
        if jr.num_topics == 0:
            rec.error = no_topics(path)
            break
        rec.note = missing_note(run_, qrels, options)
        if names != "trec_eval":
            cols, summ = renamed(cols, summ, names)
        rec.prints_runid = prints_runid(cols)
        if fmt == "trec_eval":
            rec.text = b"".join(bytes(p) for p in trec_eval_parts(
                jr, cols, summ, run_.tag, options, query, summary, zscores is not None))
        else:
            from dataclasses import replace

            rec.evaluation = replace(evaluation(run_, jr, cols, summ, options), judged=None)
    return out


def _read_as(given: str, absolute: str, compat: int):
    """The run at ``absolute`` (a worker's working directory is not this one's), its
    errors naming the path as given, as in-process."""
    from yardstick.common.errors import FormatError
    from yardstick.inputs.io.run_file import read_run

    try:
        return read_run(absolute, ranks=False, order=compat, scores=False)
    except FormatError as e:
        if e.path != absolute:
            raise
        raise FormatError(given, e.line, e.reason, e.text) from None


def estimated_lines(path: str) -> int:
    """Lines of a run file guessed from its size (about 40 bytes a line; compressed files
    about five times as many), for cutting the runs into batches of similar work."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return 0
    packed = path.endswith((".gz", ".bz2", ".xz"))
    return size // 40 * (5 if packed else 1)


def print_on_executor(args, qrels, measures, options, zscores) -> int:
    """``yardstick eval --dask WHERE``: evaluate the runs on the cluster, print them here."""
    from yardstick.cli.eval_output import failed, note, told_apart, write_run
    from yardstick.cli.option_types import dask_executor
    from yardstick.evaluation.runs_on_executor import run_batches, travelling
    from yardstick.inputs.io.run_file import read_run

    # a run from standard input travels whole, with its scores (trec_eval's order made here
    # is cached in this process only: without them a worker process could not order it); a
    # file goes as its absolute path (a worker's working directory is its own), read there
    sources = [(p, travelling(read_run(p, ranks=False, order=options.compat))
                if p == "-" else os.path.abspath(p)) for p in args.runs]
    sizes = [estimated_lines(p) if isinstance(s, str) else len(s) for p, s in sources]
    out = sys.stdout
    tags: dict[str, list[str]] = {}
    with dask_executor(args.dask) as executor:
        q = executor.scatter(travelling(qrels))
        z = executor.scatter(zscores) if zscores is not None else None
        batches = [[sources[i] for i in b] for b in run_batches(sizes, executor.workers)]
        done = executor.map(measure_batch, [(b,) for b in batches], qrels=q,
                            measures=list(measures), options=options, zscores=z,
                            fmt=args.format, query=args.query, summary=not args.no_summary,
                            names=args.names)
    k = 0
    for part in done:
        for rec in part:
            if rec.exception is not None:
                raise rec.exception
            label = told_apart(tags, rec.tag, rec.path, args.format) if rec.tag else ""
            if rec.error is not None:
                return failed(rec.error)
            note(rec.note)
            write_run(out, args, k, rec.tag, label, rec.prints_runid,
                      partial(_write_text, rec.text), partial(_given, rec.evaluation))
            k += 1
    return 0


def _write_text(data: bytes, out) -> None:
    """Write trec_eval's text as :func:`~yardstick.evaluation.trec_format.write_trec_eval`
    does: through the stream's byte buffer when it has one."""
    raw = getattr(out, "buffer", None)
    if raw is None:
        out.write(data.decode("utf-8", "surrogateescape"))
        return
    out.flush()
    raw.write(data)
    raw.flush()


def _given(value):
    return value
