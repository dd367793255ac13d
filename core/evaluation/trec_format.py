"""trec_eval's text output, byte for byte (``meas_print_single.c``, ``meas_print_final.c``).

``measure<TAB>topic<TAB>value`` with the measure name left-justified in 22
characters, doubles as ``%6.4f``, counts as ``%ld``, relstring quoted; per-topic
lines (``-q``) topic by topic, then the summary (``all``) unless ``-n``.
With ``-Z`` every name is prefixed by ``Z`` and counts print as doubles.

The per-topic lines (hundreds of thousands for a large run) are assembled by
pyarrow's ``take`` and ``binary_join_element_wise`` from three dictionary-coded
columns (name, topic, value): a value in [0, 1] is looked up in a table of the
10,001 strings ``%6.4f`` can print there, so no Python string is made per line.
"""

from __future__ import annotations

import math

import numpy as np

from yardstick.common.threads import in_order
from yardstick.evaluation.measures.registry import LONG, NUM_Q, RUNID, STRING
from yardstick.inputs.io.arrow_buffers import call, empty_strings, int64_array, string_array

#: ``"%6.4f" % (i / 10000)`` for i = 0..10000, each ending the line.
_UNIT_STRINGS: list[str] | None = None


def _num(v: float) -> str:
    if math.isnan(v):  # C printf("%6.4f") of a NaN keeps its sign bit
        return ("-nan" if math.copysign(1.0, v) < 0 else "nan").rjust(6)
    return f"{v:6.4f}"


def _long(v: float) -> str:
    return str(int(v)) if math.isfinite(v) else _num(v)


def _unit_strings() -> list[str]:
    global _UNIT_STRINGS
    if _UNIT_STRINGS is None:
        _UNIT_STRINGS = [f"{i // 10000}.{i % 10000:04d}\n" for i in range(10001)]
    return _UNIT_STRINGS


class _Values:
    """A growing dictionary of value strings; columns become integer codes into it."""

    def __init__(self):
        self.strings = list(_unit_strings())

    def add(self, strings: list[str]) -> np.ndarray:
        base = len(self.strings)
        self.strings.extend(s + "\n" for s in strings)
        return np.arange(base, base + len(strings), dtype=np.int64)

    def codes(self, c, zscore: bool) -> np.ndarray:
        """Codes of one column's per-topic values, formatted as trec_eval prints them."""
        d = c.request.definition
        if d.kind == STRING:
            return self.add([f"'{v}'" for v in c.values])
        v = np.asarray(c.values, dtype=np.float64)
        if d.kind == LONG and not zscore:
            if np.isfinite(v).all():
                uniq, inv = np.unique(v.astype(np.int64), return_inverse=True)
                return self.add([str(x) for x in uniq.tolist()])[inv.ravel()]
            return self.add([_long(x) for x in v.tolist()])
        # %6.4f of x in [0, 1] is the table entry rint(x * 1e4), unless the exact
        # x * 1e4 lies so near a half that the product's rounding could matter
        with np.errstate(invalid="ignore"):
            y = v * 1e4
            r = np.rint(y)
            ok = (v >= 0) & (v <= 1) & ~np.signbit(v) & (np.abs(y - np.floor(y) - 0.5) > 1e-6)
        codes = np.where(ok, r, 0).astype(np.int64)
        other = np.flatnonzero(~ok)
        if len(other):
            codes[other] = self.add([_num(x) for x in v[other].tolist()])
        return codes


#: per-topic lines assembled per piece (a few MB of text), not all at once
_LINES_PER_PIECE = 1 << 14


def _per_topic_bytes(jr, columns, options, zscore: bool):
    """The per-topic lines as UTF-8 pieces, each a view of pyarrow's buffer (no copy)."""
    z = "Z" if zscore else ""
    show = np.ones(jr.num_topics, bool)
    if options.compat == 9:
        show = ~jr.missing
    values = _Values()
    names, code_cols = [], []
    for c in columns:
        d = c.request.definition
        if not d.per_topic or d.kind in (RUNID, NUM_Q):
            continue
        names.append(("" if d.kind == STRING or (d.kind == LONG and not zscore) else z)
                     + f"{c.name:<22}")
        # 4 bytes a topic and measure (a run of 333,000 topics printed 32M lines: the
        # int64 codes of every line at once had taken 0.5 GB)
        code_cols.append(values.codes(c, zscore).astype(np.int32))
    if not names:
        return
    shown = np.flatnonzero(show)
    C = len(names)
    name_strings = string_array(names, large=True)
    value_strings = string_array(values.strings, large=True)
    topic_strings = string_array([f"\t{t}\t" for t in jr.topics.tolist()], large=True)
    step = max(1, _LINES_PER_PIECE // C)
    name_codes = int64_array(np.tile(np.arange(C, dtype=np.int64), step))

    def piece(part: np.ndarray):
        value_codes = np.stack([cc[part] for cc in code_cols], axis=1).ravel()
        lines = call("binary_join_element_wise", [
            call("take", [name_strings, name_codes.slice(0, len(value_codes))]),
            call("take", [topic_strings, int64_array(np.repeat(part.astype(np.int64), C))]),
            call("take", [value_strings, int64_array(value_codes)]),
            empty_strings(len(value_codes))])
        offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64, count=len(lines) + 1,
                                offset=lines.offset * 8)
        return memoryview(lines.buffers()[2])[int(offsets[0]):int(offsets[-1])]

    parts = [shown[a:a + step] for a in range(0, len(shown), step)]
    # pyarrow makes the pieces without the GIL: two at a time on a large run, in order
    yield from in_order(piece, parts, 2 if len(parts) >= 4 else 1, ahead=_AHEAD,
                        name="yardstick-print")


