"""Hostile and messy inputs through ``yardstick eval/report/stability/pool`` (issue 14).

Generates a corpus of hostile run and qrels files (truncated lines, wrong column
counts, NaN/inf/hex/1e400 scores, duplicates, empty files, CRLF, lone CR, BOM,
very long lines, a 10 MB single line, compressed and corrupt compressed files, a
gzip bomb, device files, a FIFO, a directory, 50k topics, mixed encodings,
deeply nested topics and JSON, huge relevance values, a 200 KB docno), runs
each through the CLI in a subprocess under a memory cap (``resource.setrlimit``
``RLIMIT_AS`` set in the child before ``exec``) and a wall-clock limit, and, for
``eval``, compares the output with a trec_eval binary wherever trec_eval
accepts the input.  Each (input, command) is classified:

* **exact** — trec_eval accepts the input and our output is byte-identical;
* **ran** — report/stability/pool accepted the input (no oracle to compare);
* **clear refusal** — non-zero exit, one message naming the input, no traceback;
* **documented deviation** — we refuse (or answer) where trec_eval answers
  otherwise, for a reason listed in the README's deviations;
* **traceback**, **hang** (time limit), **memory** (killed, MemoryError or more
  than 300 MB above the baseline for an input under 10 MB), **wrong number**
  (trec_eval and we both answer, differently, with no documented reason);
* **slow refusal** — a clear refusal that took more than 2 s for an input under 10 MB.

Peak memory is the child's ``ru_maxrss`` (``os.wait4``) minus the peak of the
same command on a clean three-topic input (the baseline: interpreter, numpy,
pandas, pyarrow).  Usage::

    python benchmarks/hostile_corpus.py --trec-eval /work/tools/trec_eval [--quick] [--jobs 2]

``--quick`` keeps one position per mutation and skips the slow cases (for CI).
"""

from __future__ import annotations

import argparse
import bz2
import gzip
import lzma
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

MEMORY_CAP = 6 * 1024 ** 3          # RLIMIT_AS of each child (virtual address space)
TIME_LIMIT = 60.0                   # seconds per subprocess
REFUSAL_LIMIT = 2.0                 # seconds, for inputs under 10 MB
PEAK_LIMIT = 300 * 1024 ** 2        # bytes above the baseline, for inputs under 10 MB
SMALL_INPUT = 10 * 1024 ** 2

# Cases where trec_eval answers and we refuse or differ on purpose (README, "Exactly trec_eval").
DOCUMENTED = {
    "nonfinite score": "scores that are not finite numbers are refused (trec_eval reads them as 0 or inf)",
    "score prefix": "trec_eval's atof reads a number prefix ('1.5abc' = 1.5) or hex; we refuse",
    "duplicate": "duplicate documents are refused (trec_eval ignores or double-counts them)",
    "relevance bound": "relevance above 1,000 is refused (trec_eval allocates a counter per grade)",
    "lone CR": "a lone CR ends a line (trec_eval: only LF)",
    "BOM": "a UTF-8 BOM at the start of a file is stripped",
    "qrels layout": "blank lines and comment lines in qrels are skipped (trec_eval 10 refuses or misreads them)",
    "compressed": "compressed files are read (trec_eval reads the compressed bytes and refuses)",
    "docno width": "docnos so long that the docno array would exceed the documented bound are refused",
    "missing qrels topic": "qrels topics without a run line are ignored (trec_eval 10 stops, exit 4)",
    "relevance prefix": "relevance must be an integer (trec_eval's atol reads a number prefix)",
    "fifo": "a named pipe that sends nothing in 1.5 s is refused (trec_eval waits for ever)",
    "device": "device files are refused (trec_eval reads /dev/zero for ever)",
    "binary": "a NUL byte is refused as a binary file (trec_eval stops reading the line at the NUL)",
    "rank column": "the rank column must be an integer (trec_eval never reads it)",
}

QRELS = "".join(f"{t} 0 d{t}_{d:02d} {(d * 7 + t) % 3 if d % 4 else 0}\n"
                for t in (401, 402, 403) for d in range(30))


