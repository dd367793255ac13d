"""What merely reading the 7M-line run costs on this machine: the floor under ``yardstick eval``.

    .venv/bin/python benchmarks/bench_read_floor.py              # 5 rounds
    .venv/bin/python benchmarks/bench_read_floor.py --repeat 9

Issue #19 asks for ``yardstick eval -q -m all_trec`` at a quarter of trec_eval
``-O2``'s time on the 7000 x 1000 run (``bench_eval.py``).  This measures the
steps any Python reader of that file must take, each as a whole process, the
steps taking turns in every round (as in ``bench_eval.py``) so that a busy
machine slows them alike:

* ``python``: the interpreter starting and stopping (``-c pass``);
* ``imports``: + ``import numpy, pyarrow, pyarrow.csv``;
* ``read bytes``: + the file's bytes read into one reused 16 MiB buffer (from
  the page cache: the run was just read by the step before);
* ``pyarrow 3 columns``: + pyarrow's CSV reader (all cores) converting only
  what evaluation needs: topic (dictionary), docno (string) and score (double),
  the other columns split off but not converted.  No Python reader of the text
  can do less (pyarrow's tokenizer is the fastest in the environment);
* ``pyarrow all columns``: ``bench_eval.py``'s "pyarrow-read" (every column,
  types inferred);
* ``yardstick read``: ``read_run(path, ranks=False, order=10, scores=False)``,
  the reading half of ``yardstick eval`` as it calls it: the pyarrow parse in
  pieces on two workers, docnos as 8-byte words, topic codes, the duplicate
  check (join index) with trec_eval's order made meanwhile on a second thread;
* ``yardstick eval``: the whole ``yardstick eval -q -m all_trec`` (with the qrels);
* ``trec_eval -O2``: the C program (built as ``bench_eval.py`` says).

Printed: wall time median (range), CPU time (user + sys), peak memory, and the
budget a 4x speed-up over trec_eval leaves (its median / 4) against each floor.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_eval import (  # noqa: E402
    PYARROW_READ,
    TARGET_SPEEDUP,
    ensure_data,
    fmt_cpu,
    fmt_time,
    measure,
    summary,
    trec_eval_binary,
)

READ_BYTES = """
import sys
buf = bytearray(1 << 24)
with open(sys.argv[1], "rb", buffering=0) as f:
    while f.readinto(buf):
        pass
"""

PYARROW_3 = """
import sys
import pyarrow as pa, pyarrow.csv as pacsv
t = pacsv.read_csv(sys.argv[1], read_options=pacsv.ReadOptions(
    column_names=["topic", "q0", "docno", "rank", "score", "tag"], block_size=1 << 22),
    parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, double_quote=False,
                                     escape_char=False),
    convert_options=pacsv.ConvertOptions(
        column_types={"topic": pa.dictionary(pa.int32(), pa.string()), "docno": pa.string(),
                      "score": pa.float64()},
        include_columns=["topic", "docno", "score"], strings_can_be_null=False,
        null_values=[]))
print(t.num_rows)
"""

YARDSTICK_READ = """
import sys
from yardstick.cli.allocator import keep_freed_memory, lean_arrow_pool
keep_freed_memory()
lean_arrow_pool()
from yardstick.inputs.io.run_file import read_run
print(len(read_run(sys.argv[1], ranks=False, order=10, scores=False)))
"""


def steps(qrels: Path, run: Path) -> dict[str, list[str]]:
    py = sys.executable
    exe = Path(py).with_name("yardstick")
    ys = [str(exe)] if exe.exists() else [py, "-m", "yardstick.cli"]
    out = {
        "python": [py, "-c", "pass"],
        "imports": [py, "-c", "import numpy, pyarrow, pyarrow.csv"],
        "read bytes": [py, "-c", READ_BYTES, str(run)],
        "pyarrow 3 columns": [py, "-c", PYARROW_3, str(run)],
        "pyarrow all columns": [py, "-c", PYARROW_READ, str(run)],
        "yardstick read": [py, "-c", YARDSTICK_READ, str(run)],
        "yardstick eval": ys + ["eval", "-q", "-m", "all_trec", str(qrels), str(run)],
    }
    te = trec_eval_binary()
    if te:
        out["trec_eval -O2"] = [str(te), "-q", "-m", "all_trec", str(qrels), str(run)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="rounds (default 5)")
    a = ap.parse_args(argv)
    qrels, runs = ensure_data("large")
    cmds = steps(qrels, runs["sorted"])
    samples: dict[str, list[dict]] = {k: [] for k in cmds}
    for r in range(a.repeat):
        for name, cmd in cmds.items():
            print(f"[round {r + 1}/{a.repeat}] {name} ...", flush=True)
            samples[name].append(measure(cmd))
    stats = {k: summary(v) for k, v in samples.items()}
    print(f"\n### The floor: reading the 7000 x 1000 run ({runs['sorted'].stat().st_size / 1e6:.0f}"
          f" MB), whole processes, {a.repeat} rounds\n")
    print("| step (whole process) | wall time, median (range) | CPU time, median (range) "
          "| peak memory |")
    print("|---|---:|---:|---:|")
    for name, s in stats.items():
        if "failed" in s:
            print(f"| {name} | failed: {s['failed']} | | |")
            continue
        print(f"| {name} | {fmt_time(s)} | {fmt_cpu(s)} | {s['peak']:.0f} MB |")
    te = stats.get("trec_eval -O2")
    if te and "median" in te:
        budget = te["median"] / TARGET_SPEEDUP
        best_budget = te["min"] / TARGET_SPEEDUP
        print(f"\nA {TARGET_SPEEDUP:.0f}x speed-up over trec_eval -O2 leaves {budget:.2f} s "
              f"(median; {best_budget:.2f} s from its best round) for the whole process.")
        for name in ("pyarrow 3 columns", "pyarrow all columns", "yardstick read",
                     "yardstick eval"):
            s = stats.get(name)
            if s and "median" in s:
                print(f"- {name}: {s['median']:.2f} s median = {s['median'] / budget:.2f}x "
                      f"the budget; trec_eval / it = {te['median'] / s['median']:.2f}x median, "
                      f"{te['min'] / s['min']:.2f}x best")
    print(f"\npython {sys.version.split()[0]}, {os.cpu_count()} cpus, load average "
          f"{os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
