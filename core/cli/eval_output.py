"""What ``yardstick eval`` prints for a run, shared by the in-process path
(:mod:`yardstick.cli.eval_cmd`) and the cluster's (:mod:`yardstick.cli.eval_on_executor`):
trec_eval's text or another format, the notes and the errors."""

from __future__ import annotations

import sys

__all__ = ["write_run", "write_trec", "failed", "no_topics", "note", "prints_runid",
           "told_apart", "renamed", "missing_note"]


def write_trec(args, jr, cols, summary, tag: str, options, out) -> None:
    """trec_eval's text of one run to ``out`` (``-q``, ``-n``, ``-Z`` as ``args`` say)."""
    from yardstick.evaluation.trec_format import write_trec_eval

    write_trec_eval(out, jr, cols, summary, tag, options, query_flag=args.query,
                    summary_flag=not args.no_summary, zscore=args.zscores is not None)


def write_run(out, args, k: int, tag: str, label: str, prints_runid: bool, trec_text,
              evaluation) -> None:
    """One run's output in ``args.format``, the ``k``-th of ``args.runs``: ``trec_text(out)``
    writes trec_eval's text, ``evaluation()`` gives the
    :class:`~yardstick.evaluation.results.Evaluation` the other formats print."""
    several = len(args.runs) > 1
    if args.format == "trec_eval":
        if several and not prints_runid:
            # trec_eval reads one run; several runs' lines are told apart by the
            # runid line trec_eval prints first when asked for runid
            out.write(f"{'runid':<22}\tall\t{tag}\n")
        trec_text(out)
        return
    from dataclasses import replace

    from yardstick.evaluation.trec_format import other_format

    text = other_format(replace(evaluation(), runid=label), args.format, args.query,
                        summary=not args.no_summary, zscore=args.zscores is not None)
    if args.format == "csv" and k > 0:       # one header row for all runs
        text = text.split("\n", 1)[1]
    elif args.format == "json" and several:   # one JSON document: a list of runs
        text = ("[\n" if k == 0 else ",\n") + text.rstrip("\n")
        text += "\n]\n" if k == len(args.runs) - 1 else ""
    elif args.format == "markdown" and several:   # a titled table per run
        text = ("\n" if k else "") + f"**{label}**\n\n" + text
    out.write(text)


def failed(message: str) -> int:
    print(f"yardstick eval: {message}", file=sys.stderr)
    return 1


def no_topics(path: str) -> str:
    return f"{path}: no topics with both results and relevance judgments"


def note(message: str | None) -> None:
    if message:
        print(message, file=sys.stderr)


def prints_runid(cols) -> bool:
    from yardstick.evaluation.measures.registry import RUNID

    return any(c.request.definition.kind == RUNID for c in cols)


def told_apart(tags: dict, tag: str, path: str, fmt: str) -> str:
    """The label of a run in ``--format csv|json|markdown``: its tag, ``tag#2`` when an
    earlier file had the same tag (as :func:`yardstick.inputs.run_names.unique_names`); a note
    on stderr says which file is which."""
    files = tags.setdefault(tag, [])
    files.append(path)
    if len(files) == 1:
        return tag
    label = f"{tag}#{len(files)}"
    how = (f"its lines are labelled {label!r}" if fmt != "trec_eval"
           else "trec_eval's text prints runs in the order of the files given")
    print(f"yardstick eval: note: {path} has the run tag {tag!r} of {files[0]}; {how}",
          file=sys.stderr)
    return label


def renamed(cols, summary, names: str):
    """Columns and averages under ir_measures' or ranx's names (``--names``)."""
    from dataclasses import replace

    from yardstick.evaluation.measures.spec import output_label

    label = {c.name: output_label(c.name, names) for c in cols}
    return ([replace(c, name=label[c.name]) for c in cols],
            {label.get(k, k): v for k, v in summary.items()})


def missing_note(run_, qrels, options) -> str | None:
    """The notes on qrels topics the run has no results for (ignored unless ``-c``) and on
    the run's topics the qrels do not judge (ignored, as trec_eval ignores them)."""
    notes = []
    missing = sorted(set(qrels.topics.tolist()) - set(run_.topics.tolist()))
    if missing and options.compat == 10 and not options.complete:
        notes.append(f"yardstick eval: note: {len(missing)} qrels topic(s) have no results in "
                     f"{run_.name} and are ignored (use -c to count them as 0; trec_eval 10.0 "
                     f"stops with an error here): {_some(missing)}")
    unjudged = sorted(set(run_.topics.tolist()) - set(qrels.topics.tolist()))
    if unjudged:
        notes.append(f"yardstick eval: note: {len(unjudged)} topic(s) of {run_.name} are not "
                     f"in the qrels and are ignored, as trec_eval ignores them: "
                     f"{_some(unjudged)}")
    return "\n".join(notes) or None


def _some(topics: list[str]) -> str:
    return f"{', '.join(topics[:10])}{' ...' if len(topics) > 10 else ''}"
