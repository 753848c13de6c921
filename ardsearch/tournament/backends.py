"""Where games run. Each backend takes the tasks in schedule order, keeps at
most `concurrency` games in flight, and yields finished records as they
arrive (in any order); `stop()` is asked before every new submission so an
SPRT decision or a fault without --recover ends the run early.

- local, concurrency 1: games run in this process (no pool, no pickling).
- local, concurrency N: a process pool; each worker keeps its own engine
  processes (pinned to the worker) across the games it plays.
- ray: each game is a Ray task; `address` joins a running cluster, otherwise
  a local Ray instance with `concurrency` CPUs is started and stopped here.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from ardsearch.tournament import referee

BACKENDS = ("local", "ray")


def run_local(config, tasks, concurrency: int, stop):
    if concurrency <= 1:
        try:
            for task in tasks:
                if stop():
                    return
                yield referee.play_task(config, task)
        finally:
            referee.close_players()
        return
    # spawn, not fork: the parent may hold threads (engine readers, pytest) that fork would copy badly.
    pool = ProcessPoolExecutor(max_workers=concurrency, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_init_worker)
    pending = set()
    todo = iter(tasks)
    finished = False
    try:
        while True:
            while len(pending) < concurrency and not stop():
                task = next(todo, None)
                if task is None:
                    break
                with _sigint_ignored():   # a worker started here ignores Ctrl-C from birth
                    pending.add(pool.submit(referee.play_task, config, task))
            if not pending:
                finished = True
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        if not finished:
            # Ctrl-C, an error, or the caller giving up: stop the games in flight
            # now rather than wait for them (the finished ones are recorded). A
            # worker's engines see their stdin close and exit.
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
        else:
            pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _sigint_ignored():
    """SIGINT ignored in this process meanwhile, so worker processes started
    meanwhile inherit that (through exec too) and never see a Ctrl-C while
    they start up; the parent's handling comes back right after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _init_worker():
    # Ctrl-C is the parent's to handle (a terminal sends it to the whole process
    # group): it keeps the finished games and stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Engines must stop with the worker: multiprocessing skips atexit in
    # children but runs its own finalizers.
    from multiprocessing import util
    util.Finalize(None, referee.close_players, exitpriority=10)


def _ray_play(config, task):
    return referee.play_task(config, task)


def run_ray(config, tasks, concurrency: int, stop, address: str | None = None):
    try:
        import ray
    except ImportError:
        raise RuntimeError("the ray backend needs Ray: pip install 'ardsearch[ray]'") from None
    started_here = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, logging_level="WARNING", log_to_driver=False)
        else:
            # Workers of a local instance must import this very ardsearch (it may be
            # a source checkout that is not installed).
            root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(referee.__file__))))
            path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
            ray.init(num_cpus=max(1, concurrency), include_dashboard=False, logging_level="WARNING",
                     log_to_driver=False, runtime_env={"env_vars": {"PYTHONPATH": path}})
        started_here = True
    remote = ray.remote(num_cpus=1, max_retries=0)(_ray_play)
    config_ref = ray.put(config)
    pending = []
    todo = iter(tasks)
    try:
        while True:
            while len(pending) < concurrency and not stop():
                task = next(todo, None)
                if task is None:
                    break
                pending.append(remote.remote(config_ref, task))
            if not pending:
                return
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()


def run(backend: str, config, tasks, concurrency: int, stop, address=None):
    if backend == "local":
        return run_local(config, tasks, concurrency, stop)
    if backend == "ray":
        return run_ray(config, tasks, concurrency, stop, address)
    raise ValueError(f"unknown backend {backend!r} (use {' or '.join(BACKENDS)})")
