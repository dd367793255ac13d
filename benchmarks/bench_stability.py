"""Time the whole Voorhees–Buckley swap analysis, vectorised vs a plain per-sample loop.

    .venv/bin/python benchmarks/bench_stability.py [--samples 1000] [--full]
    .venv/bin/python benchmarks/bench_stability.py --track DIR [--track DIR2] [--repeat 3]
        [--base OLD/core | --base-commit cf12bac]

(The second form runs every stability analysis of generated tracks — e.g.
``gen_track.py --runs 150 --topics 50`` and ``--runs 110 --topics 250`` — with this code
and with the code before #30's speed-up (a temporary git worktree of cf12bac, removed
after), taking turns in fresh processes, and diffs every table they write; it prints the
README's table.)

For a 100 topics × 78 runs score matrix (the TREC 2003 robust track's size)
and a 250 × 20 one (synthetic, seeded), runs :func:`yardstick.analysis.stability.swap_rates`
— B disjoint subset pairs for every size 1 .. N/2, swap counts per difference
bin, exponential fits — and the same counting written the obvious way: a Python
loop over samples and run pairs.  Both see the *same* topic subsets (same seed,
same draws), and their swap counts are checked to be identical.

The loop version takes minutes on the large case, so by default it is timed on
every 5th size and scaled to all sizes (its cost does not depend on the size:
the pair loop dominates); ``--full`` times it on every size.  Target: the
vectorised analysis under 10 s for 100 × 78 on a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from yardstick.analysis.stability.resampling import disjoint_subset_indices  # noqa: E402
from yardstick.analysis.stability.swap_rates import count_swaps, swap_rates  # noqa: E402
from yardstick.common.progress import run_sync  # noqa: E402


def synthetic_scores(n_topics: int, n_runs: int, seed: int = 0) -> pd.DataFrame:
    """AP-like scores: topic difficulty + run effect + noise, clipped to [0, 1]."""
    rng = np.random.default_rng(seed)
    topic = rng.beta(2, 5, (n_topics, 1))
    run = np.linspace(0, 0.25, n_runs)[None, :]
    vals = np.clip(topic + run + rng.normal(0, 0.15, (n_topics, n_runs)), 0, 1)
    return pd.DataFrame(vals, index=[str(t) for t in range(n_topics)],
                        columns=[f"run{r}" for r in range(n_runs)])


def loop_counts(values: np.ndarray, idx_a: np.ndarray, idx_b: np.ndarray, width: float
                ) -> dict[int, list[int]]:
    """The obvious way: per sample, score both subsets, then loop over every run pair."""
    r = values.shape[1]
    counts: dict[int, list[int]] = {}
    for a, b in zip(idx_a, idx_b):
        ma = values[a].mean(axis=0).tolist()
        mb = values[b].mean(axis=0).tolist()
        for i in range(r):
            for j in range(i + 1, r):
                da = ma[i] - ma[j]
                db = mb[i] - mb[j]
                k = int(abs(da) / width + 1e-9)
                c = counts.setdefault(k, [0, 0])
                c[0] += 1
                if da * db < -1e-12 * width * width:   # a swap beyond rounding noise
                    c[1] += 1
    return counts


def bench(n_topics: int, n_runs: int, samples: int, full: bool, seed: int = 1) -> None:
    scores = synthetic_scores(n_topics, n_runs)
    values = scores.to_numpy()
    sizes = list(range(1, n_topics // 2 + 1))

    t0 = time.perf_counter()
    result = run_sync(swap_rates(scores, samples=samples, seed=seed))
    t_vec = time.perf_counter() - t0

    # the loop sees the same subsets: replay the generator's draws size by size
    rng = np.random.default_rng(seed)
    timed = sizes if full else sizes[::5]
    t_loop = 0.0
    agree = True
    for n in sizes:
        idx_a, idx_b = disjoint_subset_indices(rng, n_topics, n, samples)
        if n not in timed:
            continue
        t0 = time.perf_counter()
        counts = loop_counts(values, idx_a, idx_b, 0.01)
        t_loop += time.perf_counter() - t0
        comps, swaps = count_swaps(values, idx_a, idx_b, 0.01)
        ref = np.zeros((max(len(comps), max(counts) + 1), 2), dtype=np.int64)
        for k, (c, s) in counts.items():
            ref[k] = c, s
        agree &= bool(np.array_equal(ref[:len(comps), 0], comps)
                      and np.array_equal(ref[:len(swaps), 1], swaps)
                      and ref[len(comps):].sum() == 0)
    loop_total = t_loop * len(sizes) / len(timed)
    pairs = n_runs * (n_runs - 1) // 2
    print(f"{n_topics} topics x {n_runs} runs, B = {samples}, sizes 1..{n_topics // 2} "
          f"({samples * pairs * len(sizes):,} pair comparisons)")
    print(f"  vectorised (whole analysis, fits included): {t_vec:8.2f} s"
          f"   min difference {result.min_difference:.2f}")
    how = "measured" if full else f"measured on {len(timed)} of {len(sizes)} sizes, scaled"
    print(f"  per-sample loop ({how}):{'' if full else ''} {loop_total:8.2f} s")
    print(f"  ratio loop / vectorised: {loop_total / t_vec:8.1f} x"
          f"   counts identical: {'yes' if agree else 'NO'}")


def _worker(matrices_file: str, out_dir: str, samples: int) -> None:
    """Every analysis, one after the other in this process (as ``yardstick stability`` runs
    them), with whichever ``yardstick`` is importable: a JSON line of CPU and wall seconds
    per analysis and the peak memory, and every table as CSV."""
    import json
    import pickle
    import resource

    from yardstick.analysis.stability.report import ANALYSES, StabilitySettings, run_stability
    from yardstick.presentation.export.stability_tables import detail_tables

    with open(matrices_file, "rb") as f:
        matrices, tie_break = pickle.load(f)
    st = StabilitySettings(samples=samples, seed=7)
    os.makedirs(out_dir, exist_ok=True)
    times = {}
    for analysis in ANALYSES:
        c, w = time.process_time(), time.perf_counter()
        rep = run_sync(run_stability(matrices, [analysis], {"all": list(tie_break.index)}, st,
                                     tie_break))
        times[analysis] = (time.process_time() - c, time.perf_counter() - w)
        for t in rep.tables:
            t.frame.to_csv(os.path.join(out_dir, f"{analysis}-{t.name}.csv"))
        for stem, frame, _ in detail_tables(rep):
            frame.to_csv(os.path.join(out_dir, f"{analysis}-detail-{stem}.csv"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"times": times, "peak_mb": peak}))


def _base_checkout(commit: str) -> tuple[str, str]:
    """A detached git worktree of ``commit`` in a temporary directory: (its core/, its root)."""
    import subprocess
    import tempfile

    root = os.path.join(tempfile.mkdtemp(prefix="bench-stability-base-"), "tree")
    repo = Path(__file__).resolve().parents[1]
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", root, commit],
                   check=True, capture_output=True)
    return os.path.join(root, "core"), root


def against(tracks: list[str], base: str, samples: int, repeat: int) -> None:
    """Every stability analysis with this checkout's code and ``base``'s (another checkout's
    ``core/``), taking turns in fresh processes on the same score matrices (read and
    evaluated once, timed apart); CPU and wall per analysis (median and range of
    ``repeat``), peak memory, and every table compared byte for byte."""
    import filecmp
    import glob
    import json
    import pickle
    import subprocess
    import tempfile

    from yardstick.analysis.stability.report import ANALYSES
    from yardstick.cli.stability_cmd import _score_matrices

    rows = []
    for track in tracks:
        tmp = tempfile.mkdtemp(prefix="bench-stability-")
        ns = argparse.Namespace(qrels=os.path.join(track, "qrels.txt"), level=1,
                                runs=sorted(glob.glob(os.path.join(track, "runs", "*"))))
        c, w = time.process_time(), time.perf_counter()
        matrices, tie_break, _, _ = _score_matrices(ns, ["map", "P_10"])
        load = (time.process_time() - c, time.perf_counter() - w)
        mfile = os.path.join(tmp, "matrices.pkl")
        with open(mfile, "wb") as f:
            pickle.dump((matrices, tie_break), f)
        os.makedirs(os.path.join(tmp, "base"))
        os.symlink(os.path.abspath(base), os.path.join(tmp, "base", "yardstick"))
        envs = {"old": {**os.environ, "PYTHONPATH": os.path.join(tmp, "base")},
                "new": dict(os.environ)}
        shape = f"{len(tie_break.columns)} × {len(tie_break)}"
        print(f"\n{track}: {shape} (runs × topics), map and P_10, B = {samples}; reading and "
              f"evaluating (not timed below) {load[0]:.1f} s CPU, {load[1]:.1f} s wall")
        got: dict[str, list] = {k: [] for k in envs}
        for _ in range(repeat):
            for k, env in envs.items():
                out = subprocess.run([sys.executable, __file__, "--worker", mfile,
                                      os.path.join(tmp, k), str(samples)], env=env,
                                     capture_output=True, text=True, check=True, cwd=tmp)
                got[k].append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} (after)")
        print(f"{'analysis':16} {'old CPU s':>18} {'new CPU s':>18} {'ratio':>6} "
              f"{'old wall':>9} {'new wall':>9}")
        for a in (*ANALYSES, "all"):
            cpu = {k: [sum(r["times"][x][0] for x in ANALYSES) if a == "all"
                       else r["times"][a][0] for r in v] for k, v in got.items()}
            wall = {k: [sum(r["times"][x][1] for x in ANALYSES) if a == "all"
                        else r["times"][a][1] for r in v] for k, v in got.items()}
            med = {k: float(np.median(v)) for k, v in cpu.items()}
            ratio = med["old"] / med["new"] if med["new"] else float("nan")
            span = {k: f"{med[k]:.2f} ({min(v):.2f}–{max(v):.2f})" for k, v in cpu.items()}
            print(f"{a:16} {span['old']:>18} {span['new']:>18} {ratio:6.1f} "
                  f"{np.median(wall['old']):9.2f} {np.median(wall['new']):9.2f}")
            rows.append((shape, a, span["old"], span["new"], ratio))
        peak = {k: max(r["peak_mb"] for r in v) for k, v in got.items()}
        print(f"peak memory of the analyses' process: old {peak['old']:.0f} MB, "
              f"new {peak['new']:.0f} MB")
        rows.append((shape, "peak MB", f"{peak['old']:.0f}", f"{peak['new']:.0f}", float("nan")))
        cmp = filecmp.dircmp(os.path.join(tmp, "old"), os.path.join(tmp, "new"))
        same = not (cmp.diff_files or cmp.left_only or cmp.right_only)
        print(f"tables: {len(cmp.common_files)} written by each, identical: {same}"
              + ("" if same else f" (differ: {cmp.diff_files + cmp.left_only + cmp.right_only})"))
    print("\n| track | analysis | before, CPU s | after, CPU s | ratio |\n|---|---|---|---|---|")
    for shape, a, old, new, ratio in rows:
        print(f"| {shape} | {a} | {old} | {new} | {'' if ratio != ratio else f'{ratio:.1f}×'} |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", "-B", type=int, default=1000)
    p.add_argument("--full", action="store_true", help="time the loop on every size")
    p.add_argument("--track", action="append", help="a track directory (repeatable): compare "
                   "with the code of --base or --base-commit instead")
    p.add_argument("--base", help="another checkout's core/ to run side by side with this one")
    p.add_argument("--base-commit", default="cf12bac", help="without --base: a temporary git "
                   "worktree of this commit (default cf12bac, before #30's speed-up)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        _worker(args.worker[0], args.worker[1], int(args.worker[2]))
        return 0
    if args.track:
        base, root = (args.base, None) if args.base else _base_checkout(args.base_commit)
        try:
            against(args.track, base, args.samples, args.repeat)
        finally:
            if root is not None:
                import subprocess
                subprocess.run(["git", "-C", str(Path(__file__).resolve().parents[1]),
                                "worktree", "remove", "--force", root], check=False)
        return 0
    for n_topics, n_runs in ((100, 78), (250, 20)):
        bench(n_topics, n_runs, args.samples, args.full)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
