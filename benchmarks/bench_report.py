"""Time ``yardstick report`` on a 150-run track, today's code and a base checkout side by side.

    .venv/bin/python benchmarks/bench_report.py --track /tmp/NAME-track [--base DIR]
        [--repeat 3] [--out /tmp/NAME-bench] [-- extra report options]

The track is what ``/work/shared/tools/gen_track.py --runs 150 --topics 50`` writes
(``qrels.txt``, ``runs/``).  The command is the one of issue #28: every format,
``--comparison-table --test t --correction holm``.  ``--base DIR`` is another
checkout (``git worktree add /tmp/base 5056bfc``): its ``core/`` is imported as
``yardstick`` through ``PYTHONPATH``, in the same Python, so the two differ only in
the code.  Each run is a fresh process; wall-clock and CPU time (the process and
its worker processes, ``resource.getrusage(RUSAGE_CHILDREN)``), files written, PDF
pages (``pdfinfo``) and the HTML's size are printed, with the load average, because
a shared machine's wall clock says little on its own.  Target (#28): at most 60 s
for 150 runs x 50 topics on the 2-core machine.
"""

from __future__ import annotations

import argparse
import glob
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _report(track: Path, out: Path, base: Path | None, extra: list[str]) -> dict:
    env = dict(os.environ)
    if base is not None:
        shim = Path(tempfile.mkdtemp(prefix="bench-report-base-"))
        (shim / "yardstick").symlink_to(base / "core")
        env["PYTHONPATH"] = str(shim)
    shutil.rmtree(out, ignore_errors=True)
    runs = sorted(glob.glob(str(track / "runs" / "*")))
    cmd = [sys.executable, "-m", "yardstick.cli", "report", "--qrels", str(track / "qrels.txt"),
           *runs, "--out", str(out), "--formats", "html,pdf,png,svg,csv,xlsx,tex,md",
           "--comparison-table", "--test", "t", "--correction", "holm", *extra]
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--track", type=Path, required=True)
    ap.add_argument("--base", type=Path, help="a base checkout to time beside this one")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "bench-report")
    ap.add_argument("extra", nargs="*", help="more report options (after --)")
    a = ap.parse_args(argv)
    sides = [("this", None)] + ([("base", a.base)] if a.base else [])
    print(f"{'code':<6} {'wall s':>8} {'cpu s':>8} {'files':>6} {'pages':>6} {'html MB':>8} "
          f"{'load':>5}")
    for _ in range(a.repeat):
        for name, base in sides:
            m = _report(a.track, a.out / name, base, a.extra)
            print(f"{name:<6} {m['wall']:8.1f} {m['cpu']:8.1f} {m['files']:6d} {m['pages']:>6} "
                  f"{m['html_mb']:8.2f} {m['load']:5.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
