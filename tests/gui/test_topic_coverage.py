"""Every path says which topics it dropped or scored 0 (issue #14).

The example: qrels judge topics 1, 2, 3 and 9; run r1 has results for 1, 2 and 5,
run r2 for 1, 2, 3 and 5.  trec_eval never scores topic 5 (no judgments); topic 3
is missing from r1 and topic 9 from both, which ``-c`` scores 0 and trec_eval
otherwise leaves out of the run's mean.  The headless ``eval`` already said so;
``stability``, ``pool``, ``report`` and the window must too.
"""

from __future__ import annotations

import pytest

from yardstick.cli import main
from yardstick.inputs.topic_coverage import topic_coverage

DROPPED = "1 topic(s) have results but no judgments and are dropped: 5 (all runs)"
MISSING = "2 judged topic(s) lack results in some run and are "
WHERE = ": 3 (r1); 9 (all runs)"


@pytest.fixture()
def track(tmp_path):
    (tmp_path / "q").write_text("1 0 a 1\n1 0 b 0\n2 0 c 1\n2 0 d 1\n3 0 e 1\n9 0 z 1\n")
    (tmp_path / "r1").write_text("1 Q0 a 1 3 r1\n1 Q0 b 2 2 r1\n2 Q0 c 1 3 r1\n"
                                 "5 Q0 x 1 1 r1\n")
    (tmp_path / "r2").write_text("1 Q0 b 1 3 r2\n2 Q0 d 1 3 r2\n2 Q0 c 2 2 r2\n"
                                 "5 Q0 y 1 1 r2\n3 Q0 e 1 1 r2\n")
    return tmp_path


class _R:
    def __init__(self, name, topics):
        self.name, self.topics = name, topics


def test_messages_name_the_topics_and_the_runs():
    runs = [_R("r1", ["1", "2", "5"]), _R("r2", ["1", "2", "3", "5"])]
    assert topic_coverage(["1", "2", "3", "9"], runs, complete=True).messages() == [
        DROPPED, MISSING + "scored 0 for the runs without results (-c)" + WHERE]
    assert topic_coverage(["1", "2", "3", "9"], runs, complete=False).messages() == [
        DROPPED, MISSING + "left out of those runs' means (use -c to score them 0)" + WHERE]
    assert topic_coverage(["1", "2"], [_R("r1", ["1", "2"])], complete=False).messages() == []
    many = topic_coverage([str(t) for t in range(1, 30)], [_R("r1", ["1"])], complete=True)
    assert many.messages(limit=3)[0].endswith(": 2 (all runs); 3 (all runs); 4 (all runs); "
                                              "and 25 more")


def test_stability_says_it(track, capsys):
    assert main(["stability", "--qrels", str(track / "q"), "-m", "map", "--analysis",
                 "swap", "-B", "20", "--seed", "1", str(track / "r1"), str(track / "r2")]) == 0
    out, err = capsys.readouterr()
    note = MISSING + "scored 0 for the runs without results (-c)" + WHERE
    # said once, in the Assumptions above the tables (issue 27)
    assert out.count(f"  note: {DROPPED}\n") == 1 and out.count(f"  note: {note}\n") == 1
    assert f"yardstick stability: note: {note}" in err


def test_pool_says_it(track, capsys):
    assert main(["pool", "--qrels", str(track / "q"), "--analysis", "stats",
                 str(track / "r1"), str(track / "r2")]) == 0
    out, err = capsys.readouterr()
    note = MISSING + "left out of those runs' means (as trec_eval without -c)" + WHERE
    assert out.count(f"  note: {note}\n") == 1 and f"yardstick pool: note: {DROPPED}" in err


@pytest.mark.parametrize("flag, what", [([], "left out of those runs' means (use -c to score "
                                              "them 0)"),
                                        (["-c"], "scored 0 for the runs without results (-c)")])
def test_report_says_it_on_stderr_and_in_the_report(track, capsys, flag, what):
    out_dir = track / "rep"
    assert main(["report", "--qrels", str(track / "q"), "--out", str(out_dir), "--formats",
                 "html,csv", *flag, str(track / "r1"), str(track / "r2")]) == 0
    err = capsys.readouterr().err
    assert f"yardstick report: note: {MISSING}{what}{WHERE}" in err
    html = (out_dir / "adhoc_report.html").read_text()
    assert (MISSING + what + WHERE).replace("'", "&#x27;") in html


def test_the_window_says_it(track, qtbot):
    from yardstick.gui.app_state import AppState
    from yardstick.inputs.io import read_qrels, read_run

    state = AppState()   # no job runner: evaluates at once, on this thread
    state.set_qrels(read_qrels(track / "q"))
    with qtbot.waitSignal(state.status, timeout=5000) as sig:
        state.add_runs([read_run(track / name) for name in ("r1", "r2")])
    assert state.topic_notes == [
        DROPPED, MISSING + "left out of those runs' means (use -c to score them 0)" + WHERE]
    assert sig.args[0].startswith("Note: " + DROPPED)
