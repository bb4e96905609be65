"""The sandbox's cgroup, made through whatever the machine offers (mlebench/execution/cgroups.py).

A delegated cgroup v2 subtree is a layout of files: it is tested on a folder laid out like one (the kernel's
files the code writes, the controllers the parent gives). This machine's own hierarchy is tried for real: a
hybrid one (v1 controllers, an empty v2 ``unified``) as root gets a v1 cgroup and says why v2 could not.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from mlebench.execution import cgroups
from mlebench_spec.params import Hardware

HW = Hardware(name="t", cpus=1.5, memory="256m", shm_size="16m", pids=48, gpus=0, time_limit_secs=10)


def _v2(root: Path, given: str) -> Path:
    unified = root / "unified" / "delegated"
    unified.mkdir(parents=True)
    (unified / "cgroup.subtree_control").write_text(given + "\n")
    (unified / "cgroup.procs").write_text("")
    return unified


def test_a_delegated_v2_subtree_holds_every_limit(tmp_path: Path) -> None:
    parent = _v2(tmp_path, "cpuset cpu io memory pids")
    made, why = cgroups.make("cell", HW, root=tmp_path, own={"": "/delegated/runner"})
    assert made is not None and why == "" and made.via == f"cgroup v2 ({parent})"
    folder = parent / "cell"  # the first ancestor that gives the controllers, not the runner's own leaf
    assert made.folders == {"unified": folder}
    assert (folder / "memory.max").read_text() == str(256 * 1024**2)
    assert (folder / "cpu.max").read_text() == "150000 100000" and (folder / "pids.max").read_text() == "48"
    assert set(made.held) == {"cpus", "pids"} | ({"memory (no swap)"} if cgroups.no_swap() else set())
    command = made.enter(["bwrap", "--", "true"])
    assert command[:2] == ["sh", "-c"] and f"echo $$ > {folder / 'cgroup.procs'}" in command[2]
    assert command[-3:] == ["bwrap", "--", "true"]


def test_a_v2_subtree_without_the_controllers_is_refused_with_the_reason(tmp_path: Path) -> None:
    _v2(tmp_path, "cpu")
    made, why = cgroups.make("cell", HW, root=tmp_path, own={"": "/delegated"})
    assert made is None
    assert "gives its children no memory/pids" in why and "no memory controller mounted" in why, why
    assert not (tmp_path / "unified" / "delegated" / "cell").exists()


def test_a_systemd_user_scope_sets_the_profiles_limits(tmp_path: Path) -> None:
    scope = cgroups.SystemdScope("mlebench-sandbox-1", HW, Path("/sys/fs/cgroup"))
    command = scope.enter(["bwrap", "--", "true"])
    assert command[:5] == ["systemd-run", "--user", "--scope", "--quiet", "--collect"]
    props = {command[i + 1] for i, arg in enumerate(command) if arg == "-p"}
    assert props == {f"MemoryMax={256 * 1024**2}", "MemorySwapMax=0", "CPUQuota=150%", "TasksMax=48"}
    assert command[-3:] == ["bwrap", "--", "true"] and scope.held == ["cpus", "memory (no swap)", "pids"]
    # the shell in the scope keeps its memory.events before the scope ends: run it without systemd here
    fake = tmp_path / "fs"
    own = Path("/proc/self/cgroup").read_text()
    path = next(line.split(":", 2)[2] for line in own.splitlines() if line.startswith("0::"))
    (fake / path.lstrip("/")).mkdir(parents=True, exist_ok=True)
    (fake / path.lstrip("/") / "memory.events").write_text("low 0\noom 1\noom_kill 1\n")
    scope.mount = fake
    shell = scope.enter(["sh", "-c", "exit 3"])
    shell = shell[shell.index("--") + 1 :]
    assert subprocess.run(shell).returncode == 3 and scope.oom_killed()
    scope.remove()


@pytest.mark.skipif(
    os.getuid() != 0 or not Path("/sys/fs/cgroup/memory/memory.limit_in_bytes").is_file(),
    reason="needs root on a machine with cgroup v1 controllers",
)
def test_root_on_a_v1_machine_gets_a_v1_cgroup() -> None:
    made, why = cgroups.make(f"mlebench-test-{os.getpid()}", HW)
    assert made is not None, why
    try:
        assert made.via == "cgroup v1" and set(made.folders) == {"memory", "pids", "cpu"}
        assert (made.folders["cpu"] / "cpu.cfs_quota_us").read_text().strip() == "150000"
        assert (made.folders["pids"] / "pids.max").read_text().strip() == "48"
        assert "memory (no swap)" in made.held  # memsw set, or no swap
        proc = subprocess.run(made.enter(["cat", "/proc/self/cgroup"]), capture_output=True, text=True)
        assert f"memory:{made.folders['memory'].relative_to('/sys/fs/cgroup/memory').as_posix()}" in (
            proc.stdout.replace("memory:/", "memory:")
        )
    finally:
        made.remove()
    assert not any(folder.exists() for folder in made.folders.values())
