"""In-process vs Dask, side by side in one run (issue 30).

    .venv/bin/python benchmarks/bench_dask.py --track DIR [--archive DIR ...]
        [--samples 1000] [--repeat 2] [--skip-pool | --skip-stability] [--base OLD/core]

1. On one track (``--track``, e.g. a Robust04-sized one from
   ``gen_track.py --runs 110 --topics 250``): every stability analysis (map, P_10,
   B = ``--samples``) and pool's default analyses, in-process, on a LocalCluster of 1
   worker process and of 2 (and stability in-process on a thread per core, as
   ``yardstick stability`` runs it), each ``--repeat`` times in turn; the cluster's start is
   timed apart.  Every report is checked equal to the in-process one.
2. The archive study over the ``--archive`` track directories, in-process and on
   ``local:2``: time, tasks, bytes sent to the workers; each track's task time.
3. The scheduler's per-task overhead, measured with 500 empty tasks on ``local:2``,
   and a projection to 16 and 64 workers: the makespan of the measured task times
   (longest first onto the least loaded worker) plus the overhead, for the archive
   as it is (a task per track) and split into a task per (track, analysis).

Wall times on a shared machine vary: each line gives the median and the range of the
repeats, and the load average before and after.  ``--base OLD/core`` runs all of it with
another checkout's code and with this one, taking turns in fresh processes.
"""

from __future__ import annotations

import argparse
import glob
import heapq
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _stability_inputs(track: str):
    from yardstick.analysis.stability.report import score_matrices
    from yardstick.common.options import EvalOptions
    from yardstick.common.progress import run_sync
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.inputs.io.groups_file import read_groups
    from yardstick.inputs.run_names import unique_names
    from yardstick.judging.judged_runs_build import build_judged_runs
    from yardstick.session.evaluating import evaluate_runs

    qrels = read_qrels(os.path.join(track, "qrels.txt"))
    runs, _ = unique_names([read_run(p) for p in sorted(glob.glob(os.path.join(track,
                                                                              "runs", "*")))])
    evals = run_sync(evaluate_runs(runs, qrels, ["map", "P.10"],
                                   EvalOptions(complete=True)))
    matrices, tie_break = score_matrices(evals, ["map", "P_10"])
    groups_file = os.path.join(track, "groups.tsv")
    groups = read_groups(groups_file) if os.path.exists(groups_file) else {}
    group_of = {r.name: groups.get(r.name) or r.group for r in runs}
    index = build_judged_runs(runs, qrels, groups=group_of)
    return matrices, tie_break, index


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def _same_stability(a, b) -> bool:
    return [t.name for t in a.tables] == [t.name for t in b.tables] and all(
        x.frame.equals(y.frame) for x, y in zip(a.tables, b.tables)) and a.notes == b.notes


def _same_pool(a, b) -> bool:
    ta, tb = a.tables(), b.tables()
    return list(ta) == list(tb) and all(ta[k].equals(tb[k]) for k in ta)


def _spread(xs: list[float]) -> str:
    return f"{statistics.median(xs):7.1f} s ({min(xs):.1f}-{max(xs):.1f})"


