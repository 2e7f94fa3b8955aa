"""Where chunks run: in this process, in a local process pool, or on a Ray cluster.

Every backend yields each chunk's records in chunk order, whatever order they finish in.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import select
import signal
import socket
import sys
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, InvalidStateError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from cardcore.errors import CardcoreError, OptionError, RunError
from cardcore.sim.runner import Chunk, run_chunk_timed

__all__ = ["BACKENDS", "Backend", "LocalBackend", "RayBackend", "make_backend"]

Records = list[dict[str, Any]]
BACKENDS = ("local", "ray")


class Backend(Protocol):
    """Runs chunks and yields their records in submission order."""

    def map_chunks(self, chunks: Iterable[Chunk]) -> Iterator[Records]: ...

    def close(self) -> None: ...


def _start_worker(parent: int) -> None:
    """A pool worker's start: Ctrl-C is handled once, by the parent, which then stops the
    pool; and the worker ends itself when the parent is gone, however it ended (killed,
    SIGTERM or SIGHUP, no cleanup run), so no worker (and so no forkserver or resource
    tracker, which live while a worker does) is left running a stuck or busy agent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.setdefault("RAYON_NUM_THREADS", "1")
    threading.Thread(target=_end_with, args=(parent,), name="cardcore-parent", daemon=True).start()


def _end_with(parent: int) -> None:
    """Waits for process ``parent`` to end, then ends this process at once. A Python thread:
    it runs while the agent computes (the engine's search releases the GIL)."""
    try:
        fd = os.pidfd_open(parent)
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):  # pragma: no cover - not Linux >= 5.3
        while _alive(parent):
            time.sleep(1.0)
        os._exit(1)
    select.select([fd], [], [])  # readable once the process has ended
    os._exit(1)


def _alive(pid: int) -> bool:  # pragma: no cover - the fallback without pidfd_open
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def machine_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def resolve_jobs(jobs: int) -> int:
    """Worker processes for ``jobs``: 0 means one per core; more than the cores is capped at
    the cores with a :class:`RuntimeWarning` (more processes only compete for them)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise OptionError(f"jobs must be an int >= 0 (0 = one per core), not {jobs!r}")
    cores = machine_cores()
    if jobs > cores:
        warnings.warn(
            f"jobs={jobs} but this machine has {cores} cores: using {cores}",
            RuntimeWarning,
            stacklevel=3,
        )
    return cores if jobs == 0 or jobs > cores else jobs


def _uses_main(chunk: Chunk) -> bool:
    """Whether the workers need the caller's ``__main__`` (an agent or game defined there)."""
    plan = chunk.plan
    return plan.module == "__main__" or any(a.startswith("__main__:") for a in plan.agents)


@contextlib.contextmanager
def _script_not_rerun(chunk: Chunk) -> Iterator[None]:
    """Worker processes get plain data only, so unless the run uses an agent or game defined
    in the caller's ``__main__`` they need not import it (a script without an ``if __name__
    == "__main__":`` guard would start the run again inside every worker): hides it while
    workers start. A run that does use ``__main__`` needs the guard, as multiprocessing says."""
    main = sys.modules.get("__main__")
    if _uses_main(chunk):
        main = None
    keys = ("__file__", "__spec__")
    saved: dict[str, Any] = {k: main.__dict__[k] for k in keys if main and k in main.__dict__}
    if main is None or not saved:
        yield
        return
    main.__dict__.pop("__file__", None)
    main.__dict__["__spec__"] = None
    try:
        yield
    finally:
        main.__dict__.update(saved)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0] if text else ''}".rstrip(": ")


def _worker_died(chunk: Chunk, error: OSError | None = None) -> RunError:
    why = (
        'killed, out of memory, or a script without an `if __name__ == "__main__":` guard'
        if _uses_main(chunk)
        else "killed, or out of memory"
    )
    how = f" (starting another failed: {error.strerror or error})" if error else ""
    return RunError(f"a worker process died ({why}){how}; the records before it are kept")


