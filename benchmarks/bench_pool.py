"""Pool-diagnostics benchmark: leave-out-uniques for every pooled run and group.

    .venv/bin/python benchmarks/bench_pool.py [--generated 80] [--cache DIR]

Two workloads (issue 6, "Speed"):

* the 17 real TREC 2003 Robust runs (``../shared/data/trectools_robust03``),
  pooled at depth 125 over 100 topics;
* 80 generated runs (``../shared/tools/gen_run.py``, 100 topics x 1000
  documents, seeds 1..80, tags ``gen01``..``gen80``, 4 runs per group) pooled at
  depth 100, judged by the union of their generated qrels.

For each, the time to encode the runs
(:func:`yardstick.judging.judged_runs_build.build_judged_runs`)
and to run the run- and group-level uniques tests is printed; reading files
(and the Qrels' lazily built byte column) is reported separately.  Target:
under 5 s for the 80 runs.
"""

from __future__ import annotations

import argparse
import glob
import resource
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from yardstick.analysis.pool.reconstruction import pool_statistics, reconstruct_pool  # noqa: E402
from yardstick.analysis.pool.uniques import leave_out_uniques  # noqa: E402
from yardstick.inputs.io import read_qrels, read_run  # noqa: E402
from yardstick.inputs.qrels import Qrels  # noqa: E402
from yardstick.judging.judged_runs_build import build_judged_runs  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
GEN = ROOT.parent / "shared" / "tools" / "gen_run.py"


def generated(cache: Path, n: int, topics: int = 100, depth: int = 1000) -> list[Path]:
    cache.mkdir(parents=True, exist_ok=True)
    prefixes = []
    for seed in range(1, n + 1):
        prefix = cache / f"gen{seed:02d}"
        if not (prefix.with_suffix(".run").exists() and prefix.with_suffix(".qrels").exists()):
            subprocess.run([sys.executable, str(GEN), "--topics", str(topics),
                            "--depth", str(depth), "--seed", str(seed),
                            "--tag", f"gen{seed:02d}", "--out", str(prefix)],
                           check=True, capture_output=True)
        prefixes.append(prefix)
    return prefixes


def bench(label: str, runs, qrels, depth: int) -> float:
    t0 = time.perf_counter()
    index = build_judged_runs(runs, qrels)
    t1 = time.perf_counter()
    pool = reconstruct_pool(index, depth)
    by_run = leave_out_uniques(index, depth, unit="run", pool=pool)
    by_group = leave_out_uniques(index, depth, unit="group", pool=pool)
    t2 = time.perf_counter()
    stats = pool_statistics(index, depth, pool=pool)
    t3 = time.perf_counter()
    print(f"{label}: {index.n_runs} runs, {index.n_groups} groups, {index.n_topics} topics, "
          f"{index.n_entries:,} ranked documents, pool {len(pool):,}")
    print(f"  encode {t1 - t0:.2f} s  uniques (run + group) {t2 - t1:.2f} s  "
          f"pool statistics {t3 - t2:.2f} s  total {t3 - t0:.2f} s  "
          f"peak memory so far {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    print(f"  LOU by run:   mean {by_run.summary['mean_percent']:.2f}%  "
          f"max {by_run.summary['max_percent']:.2f}%")
    print(f"  LOU by group: mean {by_group.summary['mean_percent']:.2f}%  "
          f"max {by_group.summary['max_percent']:.2f}%  "
          f"mean pool size {stats.summary['mean_pool_size']:.1f}")
    return t2 - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generated", type=int, default=80, help="number of generated runs")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/yardstick_bench_pool"),
                    help="where generated runs are kept between invocations")
    a = ap.parse_args(argv)

    rdir = DATA / "trectools_robust03"
    if rdir.exists():
        t = time.perf_counter()
        runs = [read_run(p) for p in sorted(glob.glob(str(rdir / "runs" / "*.gz")))]
        qrels = read_qrels(rdir / "qrels" / "robust03_qrels.txt")
        qrels.docno_bytes  # noqa: B018 - the Qrels' own lazily built column, part of loading
        print(f"robust03: read in {time.perf_counter() - t:.2f} s")
        bench("robust03 depth 125", runs, qrels, 125)
    else:
        print("robust03 data not found; skipped")

    if a.generated:
        t = time.perf_counter()
        prefixes = generated(a.cache, a.generated)
        t_gen = time.perf_counter() - t
        t = time.perf_counter()
        runs = [read_run(p.with_suffix(".run"), group=f"team{(i // 4) + 1:02d}")
                for i, p in enumerate(prefixes)]
        frames = [read_qrels(p.with_suffix(".qrels")).frame for p in prefixes]
        merged = pd.concat(frames).groupby(["topic", "docno"], as_index=False)["rel"].max()
        qrels = Qrels.from_frame(merged, name="generated")
        qrels.docno_bytes  # noqa: B018 - the Qrels' own lazily built column, part of loading
        print(f"generated: made/found in {t_gen:.2f} s, read in {time.perf_counter() - t:.2f} s")
        total = bench(f"{a.generated} generated runs depth 100", runs, qrels, 100)
        print(f"  target < 5 s: {'met' if total < 5 else 'MISSED'} ({total:.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