#: pieces of per-topic lines made ahead of the one being written
_AHEAD = 3


def format_trec_eval(ev, query_flag: bool = False, summary_flag: bool = True,
                     zscore: bool = False) -> str:
    """The text trec_eval prints for one :class:`~yardstick.evaluation.results.Evaluation`."""
    return trec_eval_text(ev.judged, ev.columns, ev.summary, ev.runid, ev.options,
                          query_flag, summary_flag, zscore)


def trec_eval_text(jr, columns, summary, runid: str, options, query_flag: bool = False,
                   summary_flag: bool = True, zscore: bool = False) -> str:
    """The text trec_eval prints, from the engine's pieces (no pandas involved).

    ``jr`` the judged ranking, ``columns`` from :func:`yardstick.evaluation.engine.compute_columns`,
    ``summary`` measure name -> average (:func:`yardstick.evaluation.engine.summarise`).
    """
    return "".join(bytes(part).decode("utf-8", "surrogateescape") for part in trec_eval_parts(
        jr, columns, summary, runid, options, query_flag, summary_flag, zscore))


def write_trec_eval(stream, *args, **kwargs) -> None:
    """Write :func:`trec_eval_text` to a text stream, through its byte buffer if it has one."""
    parts = trec_eval_parts(*args, **kwargs)
    raw = getattr(stream, "buffer", None)
    if raw is None:
        stream.write("".join(bytes(p).decode("utf-8", "surrogateescape") for p in parts))
        return
    stream.flush()
    for part in parts:
        raw.write(part)
    raw.flush()


def trec_eval_parts(jr, columns, summary, runid: str, options, query_flag: bool = False,
                    summary_flag: bool = True, zscore: bool = False):
    """:func:`trec_eval_text` as UTF-8 pieces, made one after another (the per-topic
    lines stay in pyarrow's buffers)."""
    z = "Z" if zscore else ""
    if query_flag:
        yield from _per_topic_bytes(jr, columns, options, zscore)
    out: list[str] = []
    if summary_flag:
        for c in columns:
            d = c.request.definition
            if d.kind == STRING:
                continue
            if d.kind == RUNID:
                out.append(f"{'runid':<22}\tall\t{runid}\n")
            elif d.kind in (LONG, NUM_Q) and not zscore:
                out.append(f"{c.name:<22}\tall\t{_long(summary[c.name])}\n")
            else:
                out.append(f"{z}{c.name:<22}\tall\t{_num(summary[c.name])}\n")
    yield "".join(out).encode("utf-8", "surrogateescape")


def _printed(ev, zscore: bool) -> list[tuple[str, str, str]]:
    """(column in the evaluation, printed name, kind) in trec_eval's output order."""
    out = []
    for c in ev.columns:
        d = c.request.definition
        if d.kind == RUNID:
            continue
        count = d.kind in (LONG, NUM_Q)      # printed as integers (num_q 249, not 249.0)
        z = "" if d.kind == STRING or (count and not zscore) or not zscore else "Z"
        out.append((c.name, z + c.name, "int" if count and not zscore else
                    "str" if d.kind == STRING else "float"))
    return out


def _cell(v, kind: str):
    """A value for JSON/CSV: ints stay ints, NaN is None (JSON null), text stays text."""
    if kind == "str":
        return "" if v is None else str(v)
    if v is None or v != v:  # NaN
        return None
    return int(round(float(v))) if kind == "int" else float(v)


def other_format(ev, fmt: str, query: bool, summary: bool = True, zscore: bool = False) -> str:
    """One evaluation as ``csv``, ``json`` or ``markdown`` (``yardstick eval --format``).

    The same lines as trec_eval's text and in the same order — per-topic lines
    with ``-q``, the summary (topic ``all``) unless ``-n``, measure names with
    the ``Z`` prefix under ``-Z`` — with counts as integers and every other
    number at full precision (``repr``; Markdown shows trec_eval's 4 decimals).
    JSON writes ``null`` where a value is not a number (never a bare ``NaN``).
    """
    import csv
    import io
    import json

    cols = _printed(ev, zscore)
    rows: list[tuple[str, str, object]] = []  # (topic, printed name, value)
    if query:
        per = ev.per_topic
        for topic in per.index:
            for col, name, kind in cols:
                if col in per.columns:
                    rows.append((str(topic), name, _cell(per.at[topic, col], kind)))
    if summary:
        for col, name, kind in cols:
            if col in ev.summary.index and kind != "str":
                rows.append(("all", name, _cell(ev.summary[col], kind)))
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["run", "topic", "measure", "value"])
        for topic, name, v in rows:
            w.writerow([ev.runid, topic, name, "" if v is None else repr(v)
                        if isinstance(v, float) else v])
        return buf.getvalue()
    if fmt == "json":
        per_topic: dict[str, dict[str, object]] = {}
        summ: dict[str, object] = {}
        for topic, name, v in rows:
            (summ if topic == "all" else per_topic.setdefault(topic, {}))[name] = v
        return json.dumps({"run": ev.run_name, "runid": ev.runid,
                           "summary": summ if summary else None,
                           "per_topic": per_topic if query else None},
                          indent=1, allow_nan=False, ensure_ascii=False) + "\n"
    names = [name for _c, name, _k in cols]
    table: dict[str, dict[str, object]] = {}
    for topic, name, v in rows:
        table.setdefault(topic, {})[name] = v
    header = "| topic | " + " | ".join(names) + " |"
    sep = "|---|" + "---:|" * len(names)

    def show(v) -> str:
        return "" if v is None else f"{v:.4f}" if isinstance(v, float) else str(v)

    body = [f"| {t} | " + " | ".join(show(vals.get(n)) for n in names) + " |"
            for t, vals in table.items()]
    return "\n".join([header, sep, *body]) + "\n"
