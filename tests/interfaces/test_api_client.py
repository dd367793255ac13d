"""The API's ``client=`` as a user may pass it (issue 30, item 2): a closed
``distributed.Client`` is a ``ValueError`` that says so (Dask said "IOLoop is closed"); a
``--dask`` string is connected for the call and the cluster it started is closed after
(two LocalClusters were started and left running by one ``stability_report``); an address
where no scheduler answers is a ``DaskUnavailable`` within the timeout (Dask's ``OSError``
after 30 s)."""

from __future__ import annotations

import socket

import pytest

import yardstick as ys
from yardstick.common import dask_address

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def sample():
    p = ys.sample_paths()
    return p["qrels"], p["runs"][:3]


def test_a_closed_client_is_said_to_be_closed(sample):
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1,
                            dashboard_address=":0") as client:
        pass
    for call in (lambda: ys.stability_report(*sample, samples=20, client=client),
                 lambda: ys.pool_report(*sample, client=client),
                 lambda: ys.evaluate(*sample, ["map"], client=client)):
        with pytest.raises(ValueError, match="client= is a distributed.Client that is closed"):
            call()


def test_a_dask_string_is_connected_for_the_call_and_closed_after(sample, monkeypatch):
    made = []
    real = dask_address.connect_within

    def spy(where, *args, **kwargs):
        made.append(real(where, *args, **kwargs))
        return made[-1]

    monkeypatch.setattr(dask_address, "connect_within", spy)
    here = ys.stability_report(*sample, analyses=("swap",), samples=50, seed=2)
    there = ys.stability_report(*sample, analyses=("swap",), samples=50, seed=2,
                                client="local-threads:1")
    assert len(made) == 1 and made[0].client.status == "closed"
    assert [t.frame.equals(u.frame) for t, u in zip(here.tables, there.tables)] == \
        [True] * len(here.tables)


def test_no_scheduler_at_the_address(sample, monkeypatch):
    monkeypatch.setattr(dask_address, "CONNECT_TIMEOUT_S", 1)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(dask_address.DaskUnavailable, match=f"no Dask scheduler answered at "
                                                           f"tcp://127.0.0.1:{port}"):
        ys.evaluate(*sample, ["map"], client=f"tcp://127.0.0.1:{port}")
    with pytest.raises(ValueError, match="neither local, local:N nor a scheduler address"):
        ys.evaluate(*sample, ["map"], client="nowhere")


def test_without_dask_a_dask_string_says_how_to_install_it(sample, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)      # as if not installed
    with pytest.raises(ImportError, match=r"pip install 'yardstick-ir\[dask\]'"):
        ys.evaluate(*sample, ["map"], client="local:1")
