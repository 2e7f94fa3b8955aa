"""Interrupts and faults end a run promptly with whole records kept (issue #12, defect 5 and
the worker / Ray / -j / API items of defects 6-7). The subprocess tests give a loaded 2-core
machine generous time: they wait for what they need, never for a fixed moment."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

import toy_game  # noqa: F401  (registers the toy game)
from cardcore.cli import cli
from cardcore.errors import OptionError, RunError
from cardcore.sim import plan_run, simulate
from cardcore.sim.backends import RayBackend, check_reachable, machine_cores, pool_workers
from cardcore.sim.outputs import partial_path
from cardcore.sim.runner import Chunker

TESTS = Path(__file__).parent
ENV = {**os.environ, "CARDCORE_GAME_MODULES": "toy_game", "PYTHONPATH": str(TESTS)}


def start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    """`cardcore ...` in its own session (a terminal's Ctrl-C reaches the whole group)."""
    return subprocess.Popen(
        [sys.executable, "-m", "cardcore", *args],
        cwd=cwd,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def wait_for(condition: Any, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


def group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def whole_records(path: Path) -> list[dict[str, Any]]:
    data = path.read_bytes()
    assert data.endswith(b"\n") or not data
    recs = [json.loads(line) for line in data.splitlines()]
    assert [r["index"] for r in recs] == list(range(len(recs)))
    return recs


def ctrl_c_when_stuck(tmp_path: Path, *extra: str, start_within: float = 120) -> None:
    """`cardcore sim toy` with the stuck agent: each worker sticks on its 40th move (20
    games); once the records stop growing, Ctrl-C must end the run with exit 130, whole
    records, no traceback and no process of the run left behind."""
    out = tmp_path / "g.jsonl"
    args = ["sim", "toy", "-n", "100000", "--seed", "1", "-q", "-o", str(out), *extra]
    proc = start([*args, "--agents", "toy_game:Stuck", "--chunk-size", "2"], tmp_path)
    part = Path(partial_path(str(out)))
    wait_for(lambda: part.exists() and part.stat().st_size > 0, start_within)
    size = -1
    while size != part.stat().st_size:
        size = part.stat().st_size
        time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert 0 < len(whole_records(out)) < 100000
    wait_for(lambda: group_gone(proc.pid), 60)  # no worker left behind


def test_ctrl_c_with_a_stuck_agent_at_j2(tmp_path: Path) -> None:
    """Defect 5: `-j 2` with an agent that never returns ignored Ctrl-C twice."""
    ctrl_c_when_stuck(tmp_path, "-j", "2")


def killed_worker_fails(tmp_path: Path, games: int, *extra: str, timeout: float = 300) -> None:
    """`cardcore sim toy` with the agent that kills its own process on its 40th move: exit 1
    with one line, whole records kept, no `.partial` file left."""
    out = tmp_path / "g.jsonl"
    args = ["sim", "toy", "-n", str(games), "--seed", "1", "-q", "-o", str(out), *extra]
    proc = start([*args, "--agents", "toy_game:Dies"], tmp_path)
    _, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 1, err
    assert "worker process died" in err
    assert "Traceback" not in err
    whole_records(out)
    assert not Path(partial_path(str(out))).exists()


def test_a_killed_worker_is_a_one_line_run_failure(tmp_path: Path) -> None:
    """Defect 7: a killed worker (BrokenProcessPool) ended in a traceback."""
    killed_worker_fails(tmp_path, 100000, "-j", "2", "--chunk-size", "2")


def test_ctrl_c_at_j2_keeps_the_records_and_resumes_to_the_same_bytes(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    base = ["sim", "toy", "-n", "60000", "--seed", "4", "-q", "--agents", "random"]
    assert CliRunner().invoke(cli, [*base, "-o", str(full)], env=ENV).exit_code == 0
    out = tmp_path / "g.jsonl"
    proc = start([*base, "-j", "2", "-o", str(out)], tmp_path)
    part = Path(partial_path(str(out)))
    wait_for(lambda: proc.poll() is not None or (part.exists() and part.stat().st_size > 0))
    with contextlib.suppress(ProcessLookupError):  # it may have finished already
        os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:  # finished before the signal arrived: nothing to resume
        assert out.read_bytes() == full.read_bytes()
        return
    assert proc.returncode == 130, err
    assert whole_records(out), err
    r = CliRunner().invoke(cli, [*base, "-j", "2", "-o", str(out), "--resume"], env=ENV)
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == full.read_bytes()


HALF_WRITTEN = """
import os, struct, sys
from cardcore.sim.backends import LocalBackend
backend = LocalBackend(jobs=2)
from concurrent.futures import ProcessPoolExecutor
import multiprocessing
pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("forkserver"))
assert pool.submit(abs, -1).result() == 1
# a worker killed while sending its result: a header promising 1,000 bytes, then 3 of them
os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 1000) + b"abc")
backend._pool, backend._clean = pool, False
backend.close()
print("closed")
"""


def test_a_result_half_written_by_a_killed_worker_does_not_hang_the_pool() -> None:
    # Ctrl-C kills the workers; one killed mid-result left the pool's reader waiting forever
    proc = subprocess.run(
        [sys.executable, "-c", HALF_WRITTEN], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "closed"
    assert "Traceback" not in proc.stderr


def test_cardcore_play_without_a_terminal(tmp_path: Path) -> None:
    """Defect 5: `cardcore play` with stdin not a terminal hung (spinning a core)."""
    pytest.importorskip("textual")
    proc = subprocess.run(
        [sys.executable, "-m", "cardcore", "play", "three-thirteen", "--no-replay"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert "needs an interactive terminal" in proc.stderr


def test_unreachable_ray_address_fails_at_once() -> None:
    """Defect 5: `--backend ray --address 127.0.0.1:1` waited more than 150 s."""
    pytest.importorskip("ray")
    with pytest.raises(OptionError, match=r"cannot reach a Ray cluster at 127\.0\.0\.1:1"):
        list(simulate("toy", games=1, seed=1, backend="ray", address="127.0.0.1:1"))
    with pytest.raises(OptionError, match="not host:port"):
        list(simulate("toy", games=1, seed=1, backend="ray", address="nonsense"))
    r = CliRunner().invoke(
        cli,
        ["sim", "toy", "-n", "1", "--seed", "1", "--backend", "ray", "--address", "127.0.0.1:1"],
        env=ENV,
    )
    assert r.exit_code == 1
    assert "cannot reach a Ray cluster" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.distributed
def test_an_address_that_is_not_ray_fails_within_seconds(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen(8)
        port = srv.getsockname()[1]
        args = ["sim", "toy", "-n", "1", "--seed", "1", "--backend", "ray"]
        proc = start([*args, "--address", f"127.0.0.1:{port}"], tmp_path)
        _, err = proc.communicate(timeout=180)  # Ray's defaults took minutes
    assert proc.returncode == 1, err
    assert "does not answer as a Ray cluster" in err
    assert "Traceback" not in err


def test_an_address_needs_the_ray_backend() -> None:
    """As a new user: `--address` without `--backend ray` was ignored silently."""
    r = CliRunner().invoke(cli, ["sim", "toy", "-n", "1", "--address", "h:1"], env=ENV)
    assert r.exit_code == 2
    assert "--address is for --backend ray" in r.output
    with pytest.raises(OptionError, match="address is for backend='ray'"):
        list(simulate("toy", games=1, seed=1, address="h:1"))


def test_jobs_are_capped_at_the_cores(tmp_path: Path) -> None:
    """Defect 9: `-j 64` on 2 cores started 67 processes."""
    cores = machine_cores()
    with pytest.warns(RuntimeWarning, match=f"using {cores}"):
        recs = list(simulate("toy", games=4, seed=1, jobs=cores + 62))
    assert len(recs) == 4
    r = CliRunner().invoke(cli, ["sim", "toy", "-n", "2", "--seed", "1", "-j", "64"], env=ENV)
    assert r.exit_code == 0
    assert f"using {cores}" in r.output


@pytest.mark.parametrize(
    ("kw", "msg"),
    [
        ({"chunk_size": -1}, "chunk_size"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"jobs": -4}, "jobs"),
        ({"jobs": 1.5}, "jobs"),
        ({"games": -1}, "games"),
        ({"games": 2.5}, "games"),
        ({"seed": "7"}, "seed"),
        ({"seed": -7}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"players": "2"}, "players"),
        ({"start": -1}, "start"),
        ({"backend": "cloud"}, "backend"),
    ],
)
def test_simulate_rejects_bad_arguments(kw: dict[str, Any], msg: str) -> None:
    """Defect 6: `simulate(chunk_size=-1)` returned 0 records, `jobs=-4` used every core."""
    args: dict[str, Any] = {"games": 3, "seed": 1, **kw}
    with pytest.raises(OptionError, match=msg):
        list(simulate("toy", **args))


def test_chunk_sizes_adapt_and_never_change_the_output() -> None:
    plan = plan_run("toy", games=100, seed=3)
    chunker = Chunker(plan, limit=16, target=1.0)
    sizes = []
    for chunk in chunker:
        sizes.append(chunk.stop - chunk.start)
        chunker.finished(chunk, 0.001 * sizes[-1])  # fast games: grow, at most doubling
    assert sizes[:5] == [1, 2, 4, 8, 16]
    assert sum(sizes) == 100
    slow = Chunker(plan, limit=16, target=1.0)
    it = iter(slow)
    first = next(it)
    slow.finished(first, 5.0)  # one game takes 5 s: stay at one game per chunk
    second = next(it)
    assert second.stop - second.start == 1
    assert list(simulate("toy", games=50, seed=2)) == list(
        simulate("toy", games=50, seed=2, chunk_size=7)
    )


UNGUARDED = """import cardcore
for record in cardcore.simulate('spite-malice', games=6, seed=1, jobs=2):
    print(record['winner'], record['agents'])
"""
GUARDED_OWN_AGENT = """import cardcore
class First:
    def act(self, observation, legal, rng):
        return legal[0]
if __name__ == '__main__':
    for r in cardcore.simulate('spite-malice', games=6, seed=1, jobs=2, agents=[First, 'random']):
        print(r['winner'], r['agents'])
"""


UNGUARDED_OWN_AGENT = GUARDED_OWN_AGENT.replace("if __name__ == '__main__':\n    ", "")


@pytest.mark.parametrize(
    ("text", "agent"),
    [(UNGUARDED, "planner"), (GUARDED_OWN_AGENT, "First"), (UNGUARDED_OWN_AGENT, None)],
)
def test_scripts_run_at_j2(tmp_path: Path, text: str, agent: str | None) -> None:
    """As a new user: the README's `simulate(..., jobs=2)` saved as a script crashed (the
    workers re-ran it, having no `__main__` guard). Workers still import the script when the
    run uses an agent defined in it: then it needs the guard, as usual, and the error says so."""
    script = tmp_path / "example.py"
    script.write_text(text)
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, check=False
    )
    if agent is None:
        assert run.returncode != 0
        assert "a script without an `if __name__" in run.stderr
        return
    assert run.returncode == 0, run.stderr
    assert len(run.stdout.splitlines()) == 6
    assert run.stdout.count(agent) >= 6


@pytest.mark.distributed
def test_a_real_ray_cluster_passes_the_address_check() -> None:
    """The quick check that fails a wrong address must accept Ray's own GCS."""
    ray = pytest.importorskip("ray")
    engine = RayBackend(jobs=1)
    try:
        check_reachable(ray.get_runtime_context().gcs_address)
    finally:
        engine.close()
    assert not ray.is_initialized()


def test_pool_workers_finds_the_live_workers() -> None:
    """`pool_workers` is the one use of ProcessPoolExecutor's private `_processes`: a Python
    that renames it must fail here, not leave a stuck worker running after Ctrl-C."""
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=ctx) as pool:
        pids = {pool.submit(os.getpid).result(timeout=120)}
        workers = pool_workers(pool)
        assert workers
        assert pids <= {p.pid for p in workers}
        assert all(p.is_alive() for p in workers)


# -- the Ray backend's Ctrl-C and dead workers, with a stand-in for ray -----------------------


class _RayError(Exception):
    pass


class _RayTaskError(_RayError):
    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"ray::run_chunk_timed() (pid=1)\n  File 'x.py', line 1\n{cause!r}")
        self.cause = cause


class _WorkerCrashedError(_RayError):
    pass


class FakeRay:
    """Tasks are chunk numbers; ``outcome[n]`` is what ``get`` gives for task ``n``: records,
    an exception to raise, or ``KeyboardInterrupt`` (Ctrl-C while waiting). Tasks in
    ``stuck`` never finish."""

    exceptions = SimpleNamespace(
        RayError=_RayError,
        RayTaskError=_RayTaskError,
        WorkerCrashedError=_WorkerCrashedError,
        OutOfMemoryError=type("OutOfMemoryError", (_RayError,), {}),
    )

    def __init__(self, outcome: dict[int, Any], stuck: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        self.outcome = outcome
        self.stuck = stuck
        self.cancelled: list[int] = []
        self.interrupted = False
        self.remote = lambda chunk: chunk.n

    def get(self, ref: int, timeout: float | None = None) -> Any:
        result = self.outcome[ref]
        if result is KeyboardInterrupt and not self.interrupted:
            self.interrupted = True  # Ctrl-C arrives once, while waiting for this task
            raise KeyboardInterrupt
        if ref in self.stuck:
            raise AssertionError("waited for a stuck task")
        if isinstance(result, BaseException):
            raise result
        return [{"chunk": ref}], 0.01

    def wait(self, refs: list[int], timeout: float) -> tuple[list[int], list[int]]:
        done = [r for r in refs if r not in self.stuck]
        return done, [r for r in refs if r in self.stuck]

    def cancel(self, ref: int, force: bool = False) -> None:
        self.cancelled.append(ref)


def fake_chunks(n: int) -> list[Any]:
    """Stand-ins for :class:`Chunk` (task ``k`` runs chunk ``k``)."""
    plan = SimpleNamespace(module="toy_game", agents=("high", "high"))
    return [SimpleNamespace(n=k, plan=plan) for k in range(n)]


def fake_ray_backend(ray: FakeRay, jobs: int) -> RayBackend:
    backend = RayBackend.__new__(RayBackend)
    backend._ray, backend._started, backend.jobs = ray, False, jobs
    backend._remote = SimpleNamespace(remote=ray.remote)  # type: ignore[assignment]
    return backend


def test_ray_ctrl_c_hands_over_finished_chunks_and_cancels_the_rest() -> None:
    """Before: the task being waited for was taken off the window first, so Ctrl-C left it
    running (never cancelled) and threw away the chunks that had finished behind it."""
    # Ctrl-C while waiting for task 0 (which finishes), 1 done, 2 stuck, 3 done
    ray = FakeRay({0: KeyboardInterrupt, 1: None, 2: None, 3: None}, stuck={2})
    it = fake_ray_backend(ray, jobs=2).map_chunks(fake_chunks(6))
    got: list[list[dict[str, Any]]] = []
    with pytest.raises(KeyboardInterrupt):
        got.extend(it)
    assert got == [[{"chunk": 0}], [{"chunk": 1}]]
    assert ray.cancelled == [2, 3]  # the stuck task too; chunks 4, 5 were never sent


def test_ray_ctrl_c_while_the_oldest_is_stuck_cancels_it() -> None:
    ray = FakeRay({0: KeyboardInterrupt, 1: None}, stuck={0})
    it = fake_ray_backend(ray, jobs=1).map_chunks(fake_chunks(2))
    with pytest.raises(KeyboardInterrupt):
        list(it)
    assert ray.cancelled == [0, 1]


@pytest.mark.parametrize(
    ("error", "kind", "shown"),
    [
        (_WorkerCrashedError("The worker died unexpectedly"), RunError, "a worker process died"),
        (_RayTaskError(RunError("game 5 (seed 9): agent failed")), RunError, "game 5 (seed 9)"),
        (_RayTaskError(OptionError("bad option")), OptionError, "bad option"),
        (_RayTaskError(MemoryError()), RunError, "a chunk failed on Ray: MemoryError"),
        (_RayError("GCS went away\nmore"), RunError, "the Ray cluster failed (_RayError: GCS"),
    ],
)
def test_ray_task_failures_are_one_line_errors(
    error: BaseException, kind: type[Exception], shown: str
) -> None:
    """Before: Ray's exceptions (a dead worker, the remote traceback) reached the CLI as is."""
    ray = FakeRay({0: None, 1: error, 2: None})
    got: list[list[dict[str, Any]]] = []
    with pytest.raises(kind) as info:
        got.extend(fake_ray_backend(ray, jobs=1).map_chunks(fake_chunks(3)))
    assert got == [[{"chunk": 0}]]  # the records before it are kept
    assert shown in str(info.value)
    assert "\n" not in str(info.value)
    assert not isinstance(info.value, _RayError)
    assert ray.cancelled == [1, 2]


@pytest.mark.distributed
def test_a_dead_ray_worker_is_a_one_line_run_failure(tmp_path: Path) -> None:
    """A real local Ray: a worker killed mid-chunk (after Ray's retries) ends the run with
    exit 1 and one line, the records before it kept."""
    pytest.importorskip("ray")
    killed_worker_fails(tmp_path, 200, "-j", "1", "--backend", "ray", timeout=600)


@pytest.mark.distributed
def test_ctrl_c_on_ray_with_a_stuck_agent(tmp_path: Path) -> None:
    """A real local Ray: Ctrl-C with a stuck task exits 130 with whole records, no traceback,
    and leaves no process of the run behind."""
    pytest.importorskip("ray")
    ctrl_c_when_stuck(tmp_path, "-j", "1", "--backend", "ray", start_within=300)
