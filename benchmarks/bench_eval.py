"""Benchmark ``yardstick eval -q -m all_trec`` side by side with trec_eval and its peers.

    .venv/bin/python benchmarks/bench_eval.py                    # 7M lines, every order, 5 rounds
    .venv/bin/python benchmarks/bench_eval.py --repeat 3 --orders sorted
    .venv/bin/python benchmarks/bench_eval.py --tools yardstick,trec_eval,pyarrow-read
    .venv/bin/python benchmarks/bench_eval.py --track             # + the Robust04-sized track
    .venv/bin/python benchmarks/bench_eval.py --track ../tracks/robust   # a track made already
    .venv/bin/python benchmarks/bench_eval.py --sizes small       # the 250 x 1000 run

Data: ``../shared/tools/gen_run.py`` makes a 7000 x 1000 run (``--style
msmarco``, 7M lines, 278 MB) with graded qrels (1.5M judgments), and a 250 x
1000 one; the run is also written shuffled within each topic and shuffled
across topics (the same lines, so the output must be identical).  The track is
``../shared/tools/gen_track.py --runs 110 --topics 250`` (27.5M lines), or any
folder holding ``qrels.txt`` and ``runs/`` given to ``--track``.
Everything is cached in ``benchmarks/_data/`` (git-ignored).

Each tool runs in its own process doing what a user does, one after another,
and the tools take turns in every round, so that a busy machine slows them
alike.  Per tool: the whole process's wall time (interpreter start, imports,
reading, evaluating, writing), its CPU time (user + system, all threads: on a
machine shared with other work this moves far less than the wall time) and
its peak resident memory (``ru_maxrss`` from ``os.wait4``); median and range
over the rounds.  ``benchmarks/bench_read_floor.py`` measures what merely
reading the file costs here (the floor under any reader).

* ``yardstick``: ``yardstick eval -q -m all_trec QRELS RUN > /dev/null``.
* ``trec_eval``: the C binary built with ``-O2`` (``$TREC_EVAL``, else
  ``/work/tools/trec_eval``, ``/tmp/te/trec_eval`` or ``trec_eval`` on the PATH).
* ``pyarrow-read``: a process that only imports pyarrow and reads the run with
  pyarrow's CSV reader (the floor for any Python reader of the file).
* ``pytrec_eval``: ``parse_qrel``/``parse_run`` + ``RelevanceEvaluator(...,
  supported_measures).evaluate`` (trec_eval 9's C code behind Python dicts).
* ``ranx``, ``ir_measures``: their readers and per-topic evaluation over the
  measures they share with trec_eval (``--tools`` to include them; slow).

Issue #19's targets are checked at the end and printed with the Markdown table
for the README.  Timings are wall clock on a shared machine: the spread says
how much to trust them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GEN_RUN = REPO.parent / "shared" / "tools" / "gen_run.py"
GEN_TRACK = REPO.parent / "shared" / "tools" / "gen_track.py"
DATA = HERE / "_data"
SIZES = {"small": (250, "robust"), "large": (7000, "msmarco")}
ORDERS = ["sorted", "within", "shuffled"]
TOOLS = ["yardstick", "trec_eval", "pyarrow-read", "pytrec_eval", "ranx", "ir_measures"]
DEFAULT_TOOLS = ["yardstick", "trec_eval", "pyarrow-read", "pytrec_eval"]

TARGET_SPEEDUP = 4.0        # x trec_eval -O2 (or pytrec_eval where trec_eval is absent)
TARGET_VS_PYARROW = 2.0     # at most this many times a pyarrow-only read of the file
TARGET_PEAK_MB = 500
TARGET_SHUFFLED = 1.5       # shuffled run time / sorted run time
TARGET_TRACK_PEAK_MB = 1536

_CUTS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
RANX_METRICS = (["hits", "map", "mrr", "r-precision", "bpref", "ndcg", "f1"]
                + [f"precision@{k}" for k in _CUTS] + [f"recall@{k}" for k in _CUTS]
                + [f"ndcg@{k}" for k in _CUTS] + [f"map@{k}" for k in _CUTS]
                + [f"hit_rate@{k}" for k in (1, 5, 10)])
IRM_MEASURES = (["AP", "RPrec", "Bpref", "RR", "nDCG", "infAP", "NumRet", "NumRel", "NumRelRet",
                 "SetP", "SetR", "SetF"]
                + [f"P@{k}" for k in _CUTS] + [f"R@{k}" for k in _CUTS]
                + [f"nDCG@{k}" for k in _CUTS] + [f"AP@{k}" for k in _CUTS]
                + [f"IPrec@{r / 10:.1f}" for r in range(11)]
                + [f"Success@{k}" for k in (1, 5, 10)])

PYARROW_READ = """
import sys
import pyarrow as pa, pyarrow.csv as pacsv
t = pacsv.read_csv(sys.argv[1], read_options=pacsv.ReadOptions(
    column_names=["topic", "q0", "docno", "rank", "score", "tag"]),
    parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False))
