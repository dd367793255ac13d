"""Pool's default analyses, today's code and a baseline side by side in one run (issue 30).

    .venv/bin/python benchmarks/bench_pool.py [--base OLD/core] [--code NEW/core] [--repeat 3]
        [TRACK_DIR...]

Each TRACK_DIR holds a generated track (``../shared/tools/gen_track.py --runs 150
--topics 50`` and ``--runs 110 --topics 250``: qrels.txt, runs/).  For each track the
baseline (``--base``: the ``core`` folder of another checkout, e.g. a detached
``git worktree add /tmp/pool-base cf12bac``) and this checkout (or ``--code``: a snapshot's
``core``, so that the checkout can change while it runs) run in turn, ``--repeat``
times, each in a fresh process doing what ``yardstick pool --qrels qrels.txt runs/*``
does with its defaults: read the runs and qrels, judge them, infer the pool, rebuild it
and run every analysis of the registry.  Each process reports the CPU time of every
step (reading and judging apart from the analyses), its wall time and peak memory, and a
SHA-256 of every table of the report written as CSV (floats at full precision): the
tables of the two codes are compared table by table.  Without ``--base`` only this
code runs; without a track a 150 x 50 one is generated under /tmp (``make bench``).

``--dask local:1,local:2``: instead, one process per code runs pool's default analyses as
``bench_dask.py`` does (depth 100) in-process and on each cluster, in turn, ``--repeat``
times: wall seconds, tasks, megabytes sent to the workers, results compared.

Printed: per track and step the median CPU seconds of each code with the range over the
repeats and the ratio, the wall time and peak memory, whether every table is identical,
and a Markdown table for the README.  Wall times on a shared machine vary: CPU time is
the steadier figure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r'''
import glob, hashlib, json, os, resource, sys, time
t_wall = time.perf_counter()
track = sys.argv[1]
from yardstick.analysis.pool.pool_choice import choose_pool
from yardstick.analysis.pool.reconstruction import reconstruct_pool
from yardstick.analysis.pool.report import REGISTRY, PoolContext, PoolReport, PoolSettings
from yardstick.analysis.pool.characteristics import collection_characteristics
from yardstick.common.progress import run_sync
from yardstick.inputs.io import read_qrels, read_run
from yardstick.inputs.run_names import guess_groups, unique_names
from yardstick.judging.judged_runs_build import build_judged_runs

cpu = {}
def step(name, t):
    cpu[name] = round(time.process_time() - t, 3)
    return time.process_time()

t = time.process_time()
qrels = read_qrels(os.path.join(track, "qrels.txt"))
runs, _ = unique_names([read_run(p, ranks=False)
                        for p in sorted(glob.glob(os.path.join(track, "runs", "*")))])
guess = guess_groups([r.tag or r.name for r in runs])
group_of = {r.name: r.group or g or r.name for r, g in zip(runs, guess)}
t = step("read", t)
index = build_judged_runs(runs, qrels, groups=group_of, last_join=True)
t = step("judge", t)
choice = choose_pool(index, None, None, group_of=group_of)
t = step("infer pool", t)
s = PoolSettings(depth=choice.depth, default_depth=choice.default_depth)
index = choice.index
if hasattr(index, "with_scores_only"):   # what yardstick pool does: the runs' docnos go
    from dataclasses import replace
    from yardstick.common.memory import release_freed_memory
    index, choice = index.with_scores_only(), replace(choice, index=None)
    del runs
    release_freed_memory()
depth = index.depth_array(s.depth, s.default_depth)
ctx = PoolContext(index, s, depth, reconstruct_pool(index, depth))
t = step("rebuild pool", t)
out = {"settings": s}
for name, analysis in REGISTRY.items():
    out.update(run_sync(analysis.compute(ctx)))
    t = step(name, t)
out["characteristics"] = collection_characteristics(
    s.collection, out.get("stats"), out.get("uniques_group"), out.get("titlestat_rel"))
out["assumptions"], out["inferred"] = choice.assumptions, choice.inferred
report = PoolReport(**out)
digests = {k: hashlib.sha256(v.to_csv().encode("utf-8", "surrogateescape")).hexdigest()
           for k, v in report.tables().items()}
print(json.dumps({"cpu": cpu, "wall": time.perf_counter() - t_wall,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "tables": digests, "entries": int(index.n_entries)}))
'''

READING = ("read", "judge")

CHILD_DASK = r'''
import glob, hashlib, json, os, resource, sys, time
track, specs, repeat = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
from yardstick.analysis.pool.report import PoolSettings, iter_pool_report
from yardstick.common.executor import IN_PROCESS, connect
from yardstick.common.progress import run_sync
from yardstick.inputs.io import read_qrels, read_run
from yardstick.inputs.io.groups_file import read_groups
from yardstick.inputs.run_names import unique_names
from yardstick.judging.judged_runs_build import build_judged_runs

qrels = read_qrels(os.path.join(track, "qrels.txt"))
runs, _ = unique_names([read_run(p) for p in sorted(glob.glob(os.path.join(track, "runs", "*")))])
gf = os.path.join(track, "groups.tsv")
groups = read_groups(gf) if os.path.exists(gf) else {}
index = build_judged_runs(runs, qrels, groups={r.name: groups.get(r.name) or r.group
                                               for r in runs})
settings = PoolSettings(depth=100, seed=0)          # what bench_dask.py runs
ex = {"in-process": IN_PROCESS}
for spec in specs:
    ex[spec] = connect(spec)
    run_sync(iter_pool_report(index, PoolSettings(depth=5, seed=0, analyses=("uniques",)),
                              executor=ex[spec]))                # warm-up: imports
    ex[spec].stats.tasks = ex[spec].stats.scattered_bytes = 0
wall, digests, same = {k: [] for k in ex}, {}, True
for _ in range(repeat):                  # in turn, so that every one sees the same load
    for k, e in ex.items():
        t = time.perf_counter()
        report = run_sync(iter_pool_report(index, settings, executor=e))
        wall[k].append(time.perf_counter() - t)
        d = {n: hashlib.sha256(f.to_csv().encode("utf-8", "surrogateescape")).hexdigest()
             for n, f in report.tables().items()}
        same &= digests.setdefault("ref", d) == d
out = {"wall": wall, "same": same,
       "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
       "sent_mb": {k: e.stats.scattered_bytes / 1e6 / repeat for k, e in ex.items()},
       "tasks": {k: e.stats.tasks // repeat for k, e in ex.items()}}
for e in ex.values():
    e.close()
print(json.dumps(out))
'''


def _run_child(core: Path | None, code: str, *args: str) -> dict:
    """Run ``code`` in one fresh process with ``core`` as ``yardstick`` (this checkout's
    installed package when None); its last output line, as JSON."""
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        if core is not None:
            os.symlink(core.resolve(), os.path.join(tmp, "yardstick"))
            env["PYTHONPATH"] = tmp
        else:
            env.pop("PYTHONPATH", None)
        done = subprocess.run([sys.executable, "-c", code, *args], env=env, check=True,
                              capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _child(core: Path | None, track: str) -> dict:
    """Pool's default analyses in one fresh process, with ``core``."""
    return _run_child(core, CHILD, track)


