"""``--dask WHERE`` as a user types it (issue 30, item 2): a value that is neither
``local``, ``local:N`` nor a scheduler address is refused before any work (argparse,
exit 2); an address where no scheduler answers, or where something that is not a Dask
scheduler answers, is the command's one-line message and exit 1 within the connect
timeout — not Dask's ``OSError`` traceback after 30 s, nor a ``MemoryError`` from
reading a stranger's bytes as a message length.
"""

from __future__ import annotations

import socket
import threading

import pytest

import yardstick as ys
from yardstick.cli import main, option_types
from yardstick.common import dask_address

pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def sample():
    p = ys.sample_paths()
    return p["qrels"], p["runs"][:2]


@pytest.mark.parametrize("where", ["bogus", "local:0", "local:x", "local:2x", "tcp://host",
                                   "tcp://h:99999", "local-threads", "local:100000"])
@pytest.mark.parametrize("command", ["eval", "stability", "pool", "archive", "report"])
def test_nonsense_is_refused_before_any_work(capsys, where, command):
    with pytest.raises(SystemExit) as e:
        main([command, "--dask", where, "--help-never-reached"])
    assert e.value.code == 2
    assert "argument --dask" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["local", "local:3", "tcp://10.0.0.1:8786",
                                   "sched.example.org:8786", "tls://[::1]:8786"])
def test_addresses_and_local_clusters_pass(where):
    assert dask_address.why_not(where) is None
    assert option_types._dask_where("local:2") == "local:2"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_no_scheduler_there_is_refused_before_any_file_is_read(capsys, sample, monkeypatch):
    """Nothing listening: argparse's error at once (exit 2), before the qrels and runs are
    read (stability and pool read every run first: 15 s on 150 runs, then Dask's 30 s)."""
    monkeypatch.setattr(dask_address, "CONNECT_TIMEOUT_S", 1)
    where = f"tcp://127.0.0.1:{_closed_port()}"
    for command in (["eval", *sample[:1], *sample[1]],
                    ["stability", "--qrels", sample[0], *sample[1]],
                    ["pool", "--qrels", "/nonexistent", "/nonexistent"],
                    ["report", "--qrels", "/nonexistent", "--out", "/nonexistent", "x"]):
        with pytest.raises(SystemExit) as e:
            main([command[0], "--dask", where, *command[1:]])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert f"argument --dask: no Dask scheduler answers at {where}" in err
        assert "Traceback" not in err


def test_a_stranger_on_the_port_is_a_message(capsys, sample):
    """A server that answers with bytes Dask reads as a frame length of exabytes."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.sendall(b"\xff" * 64)
            conn.close()

    threading.Thread(target=answer, daemon=True).start()
    where = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        assert main(["stability", "--dask", where, "--qrels", sample[0], *sample[1]]) == 1
    finally:
        server.close()
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith(
        f"yardstick stability: --dask: no Dask scheduler answered at {where}")


def test_a_scheduler_lost_during_the_work_is_the_commands_message():
    from distributed.comm.core import CommClosedError

    from yardstick.common.errors import FormatError

    with pytest.raises(FormatError, match="--dask: lost the Dask scheduler at local-threads:1 "
                                          "during the work \\(CommClosedError\\)"):
        with option_types.dask_executor("local-threads:1"):
            raise CommClosedError("in <TCP (closed) ConnectionPool.scatter>: Stream is closed")
    with pytest.raises(ValueError, match="its own"):
        with option_types.dask_executor("local-threads:1"):
            raise ValueError("its own")
