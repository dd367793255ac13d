"""Work paced one step at a time on the GUI thread (:func:`yardstick.gui.gil_sharing.paced`):
a load's end and the shown panels' answers to it (issue 28: nothing on the GUI thread
longer than 50 ms at a time)."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer


def test_paced_steps_run_in_order_with_the_event_loop_turning_between(qtbot):
    from yardstick.gui.gil_sharing import PACE_MS, paced

    ran: list[tuple[str, float, int]] = []
    ticks = [0]
    timer = QTimer(interval=1)
    timer.timeout.connect(lambda: ticks.__setitem__(0, ticks[0] + 1))
    timer.start()

    def step(name: str, then=None):
        def fn() -> None:
            ran.append((name, time.monotonic(), ticks[0]))
            if then is not None:
                paced(then)             # queued behind what was queued before it
        return fn

    paced(step("a", step("c")))
    paced(step("b"))
    qtbot.waitUntil(lambda: len(ran) == 3, timeout=5000)
    timer.stop()
    assert [name for name, _, _ in ran] == ["a", "b", "c"]
    for (_, t0, n0), (_, t1, n1) in zip(ran, ran[1:]):
        assert t1 - t0 >= 0.9 * PACE_MS / 1000     # a pause between two steps ...
        assert n1 > n0                             # ... in which other timers ran
