"""The window on a real-sized track: first paint, load + evaluate, panels, memory, event loop.

Each figure is measured in a fresh process under offscreen Qt (``--child``)::

    python benchmarks/bench_gui_track.py --track /work/tracks/wide        # an existing track
    python benchmarks/bench_gui_track.py --size robust                    # generate 110 x 250 x 1000

A track is made by ``gen_track.py`` (``--gen-track``, default ``../shared/tools/gen_track.py``)
into ``benchmarks/_data/`` (git-ignored) when ``--track`` is not given.  Figures:

* ``first_paint_s``: process start to the main window's first paint event, no files;
* ``loaded_s``: "open qrels + all runs" to every run evaluated with the default measures
  and the Measures table filled;
* ``panel_<name>_s``: raising each panel (charts, stability, pool ...) to its background
  work finished and the panel drawn;
* ``peak_rss_mb``: the process's peak resident memory;
* ``blocked_ms``: the longest lateness of a 10 ms repeating timer while loading and drawing
  (how long the event loop could not answer the user).

Targets (issue 15): first paint <= 1.2 s; wide loaded <= 6 s (Robust04 <= 25 s); peak <= 1.2 GB
(<= 3 GB); first drawing of a chart <= 0.5 s (<= 1 s); event loop blocked <= 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

T0 = time.monotonic()
HERE = Path(__file__).resolve().parent
SIZES = {"wide": (150, 50, 1000), "robust": (110, 250, 1000)}


def _track(args) -> Path:
    if args.track:
        return Path(args.track)
    runs, topics, depth = SIZES[args.size]
    out = HERE / "_data" / f"track_{runs}x{topics}x{depth}"
    if not (out / "qrels.txt").exists():
        subprocess.run([sys.executable, args.gen_track, "--runs", str(runs), "--topics",
                        str(topics), "--depth", str(depth), "--out", str(out)], check=True)
    return out


class _LoopWatch:
    """A repeating timer that records its own lateness (the event loop's longest block)."""

    def __init__(self, interval_ms: int = 10):
        from PySide6.QtCore import QTimer

        self.interval = interval_ms / 1000
        self.worst = 0.0
        self.last = time.monotonic()
        self.timer = QTimer(interval=interval_ms)
        self.timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.last = time.monotonic()
        self.worst = 0.0
        self.timer.start()

    def _tick(self) -> None:
        now = time.monotonic()
        self.worst = max(self.worst, now - self.last - self.interval)
        self.last = now


def _wait(app, cond, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app.processEvents()
        if cond():
            return True
        time.sleep(0.002)
    return False


def child(track: Path, measure_panels: bool) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
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

    win = MainWindow(autosave=False, deferred_panels=True)
    filt = _Paint()
    win.installEventFilter(filt)
    win.show()
    from PySide6.QtCore import QTimer

    QTimer.singleShot(0, win.build_remaining_panels)
    _wait(app, lambda: bool(painted), 30)
    out = {"first_paint_s": painted[0] - T0 if painted else None}
    _wait(app, lambda: not win._pending, 30)
    watch = _LoopWatch()
    watch.start()
    runs = sorted(str(p) for p in (track / "runs").iterdir())
    n = len(runs)
    t = time.monotonic()
    win.open_items([(str(track / "qrels.txt"), "qrels"), *((r, "run") for r in runs)])
    measures = win.panels.get("measures")

    def filled() -> bool:
        evs = win.state.evaluations(visible_only=False)
        table = getattr(measures, "table", None)
        rows = table.model().rowCount() if table is not None and table.model() else n
        return len(evs) == n and not win.jobs.is_busy() and rows >= n

    ok = _wait(app, filled, 600)
    out["loaded_s"] = time.monotonic() - t if ok else None
    out["runs"] = n
    out["blocked_load_ms"] = watch.worst * 1000
    if measure_panels:
        for key, dock in win.docks.items():
            watch.start()
            t = time.monotonic()
            dock.show()
            dock.raise_()
            _wait(app, lambda: not win.jobs.is_busy(), 600)
            win.panels[key].grab()
            out[f"panel_{key}_s"] = time.monotonic() - t
            out[f"blocked_{key}_ms"] = watch.worst * 1000
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    win.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--track", help="an existing gen_track.py output folder (qrels.txt, runs/)")
    ap.add_argument("--size", choices=sorted(SIZES), default="wide")
    ap.add_argument("--gen-track", default=str(HERE.parent.parent / "shared/tools/gen_track.py"))
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--no-panels", action="store_true", help="only first paint and loading")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    track = _track(args)
    if args.child:
        print(json.dumps(child(track, not args.no_panels)))
        return
    rows = []
    for _ in range(args.repeat):
        cmd = [sys.executable, __file__, "--child", "--track", str(track)]
        if args.no_panels:
            cmd.append("--no-panels")
        res = subprocess.run(cmd, capture_output=True, text=True,
                             env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        if res.returncode:
            sys.exit(res.stderr)
        rows.append(json.loads(res.stdout.strip().splitlines()[-1]))
    print(f"track {track}")
    print("| figure | " + " | ".join(f"run {i + 1}" for i in range(len(rows))) + " |")
    print("|---|" + "---|" * len(rows))
    for k in rows[0]:
        vals = [r.get(k) for r in rows]
        print(f"| {k} | " + " | ".join("-" if v is None else f"{v:.3g}" for v in vals) + " |")


if __name__ == "__main__":
    main()
