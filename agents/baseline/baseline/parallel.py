"""Independent pieces of work in forked worker processes, so the agent uses the CPUs it is granted.

Much of the baseline is single-threaded Python or numpy (candidate fits on small data, the sequence
aligner and beam search, per-image features). :func:`run_all` runs a list of zero-argument callables in
up to ``cpus`` forked workers and returns their results in the order of the list. Every callable computes
exactly what it would in the parent, so the submission is the same bytes as a sequential run; only the
time changes.

Threads: each worker runs OpenMP (gradient boosting) on ``cpus // workers`` threads, which gives the same
model as any other count (boosting's sums do not depend on it; see ``ONE_THREAD_BELOW_ROWS`` in
:mod:`baseline.models`), and a forked child must not start a larger OpenMP team than its parent had (GNU
OpenMP's pool does not survive a fork). BLAS keeps the parent's thread count: a BLAS dot product split
over two threads adds in another order than over one, and liblinear's and PCA's results changed with it
(measured: movielens-genres' validation scores, hence its submission, differed with one BLAS thread).

The workers are forked (they inherit the parent's data without pickling it; results come back pickled).
Sequential where forking is not available or not worth it (one CPU, one task).
"""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Callable, Sequence
from typing import TypeVar

from threadpoolctl import threadpool_limits

T = TypeVar("T")
log = logging.getLogger("baseline")
_TASKS: Sequence[Callable[[], object]] = ()
_THREADS = 1


def _call(index: int) -> object:
    with threadpool_limits(_THREADS, user_api="openmp"):
        return _TASKS[index]()


def workers_for(cpus: int, n_tasks: int) -> int:
    """Worker processes worth starting for ``n_tasks`` tasks on ``cpus`` CPUs (1: run in this process).

    >>> workers_for(2, 5), workers_for(1, 5), workers_for(4, 1), workers_for(4, 3)
    (2, 1, 1, 3)
    """
    if cpus < 2 or n_tasks < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return min(cpus, n_tasks)


def run_all(tasks: Sequence[Callable[[], T]], cpus: int) -> list[T]:
    """Results of ``tasks`` (zero-argument callables) in order, computed by up to ``cpus`` forked workers.

    Tasks are handed out one at a time in list order (put the longest first). An exception in a task is
    raised here.
    """
    global _TASKS, _THREADS
    workers = workers_for(cpus, len(tasks))
    if workers == 1:
        return [task() for task in tasks]
    _TASKS, _THREADS = tasks, max(1, cpus // workers)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return pool.map(_call, range(len(tasks)), chunksize=1)
    finally:
        _TASKS = ()
