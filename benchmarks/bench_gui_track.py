"""The window on a real-sized track: first paint, load + evaluate, every panel, memory, event loop.

Each measurement is a fresh process under offscreen Qt (``--child``)::

    python benchmarks/bench_gui_track.py --track /tmp/wide --track /tmp/robust --repeat 3
    python benchmarks/bench_gui_track.py --size wide --size robust     # generate them first

A track is made by ``gen_track.py`` (``--gen-track``, default ``../shared/tools/gen_track.py``)
into ``benchmarks/_data/`` (git-ignored) when no ``--track`` is given.  The package is
byte-compiled first (``compileall``), as an installed copy is, so first paint does not
count compiling our own modules.  Figures (each in seconds unless named otherwise):

* ``first_paint``: process start to the main window's first paint event, no files;
* ``first_rows``: "open qrels + all runs" to the Measures table's first rows;
* ``loaded``: "open qrels + all runs" to every run evaluated with the default measures
  and the Measures table filled with all of them (``load CPU s``: the CPU time the process
  used meanwhile, all threads: the figure the machine's other load disturbs least);
* ``chart <name>``: choosing each chart of the Charts panel to its drawing (``chart max``:
  the slowest);
* ``panel <name>``: bringing each panel to the front to its background work done and drawn;
* ``stability <analysis>``: each Stability analysis with the panel's default settings,
  Run to drawn (its Chart tab in front, so that its figure is painted); ``pool``: the Pool
  panel's default analyses, Run to drawn;
* ``peak after load MB``, ``peak MB``: the process's peak resident memory (VmHWM) when
  the load ends and at the end (after the charts and analyses); ``peak after pool MB``
  and ``peak after stability <analysis> MB`` after each analysis (where it grew);
* ``blocked <phase> ms``: the longest lateness of a 10 ms repeating timer during a phase
  (how long the event loop could not answer the user); ``stalls > 100 ms <phase>``: how
  many times it was more than 100 ms late; ``GUI work <phase> ms``: the GUI thread's
  longest own CPU time between two ticks (``time.thread_time``: what it did itself in
  one turn of the event loop, which another process's load does not inflate);
  ``GUI turns > 50 ms <phase>``: how many turns went over issue 28's 50 ms budget;
  ``GUI busy turn median <phase> ms``: the median of the turns with >= 2 ms of work;
  ``GUI turn p99 <phase> ms`` (start and load only);
  ``blocked max ms`` over all phases,
  ``longest block in`` its phase and ``GUI CPU in the longest block ms`` the GUI thread's
  own CPU time during it (``time.thread_time``): the rest of the block the GUI thread
  waited, for the GIL or, on a loaded machine, for a core.

``--why-blocked`` prints, for every block longer than 100 ms, where each thread was
(sampled every 20 ms by a watchdog thread): what to fix.  ``--quick`` skips the
Stability analyses (minutes on a 150-run track), ``--no-analyses`` Pool's too.

``--compressed`` loads the track's runs xz-compressed (as tracks are published; made
once beside the track, ``<track>_xz``) instead of the plain files: issue 28's case.

Targets (issue 15): first paint <= 1.2 s; wide loaded <= 6 s (Robust04 <= 25 s); peak <= 1.2 GB
(<= 3 GB); first drawing of a chart <= 0.5 s (<= 1 s); event loop blocked <= 100 ms.
"""

from __future__ import annotations

import time

T0 = time.monotonic()

import argparse  # noqa: E402 - the clock starts before any import
import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import traceback  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent
SIZES = {"wide": (150, 50, 1000), "robust": (110, 250, 1000)}
TARGETS = {"wide": {"first_paint": 1.2, "loaded": 6.0, "peak MB": 1200, "chart max": 0.5,
                    "blocked max ms": 100},
           "robust": {"loaded": 25.0, "peak MB": 3000, "chart max": 1.0, "blocked max ms": 100}}
BLOCK_REPORT = 0.1
#: a turn in which the GUI thread did at least this much (ms) counts as "busy" for the
#: median: the idle 10 ms ticks in between would otherwise make the median ~0
BUSY_TURN_MS = 2.0
ANALYSIS_TIMEOUT = 900.0