print(t.num_rows)
"""


# --------------------------------------------------------------------------- data

def trec_eval_binary() -> Path | None:
    for p in [os.environ.get("TREC_EVAL"), "/work/tools/trec_eval", "/tmp/te/trec_eval",
              shutil.which("trec_eval")]:
        if p and Path(p).is_file() and os.access(p, os.X_OK):
            return Path(p)
    return None


def ensure_data(size: str) -> tuple[Path, dict[str, Path]]:
    """Generate (once) and return the qrels and the run in each line order."""
    topics, style = SIZES[size]
    prefix = DATA / f"{style}_{topics}x1000"
    run, qrels = prefix.with_suffix(".run"), prefix.with_suffix(".qrels")
    if not (run.exists() and qrels.exists()):
        if not GEN_RUN.exists():
            sys.exit(f"generator not found: {GEN_RUN}")
        DATA.mkdir(parents=True, exist_ok=True)
        print(f"generating {prefix.name} ...", flush=True)
        subprocess.run([sys.executable, str(GEN_RUN), "--topics", str(topics), "--depth", "1000",
                        "--style", style, "--seed", "42", "--out", str(prefix)], check=True)
    runs = {"sorted": run}
    for order in ("within", "shuffled"):
        path = prefix.with_suffix(f".{order}.run")
        if not path.exists():
            print(f"writing {path.name} ...", flush=True)
            # in a child process: the 278 MB of lines held here would otherwise stay in
            # this process's resident high-water mark, which every tool started later
            # inherits in its ru_maxrss (fork copies it, exec keeps the maximum)
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--shuffle", str(run),
                            str(path), order], check=True)
        runs[order] = path
    return qrels, runs


def _shuffle(src: Path, dst: Path, within_topics: bool) -> None:
    """The same lines in another order: shuffled inside each topic's block, or entirely."""
    import numpy as np

    lines = src.read_bytes().splitlines(keepends=True)
    rng = np.random.default_rng(19)
    if within_topics:
        topic = [ln.split(None, 1)[0] for ln in lines]
        cuts = [0] + [i for i in range(1, len(lines)) if topic[i] != topic[i - 1]] + [len(lines)]
        perm = np.concatenate([a + rng.permutation(b - a) for a, b in zip(cuts, cuts[1:])])
    else:
        perm = rng.permutation(len(lines))
    with open(dst, "wb") as f:
        f.writelines(lines[i] for i in perm.tolist())


def ensure_track(given: str = "") -> Path:
    if given:
        track = Path(given)
        if not ((track / "qrels.txt").is_file() and (track / "runs").is_dir()):
            sys.exit(f"{track}: not a track (qrels.txt and runs/ expected)")
        return track
    out = DATA / "track_robust04"
    if not (out / "qrels.txt").exists():
        print("generating the Robust04-sized track (110 runs x 250 topics) ...", flush=True)
        subprocess.run([sys.executable, str(GEN_TRACK), "--runs", "110", "--topics", "250",
                        "--out", str(out)], check=True)
    return out


# --------------------------------------------------------------------------- tools

def _worker(tool: str, qrels: str, run: str) -> dict:
    """Runs inside the child process for the Python peers; returns a result size."""
    if tool == "pytrec_eval":
        import pytrec_eval
        with open(qrels) as f:
            q = pytrec_eval.parse_qrel(f)
        with open(run) as f:
            r = pytrec_eval.parse_run(f)
        res = pytrec_eval.RelevanceEvaluator(q, pytrec_eval.supported_measures).evaluate(r)
        n = sum(len(v) for v in res.values())
    elif tool == "ranx":
        from ranx import Qrels, Run, evaluate
        res = evaluate(Qrels.from_file(qrels, kind="trec"), Run.from_file(run, kind="trec"),
                       RANX_METRICS, return_mean=False)
        n = sum(len(v) for v in res.values())
    elif tool == "ir_measures":
        import ir_measures
        measures = [ir_measures.parse_measure(m) for m in IRM_MEASURES]
        n = len(list(ir_measures.iter_calc(measures, ir_measures.read_trec_qrels(qrels),
                                           ir_measures.read_trec_run(run))))
    else:
        raise ValueError(tool)
    return {"values": n}