class LocalBackend:
    """``jobs == 1``: in this process. Otherwise a spawn/forkserver process pool.

    Ctrl-C (or any error) stops the pool at once, killing the workers (a stuck agent cannot
    hold the run up); chunks that had already finished in order are still handed over first.
    """

    def __init__(self, jobs: int = 1, preload: Sequence[str] = ()) -> None:
        self.jobs = resolve_jobs(jobs)
        self.preload = [m for m in preload if m]
        self._pool: ProcessPoolExecutor | None = None
        self._clean = True

    def map_chunks(self, chunks: Iterable[Chunk]) -> Iterator[Records]:
        learn = _learner(chunks)
        if self.jobs == 1:
            for chunk in chunks:
                records, seconds = run_chunk_timed(chunk)
                learn(chunk, seconds)
                yield records
            return
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if ctx.get_start_method() == "forkserver":
            # Workers fork from a server that has imported the engine once (no threads yet).
            ctx.set_forkserver_preload(["cardcore.sim.runner", *self.preload])
        self._pool = ProcessPoolExecutor(
            self.jobs, mp_context=ctx, initializer=_start_worker, initargs=(os.getpid(),)
        )
        window: deque[tuple[Chunk, Future[Timed]]] = deque()
        self._clean = False
        try:
            for chunk in chunks:
                window.append((chunk, self._submit(chunk)))
                if len(window) >= 2 * self.jobs:
                    yield _next(window, learn)
            while window:
                yield _next(window, learn)
            self._clean = True
        except KeyboardInterrupt:
            # hand over what already finished, in order, then stop
            while window and window[0][1].done() and _finished_ok(window[0][1]):
                yield _next(window, learn)
            raise
        finally:
            for _, f in window:
                f.cancel()

    def _submit(self, chunk: Chunk) -> Future[Timed]:
        """Hands ``chunk`` to the pool. A worker that died a moment ago shows here, not in a
        result: the pool refuses work (BrokenProcessPool), or, in Python 3.11, starting a
        replacement worker fails while the pool is being torn down (an OSError such as EBADF)."""
        assert self._pool is not None
        try:
            with _script_not_rerun(chunk):
                return self._pool.submit(run_chunk_timed, chunk)
        except BrokenProcessPool:
            raise _worker_died(chunk) from None
        except OSError as e:
            raise _worker_died(chunk, e) from None

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if not self._clean:
            # a stuck or running worker would make shutdown() wait for it: end them first
            workers = pool_workers(pool)
            with _quiet_cancelled_futures():
                for p in workers:
                    p.terminate()
                for p in workers:
                    p.join(5)
                    if p.is_alive():
                        p.kill()
                _end_half_written_result(pool)
                pool.shutdown(wait=True, cancel_futures=True)
            return
        pool.shutdown(wait=True, cancel_futures=True)


def pool_workers(pool: ProcessPoolExecutor) -> list[BaseProcess]:
    """The pool's worker processes, to end them when a worker is stuck.

    One of cardcore's two uses of private attributes (the other:
    :func:`_end_half_written_result`): before Python 3.14 (``terminate_workers()``)
    ``ProcessPoolExecutor._processes`` (pid -> process) is the pool's only handle on its
    workers. tests/test_sim_faults.py checks it still lists live workers,
    so a Python that renames it fails that test instead of leaving stuck workers running.
    """
    processes: dict[int, BaseProcess] | None = getattr(pool, "_processes", None)
    return list((processes or {}).values())


def _end_half_written_result(pool: ProcessPoolExecutor) -> None:
    """With every worker dead, closes this process's write end of the pool's result pipe.

    A worker killed while writing a result leaves half a message in that pipe, and the pool's
    manager thread then waits in ``recv()`` for the rest forever, so ``shutdown()`` never
    returns (seen: ``cardcore sim -j 2`` hung after Ctrl-C on a loaded machine). The parent
    never writes results; once no process holds a write end, that wait ends in end-of-file,
    which the pool treats as broken, and shutdown finishes. (``_result_queue`` is private: the
    pool has no public handle on it in any Python version.)"""
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()


@contextlib.contextmanager
def _quiet_cancelled_futures() -> Iterator[None]:
    """While a pool is being killed, its manager thread may try to fail futures we cancelled
    and print an ``InvalidStateError`` traceback (a CPython race in ``terminate_broken``, fixed
    in later versions); that one error from that thread is expected and not shown."""
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if not isinstance(args.exc_value, InvalidStateError):
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


Timed = tuple[Records, float]


def _learner(chunks: Iterable[Chunk]) -> Callable[[Chunk, float], object]:
    """Where chunk timings go: the chunker's ``finished`` (adaptive chunk sizes), if any."""
    finished: Callable[[Chunk, float], object] | None = getattr(chunks, "finished", None)
    return finished or (lambda chunk, seconds: None)


def _finished_ok(f: Future[Timed]) -> bool:
    return not f.cancelled() and f.exception() is None


def _next(
    window: deque[tuple[Chunk, Future[Timed]]], learn: Callable[[Chunk, float], object]
) -> Records:
    """The records of the oldest chunk in flight, taken off ``window`` only once they are in
    hand (Ctrl-C while waiting leaves it there)."""
    chunk, f = window[0]
    try:
        records, seconds = f.result()
    except BrokenProcessPool:
        raise _worker_died(chunk) from None
    window.popleft()
    learn(chunk, seconds)
    return records


_RAY_CONNECT_ENV: dict[str, str] = {
    # give up on an address that does not answer as a Ray cluster within seconds, quietly
    # (Ray's defaults retry for minutes, logging each attempt); set them to override
    "RAY_gcs_server_port_wait_time_s": "1",
    "RAY_py_gcs_connect_timeout_s": "3",
    "RAY_gcs_rpc_server_connect_timeout_s": "2",
    "RAY_BACKEND_LOG_LEVEL": "error",
}