def _run_text(tag: str, shift: int) -> str:
    lines = []
    for t in (401, 402, 403):
        for r in range(25):
            d = (r * 11 + shift + t) % 34
            lines.append(f"{t} Q0 d{t}_{d:02d} {r + 1} {30.0 - r * 1.25 + shift * 0.01:.4f} {tag}\n")
    return "".join(dict.fromkeys(lines))


RUN_A = _run_text("runA", 0)
RUN_B = _run_text("runB", 3)


@dataclass
class Case:
    """One hostile input: the qrels path and the run paths given to each command."""

    name: str
    group: str
    qrels: str
    runs: list[str]
    size: int
    deviation: str | None = None       # DOCUMENTED key when trec_eval may differ on purpose
    full: bool = True                  # run report/stability/pool too (not only eval)
    extra: list[str] = field(default_factory=list)


# ----------------------------------------------------------------- mutations

def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _at(text: str, pos: str) -> int:
    n = len(_lines(text))
    return {"first": 0, "second": 1, "middle": n // 2, "last": n - 1}[pos]


def _replace_field(text: str, pos: str, col: int, value: str) -> str:
    lines = _lines(text)
    i = _at(text, pos)
    parts = lines[i].split()
    parts[col] = value
    lines[i] = " ".join(parts) + "\n"
    return "".join(lines)


def _edit_line(text: str, pos: str, fn) -> str:
    lines = _lines(text)
    i = _at(text, pos)
    lines[i] = fn(lines[i])
    return "".join(lines)


SCORES = {
    "NaN": ("nonfinite score", "NaN"), "nan": ("nonfinite score", "nan"),
    "inf": ("nonfinite score", "inf"), "-inf": ("nonfinite score", "-inf"),
    "1e400": ("nonfinite score", "1e400"), "-1e400": ("nonfinite score", "-1e400"),
    "1e-400": (None, "1e-400"), "hex 0x1F": ("score prefix", "0x1F"),
    "prefix 1.5abc": ("score prefix", "1.5abc"), "empty-ish '-'": ("score prefix", "-"),
    "1_0": ("score prefix", "1_0"), "fullwidth 1": ("score prefix", "\uff11"),
    "+.5": (None, "+.5"), "sci 2.5E+02": (None, "2.5E+02"), "400 digits": ("nonfinite score", "9" * 400),
    "text": ("score prefix", "abc"),
}
RELEVANCES = {
    "1000": (None, "1000"), "1001": ("relevance bound", "1001"),
    "3000000000": ("relevance bound", "3000000000"),
    "int64 max": ("relevance bound", "9223372036854775807"),
    "2^66": ("relevance bound", str(2 ** 66)), "-1": (None, "-1"),
    "-2^40": (None, str(-2 ** 40)), "1.5": ("relevance prefix", "1.5"),
    "NaN": ("relevance prefix", "NaN"), "hex 0x2": ("relevance prefix", "0x2"),
    "1e3": ("relevance prefix", "1e3"), "text": ("relevance prefix", "rel"),
}


def _text_mutations(kind: str) -> list[tuple[str, str | None, callable]]:
    """(name, documented deviation or None, fn(text, pos) -> bytes) for a run or a qrels."""
    score_col, ncol = (4, 6) if kind == "run" else (3, 4)
    out: list[tuple[str, str | None, callable]] = []
    enc = lambda s: s.encode("utf-8", "surrogateescape")  # noqa: E731
    out.append(("truncated line", None, lambda t, p: enc(_edit_line(t, p, lambda ln: ln[: len(ln) // 2] + "\n"))))
    out.append(("truncated file (no final LF, cut mid-line)", None,
                lambda t, p: enc(t[: len(t) - 7]) if p == "last" else enc(_edit_line(t, p, lambda ln: ln.rstrip("\n")))))
    out.append(("missing column", None, lambda t, p: enc(_edit_line(t, p, lambda ln: " ".join(ln.split()[:-1]) + "\n"))))
    out.append(("extra column", None, lambda t, p: enc(_edit_line(t, p, lambda ln: ln.rstrip("\n") + " extra\n"))))
    out.append(("one column", None, lambda t, p: enc(_edit_line(t, p, lambda ln: ln.split()[0] + "\n"))))
    out.append(("NUL byte", None, lambda t, p: enc(_edit_line(t, p, lambda ln: ln[:3] + "\0" + ln[3:]))))
    out.append(("binary garbage line", "binary", lambda t, p: _edit_bytes(t, p, bytes(range(256)))))
    table = SCORES if kind == "run" else RELEVANCES
    for label, (dev, value) in table.items():
        out.append((f"{'score' if kind == 'run' else 'relevance'} {label}", dev,
                    lambda t, p, v=value: enc(_replace_field(t, p, score_col, v))))
    if kind == "run":
        out.append(("rank not a number", None, lambda t, p: enc(_replace_field(t, p, 3, "x"))))
        out.append(("rank 0 / negative", None, lambda t, p: enc(_replace_field(t, p, 3, "-5"))))
        out.append(("tag cut inside UTF-8", None,
                    lambda t, p: enc(_replace_field(t, p, 5, "run\udcc3"))))
    out.append(("duplicate line", "duplicate", lambda t, p: enc(_edit_line(t, p, lambda ln: ln + ln))))
    out.append(("duplicate docno, other value", "duplicate",
                lambda t, p: enc(_edit_line(t, p, lambda ln: ln + " ".join(ln.split()[:-1] + ["1"]) + "\n")
                                 if kind == "qrels" else
                                 _edit_line(t, p, lambda ln: ln + " ".join(ln.split()[:4] + ["0.5", ln.split()[5]]) + "\n"))))
    out.append(("blank line", "qrels layout" if kind == "qrels" else None, lambda t, p: enc(_edit_line(t, p, lambda ln: ln + "\n"))))
    out.append(("whitespace-only line", "qrels layout" if kind == "qrels" else None,
                lambda t, p: enc(_edit_line(t, p, lambda ln: ln + "  \t \n"))))
    out.append(("comment line", "qrels layout" if kind == "qrels" else None, lambda t, p: enc(_edit_line(t, p, lambda ln: "# comment\n" + ln))))
    out.append(("two comment lines", "qrels layout" if kind == "qrels" else None,
                lambda t, p: enc(_edit_line(t, p, lambda ln: "# one\n# two\n" + ln))))
    out.append(("indented comment", "qrels layout" if kind == "qrels" else None, lambda t, p: enc(_edit_line(t, p, lambda ln: "   # c\n" + ln))))
    out.append(("tabs and many spaces", None, lambda t, p: enc(_edit_line(t, p, lambda ln: "\t".join(ln.split()) + " \t \n"))))
    out.append(("Latin-1 docno", None, lambda t, p: _edit_bytes(t, p, None, latin=True)))
    out.append(("very long line (70,000 chars)", None, lambda t, p: enc(_edit_line(t, p, lambda ln: ln.rstrip("\n") + " " + "x" * 70000 + "\n"))))
    out.append(("very long docno (70,000 chars)", "docno width",
                lambda t, p: enc(_replace_field(t, p, 2, "d" * 70000))))
    out.append(("CRLF", None, lambda t, p: enc(t.replace("\n", "\r\n"))))
    out.append(("lone CR line ends", "lone CR", lambda t, p: enc(t.replace("\n", "\r"))))
    out.append(("one lone CR", "lone CR", lambda t, p: enc(_edit_line(t, p, lambda ln: ln.rstrip("\n") + "\r"))))
    out.append(("BOM", "BOM", lambda t, p: b"\xef\xbb\xbf" + enc(t)))
    out.append(("BOM + CRLF", "BOM", lambda t, p: b"\xef\xbb\xbf" + enc(t.replace("\n", "\r\n"))))
    out.append(("vertical tab / form feed", None, lambda t, p: enc(_edit_line(t, p, lambda ln: ln.replace(" ", "\x0b", 1)))))
    out.append(("NBSP separator", None, lambda t, p: enc(_edit_line(t, p, lambda ln: ln.replace(" ", "\u00a0", 1)))))
    out.append(("deleted line", None, lambda t, p: enc(_edit_line(t, p, lambda ln: ""))))
    out.append(("swapped with first", None, lambda t, p: enc(_edit_line(t, p, lambda ln: ln) if p == "first"
                                                                else "".join([_lines(t)[_at(t, p)]] + _lines(t)[: _at(t, p)] + _lines(t)[_at(t, p) + 1:]))))
    assert all(len(m) == 3 for m in out) and ncol
    return out


def _edit_bytes(text: str, pos: str, insert: bytes | None, latin: bool = False) -> bytes:
    lines = [ln.encode() for ln in _lines(text)]
    i = _at(text, pos)
    if latin:
        parts = lines[i].split(b" ")
        parts[2] = parts[2] + b"\xe9"
        lines[i] = b" ".join(parts)
    else:
        lines[i] = insert + b"\n"
    return b"".join(lines)


# ----------------------------------------------------------------- corpus

def _write(folder: Path, name: str, data: bytes) -> str:
    path = folder / name
    path.write_bytes(data)
    return str(path)


def build_corpus(folder: Path, quick: bool) -> list[Case]:
    """Write every hostile input under ``folder`` and return the cases."""
    clean_q = _write(folder, "clean.qrels", QRELS.encode())
    clean_a = _write(folder, "runA.txt", RUN_A.encode())
    clean_b = _write(folder, "runB.txt", RUN_B.encode())
    cases: list[Case] = [Case("clean", "clean", clean_q, [clean_a, clean_b], len(QRELS))]
    positions = ["middle"] if quick else ["first", "second", "middle", "last"]
    n = 0
    for kind, base in (("run", RUN_A), ("qrels", QRELS)):
        for label, dev, fn in _text_mutations(kind):
            for pos in positions:
                n += 1
                data = fn(base, pos)
                path = _write(folder, f"{n:04d}.{kind}", data)
                qrels, runs = (clean_q, [path, clean_b]) if kind == "run" else (path, [clean_a, clean_b])
                cases.append(Case(f"{kind}: {label} ({pos})", f"{kind}: {label}", qrels, runs, len(data),
                                  dev, full=(pos == "middle")))
    cases += _file_cases(folder, clean_q, clean_a, clean_b, quick)
    return cases


def _file_cases(folder: Path, clean_q: str, clean_a: str, clean_b: str, quick: bool) -> list[Case]:
    out: list[Case] = []

    def add(name: str, group: str, data: bytes | None, slot: str = "run", dev: str | None = None,
            path: str | None = None, full: bool = True) -> None:
        p = path if path is not None else _write(folder, f"f{len(out):03d}_{group.replace(' ', '_')[:20]}", data)
        size = os.path.getsize(p) if os.path.isfile(p) else 0
        if slot == "run":
            out.append(Case(name, group, clean_q, [p, clean_b], size, dev, full))
        else:
            out.append(Case(name, group, p, [clean_a, clean_b], size, dev, full))

    for slot, text in (("run", RUN_A), ("qrels", QRELS)):
        raw = text.encode()
        add(f"{slot}: empty file", "empty", b"", slot)
        add(f"{slot}: only a newline", "empty", b"\n", slot)
        add(f"{slot}: only blanks", "empty", b"  \n\t\n \n", slot)
        add(f"{slot}: only a BOM", "empty", b"\xef\xbb\xbf", slot)
        add(f"{slot}: only comments", "empty", b"# a\n# b\n", slot)
        for comp, mod in (("gz", gzip), ("bz2", bz2), ("xz", lzma)):
            packed = mod.compress(raw)
            add(f"{slot}: {comp}", "compressed", packed, slot, "compressed")
            add(f"{slot}: {comp} truncated", "corrupt compressed", packed[: len(packed) // 2], slot, "compressed")
            flipped = bytearray(packed)
            flipped[len(flipped) // 2] ^= 0xFF
            add(f"{slot}: {comp} flipped byte", "corrupt compressed", bytes(flipped), slot, "compressed")
            add(f"{slot}: {comp} magic + noise", "corrupt compressed", packed[:6] + os.urandom(200), slot, "compressed")
        add(f"{slot}: gzip bomb (1 GiB of zeros)", "gzip bomb", _gzip_bomb(), slot, "compressed")
        add(f"{slot}: /dev/zero", "device", None, slot, "device", path="/dev/zero")
        add(f"{slot}: /dev/urandom", "device", None, slot, "device", path="/dev/urandom")
        add(f"{slot}: /dev/null", "device", None, slot, "device", path="/dev/null")
        fifo = folder / f"fifo_{slot}"
        os.mkfifo(fifo)
        add(f"{slot}: FIFO with no writer", "fifo", None, slot, "fifo", path=str(fifo))
        d = folder / f"dir_{slot}"
        d.mkdir()
        add(f"{slot}: a directory", "directory", None, slot, path=str(d))
        add(f"{slot}: a missing file", "missing file", None, slot, path=str(folder / f"missing_{slot}"))
        loop = folder / f"loop_{slot}"
        os.symlink(loop, loop)
        add(f"{slot}: a symlink loop", "missing file", None, slot, path=str(loop))
        add(f"{slot}: random bytes (4 KB)", "binary", os.urandom(4096), slot)
        add(f"{slot}: UTF-16 text", "mixed encodings", text.encode("utf-16"), slot)
        add(f"{slot}: deeply nested JSON", "nested JSON", b"[" * 100000 + b"]" * 100000, slot)
        add(f"{slot}: 200 KB docno", "200 KB docno",
            (text.split("\n", 1)[0].replace("d401_", "d" * 200000 + "_") + "\n" + text).encode(), slot, "docno width")
        add(f"{slot}: 70k-char line of spaces", "very long line", raw + b" " * 70000 + b"\n", slot,
            "qrels layout" if slot == "qrels" else None)
        if not quick:
            add(f"{slot}: 10 MB single line", "10 MB single line", b"x " * (5 * 1024 * 1024), slot, full=False)
            add(f"{slot}: 10 MB single line, no blanks", "10 MB single line", b"x" * (10 * 1024 * 1024), slot, full=False)
            add(f"{slot}: 10 MB of CR-ended lines", "10 MB single line",
                text.replace("\n", "\r").encode() * (10 * 1024 * 1024 // len(raw)), slot, "duplicate", full=False)
    # mixed encodings: the same docno in Latin-1 in the qrels and in UTF-8 in the run.
    latin_q = QRELS.replace("d401_01", "d401_\u00e901").encode("latin-1")
    utf_r = RUN_A.replace("d401_01", "d401_\u00e901").encode("utf-8")
    latin_r = RUN_A.replace("d401_01", "d401_\u00e901").encode("latin-1")
    qp, rp, rl = (_write(folder, "mix.qrels", latin_q), _write(folder, "mix_utf.run", utf_r),
                  _write(folder, "mix_lat.run", latin_r))
    out.append(Case("mixed: qrels Latin-1, run UTF-8", "mixed encodings", qp, [rp, clean_b], len(utf_r)))
    out.append(Case("mixed: qrels Latin-1, run Latin-1", "mixed encodings", qp, [rl, clean_b], len(latin_r)))
    # 50k topics.
    big_q = "".join(f"{t} 0 d{t} 1\n{t} 0 e{t} 0\n" for t in range(50000)).encode()
    big_r = "".join(f"{t} Q0 d{t} 1 2.0 big\n{t} Q0 e{t} 2 1.0 big\n" for t in range(50000)).encode()
    big_r2 = "".join(f"{t} Q0 e{t} 1 2.0 big2\n{t} Q0 d{t} 2 1.0 big2\n" for t in range(50000)).encode()
    bq, br, br2 = (_write(folder, "50k.qrels", big_q), _write(folder, "50k.run", big_r), _write(folder, "50k_2.run", big_r2))
    out.append(Case("50,000 topics", "50k topics", bq, [br, br2], len(big_r), full=not quick))
    out.append(Case("run topics the qrels lack", "topic mismatch", clean_q, [br, clean_b], len(big_r)))
    out.append(Case("qrels topics no run covers", "topic mismatch", bq, [clean_a, clean_b], len(big_q), "missing qrels topic"))
    return out


def _gzip_bomb() -> bytes:
    """1 GiB of zeros as 100 concatenated gzip members of 10 MiB each (about 1 MB on disk)."""
    member = gzip.compress(b"\0" * (10 * 1024 * 1024), compresslevel=9)
    return member * 100


# ----------------------------------------------------------------- running

@dataclass
class Outcome:
    case: Case
    command: str
    verdict: str
    seconds: float
    peak: int
    detail: str


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_limited(argv: list[str], cwd: str) -> tuple[int | None, bytes, bytes, float, int]:
    """Run ``argv`` under the memory cap and time limit.

    Returns (status or None on hang, out, err, seconds, maxrss bytes).
    """
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=cwd,
                                preexec_fn=_limit, start_new_session=True)
        status = None
        while True:
            pid, wstatus, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                status = os.waitstatus_to_exitcode(wstatus)
                proc.returncode = status
                break
            if time.perf_counter() - start > TIME_LIMIT:
                os.killpg(proc.pid, signal.SIGKILL)
                _, _, usage = os.wait4(proc.pid, 0)
                proc.returncode = -9
                break
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return status, out.read(), err.read(), seconds, usage.ru_maxrss * 1024


def _commands(case: Case, exe: str, outdir: str) -> dict[str, list[str]]:
    cmds = {"eval": [exe, "eval", "-m", "all_trec", case.qrels, case.runs[0]]}
    if case.full:
        cmds["report"] = [exe, "report", "--qrels", case.qrels, "--out", outdir,
                          "--formats", "csv", *case.runs]
        cmds["stability"] = [exe, "stability", "--qrels", case.qrels, "--analysis", "swap",
                             "-B", "20", *case.runs]
        cmds["pool"] = [exe, "pool", "--qrels", case.qrels, "--depth", "10",
                        "--analysis", "stats", *case.runs]
    return cmds


def classify(case: Case, command: str, res, oracle, baseline: int) -> Outcome:
    status, out, err, seconds, peak = res
    above = max(0, peak - baseline)
    text = err.decode("utf-8", "replace").strip()
    last = text.splitlines()[-1][:160] if text else ""
    small = case.size < SMALL_INPUT
    if status is None:
        return Outcome(case, command, "hang", seconds, above, f"> {TIME_LIMIT:.0f} s")
    if "MemoryError" in text or status in (-9, -6, 137) or (small and above > PEAK_LIMIT):
        return Outcome(case, command, "memory", seconds, above,
                       f"status {status}, +{above / 2**20:.0f} MB: {last}")
    if "Traceback" in text or status < 0:
        return Outcome(case, command, "traceback", seconds, above, last)
    if status != 0:
        verdict = "clear refusal"
        if oracle is not None and oracle[0] == 0:
            verdict = "documented deviation" if case.deviation else "undocumented refusal"
        if small and seconds > REFUSAL_LIMIT:
            verdict = "slow refusal"
        return Outcome(case, command, verdict, seconds, above, last)
    if oracle is None:
        return Outcome(case, command, "ran", seconds, above, last)
    t_status, t_out = oracle
    if t_status != 0:
        verdict = "documented deviation" if case.deviation else "answered where trec_eval refuses"
        return Outcome(case, command, verdict, seconds, above, f"trec_eval exit {t_status}; {last}")
    if _comparable(out) == _comparable(t_out):
        return Outcome(case, command, "exact", seconds, above, "")
    if case.deviation:
        return Outcome(case, command, "documented deviation", seconds, above, "output differs")
    return Outcome(case, command, "wrong number", seconds, above, _first_diff(out, t_out))


def _comparable(text: bytes) -> list[bytes]:
    """Output lines without ``rbp`` (trec_eval 10.0's rbp reads uninitialised memory; README)."""
    return [line for line in text.splitlines() if not line.startswith(b"rbp ")]


def _first_diff(a: bytes, b: bytes) -> str:
    for x, y in zip(_comparable(a), _comparable(b)):
        if x != y:
            return f"ours {x[:60]!r} trec_eval {y[:60]!r}"
    return "different line counts"


def _oracle(trec_eval: str | None, case: Case, cwd: str):
    if not trec_eval or not all(os.path.isfile(p) and stat.S_ISREG(os.stat(p).st_mode)
                                for p in (case.qrels, case.runs[0])):
        return None      # trec_eval would block or read for ever on devices and FIFOs
    res = run_limited([trec_eval, "-m", "all_trec", case.qrels, case.runs[0]], cwd)
    return None if res[0] is None else (res[0], res[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trec-eval", default=os.environ.get("TREC_EVAL", "/work/tools/trec_eval"))
    parser.add_argument("--yardstick", default=str(Path(sys.executable).with_name("yardstick")))
    parser.add_argument("--quick", action="store_true",
                        help="one position per mutation, no 10 MB cases")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--details", action="store_true", help="list every non-exact outcome")
    args = parser.parse_args(argv)
    trec_eval = args.trec_eval if os.path.isfile(args.trec_eval) else None
    folder = Path(tempfile.mkdtemp(prefix="hostile-"))
    try:
        cases = build_corpus(folder, args.quick)
        first = _commands(cases[0], args.yardstick, str(folder / "out0"))
        baseline = {name: run_limited(cmd, str(folder))[4] for name, cmd in first.items()}

        def one(i_case):
            i, case = i_case
            results = []
            oracle = _oracle(trec_eval, case, str(folder))
            for name, cmd in _commands(case, args.yardstick, str(folder / f"out{i}")).items():
                res = run_limited(cmd, str(folder))
                results.append(classify(case, name, res, oracle if name == "eval" else None,
                                        baseline[name]))
            return results

        start = time.perf_counter()
        with ThreadPoolExecutor(args.jobs) as pool:
            outcomes = [o for batch in pool.map(one, enumerate(cases)) for o in batch]
        elapsed = time.perf_counter() - start
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    _print_table(cases, outcomes, elapsed, trec_eval, args.details)
    bad = {"traceback", "hang", "memory", "wrong number", "slow refusal", "undocumented refusal"}
    return 1 if any(o.verdict in bad for o in outcomes) else 0


VERDICTS = ["exact", "ran", "clear refusal", "documented deviation",
            "answered where trec_eval refuses", "undocumented refusal", "slow refusal",
            "traceback", "hang", "memory", "wrong number"]


def _print_table(cases, outcomes, elapsed, trec_eval, details) -> None:
    by_group: dict[str, Counter] = {}
    for o in outcomes:
        by_group.setdefault(o.case.group, Counter())[o.verdict] += 1
    used = [v for v in VERDICTS if any(c[v] for c in by_group.values())]
    print(f"{len(cases)} inputs, {len(outcomes)} runs of eval/report/stability/pool "
          f"in {elapsed:.0f} s; "
          f"memory cap RLIMIT_AS {MEMORY_CAP / 2**30:.0f} GiB, time limit {TIME_LIMIT:.0f} s; "
          f"oracle {trec_eval or 'none'}\n")
    print("| input | " + " | ".join(used) + " | total |")
    print("|---|" + "---:|" * (len(used) + 1))
    total = Counter()
    for group in sorted(by_group):
        c = by_group[group]
        total.update(c)
        print(f"| {group} | " + " | ".join(str(c[v]) for v in used) + f" | {sum(c.values())} |")
    print("| **total** | " + " | ".join(f"**{total[v]}**" for v in used)
          + f" | **{sum(total.values())}** |")
    refused = ("clear refusal", "documented deviation", "slow refusal")
    refusals = [o for o in outcomes if o.verdict in refused and o.case.size < SMALL_INPUT]
    small = [o for o in outcomes if o.case.size < SMALL_INPUT]
    if refusals:
        print(f"\nslowest refusal under 10 MB: {max(o.seconds for o in refusals):.2f} s; "
              "largest peak above baseline under 10 MB: "
              f"{max(o.peak for o in small) / 2**20:.0f} MB")
    for o in outcomes:
        if details or o.verdict not in ("exact", "ran", "clear refusal", "documented deviation"):
            print(f"- {o.verdict}: {o.command} {o.case.name} "
                  f"({o.seconds:.1f} s, +{o.peak / 2**20:.0f} MB): {o.detail}")


if __name__ == "__main__":
    sys.exit(main())
