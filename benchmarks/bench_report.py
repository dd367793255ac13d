"""Time ``yardstick report`` on a 150-run track, this checkout and a base checkout side by side.

    .venv/bin/python benchmarks/bench_report.py --track /tmp/NAME-track [--base DIR]
        [--tests t,wilcoxon,randomisation,bootstrap] [--repeat 3] [--base-repeat N]
        [--this DIR]
        [--out /tmp/NAME-bench] [-- extra report options]

The track is what ``/work/shared/tools/gen_track.py --runs 150 --topics 50`` writes
(``qrels.txt``, ``runs/``).  The command is the one of issue #28: every format,
``--comparison-table --test T --correction holm``, for each paired test T of
``--tests``.  ``--base DIR`` is another checkout (``git worktree add /tmp/base
cf12bac``): its ``core/`` is imported as ``yardstick`` through ``PYTHONPATH``, in the
same Python, so the two differ only in the code; the runs of the two alternate.  Each
run is a fresh process; wall-clock and CPU time (the process and its worker processes,
``resource.getrusage(RUSAGE_CHILDREN)``), files written, PDF pages (``pdfinfo``) and
the HTML's size are printed with the 1-minute load average before the run, then a
Markdown table (mean and range over the repeats) for the README.  On a shared machine
the wall clock mostly measures the others' load: compare CPU times.  Target (#28): at
most 60 s for 150 runs x 50 topics on the 2-core machine.
"""

from __future__ import annotations

import argparse
import glob
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _report(track: Path, out: Path, base: Path | None, test: str, extra: list[str]) -> dict:
    env = dict(os.environ)
    if base is not None:
        shim = Path(tempfile.mkdtemp(prefix="bench-report-base-"))
        (shim / "yardstick").symlink_to(base / "core")
        env["PYTHONPATH"] = str(shim)
    shutil.rmtree(out, ignore_errors=True)
    runs = sorted(glob.glob(str(track / "runs" / "*")))
    cmd = [sys.executable, "-m", "yardstick.cli", "report", "--qrels", str(track / "qrels.txt"),
           *runs, "--out", str(out), "--formats", "html,pdf,png,svg,csv,xlsx,tex,md",
           "--comparison-table", "--test", test, "--correction", "holm", *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode:
        raise SystemExit(f"report failed ({r.returncode}): {r.stderr[-2000:]}")
    files = [p for p in out.rglob("*") if p.is_file()]
    pages = "?"
    pdf = out / "adhoc_report.pdf"
    if shutil.which("pdfinfo") and pdf.exists():
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
        pages = next((ln.split()[-1] for ln in info.splitlines() if ln.startswith("Pages")), "?")
    html = out / "adhoc_report.html"
    return {"wall": wall, "cpu": (after.ru_utime - before.ru_utime)
            + (after.ru_stime - before.ru_stime), "files": len(files), "pages": pages,
            "html_mb": html.stat().st_size / 1e6 if html.exists() else 0.0, "load": load}


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _spread(xs: list[float]) -> str:
    """``mean (min–max)``, or the one value."""
    if len(xs) == 1:
        return f"{xs[0]:.1f}"
    return f"{statistics.mean(xs):.1f} ({min(xs):.1f}–{max(xs):.1f})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--track", type=Path, required=True)
    ap.add_argument("--base", type=Path, help="a base checkout to time beside this one")
    ap.add_argument("--this", type=Path, help="a checkout to time as 'this' (default: the "
                    "installed yardstick; a frozen copy lets you edit while it runs)")
    ap.add_argument("--tests", default="t", help="comma list of --test values (t)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--base-repeat", type=int, help="repeats of the base (default --repeat): "
                    "its resampling tests take minutes a run")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "bench-report")
    ap.add_argument("extra", nargs="*", help="more report options (after --)")
    a = ap.parse_args(argv)
    sides = [("this", a.this, a.repeat)]
    if a.base:
        sides.append(("base", a.base, a.repeat if a.base_repeat is None else a.base_repeat))
    tests = [t.strip() for t in a.tests.split(",") if t.strip()]
    print(f"{os.cpu_count()} CPUs; {_uptime()}")
    print(f"{'code':<6} {'test':<14} {'wall s':>8} {'cpu s':>8} {'files':>6} {'pages':>6} "
          f"{'html MB':>8} {'load':>5}")
    got: dict = {}
    for test in tests:
        for k in range(max(n for _, _, n in sides)):
            for name, base, n in sides:
                if k >= n:
                    continue
                m = _report(a.track, a.out / name, base, test, a.extra)
                got.setdefault((name, test), []).append(m)
                print(f"{name:<6} {test:<14} {m['wall']:8.1f} {m['cpu']:8.1f} {m['files']:6d} "
                      f"{m['pages']:>6} {m['html_mb']:8.2f} {m['load']:5.1f}", flush=True)
    print(f"\n{_uptime()}")
    print("\n| test | code | runs | CPU s | wall s | load (1 min) |\n|---|---|---|---|---|---|")
    for (name, test), ms in got.items():
        print(f"| {test} | {name} | {len(ms)} | {_spread([m['cpu'] for m in ms])} | "
              f"{_spread([m['wall'] for m in ms])} | {_spread([m['load'] for m in ms])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