def _dask_child(core: Path | None, track: str, specs: str, repeat: int) -> dict:
    """Pool's default analyses (bench_dask.py's settings) timed in-process and on each Dask
    cluster of ``specs``, ``repeat`` times in turn, in one fresh process, with ``core``."""
    return _run_child(core, CHILD_DASK, track, specs, str(repeat))


def dask_main(a) -> int:
    """``--dask``: in-process against Dask clusters, before and after, wall seconds."""
    same = True
    for track in a.tracks:
        print(f"\n{os.path.basename(os.path.normpath(track))}: load {os.getloadavg()[0]:.1f}")
        got = {}
        for code, core in (("before", a.base), ("after", a.code)):
            if code == "before" and a.base is None:
                continue
            got[code] = r = _dask_child(core, track, a.dask, a.repeat)
            same &= r["same"]
            print(f"  {code}: peak {r['peak_mb']:.0f} MB, results identical: {r['same']}")
            for k, xs in r["wall"].items():
                print(f"    {k:<12}{_spread(xs):>24} s  {r['tasks'][k]:>4} tasks, "
                      f"{r['sent_mb'][k]:.0f} MB sent")
            med = {k: statistics.median(xs) for k, xs in r["wall"].items()}
            one = med.get("local:1")
            if one:
                print(f"    local:1 / in-process {one / med['in-process']:.2f} (<= 1.15 wanted)"
                      + (f", local:1 / local:2 {one / med['local:2']:.2f} (>= 1.6 wanted)"
                         if "local:2" in med else ""))
        print(f"  load now {os.getloadavg()[0]:.1f}")
    return 0 if same else 1


