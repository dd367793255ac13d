"""Benchmark ``yardstick eval -q -m all_trec`` against trec_eval, pytrec_eval, ranx, ir_measures.

    .venv/bin/python benchmarks/bench_eval.py                 # both sizes, every tool
    .venv/bin/python benchmarks/bench_eval.py --sizes small   # 250 x 1000 only
    .venv/bin/python benchmarks/bench_eval.py --tools yardstick-cli,trec_eval

Data (issue 2): ``../shared/tools/gen_run.py`` makes a 250 x 1000 run
(``--style robust``) and a 7000 x 1000 run (``--style msmarco``), each with
graded qrels (about 10 relevant per topic, about 3 % tied scores); they are
cached in ``benchmarks/_data/`` (git-ignored).

Each tool runs in its own subprocess, one after the other, doing what a user
does: read both files, compute every measure it has per topic.

* ``yardstick-cli``: ``yardstick eval -q -m all_trec QRELS RUN > /dev/null``.
* ``yardstick-api``: ``yardstick.io.read_qrels`` + ``read_run`` + ``yardstick.evaluation_service.evaluate(
  run, qrels, ["all_trec"])`` in a fresh interpreter.
* ``trec_eval``: the C binary ``/tmp/te/trec_eval -q -m all_trec`` (skipped if absent).
* ``pytrec_eval``: ``pytrec_eval.parse_qrel`` / ``parse_run`` (Python dicts), then
  ``RelevanceEvaluator(qrels, supported_measures).evaluate(run)`` (trec_eval 9's all_trec).
* ``ranx``: ``Qrels.from_file`` / ``Run.from_file`` + ``evaluate(..., return_mean=False)``
  with the trec_eval-like metrics ranx has (``RANX_METRICS``); the first call
  includes numba's JIT compilation, as it does for a user's first evaluation.
* ``ir_measures``: ``read_trec_qrels`` / ``read_trec_run`` + ``list(iter_calc(...))``
  (per topic, as ``-q``) over ``IRM_MEASURES``.

Reported per tool: process wall time (interpreter start, imports, parse, evaluate,
output), the inner time of parse + evaluate where the tool runs in Python, peak
resident memory of that process (``ru_maxrss`` from ``os.wait4``), and the ratio of
each to yardstick-cli.  The issue-2 targets are checked at the end for the large
run: yardstick at least 3x faster than the trec_eval binary, peak memory at most 1.3 GB.
Timings are wall clock on a shared machine: run it when the machine is quiet.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GEN_RUN = REPO.parent / "shared" / "tools" / "gen_run.py"
DATA = HERE / "_data"
TREC_EVAL = Path("/tmp/te/trec_eval")
SIZES = {"small": (250, "robust"), "large": (7000, "msmarco")}
TOOLS = ["yardstick-cli", "yardstick-api", "trec_eval", "pytrec_eval", "ranx", "ir_measures"]
TARGET_SPEEDUP = 3.0
TARGET_PEAK_GB = 1.3

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


# --------------------------------------------------------------------------- data

def ensure_data(size: str) -> tuple[Path, Path]:
    """Generate (once) and return (qrels, run) paths for a size."""
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
    return qrels, run


# --------------------------------------------------------------------------- workers

def _worker(tool: str, qrels: str, run: str) -> dict:
    """Runs inside the child process; returns inner timing and a result size."""
    t0 = time.perf_counter()
    if tool == "yardstick-api":
        sys.path.insert(0, str(REPO))
        from yardstick.evaluation_service import evaluate
        from yardstick.io import read_qrels, read_run
        ev = evaluate(read_run(run), read_qrels(qrels), ["all_trec"])
        n = int(ev.per_topic.size)
    elif tool == "pytrec_eval":
        import pytrec_eval
        with open(qrels) as f:
            q = pytrec_eval.parse_qrel(f)
        with open(run) as f:
            r = pytrec_eval.parse_run(f)
        res = pytrec_eval.RelevanceEvaluator(q, pytrec_eval.supported_measures).evaluate(r)
        n = sum(len(v) for v in res.values())
    elif tool == "ranx":
        from ranx import Qrels, Run, evaluate
        q = Qrels.from_file(qrels, kind="trec")
        r = Run.from_file(run, kind="trec")
        res = evaluate(q, r, RANX_METRICS, return_mean=False)
        n = sum(len(v) for v in res.values())
    elif tool == "ir_measures":
        import ir_measures
        measures = [ir_measures.parse_measure(m) for m in IRM_MEASURES]
        q = ir_measures.read_trec_qrels(qrels)
        r = ir_measures.read_trec_run(run)
        n = len(list(ir_measures.iter_calc(measures, q, r)))
    else:
        raise ValueError(tool)
    return {"inner_s": time.perf_counter() - t0, "values": n}


def _command(tool: str, qrels: Path, run: Path) -> list[str] | None:
    if tool == "trec_eval":
        return [str(TREC_EVAL), "-q", "-m", "all_trec", str(qrels), str(run)] \
            if TREC_EVAL.exists() else None
    if tool == "yardstick-cli":
        exe = Path(sys.executable).with_name("yardstick")
        if exe.exists():
            return [str(exe), "eval", "-q", "-m", "all_trec", str(qrels), str(run)]
        return [sys.executable, "-c", "import sys; from yardstick.cli import main; "
                "sys.exit(main(sys.argv[1:]))", "eval", "-q", "-m", "all_trec",
                str(qrels), str(run)]
    return [sys.executable, str(Path(__file__).resolve()), "--worker", tool, str(qrels), str(run)]


def measure(tool: str, qrels: Path, run: Path) -> dict | None:
    """Run one tool in a child process: wall time, peak RSS, inner time if any."""
    cmd = _command(tool, qrels, run)
    if cmd is None:
        return None
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=str(REPO))
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    result = {"tool": tool, "wall_s": wall, "peak_mb": usage.ru_maxrss / 1024,
              "status": proc.returncode}
    if proc.returncode != 0:
        result["error"] = stderr.decode(errors="replace").strip().splitlines()[-1:] or ["?"]
        return result
    if "--worker" in cmd:
        result.update(json.loads(stdout.decode().strip().splitlines()[-1]))
    else:
        result["values"] = stdout.count(b"\n")
    return result


# --------------------------------------------------------------------------- report

def report(size: str, rows: list[dict]) -> None:
    base = next((r for r in rows if r["tool"] == "yardstick-cli" and r["status"] == 0), None)
    print(f"\n== {size}: {SIZES[size][0]} topics x 1000 docs ==")
    print(f"{'tool':<15}{'wall s':>9}{'inner s':>9}{'peak MB':>9}{'values':>10}"
          f"{'wall/ys':>9}{'peak/ys':>9}")
    for r in rows:
        if r["status"] != 0:
            print(f"{r['tool']:<15} FAILED (exit {r['status']}): {r['error'][0]}")
            continue
        inner = f"{r['inner_s']:9.2f}" if "inner_s" in r else f"{'-':>9}"
        rw = f"{r['wall_s'] / base['wall_s']:9.2f}" if base else f"{'-':>9}"
        rp = f"{r['peak_mb'] / base['peak_mb']:9.2f}" if base else f"{'-':>9}"
        print(f"{r['tool']:<15}{r['wall_s']:9.2f}{inner}{r['peak_mb']:9.0f}{r['values']:>10}"
              f"{rw}{rp}")


def check_targets(rows: list[dict]) -> bool:
    ys = next((r for r in rows if r["tool"] == "yardstick-cli" and r["status"] == 0), None)
    te = next((r for r in rows if r["tool"] == "trec_eval" and r["status"] == 0), None)
    ok = True
    if ys is None:
        print("targets: yardstick-cli did not run")
        return False
    if te is not None:
        speedup = te["wall_s"] / ys["wall_s"]
        good = speedup >= TARGET_SPEEDUP
        ok &= good
        print(f"target speed: trec_eval {te['wall_s']:.2f} s / yardstick {ys['wall_s']:.2f} s = "
              f"{speedup:.2f}x (need >= {TARGET_SPEEDUP}x): {'PASS' if good else 'FAIL'}")
    else:
        print(f"target speed: {TREC_EVAL} not found, not checked")
    good = ys["peak_mb"] <= TARGET_PEAK_GB * 1024
    ok &= good
    print(f"target memory: yardstick peak {ys['peak_mb']:.0f} MB (need <= "
          f"{TARGET_PEAK_GB * 1024:.0f} MB): {'PASS' if good else 'FAIL'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="small,large", help="comma list of: small, large")
    ap.add_argument("--tools", default=",".join(TOOLS), help="comma list of: " + ", ".join(TOOLS))
    ap.add_argument("--worker", nargs=3, metavar=("TOOL", "QRELS", "RUN"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        print(json.dumps(_worker(*a.worker)))
        return 0
    tools = [t for t in a.tools.split(",") if t]
    unknown = set(tools) - set(TOOLS)
    if unknown:
        ap.error(f"unknown tools {sorted(unknown)}")
    ok = True
    for size in [s for s in a.sizes.split(",") if s]:
        qrels, run = ensure_data(size)
        rows = []
        for tool in tools:
            print(f"[{size}] {tool} ...", flush=True)
            r = measure(tool, qrels, run)
            if r is not None:
                rows.append(r)
        report(size, rows)
        if size == "large":
            ok &= check_targets(rows)
    print(f"\npython {sys.version.split()[0]}, {os.cpu_count()} cpus; "
          f"trec_eval binary: {'yes' if TREC_EVAL.exists() else 'no'}; "
          f"{shutil.which('yardstick') or Path(sys.executable).with_name('yardstick')}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
