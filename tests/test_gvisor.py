"""gVisor's set-up: the runtimes environment/start_engine.sh gives dockerd, and which one a cell runs under.

The suite under a real engine is tests/docker (the ``gvisor`` runner parameter); these need neither root nor
an engine: start_engine.sh's ``--print-config`` runs with a stand-in ``runsc`` whose own network stack works
or fails as the real one does.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from mlebench.execution import seccomp
from mlebench.execution.docker.agent import ContainerRunRecord
from mlebench.execution.docker.gvisor import (
    KERNEL,
    NO_NEW_PRIVILEGES,
    SECCOMP,
    SENTRY_THREADS,
    STACKS,
    THREADS_PER_TASK,
    container_limits,
    network_mode,
    resolve,
    security_opt,
)
from mlebench_spec.errors import ConfigError
from mlebench_spec.network import NetworkPolicy

ENDPOINTS = {"egress": (), "llm": ("api.example.test:443",)}

ROOT = Path(__file__).resolve().parents[1]
RUNSC = "/usr/bin/runsc"
ENGINE = {  # what `docker info` says after environment/start_engine.sh on a kernel where netstack fails
    "runc": {"path": "runc"},
    "runsc": {"path": RUNSC, "runtimeArgs": ["--network=none"]},
    "runsc-hostnet": {"path": RUNSC, "runtimeArgs": ["--network=host"]},
}


def _print_config(tmp_path: Path, netstack_runs: bool, base: dict | None = None) -> dict:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    runsc = bin_dir / "runsc"
    # the script probes `runsc --network=sandbox do true`; the stand-in records its call and answers as told
    runsc.write_text(
        f'#!/bin/sh\necho "$@" >>"{tmp_path}/calls"\n'
        f'[ "$1" = --network=sandbox ] && exit {0 if netstack_runs else 128}\nexit 0\n'
    )
    runsc.chmod(0o755)
    base_file = tmp_path / "daemon.json"
    if base is not None:
        base_file.write_text(json.dumps(base))
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "DOCKERD_BASE_CONFIG": str(base_file)}
    done = subprocess.run(
        [str(ROOT / "environment/start_engine.sh"), "--print-config"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "calls").read_text().split() == ["--network=sandbox", "do", "true"]
    return json.loads(done.stdout)


@pytest.mark.parametrize("netstack_runs", [True, False])
def test_start_engine_registers_gvisor_with_the_network_that_runs_here(tmp_path, netstack_runs) -> None:
    base = {"log-level": "warn", "runtimes": {"x": {"path": "x"}}}
    config = _print_config(tmp_path, netstack_runs, base)
    runsc = str(tmp_path / "bin" / "runsc")
    assert config["log-level"] == "warn" and config["runtimes"]["x"] == {"path": "x"}, "the base is kept"
    assert config["runtimes"]["runsc"] == {
        "path": runsc,
        "runtimeArgs": ["--oci-seccomp"] + ([] if netstack_runs else ["--network=none"]),
    }
    hostnet = {"path": runsc, "runtimeArgs": ["--oci-seccomp", "--network=host"]}
    assert config["runtimes"]["runsc-hostnet"] == hostnet


def test_start_engine_without_a_base_config_writes_the_runtimes_alone(tmp_path) -> None:
    config = _print_config(tmp_path, netstack_runs=False)
    assert set(config) == {"runtimes"} and set(config["runtimes"]) == {"runsc", "runsc-hostnet"}


def test_an_agent_without_a_network_runs_under_the_runtime_named() -> None:
    assert resolve(ENGINE, "runc", "egress") == ("runc", {})
    chosen, facts = resolve(ENGINE, "runsc", NetworkPolicy("none"))
    assert chosen == "runsc" and facts["kernel"] == KERNEL and facts["gvisor_network"] == STACKS["none"]


@pytest.mark.parametrize("network", ["egress", "llm"])
def test_a_proxied_agent_runs_where_its_sealed_namespaces_firewall_holds_its_sockets(network) -> None:
    netstack = {**ENGINE, "runsc": {"path": RUNSC}, "other-hostnet": ENGINE["runsc-hostnet"]}
    chosen, facts = resolve(netstack, "runsc", NetworkPolicy(network, ENDPOINTS[network]))
    assert chosen == "runsc-hostnet", "start_engine.sh's name wins over any other --network=host runtime"
    assert facts == {
        "kernel": KERNEL,
        "engine_runtime": "runsc-hostnet",
        "gvisor_network": STACKS["host"],
        "seccomp": SECCOMP,
    }
    assert resolve(ENGINE, "runsc-hostnet", NetworkPolicy(network, ENDPOINTS[network]))[0] == "runsc-hostnet"
    with pytest.raises(ConfigError, match="no runsc runtime with --network=host.*start_engine.sh"):
        resolve({"runsc": {"path": RUNSC}}, "runsc", NetworkPolicy(network, ENDPOINTS[network]))


def test_a_runtime_the_engine_lacks_is_a_config_error_naming_the_fix() -> None:
    with pytest.raises(ConfigError, match="does not offer it.*apt-get install runsc"):
        resolve({"runc": {"path": "runc"}}, "runsc", NetworkPolicy("none"))


def test_runscs_network_mode_is_its_last_network_argument() -> None:
    assert network_mode({"path": RUNSC}) == "sandbox"
    assert network_mode({"path": RUNSC, "runtimeArgs": ["--network", "host", "--debug"]}) == "host"
    assert network_mode({"path": RUNSC, "runtimeArgs": ["--network=none", "--network=host"]}) == "host"


def test_the_record_says_the_agent_met_gvisors_kernel_whatever_the_runtimes_name() -> None:
    fields = dict(
        competition_id="c", agent="a", seed=0, runner="docker", status="ok", exit_code=0, started_at="",
        finished_at="", agent_seconds=0.0, time_limit_secs=1, hardware={}, limits_enforced=[],
        submission_exists=False, extraction_notes=[], agent_sha256="", config_sha256="", public_sha256="",
        python="",
    )  # fmt: skip
    under = ContainerRunRecord(**fields, docker={"runtime": "runsc-nonet", "kernel": KERNEL})
    assert under.lineage()["agent_kernel"] == KERNEL
    host = ContainerRunRecord(**fields, docker={"runtime": "runc", "kernel": "host"})
    assert "agent_kernel" not in host.lineage()


def test_under_gvisor_pids_are_held_by_its_kernel_and_the_cgroup_leaves_room_for_its_threads() -> None:
    """A cgroup pids limit of the profile's size starves gVisor's kernel of threads (the sandbox dies)."""
    assert container_limits("runc", 64) == {}
    resolve(ENGINE, "runsc", NetworkPolicy("none"))  # the engine's runsc runtimes are now known by name
    limits = container_limits("runsc-hostnet", 64)
    assert limits["pids_limit"] == THREADS_PER_TASK * 64 + SENTRY_THREADS > 600
    (nproc,) = limits["ulimits"]
    assert (nproc["Name"], nproc["Soft"], nproc["Hard"]) == ("nproc", 64, 64)


def test_the_gvisor_profile_refuses_what_ours_does_with_the_errors_runsc_gives() -> None:
    """Every refusal is EPERM, as runsc 20221219 gives any SCMP_ACT_ERRNO (it ignores errnoRet).

    clone3's ENOSYS, which the C library needs to fall back to clone, comes from SCMP_ACT_TRACE instead (no
    tracer: ENOSYS).
    """
    ours, gvisors = seccomp.oci_profile(), seccomp.gvisor_profile()
    assert {k: v for k, v in gvisors.items() if k != "syscalls"} == {
        k: v for k, v in ours.items() if k != "syscalls"
    }
    assert gvisors["defaultAction"] == "SCMP_ACT_ALLOW"
    clone3 = [rule for rule in gvisors["syscalls"] if "clone3" in rule["names"]]
    assert clone3 == [{"names": ["clone3"], "action": "SCMP_ACT_TRACE"}]
    refusals = [rule for rule in gvisors["syscalls"] if rule not in clone3]
    assert refusals == [rule for rule in ours["syscalls"] if "clone3" not in rule["names"]]
    assert {(rule["action"], rule["errnoRet"]) for rule in refusals} == {("SCMP_ACT_ERRNO", 1)}, "EPERM"
    refused = {name for rule in refusals if not rule.get("args") for name in rule["names"]}
    assert refused == set(seccomp.DENIED) and {"unshare", "setns", "keyctl", "mount", "bpf"} <= refused
    flags = {rule["args"][0]["value"] for rule in refusals if rule["names"] == ["clone"]}
    assert flags == set(seccomp.CLONE_NEW_FLAGS.values()), "clone of any namespace stays refused"


def test_a_container_under_gvisor_gets_the_gvisor_profile_and_under_runc_dockers_own() -> None:
    resolve(ENGINE, "runsc", NetworkPolicy("none"))  # the engine's runsc runtimes are now known by name
    assert security_opt("runc") == [NO_NEW_PRIVILEGES]
    for runtime in ("runsc", "runsc-hostnet"):
        opts = security_opt(runtime)
        assert opts[0] == NO_NEW_PRIVILEGES and opts[1].startswith("seccomp=")
        assert json.loads(opts[1].removeprefix("seccomp=")) == seccomp.gvisor_profile()
