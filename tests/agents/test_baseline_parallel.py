"""The baseline's worker processes (``baseline.parallel``): results in order, errors raised."""

from __future__ import annotations

import os
import sys
from functools import partial
from pathlib import Path

import pytest
from threadpoolctl import threadpool_info

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "agents" / "baseline"))

from baseline.parallel import run_all  # noqa: E402


def _whoami(k: int) -> tuple[int, int, dict]:
    return k, os.getpid(), {i["user_api"]: i["num_threads"] for i in threadpool_info()}


def test_two_cpus_fork_two_workers_and_keep_the_order():
    results = run_all([partial(_whoami, k) for k in range(5)], cpus=2)
    assert [k for k, _, _ in results] == list(range(5))
    pids = {pid for _, pid, _ in results}
    assert os.getpid() not in pids and len(pids) == 2
    for _, _, threads in results:  # OpenMP split between the workers; BLAS as in the parent
        assert threads.get("openmp", 1) == 1
        assert threads.get("blas") == {i["user_api"]: i["num_threads"] for i in threadpool_info()}.get("blas")


def test_one_cpu_or_one_task_runs_in_this_process():
    assert {pid for _, pid, _ in run_all([partial(_whoami, k) for k in range(3)], cpus=1)} == {os.getpid()}
    assert run_all([partial(_whoami, 7)], cpus=2)[0][:2] == (7, os.getpid())


def _fail() -> None:
    raise ValueError("task 1 failed")


def test_an_error_in_a_worker_is_raised_in_the_caller():
    with pytest.raises(ValueError, match="task 1 failed"):
        run_all([partial(_whoami, 0), _fail], cpus=2)