_H2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def check_reachable(address: str) -> None:
    """``host:port`` or ``ray://host:port`` must accept a TCP connection and answer as a
    gRPC server (Ray's GCS and Ray Client both are) within 3 s each: an HTTP/2 client hello
    gets a SETTINGS frame back. Without this, Ray retries a wrong address for a minute."""
    if address == "auto":
        return
    host, sep, port = address.split("://", 1)[-1].rpartition(":")
    if not sep or not host or not port.isdigit():
        raise OptionError(f"Ray address {address!r} is not host:port, ray://host:port or auto")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=3) as conn:
            if os.environ.get("RAY_USE_TLS", "0").lower() in ("0", "false", ""):
                conn.sendall(_H2_HELLO)
                head = b""
                while len(head) < 9 and (part := conn.recv(9 - len(head))):
                    head += part
                if len(head) < 9 or head[3] != 4:
                    raise OptionError(f"{address} does not answer as a Ray cluster")
    except TimeoutError:
        raise OptionError(f"{address} does not answer as a Ray cluster (3 s)") from None
    except OSError as e:
        raise OptionError(f"cannot reach a Ray cluster at {address}: {e.strerror or e}") from None


class RayBackend:
    """Chunks as Ray tasks. Connects to ``address`` (or starts a local Ray on 127.0.0.1) and
    shuts down only a cluster it started itself. An address that does not answer as a Ray
    cluster fails within seconds (:class:`OptionError`)."""

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
                check_reachable(address)
                for key, value in _RAY_CONNECT_ENV.items():
                    os.environ.setdefault(key, value)
                try:
                    ray.init(address=address, **kwargs)
                except (ConnectionError, RuntimeError, ValueError) as e:
                    raise OptionError(
                        f"cannot connect to a Ray cluster at {address}: {e}"
                    ) from None
            else:
                from ray._private import ray_constants

                ray_constants.ENABLE_RAY_CLUSTER = False  # in case ray was imported already
                ray.init(
                    num_cpus=resolve_jobs(jobs),
                    _node_ip_address="127.0.0.1",
                    object_store_memory=200 * 1024 * 1024,
                    # workers import what the driver can (games and agents named by path)
                    runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(sys.path)}},
                    **kwargs,
                )
                self._started = True
        self._remote = ray.remote(run_chunk_timed)
        total = int(self._ray.cluster_resources().get("CPU", 1))
        self.jobs = max(1, total)

    def map_chunks(self, chunks: Iterable[Chunk]) -> Iterator[Records]:
        """Like :meth:`LocalBackend.map_chunks`: Ctrl-C hands over the chunks that already
        finished in order, then cancels the rest (a stuck task too); a task whose worker died
        (after Ray's retries) or a cluster failure is a one-line :class:`RunError`."""
        learn = _learner(chunks)
        window: deque[tuple[Chunk, Any]] = deque()
        try:
            for chunk in chunks:
                window.append((chunk, self._remote.remote(chunk)))
                if len(window) >= 2 * self.jobs:
                    yield self._next(window, learn)
            while window:
                yield self._next(window, learn)
        except KeyboardInterrupt:
            while window and self._ready(window[0][1]):
                yield self._next(window, learn)
            raise
        finally:
            for _, ref in window:
                with contextlib.suppress(Exception):  # a cluster that is gone cancels nothing
                    self._ray.cancel(ref, force=True)

    def _ready(self, ref: Any) -> bool:
        """Whether the task finished without an error (asks without waiting)."""
        done, _ = self._ray.wait([ref], timeout=0)
        if not done:
            return False
        try:
            self._ray.get(ref, timeout=0)
        except Exception:
            return False
        return True

    def _next(
        self, window: deque[tuple[Chunk, Any]], learn: Callable[[Chunk, float], object]
    ) -> Records:
        """The records of the oldest task, taken off ``window`` only once they are in hand
        (so Ctrl-C while waiting still cancels it)."""
        chunk, ref = window[0]
        errors = self._ray.exceptions
        try:
            records, seconds = self._ray.get(ref)
        except errors.RayTaskError as e:  # the chunk raised: its own error, without Ray's frame
            cause = getattr(e, "cause", None)
            if isinstance(cause, CardcoreError):
                raise type(cause)(*cause.args) from None
            raise RunError(f"a chunk failed on Ray: {_first_line(cause or e)}") from None
        except (errors.WorkerCrashedError, errors.OutOfMemoryError):
            raise _worker_died(chunk) from None
        except errors.RayError as e:
            raise RunError(
                f"the Ray cluster failed ({_first_line(e)}); the records before it are kept"
            ) from None
        window.popleft()
        learn(chunk, seconds)
        return records  # type: ignore[no-any-return]

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
        if address is not None:
            raise OptionError("address is for backend='ray'")
        return LocalBackend(jobs, preload)
    if name == "ray":
        return RayBackend(jobs, address)
    raise OptionError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
