"""Where chunks run: in this process, in a local process pool, or on a Ray cluster.

Every backend yields each chunk's records in chunk order, whatever order they finish in.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Protocol

from cardcore.errors import OptionError
from cardcore.sim.runner import Chunk, run_chunk

__all__ = ["BACKENDS", "Backend", "LocalBackend", "RayBackend", "make_backend"]

Records = list[dict[str, Any]]
BACKENDS = ("local", "ray")


class Backend(Protocol):
    """Runs chunks and yields their records in submission order."""

    def map_chunks(self, chunks: Iterable[Chunk]) -> Iterator[Records]: ...

    def close(self) -> None: ...


def _ignore_sigint() -> None:
    # Ctrl-C is handled once, by the parent, which then stops the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.setdefault("RAYON_NUM_THREADS", "1")


class LocalBackend:
    """``jobs == 1``: in this process. Otherwise a spawn/forkserver process pool."""

    def __init__(self, jobs: int = 1, preload: Sequence[str] = ()) -> None:
        self.jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
        self.preload = [m for m in preload if m]
        self._pool: ProcessPoolExecutor | None = None

    def map_chunks(self, chunks: Iterable[Chunk]) -> Iterator[Records]:
        if self.jobs == 1:
            for chunk in chunks:
                yield run_chunk(chunk)
            return
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if ctx.get_start_method() == "forkserver":
            # Workers fork from a server that has imported the engine once (no threads yet).
            ctx.set_forkserver_preload(["cardcore.sim.runner", *self.preload])
        self._pool = ProcessPoolExecutor(self.jobs, mp_context=ctx, initializer=_ignore_sigint)
        window: deque[Future[Records]] = deque()
        it = iter(chunks)
        try:
            for chunk in it:
                window.append(self._pool.submit(run_chunk, chunk))
                if len(window) >= 2 * self.jobs:
                    yield window.popleft().result()
            while window:
                yield window.popleft().result()
        finally:
            for f in window:
                f.cancel()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class RayBackend:
    """Chunks as Ray tasks. Connects to ``address`` (or starts a local Ray on 127.0.0.1) and
    shuts down only a cluster it started itself."""

    def __init__(self, jobs: int = 0, address: str | None = None) -> None:
        if not address:
            # A local cluster talks over loopback only: without this Ray advertises (and
            # connects to) the machine's primary network address.
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        try:
            import ray
        except ImportError:
            raise OptionError("the ray backend needs Ray: pip install 'cardcore[ray]'") from None
        self._ray: Any = ray
        self._started = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "configure_logging": False,
            }
            if address:
                ray.init(address=address, **kwargs)
            else:
                from ray._private import ray_constants

                ray_constants.ENABLE_RAY_CLUSTER = False  # in case ray was imported already
                ray.init(
                    num_cpus=jobs if jobs > 0 else None,
                    _node_ip_address="127.0.0.1",
                    object_store_memory=200 * 1024 * 1024,
                    # workers import what the driver can (games and agents named by path)
                    runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(sys.path)}},
                    **kwargs,
                )
                self._started = True
        self._remote = ray.remote(run_chunk)
        total = int(self._ray.cluster_resources().get("CPU", 1))
        self.jobs = max(1, total)

    def map_chunks(self, chunks: Iterable[Chunk]) -> Iterator[Records]:
        window: deque[Any] = deque()
        try:
            for chunk in chunks:
                window.append(self._remote.remote(chunk))
                if len(window) >= 2 * self.jobs:
                    yield self._ray.get(window.popleft())
            while window:
                yield self._ray.get(window.popleft())
        finally:
            for ref in window:
                self._ray.cancel(ref)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False


def make_backend(
    name: str, jobs: int = 1, address: str | None = None, preload: Sequence[str] = ()
) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``); ``preload`` names modules that
    local workers import once, before they fork."""
    if name == "local":
        return LocalBackend(jobs, preload)
    if name == "ray":
        return RayBackend(jobs, address)
    raise OptionError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