def bench_track(track: str, samples: int, repeat: int, pool: bool, stability: bool = True
                ) -> None:
    from yardstick.analysis.pool.report import PoolSettings, iter_pool_report
    from yardstick.analysis.stability.report import ANALYSES, StabilitySettings, run_stability
    from yardstick.common.executor import IN_PROCESS, InProcess, connect
    from yardstick.common.progress import run_sync

    matrices, tie_break, index = _stability_inputs(track)
    topics = list(tie_break.index)
    st = StabilitySettings(samples=samples, seed=1)
    ps = PoolSettings(depth=100, seed=0)
    configs = {"in-process": None, "threads": None, "local:1": "local:1", "local:2": "local:2"}
    # "threads": in-process on a thread per core, what `yardstick stability` and the window
    # use for stability (pool's column stays empty: it is not run there)
    executors = {"in-process": IN_PROCESS, "threads": InProcess(threads=None)}
    for name, spec in configs.items():
        if spec:
            t, executors[name] = _timed(lambda spec=spec: connect(spec))
            print(f"# {name}: cluster started in {t:.1f} s")
    # warm-up: every worker imports yardstick and loads the compiled kernels once
    small = {m: mat.iloc[:, :5] for m, mat in matrices.items()}
    for ex in executors.values():
        if not stability:
            run_sync(iter_pool_report(index, PoolSettings(depth=5, seed=0), executor=ex))
            continue
        run_sync(run_stability(small, list(ANALYSES), {"all": topics},
                               StabilitySettings(samples=10, seed=0), tie_break.iloc[:, :5], ex))
    times = {(n, w): [] for n in configs for w in ("stability", "pool")}
    ref = {}
    same = True
    print(f"# load before: {_load()}")
    for _ in range(repeat):
        for name, ex in executors.items():
            if stability:
                t, rep = _timed(lambda ex=ex: run_sync(run_stability(
                    matrices, list(ANALYSES), {"all": topics}, st, tie_break, ex)))
                times[(name, "stability")].append(t)
                same &= _same_stability(ref.setdefault("s", rep), rep)
            if pool and name != "threads":
                t, rep = _timed(lambda ex=ex: run_sync(iter_pool_report(index, ps,
                                                                        executor=ex)))
                times[(name, "pool")].append(t)
                same &= _same_pool(ref.setdefault("p", rep), rep)
    print(f"# load after: {_load()}")
    print(f"\n{track}: {len(tie_break.columns)} runs x {len(topics)} topics, B = {samples}, "
          f"{repeat} repeat(s), results identical: {same}")
    print(f"{'':12} {'stability':>24} {'pool':>24}")
    for name in configs:
        print(f"{name:12} {_spread(times[(name, 'stability')]) if stability else '':>24} "
              f"{_spread(times[(name, 'pool')]) if times[(name, 'pool')] else '':>24}")
    for what in ("stability",) * stability + ("pool",) * pool:
        base = statistics.median(times[("in-process", what)])
        one = statistics.median(times[("local:1", what)])
        two = statistics.median(times[("local:2", what)])
        print(f"{what}: local:1 / in-process = {one / base:.2f} (target <= 1.15); "
              f"local:1 / local:2 = {one / two:.2f} (target >= 1.6)")
    executors["threads"].close()
    for name, ex in executors.items():
        if name not in ("in-process", "threads"):
            print(f"{name}: {ex.stats.tasks} tasks, {ex.stats.scattered_bytes / 1e6:.1f} MB "
                  f"scattered ({ex.stats.shared_bytes / 1e6:.1f} MB of it through shared "
                  f"memory), {ex.stats.argument_bytes / 1e3:.1f} kB of task arguments")
            ex.close()


def _per_task_overhead() -> float:
    from yardstick.common.executor import connect

    with connect("local:2") as ex:
        ex.map(abs, [(-1,)] * 20)                      # warm
        t, _ = _timed(lambda: ex.map(abs, [(-i,) for i in range(500)]))
    return t / 500


def _makespan(task_times: list[float], workers: int, overhead: float) -> float:
    loads = [0.0] * workers
    for t in sorted(task_times, reverse=True):
        heapq.heapreplace(loads, loads[0] + t + overhead)
    return max(loads)


