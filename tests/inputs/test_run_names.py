"""Runs named by file or by run tag (core/inputs/run_names.py), and on the command line."""

import numpy as np
import pytest

from yardstick.inputs.run import Run
from yardstick.inputs.run_names import RunNameError, resolve_run, resolve_runs, unique_names


def _run(path, tag):
    import os

    return Run.from_arrays(["1"], ["d1"], [1.0], name=os.path.basename(path), tag=tag, path=path)


def test_tag_and_file_name_both_resolve():
    runs = [_run("/x/input.aplrob03a.gz", "aplrob03a"), _run("/x/input.pircRB04t3", "pircRB04t3")]
    assert resolve_run("aplrob03a", runs) is runs[0]
    assert resolve_run("input.aplrob03a.gz", runs) is runs[0]
    assert resolve_run("/x/input.pircRB04t3", runs) is runs[1]
    assert resolve_runs(["pircRB04t3", "input.pircRB04t3", "aplrob03a"], runs) == [runs[1], runs[0]]


def test_shared_tag_is_refused_with_the_files_named():
    runs = [_run("/x/a.txt", "same"), _run("/x/b.txt", "same")]
    with pytest.raises(RunNameError) as e:
        resolve_run("same", runs, "--baseline")
    assert str(e.value) == ("--baseline 'same' is the run tag of 2 runs (a.txt, b.txt); "
                            "name one by its file name")
    assert resolve_run("b.txt", runs) is runs[1]


def test_same_file_name_in_two_folders_gets_a_suffix_and_a_note():
    runs, notes = unique_names([_run("/x/run.txt", "t1"), _run("/y/run.txt", "t2")])
    assert [r.name for r in runs] == ["run.txt", "run.txt#2"]
    assert notes == ["two runs are called 'run.txt': /y/run.txt is shown as 'run.txt#2' "
                     "(name it by 'run.txt#2' or by its path)"]
    assert resolve_run("run.txt#2", runs).tag == "t2"
    assert resolve_run("/y/run.txt", runs).tag == "t2"
    with pytest.raises(RunNameError, match="names 2 run files"):
        resolve_run("run.txt", [_run("/x/run.txt", "t1"), _run("/y/run.txt", "t2")])


def test_unknown_name_lists_the_runs():
    runs = [_run("/x/a.txt", "tagA")]
    with pytest.raises(RunNameError) as e:
        resolve_run("zzz", runs)
    assert str(e.value) == ("--run 'zzz' is neither a run file nor a run tag of the 1 runs "
                            "given (a.txt (tag tagA))")
    assert np.array_equal(runs[0].score, [1.0])


def test_a_relative_path_names_its_run_and_long_lists_are_cut(tmp_path, monkeypatch):
    (tmp_path / "runs").mkdir()
    runs = [_run(str(tmp_path / "runs" / f"t{i:03d}"), f"t{i:03d}") for i in range(150)]
    monkeypatch.chdir(tmp_path)
    assert resolve_run("runs/t027", runs) is runs[27]
    assert resolve_run("./runs/t027", runs) is runs[27]
    with pytest.raises(RunNameError) as e:
        resolve_run("runs/t999", runs)
    assert str(e.value).endswith("of the 150 runs given (t000, t001, t002, t003, t004, t005, "
                                 "t006, t007, t008, t009 and 140 more)")