def command(tool: str, qrels: Path, runs: list[Path]) -> list[str] | None:
    if tool == "yardstick":
        exe = Path(sys.executable).with_name("yardstick")
        head = [str(exe)] if exe.exists() else [sys.executable, "-m", "yardstick.cli"]
        return head + ["eval", "-q", "-m", "all_trec", str(qrels), *map(str, runs)]
    if tool == "trec_eval":
        te = trec_eval_binary()
        return [str(te), "-q", "-m", "all_trec", str(qrels), str(runs[0])] if te else None
    if tool == "pyarrow-read":
        return [sys.executable, "-c", PYARROW_READ, str(runs[0])]
    return [sys.executable, str(Path(__file__).resolve()), "--worker", tool, str(qrels),
            str(runs[0])]


def measure(cmd: list[str]) -> dict:
    """Run one process: wall time and peak resident memory (stdout discarded)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, cwd=str(REPO))
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        code = os.waitstatus_to_exitcode(status)
        err.seek(0)
        tail = err.read().decode(errors="replace").strip().splitlines()[-1:]
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_mb": usage.ru_maxrss / 1024, "status": code,
            "error": tail[0] if code and tail else ""}


# --------------------------------------------------------------------------- report

def summary(samples: list[dict]) -> dict:
    ok = [s for s in samples if s["status"] == 0]
    if not ok:
        return {"failed": samples[0]["error"] or f"exit {samples[0]['status']}"}
    walls = [s["wall_s"] for s in ok]
    peaks = [s["peak_mb"] for s in ok]
    cpus = [s["cpu_s"] for s in ok]
    return {"median": statistics.median(walls), "min": min(walls), "max": max(walls),
            "cpu": statistics.median(cpus), "cpu_min": min(cpus), "cpu_max": max(cpus),
            "peak": statistics.median(peaks), "peak_max": max(peaks), "n": len(ok)}


def fmt_time(s: dict) -> str:
    return f"{s['median']:.2f} s ({s['min']:.2f}–{s['max']:.2f})"


def fmt_cpu(s: dict) -> str:
    return f"{s['cpu']:.2f} s ({s['cpu_min']:.2f}–{s['cpu_max']:.2f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="large", help="comma list of: small, large")
    ap.add_argument("--orders", default=",".join(ORDERS),
                    help="comma list of: " + ", ".join(ORDERS))
    ap.add_argument("--tools", default=",".join(DEFAULT_TOOLS), help="comma list of: "
                    + ", ".join(TOOLS))
    ap.add_argument("--repeat", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("--track", nargs="?", const="", default=None, metavar="DIR",
                    help="also the Robust04-sized track (generated once, or DIR: a folder "
                         "with qrels.txt and runs/)")
    ap.add_argument("--worker", nargs=3, metavar=("TOOL", "QRELS", "RUN"), help=argparse.SUPPRESS)
    ap.add_argument("--shuffle", nargs=3, metavar=("SRC", "DST", "ORDER"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.shuffle:
        _shuffle(Path(a.shuffle[0]), Path(a.shuffle[1]), within_topics=a.shuffle[2] == "within")
        return 0
    if a.worker:
        print(json.dumps(_worker(*a.worker)))
        return 0
    tools = [t for t in a.tools.split(",") if t]
    orders = [o for o in a.orders.split(",") if o]
    if set(tools) - set(TOOLS) or set(orders) - set(ORDERS):
        ap.error("unknown tool or order")
    ok = True
    for size in [s for s in a.sizes.split(",") if s]:
        qrels, runs = ensure_data(size)
        # (tool, order) cases; the peers only on the sorted run
        cases = [("yardstick", o) for o in orders] + \
            [(t, "sorted") for t in tools if t != "yardstick"]
        cases = [c for c in cases if command(c[0], qrels, [runs[c[1]]]) is not None
                 and (c[0] in tools)]
        samples: dict[tuple[str, str], list[dict]] = {c: [] for c in cases}
        for r in range(a.repeat):
            for c in cases:
                print(f"[{size} round {r + 1}/{a.repeat}] {c[0]} ({c[1]}) ...", flush=True)
                samples[c].append(measure(command(c[0], qrels, [runs[c[1]]])))
        stats = {c: summary(s) for c, s in samples.items()}
        ok &= report(size, stats, a.repeat)
    if a.track is not None:
        ok &= bench_track(a.repeat, a.track)
    te = trec_eval_binary()
    print(f"\npython {sys.version.split()[0]}, {os.cpu_count()} cpus, load average "
          f"{os.getloadavg()[0]:.2f}; trec_eval binary: {te or 'not found'}")
    return 0 if ok else 1


def report(size: str, stats: dict, rounds: int) -> bool:
    topics = SIZES[size][0]
    ys = stats.get(("yardstick", "sorted"), {})
    print(f"\n### {topics} topics x 1000 documents ({topics * 1000:,} run lines), "
          f"`-q -m all_trec`, {rounds} rounds\n")
    print("| tool | run order | wall time, median (range) | CPU time (user + sys), median "
          "(range) | peak memory | wall time vs yardstick |")
    print("|---|---|---:|---:|---:|---:|")
    for (tool, order), s in stats.items():
        if "failed" in s:
            print(f"| {tool} | {order} | failed: {s['failed']} | | | |")
            continue
        ratio = f"{s['median'] / ys['median']:.2f}" if "median" in ys else "-"
        print(f"| {tool} | {order} | {fmt_time(s)} | {fmt_cpu(s)} | {s['peak']:.0f} MB "
              f"| {ratio} |")
    if size != "large" or "median" not in ys:
        return True
    ok = True
    print()
    ref = stats.get(("trec_eval", "sorted")) or stats.get(("pytrec_eval", "sorted"))
    if ref and "median" in ref:
        name = "trec_eval -O2" if ("trec_eval", "sorted") in stats else "pytrec_eval"
        speed = ref["median"] / ys["median"]
        best = ref["min"] / ys["min"]
        ok &= _target(f"speed: {name} / yardstick = {speed:.2f}x median, {best:.2f}x best "
                      f"(CPU time: {ref['cpu'] / ys['cpu']:.2f}x)",
                      speed >= TARGET_SPEEDUP, f">= {TARGET_SPEEDUP}x")
    pa_ = stats.get(("pyarrow-read", "sorted"))
    if pa_ and "median" in pa_:
        ratio = ys["median"] / pa_["median"]
        ok &= _target(f"vs a pyarrow-only read: {ratio:.2f}x", ratio <= TARGET_VS_PYARROW,
                      f"<= {TARGET_VS_PYARROW}x")
    ok &= _target(f"peak memory {ys['peak_max']:.0f} MB (largest of {ys['n']})",
                  ys["peak_max"] <= TARGET_PEAK_MB, f"<= {TARGET_PEAK_MB} MB")
    for order in ("within", "shuffled"):
        s = stats.get(("yardstick", order))
        if s and "median" in s:
            r = s["median"] / ys["median"]
            ok &= _target(f"{order}-shuffled run / sorted run = {r:.2f}x", r <= TARGET_SHUFFLED,
                          f"<= {TARGET_SHUFFLED}x")
    return ok


def _target(text: str, good: bool, need: str) -> bool:
    print(f"target {text} (need {need}): {'PASS' if good else 'FAIL'}")
    return good


def bench_track(rounds: int, given: str = "") -> bool:
    """Every run of a Robust04-sized track in one ``yardstick eval`` (and trec_eval, one
    process per run as it takes one run at a time)."""
    track = ensure_track(given)
    qrels = track / "qrels.txt"
    runs = sorted((track / "runs").iterdir())
    lines = sum(1 for _ in open(runs[0], "rb")) * len(runs)
    ys = summary([measure(command("yardstick", qrels, runs)) for _ in range(max(1, rounds // 2))])
    te_bin = trec_eval_binary()
    te = None
    if te_bin:
        t0 = time.perf_counter()
        peak = cpu = 0.0
        for r in runs:
            m = measure([str(te_bin), "-q", "-m", "all_trec", str(qrels), str(r)])
            peak = max(peak, m["peak_mb"])
            cpu += m["cpu_s"]
        te = (time.perf_counter() - t0, peak, cpu)
    print(f"\n### Track {track}: {len(runs)} runs (~{lines / 1e6:.1f}M lines)\n")
    print("| tool | wall time | CPU time | peak memory |")
    print("|---|---:|---:|---:|")
    if "failed" in ys:
        print(f"| yardstick (one process, all runs) | failed: {ys['failed']} | | |")
        return False
    print(f"| yardstick (one process, all runs) | {fmt_time(ys)} | {fmt_cpu(ys)} "
          f"| {ys['peak_max']:.0f} MB |")
    if te:
        print(f"| trec_eval -O2 (one process per run) | {te[0]:.2f} s | {te[2]:.2f} s "
              f"| {te[1]:.0f} MB |")
    print()
    return _target(f"track peak memory {ys['peak_max']:.0f} MB",
                   ys["peak_max"] <= TARGET_TRACK_PEAK_MB, f"<= {TARGET_TRACK_PEAK_MB} MB")


if __name__ == "__main__":
    sys.exit(main())