def _track(size: str, gen_track: str) -> Path:
    runs, topics, depth = SIZES[size]
    out = HERE / "_data" / f"track_{runs}x{topics}x{depth}"
    if not (out / "qrels.txt").exists():
        subprocess.run([sys.executable, gen_track, "--runs", str(runs), "--topics",
                        str(topics), "--depth", str(depth), "--out", str(out)], check=True)
    return out


def _compressed(track: Path) -> Path:
    """``track`` with its runs xz-compressed (``runs/<name>.xz``), made once beside it."""
    import lzma
    import shutil
    from concurrent.futures import ThreadPoolExecutor

    out = track.with_name(track.name + "_xz")
    if (out / "qrels.txt").exists():
        return out
    tmp = track.with_name(track.name + "_xz.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "runs").mkdir(parents=True)
    for name in ("qrels.txt", "groups.tsv", "pooled.txt"):
        if (track / name).exists():
            shutil.copy(track / name, tmp / name)

    def one(run: Path) -> None:      # lzma compresses without the GIL: a thread a core
        (tmp / "runs" / (run.name + ".xz")).write_bytes(lzma.compress(run.read_bytes()))

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        list(pool.map(one, sorted((track / "runs").iterdir())))
    tmp.rename(out)
    return out


class _LoopWatch:
    """A repeating timer that records its own lateness (the event loop's longest block);
    with ``why``, a watchdog thread samples every thread's stack while the loop is late."""

    def __init__(self, interval_ms: int = 10, why: bool = False, profile_ms: float = 0.0):
        from PySide6.QtCore import QTimer

        self.interval = interval_ms / 1000
        self.worst = 0.0
        self.worst_cpu = 0.0
        self.stalls = 0
        self.most_work = 0.0
        self.turns: list[float] = []          # the GUI thread's own CPU s between two ticks
        self.last = time.monotonic()
        self.last_cpu = time.thread_time()
        self.phase = ""
        self.timer = QTimer(interval=interval_ms)
        self.timer.timeout.connect(self._tick)
        self.why = why
        self.samples: list[tuple[str, float, str]] = []  # (phase, lateness, stacks)
        self._sampled_at = -1.0
        self.profile_ms = profile_ms          # --profile-turns: cProfile each turn
        self.heavy: list[tuple[str, float, list[tuple[float, str]]]] = []
        self._prof = None
        if why:
            threading.Thread(target=self._watchdog, daemon=True).start()

    def start(self, phase: str) -> None:
        self.phase = phase
        self.last = time.monotonic()
        self.last_cpu = time.thread_time()
        self.worst = 0.0
        self.worst_cpu = 0.0
        self.stalls = 0
        self.most_work = 0.0
        self.turns = []
        self.timer.start()
        self._profile_next()

    def _profile_next(self) -> None:
        if self.profile_ms:
            import cProfile

            self._prof = cProfile.Profile()   # the GUI thread's only (Python 3.11)
            self._prof.enable()

    def _profiled_turn(self, cpu_ms: float) -> None:
        """Keep, for a turn whose GUI-thread CPU exceeded ``profile_ms``, the functions
        of ours (gui/, core/) and pyqtgraph's with the most cumulative time in it."""
        import pstats

        self._prof.disable()
        if cpu_ms > self.profile_ms:
            st = pstats.Stats(self._prof).stats
            top = sorted(((v[3] * 1000, f"{Path(k[0]).name}:{k[1]} {k[2]}")
                          for k, v in st.items()
                          if any(w in k[0] for w in (str(HERE.parent), "yardstick",
                                                     "pyqtgraph"))), reverse=True)
            python_ms = sum(v[2] for v in st.values()) * 1000   # the rest: Qt's own C++
            self.heavy.append((self.phase, cpu_ms, [(python_ms, "(all Python)"), *top[:10]]))
        self._profile_next()

    def _tick(self) -> None:  # the GUI thread
        now, cpu = time.monotonic(), time.thread_time()
        late = now - self.last - self.interval
        self.stalls += late > BLOCK_REPORT
        self.most_work = max(self.most_work, cpu - self.last_cpu)
        self.turns.append(cpu - self.last_cpu)
        if late > self.worst:
            # the GUI thread's own CPU time in its longest block: what the GUI thread did;
            # the rest of the block it waited (for the GIL or for a core)
            self.worst, self.worst_cpu = late, cpu - self.last_cpu
        if self._prof is not None:
            self._profiled_turn((cpu - self.last_cpu) * 1000)
            cpu = time.thread_time()          # the profiler's own bookkeeping not counted
        self.last, self.last_cpu = now, cpu

    def _watchdog(self) -> None:  # a daemon thread
        main = threading.main_thread().ident
        while True:
            time.sleep(0.02)
            late = time.monotonic() - self.last - self.interval
            if late < BLOCK_REPORT or self.last == self._sampled_at and late < 2 * BLOCK_REPORT:
                continue
            self._sampled_at = self.last
            frames = sys._current_frames()
            text = []
            for ident, frame in frames.items():
                if ident == threading.get_ident():
                    continue
                name = "GUI" if ident == main else next(
                    (t.name for t in threading.enumerate() if t.ident == ident), str(ident))
                stack = traceback.extract_stack(frame)[-12:]
                text.append(f"  [{name}]\n" + "".join(
                    f"    {Path(f.filename).name}:{f.lineno} {f.name}\n" for f in stack))
            self.samples.append((self.phase, late, "".join(text)))


def _cpu_s() -> float:
    """CPU seconds this process has used (all its threads): less noisy than the wall clock
    on a shared machine."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _peak_mb() -> float:
    """The process's peak resident memory so far (VmHWM; ru_maxrss where there is no /proc)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _wait(app, cond, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app.processEvents()
        if cond():
            return True
        time.sleep(0.002)
    return False


def _idle(app, win, timeout: float, quiet: float = 0.05) -> bool:
    """Events processed until no job runs for ``quiet`` seconds."""
    end = time.monotonic() + timeout
    since = None
    while time.monotonic() < end:
        app.processEvents()
        if win.jobs.is_busy():
            since = None
        elif since is None:
            since = time.monotonic()
        elif time.monotonic() - since >= quiet:
            return True
        time.sleep(0.002)
    return False


def child(track: Path, quick: bool, why: bool, no_analyses: bool = False,
          load_only: bool = False, switch_interval: float | None = None,
          profile_ms: float = 0.0) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["YARDSTICK_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-gui-")
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(["bench"])
    from yardstick.gui.main_window import MainWindow

    painted: list[float] = []

    class _Paint(QObject):
        def eventFilter(self, obj, ev):  # noqa: N802 - Qt name
            if ev.type() == QEvent.Type.Paint and not painted:
                painted.append(time.monotonic())
            return False

    filt = _Paint()
    app.installEventFilter(filt)  # the first paint of any of the window's widgets
    win = MainWindow(autosave=False, deferred_panels=True)
    if switch_interval is not None:  # instead of the window's own (gil_sharing.share_the_gil)
        sys.setswitchinterval(switch_interval)
    win.show()
    from PySide6.QtCore import QTimer

    QTimer.singleShot(0, win.build_panels_in_turns)  # as the launcher does
    _wait(app, lambda: bool(painted), 60)
    out: dict = {"first_paint": painted[0] - T0 if painted else None,
                 "switch interval ms": sys.getswitchinterval() * 1000}
    app.removeEventFilter(filt)
    watch = _LoopWatch(why=why, profile_ms=profile_ms)
    blocked: dict[str, float] = {}

    blocked_cpu: dict[str, float] = {}
    stalls: dict[str, int] = {}
    work: dict[str, float] = {}
    turns: dict[str, list[float]] = {}

    def phase_end(name: str) -> None:
        blocked[name] = watch.worst * 1000
        blocked_cpu[name] = watch.worst_cpu * 1000
        stalls[name] = watch.stalls
        work[name] = watch.most_work * 1000
        turns[name] = list(watch.turns)

    # ---- the panels built after the first paint
    watch.start("start")
    _wait(app, lambda: not getattr(win, "_pending", None), 120)
    out["panels built"] = time.monotonic() - T0
    _idle(app, win, 30, quiet=0.3)
    phase_end("start")

    # ---- load and evaluate
    runs = sorted(str(p) for p in (track / "runs").iterdir())
    n = len(runs)
    measures = win.panels["measures"]
    win.raise_panel("measures")
    _idle(app, win, 10)
    first_rows: list[float] = []

    def filled() -> bool:
        rows = measures.table.model().rowCount()
        if rows and not first_rows:
            first_rows.append(time.monotonic())
        evs = win.state.evaluations(visible_only=False)
        return len(evs) == n and not win.jobs.is_busy() and rows >= n

    watch.start("load")
    cpu = _cpu_s()
    t = time.monotonic()
    win.open_items([(str(track / "qrels.txt"), "qrels"), *((r, "run") for r in runs)])
    ok = _wait(app, filled, 1200)
    out["loaded"] = time.monotonic() - t if ok else None
    out["load CPU s"] = _cpu_s() - cpu
    out["first_rows"] = first_rows[0] - t if first_rows else None
    out["runs"] = n
    out["peak after load MB"] = _peak_mb()
    _idle(app, win, 60, quiet=0.3)    # what the load's end starts (groups, panels) counts too
    phase_end("load")

    # ---- every panel brought to the front
    for key in ({} if load_only else win.docks):
        watch.start(f"panel {key}")
        t = time.monotonic()
        win.raise_panel(key)
        _idle(app, win, 600)
        win.panels[key].grab()
        out[f"panel {key}"] = time.monotonic() - t
        phase_end(f"panel {key}")

    # ---- every chart of the Charts panel
    charts = win.panels.get("charts")
    if charts is not None and not load_only:
        win.raise_panel("charts")
        _idle(app, win, 60)
        box = charts.chart_box
        worst = 0.0
        for i in range(box.count()):
            name = box.itemText(i)
            watch.start(f"chart {name}")
            t = time.monotonic()
            box.setCurrentIndex(i)
            _idle(app, win, 600)
            charts.current_chart().grab()
            out[f"chart {name}"] = time.monotonic() - t
            worst = max(worst, out[f"chart {name}"])
            phase_end(f"chart {name}")
        out["chart max"] = worst

    # ---- the Pool panel's default analyses, and each Stability analysis
    pool = win.panels.get("pool")
    if pool is not None and not no_analyses and not load_only:
        win.raise_panel("pool")
        _idle(app, win, 60)
        watch.start("pool")
        t = time.monotonic()
        pool.run()
        _idle(app, win, ANALYSIS_TIMEOUT)
        pool.chart.grab()
        out["pool"] = time.monotonic() - t
        out["peak after pool MB"] = _peak_mb()
        phase_end("pool")
    stab = win.panels.get("stability")
    if stab is not None and not quick and not no_analyses and not load_only:
        from yardstick.analysis.stability.report import ANALYSES
        from yardstick.gui.charts.render_pg import still_drawing

        win.raise_panel("stability")
        stab.tabs.setCurrentWidget(stab.chart.parentWidget())  # its figures painted too
        _idle(app, win, 60)
        for analysis in ANALYSES:
            stab.configure(analysis=analysis)
            watch.start(f"stability {analysis}")
            t = time.monotonic()
            key = stab.run()
            done = _idle(app, win, ANALYSIS_TIMEOUT)
            if not done and key:
                stab.cancel()
                _idle(app, win, 60)
            _wait(app, lambda: not still_drawing(stab.chart), 60)   # a few plots a turn
            stab.chart.grab()
            out[f"stability {analysis}"] = time.monotonic() - t if done else None
            out[f"peak after stability {analysis} MB"] = _peak_mb()
            phase_end(f"stability {analysis}")
    watch.timer.stop()
    out["peak MB"] = _peak_mb()
    for name, ms in blocked.items():
        out[f"blocked {name} ms"] = ms
        out[f"blocked {name} GUI CPU ms"] = blocked_cpu[name]
        out[f"stalls > 100 ms {name}"] = stalls[name]
        out[f"GUI work {name} ms"] = work[name]
    for name in ("start", "load"):     # every turn of the GUI thread, not only the longest
        ms = sorted(t * 1000 for t in turns.get(name, ()))
        if ms:
            busy = [t for t in ms if t >= BUSY_TURN_MS] or [0.0]
            out[f"GUI turns {name}"] = len(ms)
            out[f"GUI turns > 50 ms {name}"] = sum(t > 50 for t in ms)
            out[f"GUI busy turn median {name} ms"] = statistics.median(busy)
            out[f"GUI turn p99 {name} ms"] = ms[int(0.99 * (len(ms) - 1))]
    out["blocked max ms"] = max(blocked.values())
    worst = max(blocked, key=blocked.get)
    out["GUI CPU in the longest block ms"] = blocked_cpu[worst]
    out["longest block in"] = worst
    if why:
        for phase, late, stacks in watch.samples:
            print(f"--- {phase}: loop late {late * 1000:.0f} ms\n{stacks}", file=sys.stderr)
    for phase, cpu_ms, top in watch.heavy:
        print(f"--- {phase}: GUI thread's own CPU {cpu_ms:.0f} ms in one turn (profiled)\n"
              + "".join(f"    {ms:7.1f} ms  {name}\n" for ms, name in top), file=sys.stderr)
    win.close()
    return out


def _fmt(v) -> str:
    if v is None:
        return "-"
    return f"{v:.0f}" if abs(v) >= 100 else f"{v:.3g}"


def _cell(vals: list) -> str:
    got = [v for v in vals if v is not None]
    if not got:
        return "-"
    if any(isinstance(v, str) for v in got):
        return "; ".join(str(v) for v in got)
    if len(got) == 1:
        return _fmt(got[0])
    return f"{_fmt(statistics.median(got))} ({_fmt(min(got))}–{_fmt(max(got))})" + (
        "" if len(got) == len(vals) else f" [{len(vals) - len(got)} failed]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--track", action="append", default=[],
                    help="a gen_track.py output folder (qrels.txt, runs/); may repeat")
    ap.add_argument("--size", action="append", default=[], choices=sorted(SIZES),
                    help="generate (once) and use a track of this size; may repeat")
    ap.add_argument("--gen-track", default=str(HERE.parent.parent / "shared/tools/gen_track.py"))
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="skip the Stability analyses")
    ap.add_argument("--load-only", action="store_true", help="only first paint and loading")
    ap.add_argument("--no-analyses", action="store_true",
                    help="skip the Pool and Stability analyses (load, panels, charts only)")
    ap.add_argument("--why-blocked", action="store_true",
                    help="print every thread's stack whenever the event loop is late > 100 ms")
    ap.add_argument("--switch-interval", type=float, metavar="SECONDS",
                    help="the GIL's switch interval instead of the window's own "
                         "(sys.setswitchinterval; to compare values)")
    ap.add_argument("--profile-turns", type=float, default=0.0, metavar="MS",
                    help="cProfile the GUI thread turn by turn; print the functions of every "
                         "turn whose own CPU exceeded MS (the profiler inflates it)")
    ap.add_argument("--compressed", action="store_true",
                    help="the runs xz-compressed (made once beside each track, <track>_xz)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        import faulthandler

        faulthandler.enable()                   # a crash says where (in the child's stderr)
        res = child(Path(args.track[0]), args.quick, args.why_blocked, args.no_analyses,
                    args.load_only, args.switch_interval, args.profile_turns)
        print(json.dumps(res))
        sys.stdout.flush()
        os._exit(0)
    tracks = [Path(t) for t in args.track] + [_track(s, args.gen_track) for s in args.size]
    tracks = tracks or [_track("wide", args.gen_track)]
    if args.compressed:
        tracks = [_compressed(t) for t in tracks]
    root = HERE.parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "core"),
                    str(root / "gui")], check=False, stdout=subprocess.DEVNULL)
    rows: dict[Path, list[dict]] = {t: [] for t in tracks}
    for i in range(args.repeat):
        for track in tracks:  # the tracks take turns in each round
            cmd = [sys.executable, __file__, "--child", "--track", str(track)]
            cmd += (["--quick"] * args.quick + ["--why-blocked"] * args.why_blocked
                    + ["--no-analyses"] * args.no_analyses + ["--load-only"] * args.load_only
                    + (["--profile-turns", str(args.profile_turns)] if args.profile_turns else [])
                    + (["--switch-interval", str(args.switch_interval)]
                       if args.switch_interval is not None else []))
            res = subprocess.run(cmd, capture_output=True, text=True,
                                 env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
            if args.why_blocked or args.profile_turns or res.returncode:
                sys.stderr.write(res.stderr)
            if res.returncode:
                sys.exit(f"child failed on {track}")
            rows[track].append(json.loads(res.stdout.strip().splitlines()[-1]))
            print(f"round {i + 1} {track.name}: " + json.dumps(rows[track][-1]), file=sys.stderr)
    keys = list(dict.fromkeys(k for rs in rows.values() for r in rs for k in r))
    print(f"median (min–max) of {args.repeat} fresh processes each; seconds unless named")
    print("| figure | " + " | ".join(t.name for t in tracks) + " |")
    print("|---|" + "---|" * len(tracks))
    for k in keys:
        print(f"| {k} | " + " | ".join(_cell([r.get(k) for r in rows[t]]) for t in tracks)
              + " |")


if __name__ == "__main__":
    main()
