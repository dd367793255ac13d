"""Load a 7M-line run the way the window does: time, peak memory, progress, cancel latency.

    .venv/bin/python benchmarks/bench_large_run.py [--run benchmarks/_data/msmarco_7000x1000.run]

The run is the 7000 topics x 1000 documents file ``benchmarks/bench_eval.py``
generates.  Each measurement runs in a fresh process (peak resident memory is
the child's ``ru_maxrss``):

* ``read_run``: :func:`yardstick.inputs.io.read_run` alone (the CLI's path);
* ``window load``: :func:`yardstick.session.loading.load_files`, which reads the file in
  8 MiB chunks with progress (:mod:`yardstick.inputs.io.read_progress`), then parses on a
  helper thread while the progress bar keeps moving;
* ``cancel``: the same load closed (what Cancel does) at its first
  "parsing" report; prints how long closing took and that nothing came back.

Also shows the refusal of a file larger than the free memory (pretending
256 MiB is free).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
sys.path.insert(0, {root!r})
mode, path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
out = {{}}
if mode == "read_run":
    from yardstick.inputs.io import read_run
    out["lines"] = len(read_run(path))
elif mode == "window":
    from yardstick.session.loading import load_files
    from yardstick.common.progress import run_sync
    steps = []
    res = run_sync(load_files([(path, "run")]), on_progress=steps.append)
    out["lines"] = len(res.runs[0])
    out["progress_reports"] = len(steps)
elif mode == "cancel":
    from yardstick.session.loading import load_files
    job = load_files([(path, "run")])
    n = 0
    for p in job:
        n += 1
        if p.message.startswith("parsing"):
            break
    out["reports_before_cancel"] = n
    t1 = time.perf_counter()
    job.close()
    out["close_s"] = round(time.perf_counter() - t1, 4)
    try:
        next(job)
        out["result_after_cancel"] = "BUG: the job went on"
    except StopIteration as stop:
        out["result_after_cancel"] = repr(stop.value)
elif mode == "refuse":
    import yardstick.inputs.io.text_source as ts
    ts.available_memory = lambda: 2**28
    from yardstick.common.errors import FormatError
    from yardstick.inputs.io import read_run
    try:
        read_run(path)
        out["message"] = "BUG: loaded"
    except FormatError as e:
        out["message"] = e.message
out["seconds"] = round(time.perf_counter() - t0, 2)
import resource
out["peak_MB"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
print(json.dumps(out))
"""


def child(mode: str, path: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT)), mode, path],
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", default=str(ROOT / "benchmarks" / "_data"
                                          / "msmarco_7000x1000.run"))
    args = ap.parse_args(argv)
    path = Path(args.run)
    if not path.exists():
        print(f"{path} is missing: run benchmarks/bench_eval.py once to generate it",
              file=sys.stderr)
        return 2
    print(f"{path.name}: {path.stat().st_size / 1e6:.0f} MB")
    for mode in ("read_run", "window", "cancel", "refuse"):
        print(f"{mode:>9}: {child(mode, str(path))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
