"""Hostile and messy inputs through ``eval``, ``report``, ``stability`` and ``pool`` (issue #14).

    .venv/bin/python benchmarks/hostile_inputs.py                 # every input, every command
    .venv/bin/python benchmarks/hostile_inputs.py --commands eval --jobs 2
    .venv/bin/python benchmarks/hostile_inputs.py --markdown      # the README table

A corpus of generated inputs (runs and qrels with every classic defect: truncated
lines, wrong column counts, NaN/inf/hex/1e400 scores, duplicates, empty and
comment-only files, CRLF, lone CR, BOM, tabs, very long lines and docnos,
compressed and corrupt compressed files, a gzip bomb, device files, a FIFO, a
directory, 50,000 topics, mixed encodings, huge relevance values, ...) is
written to a temporary folder.  Each input goes through each command in its own
process, under a memory cap (``RLIMIT_AS`` = baseline + 4 GiB, so that no input
can take the machine) and a time limit; peak memory comes from ``wait4``.

Every (input, command) is classified:

* **refused**: a clear message (exit 1 or 2, no traceback, the file or option named);
* **exact**: ``eval`` accepted it and printed byte for byte what trec_eval 10.0 prints
  (the ``-O2`` binary: ``$TREC_EVAL`` or ``/work/tools/trec_eval``), apart from the
  ``rbp`` lines (README: trec_eval 10.0's rbp reads uninitialised values);
* **ok**: accepted, and trec_eval is not at hand or the command has no trec_eval
  counterpart (report, stability, pool);
* **deviation**: differs from trec_eval in a way README "Exactly trec_eval" documents
  (the input's own note says which);
* **traceback**, **hang** (time limit), **memory** (a MemoryError, a kill, or a peak
  more than 300 MB above the baseline for an input under 10 MB), **wrong number**
  (eval accepted it where trec_eval did too, with different text and no documented
  reason).

The targets: 0 tracebacks, 0 hangs, 0 memory, 0 wrong numbers; every refusal of an
input under 10 MB within 2 s.  Exit status 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import bz2
import collections
import gzip
import lzma
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
COMMANDS = ("eval", "report", "stability", "pool")
TIME_LIMIT = 30.0
MEMORY_CAP = 4 << 30
PEAK_LIMIT_MB = 300
REFUSAL_LIMIT_S = 2.0

GOOD_QRELS = "".join(f"{t} 0 D{t}-{d} {int(d % 3 == 0) + int(d % 7 == 0)}\n"
                     for t in (301, 302, 303) for d in range(40))
GOOD_RUN = "".join(f"{t} Q0 D{t}-{d} {d + 1} {round(10 - d * 0.25, 2)} good\n"
                   for t in (301, 302, 303) for d in range(30))


@dataclass(frozen=True)
class Case:
    """One hostile input: its name, which file it replaces, and how to make it."""

    name: str
    role: str                    # "run" or "qrels"
    content: bytes | None = None
    special: str = ""            # "dir", "fifo", "missing", "device:/dev/zero", "noperm"
    note: str = ""               # why trec_eval and Yardstick may differ (a documented deviation)


def _run_lines(lines) -> bytes:
    return "".join(lines).encode()


def cases() -> list[Case]:
    """The corpus (at least 400 inputs)."""
    out: list[Case] = []
    good = GOOD_RUN.splitlines(keepends=True)
    qgood = GOOD_QRELS.splitlines(keepends=True)

    def run(name, text, note=""):
        out.append(Case(name, "run", text if isinstance(text, bytes) else text.encode(),
                        note=note))

    def qrels(name, text, note=""):
        out.append(Case(name, "qrels", text if isinstance(text, bytes) else text.encode(),
                        note=note))

    # -- runs: fields and columns, on every line position (first, middle, last)
    for pos, at in (("first", 0), ("middle", 45), ("last", len(good) - 1)):
        fields = good[at].split()
        for k in range(0, 6):
            bad = good.copy()
            bad[at] = " ".join(fields[:k]) + "\n"
            run(f"run {k} fields ({pos} line)", "".join(bad),
                "a blank line" if k == 0 else "")
        for extra in (1, 2, 10):
            bad = good.copy()
            bad[at] = " ".join(fields + ["x"] * extra) + "\n"
            run(f"run {6 + extra} fields ({pos} line)", "".join(bad),
                "extra fields ignored")
        for score in ("nan", "NaN", "inf", "-inf", "Infinity", "1e400", "-1e400", "0x1A",
                      "0X1p3", "abc", "1,5", "--1", "1e", ".", "+", "1.2.3", "5abc",
                      "1e-400", "4.9e-324", "-0", "+3.5", ".5", "5.", "1E5", "  7"):
            bad = good.copy()
            f = fields.copy()
            f[4] = score
            bad[at] = " ".join(f) + "\n"
            run(f"run score {score!r} ({pos} line)", "".join(bad),
                "non-numbers and non-finite scores are refused (trec_eval's atof reads "
                "them as numbers or 0)")
        for rank in ("x", "1.5", "-3", "99999999999999999999", "0x10"):
            bad = good.copy()
            f = fields.copy()
            f[3] = rank
            bad[at] = " ".join(f) + "\n"
            run(f"run rank {rank!r} ({pos} line)", "".join(bad))
    # -- runs: whole-file shapes
    run("run empty", b"")
    run("run only comments", "# a\n# b\n", "")
    run("run only blank lines", "\n\n  \n\t\n")
    run("run no final newline", GOOD_RUN.rstrip("\n"))
    run("run CRLF", GOOD_RUN.replace("\n", "\r\n"))
    run("run lone CR line ends", GOOD_RUN.replace("\n", "\r"),
        "a lone CR ends a line (trec_eval: only LF)")
    run("run lone CR inside", good[0].replace(" Q0", "\rQ0") + "".join(good[1:]),
        "a lone CR ends a line (trec_eval: only LF)")
    run("run BOM", b"\xef\xbb\xbf" + GOOD_RUN.encode(), "a BOM is dropped")
    run("run UTF-16", GOOD_RUN.encode("utf-16"), "")
    run("run tabs", GOOD_RUN.replace(" ", "\t"))
    run("run mixed tabs and spaces", GOOD_RUN.replace(" Q0 ", "\t Q0  "))
    run("run leading blanks", "".join("  " + ln for ln in good))
    run("run trailing blanks", "".join(ln.replace("\n", "  \n") for ln in good))
    run("run comment lines", "# header\n" + "".join(good[:40]) + "#mid\n" + "".join(good[40:]))
    run("run indented comment", "  # header\n" + GOOD_RUN,
        "an indented '#' line: trec_eval reads it as a 1-field line")
    run("run '#' in docno", GOOD_RUN.replace("D301-1 ", "D301#1 "))
    run("run duplicate line", GOOD_RUN + good[0], "duplicates are refused")
    run("run duplicate docno other score", GOOD_RUN + good[0].replace("10.0", "3.3"),
        "duplicates are refused")
    run("run unsorted", "".join(reversed(good)))
    run("run topics interleaved", "".join(good[i] for i in sorted(range(len(good)),
                                                                    key=lambda i: i % 7)))
    run("run all scores tied", "".join(" ".join(ln.split()[:4] + ["1.0", "good"]) + "\n"
                                       for ln in good))
    run("run negative scores", GOOD_RUN.replace(" 10", " -10").replace(" 9.", " -9."))
    run("run huge scores", "".join(" ".join(ln.split()[:4] + ["1e300", "good"]) + "\n"
                                   for ln in good[:1]) + "".join(good[1:]))
    run("run scores 1 ulp apart", "1 Q0 a 1 0.30000000000000004 t\n1 Q0 b 2 0.3 t\n")
    run("run topic not in qrels", GOOD_RUN.replace("303 Q0", "999 Q0"),
        "qrels topics without results: trec_eval 10 stops, Yardstick notes and ignores")
    run("run one topic only", "".join(good[:30]),
        "qrels topics without results: trec_eval 10 stops, Yardstick notes and ignores")
    run("run 50k topics", "".join(f"{t} Q0 D{t}-1 1 1.0 t\n" for t in range(50_000)),
        "qrels topics without results")
    run("run 200 KB docno", good[0].replace("D301-0", "X" * 200_000) + "".join(good[1:]),
        "docnos above 65,536 bytes are refused")
    run("run 60 KB docno", good[0].replace("D301-0", "X" * 60_000) + "".join(good[1:]))
    run("run 10 MB docno", "1 Q0 " + "x" * 10_000_000 + " 1 2 t\n",
        "docnos above 65,536 bytes are refused")
    run("run 10 MB tag", "301 Q0 D301-1 1 2 " + "t" * 10_000_000 + "\n")
    run("run 10 MB without newline", "a" * 10_000_000)
    run("run 1 MB of spaces", " " * 1_000_000 + "\n" + GOOD_RUN)
    run("run NUL bytes", GOOD_RUN.replace("D301-3", "D301\x003"), "")
    run("run VT and FF", GOOD_RUN.replace(" Q0 ", "\x0bQ0\x0c"),
        "")
    run("run control bytes in docno", GOOD_RUN.replace("D301-4", "D301\x014"))
    run("run latin-1 docnos", GOOD_RUN.replace("D301-5", "D301-\xe9").encode("latin-1"))
    run("run UTF-8 docnos", GOOD_RUN.replace("D301-5", "D301-\xe9"))
    run("run tag cut in a UTF-8 character", GOOD_RUN.encode()[:-2] + b"\xc3\n")
    run("run random bytes", os.urandom(4096), "")
    run("run qrels file given as run", GOOD_QRELS)
    run("run XML", "<run><doc>1</doc></run>\n")
    run("run JSON", '{"301": {"D301-1": 1.0}}\n')
    run("run 1M lines", "".join(f"{t} Q0 D{t}-{d} {d} {1e6 - d} big\n"
                                for t in (301, 302, 303) for d in range(333_334)))
    for q0 in ("q0", "0", "Q1", "-", "QQQQQQQQ"):
        run(f"run Q0 column {q0!r}", GOOD_RUN.replace(" Q0 ", f" {q0} "))
    for topic in ("0", "-1", "1.5", "ab", "\u0663", "T" * 10_000, "301\u00a0"):
        run(f"run topic {topic[:12]!r}", GOOD_RUN.replace("301 Q0", f"{topic} Q0"),
            "qrels topics without results: trec_eval 10 stops, Yardstick notes and ignores")
    for docno in ("\u00a0x", "\U0001f600", '"quoted"', "a", "x" * 4096, "D301-1\\", "<b>",
                  "D301-1;D301-2", "\u200b", "d\u0301"):
        run(f"run docno {docno[:12]!r}", GOOD_RUN.replace("D301-7 ", f"{docno} "))
    for enc in ("utf-16-le", "utf-32", "cp1252", "shift_jis", "utf-8-sig"):
        try:
            run(f"run encoded {enc}", GOOD_RUN.replace("D301-5", "D301-\u00e9").encode(enc),
                "a BOM is dropped" if enc == "utf-8-sig" else "")
        except UnicodeEncodeError:
            pass
    rng = random.Random(14)
    for k in range(1, 41):   # random byte edits: deletions, insertions, swaps
        b = bytearray(GOOD_RUN.encode())
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(b))
            op = rng.choice(("del", "ins", "set"))
            if op == "del":
                del b[i]
            else:
                c = rng.choice(b" \t\n#x0.9-eE+\r\x00\xff")
                if op == "ins":
                    b.insert(i, c)
                else:
                    b[i] = c
        run(f"run random edit #{k}", bytes(b))
    for k in range(1, 40):   # many small one-line variants
        run(f"run one line #{k}", f"30{k % 3 + 1} Q0 D30{k % 3 + 1}-{k} 1 {k / 3} t{k}\n")
    # -- compressed
    run("run gzip", gzip.compress(GOOD_RUN.encode()))
    run("run bz2", bz2.compress(GOOD_RUN.encode()))
    run("run xz", lzma.compress(GOOD_RUN.encode()))
    run("run gzip truncated", gzip.compress(GOOD_RUN.encode())[:-20], "")
    run("run gzip corrupt", gzip.compress(GOOD_RUN.encode())[:30] + b"\x00" * 50, "")
    run("run bz2 corrupt", bz2.compress(GOOD_RUN.encode())[:40], "")
    run("run xz corrupt", lzma.compress(GOOD_RUN.encode())[:40], "")
    run("run gzip bomb", gzip.compress(b"\0" * (1 << 30), compresslevel=9),
        "compressed files inflating beyond 64 MiB + 50x are refused")
    run("run gzip of garbage", gzip.compress(os.urandom(10_000)))
    run("run double gzip", gzip.compress(gzip.compress(GOOD_RUN.encode())))
    # -- specials
    for role in ("run", "qrels"):
        out.append(Case(f"{role} directory", role, special="dir"))
        out.append(Case(f"{role} FIFO with no writer", role, special="fifo"))
        out.append(Case(f"{role} missing file", role, special="missing"))
        out.append(Case(f"{role} /dev/zero", role, special="device:/dev/zero"))
        out.append(Case(f"{role} /dev/urandom", role, special="device:/dev/urandom"))
        out.append(Case(f"{role} /dev/null", role, special="device:/dev/null"))
        if os.geteuid() != 0:
            out.append(Case(f"{role} unreadable", role, special="noperm"))
    # -- qrels
    for pos, at in (("first", 0), ("middle", 60), ("last", len(qgood) - 1)):
        fields = qgood[at].split()
        for k in (0, 1, 2, 3, 5, 6, 8):
            bad = qgood.copy()
            bad[at] = " ".join((fields + ["x"] * 8)[:k]) + "\n"
            qrels(f"qrels {k} fields ({pos} line)", "".join(bad),
                  "blank and short lines: see README" if k == 0 else "")
        for rel in ("1.5", "x", "0x1F", "3000000000", "100000000", "9223372036854775807",
                    "-9223372036854775808", "99999999999999999999", "-1", "-2", "1001",
                    "1000", "+2", "", "1e3", "nan"):
            bad = qgood.copy()
            f = fields.copy()
            f[3] = rel
            bad[at] = " ".join(f) + "\n"
            qrels(f"qrels relevance {rel!r} ({pos} line)", "".join(bad),
                  "relevance above 1,000 or not an integer is refused")
    qrels("qrels empty", b"")
    qrels("qrels only comments", "# a\n")
    qrels("qrels blank lines", GOOD_QRELS.replace("\n", "\n\n", 5),
          "blank lines in qrels are skipped (trec_eval 10 refuses them)")
    qrels("qrels comment lines", "# c\n" + GOOD_QRELS + "# end\n")
    qrels("qrels consecutive comments", "# a\n# b\n" + GOOD_QRELS,
          "comment lines in qrels: see README")
    qrels("qrels indented comment", "  # c\n" + GOOD_QRELS,
          "an indented '#' line in qrels")
    qrels("qrels CRLF", GOOD_QRELS.replace("\n", "\r\n"))
    qrels("qrels lone CR", GOOD_QRELS.replace("\n", "\r"), "a lone CR ends a line")
    qrels("qrels BOM", b"\xef\xbb\xbf" + GOOD_QRELS.encode(), "a BOM is dropped")
    qrels("qrels tabs", GOOD_QRELS.replace(" ", "\t"))
    qrels("qrels duplicate judgment", GOOD_QRELS + qgood[0], "duplicates are refused")
    qrels("qrels conflicting judgment", GOOD_QRELS + qgood[0].replace(" 1\n", " 0\n")
          .replace(" 2\n", " 0\n"), "duplicates are refused")
    qrels("qrels latin-1 docno (run UTF-8)",
          GOOD_QRELS.replace("D301-3 ", "D301-\xe9 ").encode("latin-1"))
    qrels("qrels unsorted", "".join(reversed(qgood)))
    qrels("qrels no relevant", "".join(ln.rsplit(" ", 1)[0] + " 0\n" for ln in qgood))
    qrels("qrels 10 MB docno", "301 0 " + "q" * 10_000_000 + " 1\n" + GOOD_QRELS,
          "docnos above 65,536 bytes are refused")
    qrels("qrels run file given", GOOD_RUN)
    qrels("qrels random bytes", os.urandom(4096))
    qrels("qrels gzip", gzip.compress(GOOD_QRELS.encode()))
    qrels("qrels gzip bomb", gzip.compress(b"\0" * (1 << 30), compresslevel=9),
          "compressed files inflating beyond 64 MiB + 50x are refused")
    qrels("qrels 50k topics", "".join(f"{t} 0 D{t}-1 1\n" for t in range(50_000)) + GOOD_QRELS,
          "qrels topics without results")
    for topic in ("0", "-1", "1.5", "ab", "T" * 10_000):
        qrels(f"qrels topic {topic[:12]!r}", GOOD_QRELS.replace("301 0", f"{topic} 0"),
              "qrels topics without results")
    for it in ("Q0", "x", "-1", "99999999999999999999"):
        qrels(f"qrels iteration column {it!r}", GOOD_QRELS.replace(" 0 D", f" {it} D"))
    for enc in ("utf-16", "cp1252", "utf-8-sig"):
        qrels(f"qrels encoded {enc}", GOOD_QRELS.replace("D302-4 ", "D302-\u00e9 ").encode(enc),
              "a BOM is dropped" if enc == "utf-8-sig" else "")
    for k in range(1, 30):
        qrels(f"qrels one judgment #{k}", f"30{k % 3 + 1} 0 D30{k % 3 + 1}-{k} {k % 3}\n",
              "qrels topics without results")
    return out


# --------------------------------------------------------------------------- running

def materialise(case: Case, folder: Path) -> Path:
    if case.special == "dir":
        p = folder / "a_directory"
        p.mkdir(exist_ok=True)
        return p
    if case.special == "fifo":
        p = folder / "a_fifo"
        if not p.exists():
            os.mkfifo(p)
        return p
    if case.special == "missing":
        return folder / "does_not_exist"
    if case.special.startswith("device:"):
        return Path(case.special.split(":", 1)[1])
    name = "".join(c if c.isalnum() else "_" for c in case.name)[:80]
    p = folder / name
    p.write_bytes(case.content or b"")
    if case.special == "noperm":
        p.chmod(0)
    return p


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_one(cmd: list[str]) -> dict:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=str(REPO), preexec_fn=_limit,
                                env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        hang = False
        deadline = t0 + TIME_LIMIT
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                hang = True
                break
            time.sleep(0.01)
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        return {"code": os.waitstatus_to_exitcode(status), "out": out.read(),
                "err": err.read().decode("utf-8", "replace"), "wall": wall,
                "peak_mb": usage.ru_maxrss / 1024, "hang": hang}


def yardstick_cmd(command: str, qrels: Path, run: Path, good_run: Path, out_dir: Path) -> list:
    exe = Path(sys.executable).with_name("yardstick")
    head = [str(exe)] if exe.exists() else [sys.executable, "-m", "yardstick.cli"]
    if command == "eval":
        return head + ["eval", "-q", "-m", "all_trec", str(qrels), str(run)]
    if command == "report":
        return head + ["report", "--qrels", str(qrels), "--out", str(out_dir), "--formats",
                       "csv", str(run), str(good_run)]
    if command == "stability":
        return head + ["stability", "--qrels", str(qrels), "-m", "map", "-B", "20", "--seed",
                       "1", "--analysis", "swap", "--analysis", "error-rate", str(run),
                       str(good_run)]
    return head + ["pool", "--qrels", str(qrels), "--analysis", "stats", "--analysis",
                   "uniques", str(run), str(good_run)]


def classify(case: Case, command: str, r: dict, size: int, te: dict | None,
             baseline_mb: float) -> str:
    err = r["err"]
    if r["hang"]:
        return "hang"
    if "MemoryError" in err or r["code"] in (-9, 137) or (
            size < 10 << 20 and r["peak_mb"] > baseline_mb + PEAK_LIMIT_MB):
        return "memory"
    if "Traceback" in err:
        return "traceback"
    if r["code"] != 0:
        return "refused" if err.strip() else "traceback"   # silent failure counts as a bug
    if command != "eval" or te is None:
        return "ok"
    if te["code"] == 0:
        theirs, ours = te["out"].splitlines(), r["out"].splitlines()
        diff = [(a, b) for a, b in zip(theirs, ours) if a != b]
        if len(theirs) == len(ours) and all(a.split()[0] == b"rbp" for a, _ in diff):
            return "exact"       # (rbp aside: README "Exactly trec_eval", rbp)
        return "deviation" if case.note else "wrong number"
    return "deviation"        # trec_eval refused or crashed; README lists why we accept


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commands", default=",".join(COMMANDS))
    ap.add_argument("--jobs", type=int, default=2, help="processes at once (default 2)")
    ap.add_argument("--markdown", action="store_true", help="print the README table")
    ap.add_argument("--limit", type=int, default=0, help="only the first N inputs")
    ap.add_argument("--list", action="store_true", help="print every outcome, one a line")
    a = ap.parse_args(argv)
    commands = [c for c in a.commands.split(",") if c]
    te_bin = next((Path(p) for p in (os.environ.get("TREC_EVAL"), "/work/tools/trec_eval",
                                     shutil.which("trec_eval")) if p and Path(p).is_file()),
                  None)
    corpus = cases()
    if a.limit:
        corpus = corpus[:a.limit]
    print(f"{len(corpus)} inputs x {len(commands)} commands; trec_eval: {te_bin or 'absent'}",
          file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        good_run, good_qrels = folder / "good.run", folder / "good.qrels"
        good_run.write_text(GOOD_RUN)
        good_qrels.write_text(GOOD_QRELS)
        baseline = run_one(yardstick_cmd("eval", good_qrels, good_run, good_run,
                                         folder / "o"))["peak_mb"]
        tasks = []
        for i, case in enumerate(corpus):
            sub = folder / f"c{i}"
            sub.mkdir()
            path = materialise(case, sub)
            qrels, run = (path, good_run) if case.role == "qrels" else (good_qrels, path)
            size = len(case.content or b"")
            for c in commands:
                tasks.append((case, c, qrels, run, size, sub / f"out_{c}"))
        te_cache: dict[int, dict | None] = {}

        def reference(case: Case, qrels: Path, run: Path) -> dict | None:
            if te_bin is None or case.special in ("fifo",) or case.special.startswith("device"):
                return None
            key = id(case)
            if key not in te_cache:
                te_cache[key] = run_one([str(te_bin), "-q", "-m", "all_trec", str(qrels),
                                         str(run)])
            return te_cache[key]

        def work(task):
            case, c, qrels, run, size, out_dir = task
            r = run_one(yardstick_cmd(c, qrels, run, good_run, out_dir))
            te = reference(case, qrels, run) if c == "eval" else None
            return case, c, r, classify(case, c, r, size, te, baseline), size

        rows = []
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            for n, res in enumerate(pool.map(work, tasks), 1):
                rows.append(res)
                if n % 50 == 0:
                    print(f"{n}/{len(tasks)}", file=sys.stderr)
    if a.list:
        for case, c, r, k, _ in rows:
            tail = (r["err"].strip().splitlines() or [""])[-1][:110]
            print(f"{k:12s} {c:9s} {case.name[:50]:50s} {tail}")
    return report(rows, commands, len(corpus), a.markdown)


def report(rows, commands, n_inputs: int, markdown: bool) -> int:
    kinds = ["refused", "exact", "ok", "deviation", "traceback", "hang", "memory",
             "wrong number"]
    table = collections.Counter((c, k) for _, c, _, k, _ in rows)
    slow = [(case.name, c, r["wall"]) for case, c, r, k, size in rows
            if k == "refused" and size < 10 << 20 and r["wall"] > REFUSAL_LIMIT_S]
    print(f"\n{n_inputs} inputs, {len(rows)} runs\n")
    print("| command | " + " | ".join(kinds) + " | slowest refusal |")
    print("|---|" + "---:|" * (len(kinds) + 1))
    for c in commands:
        walls = [r["wall"] for case, cc, r, k, size in rows if cc == c and k == "refused"]
        print(f"| `{c}` | " + " | ".join(str(table[(c, k)]) for k in kinds)
              + f" | {max(walls, default=0):.2f} s |")
    totals = collections.Counter(k for *_, k, _ in rows)
    print("| **total** | " + " | ".join(f"**{totals[k]}**" for k in kinds) + " | |")
    bad = [(case, c, r, k) for case, c, r, k, _ in rows
           if k in ("traceback", "hang", "memory", "wrong number")]
    for case, c, r, k in bad[:40]:
        tail = (r["err"].strip().splitlines() or [""])[-1][:160]
        print(f"\n{k}: {c} on {case.name!r} (exit {r['code']}, {r['wall']:.1f} s, "
              f"{r['peak_mb']:.0f} MB): {tail}")
    for name, c, wall in slow:
        print(f"\nslow refusal: {c} on {name!r}: {wall:.1f} s")
    if not markdown:
        by_input = collections.Counter(k for case, c, r, k, _ in rows if c == "eval")
        print(f"\neval outcomes: {dict(by_input)}")
    return 1 if bad or slow else 0


if __name__ == "__main__":
    sys.exit(main())
