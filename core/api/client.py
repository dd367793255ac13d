"""The API's ``client=``: where a long call (:func:`yardstick.api.evaluate` over many
runs, :func:`yardstick.api.stability_report`, :func:`yardstick.api.pool_report`) runs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from yardstick.common.executor import Executor, executor_for

__all__ = ["executor_of"]


@contextmanager
def executor_of(client: Any) -> Iterator[Executor | None]:
    """The executor for ``client=``, for the length of one call.

    ``None``: this process (None is yielded: each function's own default).  A
    ``distributed.Client`` (or an :class:`~yardstick.common.executor.Executor`): used as
    it is and left open.  A string, as the CLI's ``--dask`` takes it (``"local"``,
    ``"local:4"``, ``"tcp://HOST:PORT"``): connected within
    :data:`~yardstick.common.dask_address.CONNECT_TIMEOUT_S` seconds (else
    :class:`~yardstick.common.dask_address.DaskUnavailable`), and the cluster it started
    closed when the call ends.  A closed ``Client`` is a ``ValueError`` saying so (Dask
    itself says "IOLoop is closed").
    """
    if client is None:
        yield None
        return
    if isinstance(client, str):
        from yardstick.common.dask_address import connect_within

        with connect_within(client) as ex:
            yield ex
        return
    status = str(getattr(client, "status", "running"))
    if status in ("closing", "closed", "failed"):
        raise ValueError(f"client= is a distributed.Client that is {status}: pass an open "
                         f"one (Client(address)), or client=None to compute in this process")
    yield executor_for(client)