def _generated_track() -> str:
    """A 150-run x 50-topic track from ``../shared/tools/gen_track.py``, made once."""
    out = Path(tempfile.gettempdir()) / "yardstick_bench_pool_t150"
    if not (out / "qrels.txt").exists():
        gen = ROOT.parent / "shared" / "tools" / "gen_track.py"
        subprocess.run([sys.executable, str(gen), "--runs", "150", "--topics", "50",
                        "--out", str(out)], check=True, capture_output=True)
    return str(out)


def _spread(xs: list[float]) -> str:
    return f"{statistics.median(xs):6.2f} ({min(xs):.2f}-{max(xs):.2f})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tracks", nargs="*", help="generated track directories")
    ap.add_argument("--base", type=Path, help="the baseline's core/ folder")
    ap.add_argument("--code", type=Path, help="this code's core/ folder (default: installed)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dask", help="e.g. local:1,local:2: time in-process and on these "
                    "clusters instead (wall seconds, one process per code)")
    a = ap.parse_args(argv)
    if not a.tracks:
        a.tracks = [_generated_track()]
    if a.dask:
        return dask_main(a)
    readme = ["| track | step | before, CPU s | after, CPU s | ratio |", "|---|---|---|---|---|"]
    same_everywhere = True
    for track in a.tracks:
        got: dict[str, list[dict]] = {"before": [], "after": []}
        load = os.getloadavg()[0]
        for _ in range(a.repeat):       # alternating, so both see the same load
            if a.base is not None:
                got["before"].append(_child(a.base, track))
            got["after"].append(_child(a.code, track))
        if a.base is None:
            got["before"] = got["after"]      # (no baseline: "before" is this code too)
        name = os.path.basename(os.path.normpath(track))
        b, n = got["before"], got["after"]
        print(f"\n{name}: {n[0]['entries']:,} ranked documents, {a.repeat} repeats, "
              f"load {load:.1f} -> {os.getloadavg()[0]:.1f}")
        print(f"  {'step':<14}{'before CPU s':>22}{'after CPU s':>22}{'ratio':>8}")
        rows = list(b[0]["cpu"]) + ["analyses", "wall", "peak MB"]
        for step in rows:
            if step == "analyses":
                xb = [sum(v for k, v in r["cpu"].items() if k not in READING) for r in b]
                xn = [sum(v for k, v in r["cpu"].items() if k not in READING) for r in n]
            elif step == "wall":
                xb, xn = [r["wall"] for r in b], [r["wall"] for r in n]
            elif step == "peak MB":
                xb, xn = [r["peak_mb"] for r in b], [r["peak_mb"] for r in n]
            else:
                xb = [r["cpu"][step] for r in b]
                xn = [r["cpu"][step] for r in n]
            ratio = statistics.median(xb) / max(statistics.median(xn), 1e-9)
            print(f"  {step:<14}{_spread(xb):>22}{_spread(xn):>22}{ratio:>7.1f}x")
            if step not in ("wall",):
                readme.append(f"| {name} | {step} | {_spread(xb)} | {_spread(xn)} | "
                              f"{ratio:.1f}x |")
        tables = [r["tables"] for r in b + n]
        differ = sorted({k for t in tables for k in t if t.get(k) != tables[0].get(k)}
                        | (set(tables[0]) ^ {k for t in tables for k in t}))
        same_everywhere &= not differ
        verdict = ("every one identical (before = after, every repeat)" if not differ
                   else "DIFFERENT: " + ", ".join(differ))
        print(f"  tables: {len(tables[0])}, {verdict}")
    print("\nFor the README:\n" + "\n".join(readme))
    return 0 if same_everywhere else 1


if __name__ == "__main__":
    raise SystemExit(main())
