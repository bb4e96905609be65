"""The ``podman`` runner run as root: root's own (rootful) Podman service holds the hardware profile.

Run as root with no ``CONTAINER_HOST``, the runner starts and uses root's Podman service (the
``podman-rootful`` parameter, :data:`cells.PODMAN_ROOTFUL`), whose cgroup manager holds ``cpus``, ``memory``
and ``pids`` on cgroups v1 as on v2 (this project's CI machine: v1). So its cells count, where an ordinary
user's rootless Podman on v1 holds none of them (the ``podman`` parameter, the rest of tests/docker). Shown
here with the hostile agent: the limits are in the agent's own cgroup, a memory hog is killed at the
profile's memory and the kill recorded, a fork bomb stops at the pids limit (the cgroup's, not an rlimit),
run.json names no limit as not enforced and the cell is isolated. The agent is held as under every engine:
uid 1000, no capabilities, our seccomp profile, no network, ``egress`` only through the relay to the cell's
proxy, the answers out of reach (the same probes as the hostile-agent suite, collected here under this
parameter). v1's dummy under rootful Podman, counted in
the headline: tests/docker/test_docker_v1_agents.py.
"""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters

from __future__ import annotations

import pytest
from container_fixtures import (  # noqa: F401 - fixtures
    PODMAN_ROOTFUL,
    docker_client,
    env_ref,
    hostile,
    hw,
    podman_service,
    runner,
    settings,
    titanic,
    under,
)
from test_docker_redteam import (  # noqa: F401 - the hostile-agent suite's probes, collected here too
    test_a_relayed_agent_that_stops_its_relay_still_reaches_only_its_proxy,
    test_answers_are_unreachable_by_any_path,
    test_egress_is_opt_in_and_recorded,
    test_fork_bomb_hits_the_pids_limit,
    test_no_network_by_default,
    test_no_user_namespace_within_no_refused_call_and_an_empty_bounding_set,
    test_runs_unprivileged_without_capabilities,
)

from mlebench.execution.contract import LIMITS_ENFORCED
from mlebench.execution.podman import NPROC_LIMIT

pytestmark = [pytest.mark.docker, under(PODMAN_ROOTFUL)]
MIB = 1024**2


def test_every_limit_is_held_in_the_agents_own_cgroup_and_the_cell_counts(hostile, hw) -> None:
    profile = hw.model_copy(update={"memory": "300m", "pids": 50, "cpus": 0.5, "shm_size": "32m"})
    run = hostile("limits", hardware=profile)
    result, record = run.result, run.record
    assert record.status == "ok" and record.runner == "podman", record.reason
    assert record.docker["engine"] == "podman" and record.docker["rootless"] is False, record.docker
    assert record.docker["limits_not_enforced"] == [] and record.limits_enforced == list(LIMITS_ENFORCED)
    assert NPROC_LIMIT not in record.limits_enforced  # the cgroup's pids limit, not the per-user rlimit
    assert record.unisolated() == "" and record.lineage()["agent_rootless"] == "false"
    # what the kernel holds the agent's own cgroup to (cgroup v1 files here, v2's where the host has v2)
    assert int(result["memory"]) == 300 * MIB
    assert result["memsw"] in (str(300 * MIB), "absent")  # no swap beyond the memory limit
    assert result["pids"] == "50"
    quota, period = result["cpu_quota"].split()[0], result["cpu_period"].split()[-1]
    assert int(quota) / int(period) == pytest.approx(0.5), result
    assert result["shm_bytes"] == 32 * MIB


def test_a_memory_hog_is_killed_at_the_profiles_memory_and_the_kill_recorded(hostile, hw) -> None:
    run = hostile("memory", hardware=hw.model_copy(update={"memory": "256m"}), mb=2048)
    assert run.record.status == "agent_error" and run.record.oom_killed, run.record
    assert "out-of-memory" in run.record.reason
    assert 0 < run.result.get("allocated_mb", 0) <= 256, run.result
    assert run.record.unisolated() == ""  # a cell killed for memory is still a counted cell