def bench_archive(tracks: list[str], samples: int) -> None:
    from yardstick.common.executor import connect
    from yardstick.session.archive_study import ArchiveSettings, track_files, track_row

    st = ArchiveSettings(samples=samples, seed=1)
    print(f"\n# archive: {len(tracks)} tracks, B = {samples}; load before: {_load()}")
    task_times, rows = [], []
    for d in tracks:
        t, row = _timed(lambda d=d: track_row(track_files(d), st))
        task_times.append(t)
        rows.append(row)
    here = sum(task_times)
    with connect("local:2") as ex:
        from yardstick.session.archive_study import archive_table

        ex.map(track_row, [(track_files(tracks[0]),)] * 2,
               settings=ArchiveSettings(samples=10))          # warm-up: imports, kernels
        ex.stats.tasks = 0
        t_two, table = _timed(lambda: archive_table(tracks, st, ex))
        stats = ex.stats
    import pandas as pd

    # the same values, exactly (archive_table gives counts an integer dtype; the raw rows
    # hold them as they came: a dtype-strict equals said False for equal tables)
    try:
        pd.testing.assert_frame_equal(table, pd.DataFrame(rows), check_dtype=False,
                                      check_exact=True)
        same = True
    except AssertionError:
        same = False
    print(f"# load after: {_load()}")
    print(f"in-process {here:.1f} s; local:2 {t_two:.1f} s ({here / t_two:.2f}x); "
          f"{stats.tasks} tasks, {(stats.scattered_bytes + stats.argument_bytes) / 1e3:.1f} kB "
          f"sent; tables identical: {same}")
    print("task times (s): " + " ".join(f"{t:.1f}" for t in task_times))
    overhead = _per_task_overhead()
    print(f"scheduler overhead per task (500 empty tasks on local:2): {overhead * 1e3:.2f} ms")
    # a finer split: each track's row is about five analyses of similar weight
    fine = [t / 5 for t in task_times for _ in range(5)]
    print(f"\n{'workers':>8} {'per track':>12} {'overhead %':>11} {'per analysis':>13} "
          f"{'overhead %':>11}")
    for w in (1, 2, 16, 64):
        a = _makespan(task_times, w, overhead)
        b = _makespan(fine, w, overhead)
        print(f"{w:>8} {a:>10.1f} s {100 * overhead * len(task_times) / w / a:>10.2f} "
              f"{b:>11.1f} s {100 * overhead * len(fine) / w / b:>10.2f}")


def _taking_turns(args) -> None:
    """``--base``: the same benchmark in fresh processes, the base's code (its ``core/`` as
    ``yardstick`` on PYTHONPATH, which the cluster's workers inherit) and this code in
    turn."""
    import subprocess
    import tempfile

    link = os.path.join(tempfile.mkdtemp(prefix="bench-dask-base-"), "yardstick")
    os.symlink(os.path.abspath(args.base), link)
    base_env = {**os.environ, "PYTHONPATH": os.path.dirname(link)}
    cmd = [sys.executable, __file__, "--samples", str(args.samples), "--repeat", "1"]
    cmd += (["--track", args.track] if args.track else []) + (["--skip-pool"] if
                                                               args.skip_pool else [])
    cmd += ["--skip-stability"] if args.skip_stability else []
    cmd += ["--archive", *args.archive] if args.archive else []
    for turn in range(args.repeat):
        for label, env in (("before", base_env), ("after", dict(os.environ))):
            print(f"\n## {label} ({args.base if label == 'before' else 'this code'}), turn "
                  f"{turn + 1}", flush=True)
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            print(out.stdout, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--track", help="track directory for the stability/pool comparison")
    ap.add_argument("--archive", nargs="*", default=[], help="track directories")
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=2)
    skip = ap.add_mutually_exclusive_group()
    skip.add_argument("--skip-pool", action="store_true")
    skip.add_argument("--skip-stability", action="store_true")
    ap.add_argument("--base", help="another checkout's core/: run this benchmark with it and "
                    "with this code, taking turns, --repeat turns of one repeat each")
    args = ap.parse_args()
    if args.base:
        _taking_turns(args)
        return
    print(f"# {os.cpu_count()} cores; load {_load()}")
    if args.track:
        bench_track(args.track, args.samples, args.repeat, not args.skip_pool,
                    not args.skip_stability)
    if args.archive:
        bench_archive(args.archive, args.samples)


if __name__ == "__main__":
    main()
