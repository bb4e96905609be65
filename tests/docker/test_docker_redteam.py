"""Red team: a hostile agent tries to cheat or break out, and every attempt must fail safely.

The agent (tests/docker/hostile_agent) runs in the real container the runner makes, on titanic-lite whose
private side carries a secret token. Each test asserts what the agent saw from inside and what the runner
did with what it left behind.
"""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters

from __future__ import annotations

import os
from pathlib import Path

import pytest
from container_fixtures import (  # noqa: F401 - fixtures
    ISOLATING,
    docker_client,
    env_ref,
    hostile,
    hw,
    needs_llm_network,
    podman_service,
    runner,
    settings,
    titanic,
    under,
)
from llm_fixtures import llm_endpoint  # noqa: F401 - a fixture

from mlebench.spec.declarations import load_competition
from mlebench.spec.hashing import sha256_tree
from mlebench.spec.params import Hardware

pytestmark = [pytest.mark.docker, under(*ISOLATING)]
ROOT = Path(__file__).resolve().parents[2]
HW_SHORT = Hardware(name="short", cpus=1, memory="256m", shm_size="16m", pids=32, gpus=0, time_limit_secs=2)


def _failed(result: dict, label: str) -> bool:
    return result["attempts"][label]["ok"] is False


def test_answers_are_unreachable_by_any_path(hostile, titanic) -> None:
    run = hostile("read_answers", token_reversed=titanic.token[::-1])
    result = run.result
    assert run.record.status == "ok", run.record.reason
    assert result["found"] == [], f"the secret token was readable at {result['found']}"
    assert not [n for n in result["answer_like_names"] if "answers" in Path(n).name], result[
        "answer_like_names"
    ]
    for label, outcome in result["attempts"].items():
        if label.startswith(("list ", "connect ")):
            assert outcome["ok"] is False, f"{label} succeeded: {outcome}"
    # /proc/<pid>/root only ever shows this container's own root, and the host path of the public split
    # (visible in mountinfo) leads nowhere from inside.
    assert all(str(titanic.private) not in line for line in result.get("host_public_paths", []))
    assert titanic.token not in (run.out / "agent_output.log").read_text(errors="replace")


def test_the_only_host_mount_is_the_public_split_read_only(hostile, titanic) -> None:
    run = hostile("env")
    binds = [line.split() for line in run.result["mountinfo"] if " /home/data " in f" {line} "]
    assert len(binds) == 1 and "ro" in binds[0][5].split(","), binds
    mounted = " ".join(run.result["mountinfo"])
    assert "private" not in mounted and "docker.sock" not in mounted
    assert not any(titanic.token in v or "private" in v.lower() for v in run.result["env"].values())


# Probe targets that name no real service: documentation addresses (RFC 5737) and names (RFC 2606, which
# resolve on the public DNS), and the engine's default bridge gateway (the host side of docker0).
PROBES = {
    "tcp": [
        ["192.0.2.1", 443],
        ["198.51.100.7", 80],
        ["203.0.113.9", 53],
        ["172.17.0.1", 2375],
        ["172.17.0.1", 22],
    ],
    "dns": ["example.com", "example.net"],
    "udp": [["192.0.2.1", 53]],
}


def test_no_network_by_default(hostile) -> None:
    result = hostile("network", **PROBES).result
    assert len(result["attempts"]) == sum(map(len, PROBES.values()))
    for label, outcome in result["attempts"].items():
        assert outcome["ok"] is False, f"{label} reached the network: {outcome}"
        if label.startswith(("tcp ", "udp ")):  # refused for want of a route, not for want of an answer
            assert "Network is unreachable" in outcome["error"], (label, outcome)
    assert result["interfaces"] == ["lo"] and result["routes"] == []
    assert result["listening"] == ["127.0.0.1:5000"], "only the validation server, on the loopback"


EGRESS_INTERFACE = {"docker": "eth0", "podman": "tap0", "sandbox": "eth0"}
"""The interface egress goes out by: Docker's bridge, rootless Podman's slirp4netns, or the host's own."""


def test_egress_is_opt_in_and_recorded(hostile, runner) -> None:
    run = hostile("env", network="egress")
    assert run.record.network == "egress" and EGRESS_INTERFACE[runner] in run.result["interfaces"]
    assert run.result["routes"] and run.result["listening"] == ["127.0.0.1:5000"]
    assert "Outbound network access is available" in run.result["instructions"]
    default = hostile("env")
    assert default.record.network == "none" and default.result["interfaces"] == ["lo"]
    assert "There is no network access." in default.result["instructions"]


def test_writes_outside_its_own_folders_fail_and_the_host_is_untouched(hostile, titanic) -> None:
    before = sha256_tree(titanic.public), sha256_tree(titanic.private)
    run = hostile("write_outside")
    attempts = run.result["attempts"]
    allowed = {"write /tmp/inside-only"}
    for label, outcome in attempts.items():
        if label in allowed:
            assert outcome["ok"], outcome
        else:
            assert outcome["ok"] is False, f"{label} succeeded: {outcome}"
    assert (sha256_tree(titanic.public), sha256_tree(titanic.private)) == before
    assert run.record.status == "ok" and run.record.submission_exists


def test_runs_unprivileged_without_capabilities(hostile) -> None:
    result = hostile("env").result
    assert result["uid"] == 1000 and result["gid"] == 1000 and 0 not in result["groups"]
    assert int(result["cap_eff"], 16) == 0 and result["no_new_privs"] == "1"


def test_symlinked_submission_is_invalid_with_a_reason_and_nothing_is_followed(
    hostile, titanic, tmp_path
) -> None:
    from cells import grade_run

    run = hostile("symlinks", target="/home/data/sample_submission.csv")
    record = run.record
    assert not record.submission_exists and "symlink" in record.submission_rejected
    assert not (run.out / "submission.csv").exists()
    assert not (run.out / "code" / "escape").exists() and not (run.out / "code" / "train_link.csv").exists()
    assert (run.out / "logs" / "real.txt").read_text() == "kept\n"
    assert sum("symlink" in note for note in record.extraction_notes) >= 3
    graded = grade_run(
        load_competition("titanic-lite", ROOT),
        "hostile",
        0,
        run.out,
        titanic.public,
        titanic.private,
        ROOT,
        grader="host",
    )
    assert graded["status"] == "invalid_submission" and "symlink" in graded["reason"], graded["reason"]


@pytest.mark.parametrize("kind", ["dir", "fifo"])
def test_special_file_submission_is_refused(hostile, kind) -> None:
    record = hostile("special_submission", kind=kind).record
    assert not record.submission_exists and record.submission_rejected


def test_two_gigabyte_submission_is_refused_without_copying_it(hostile) -> None:
    run = hostile("huge", submission_bytes=2 * 1024**3, log_bytes=600 * 1024**2)
    record = run.record
    assert record.status == "ok" and not record.submission_exists
    assert "larger than" in record.submission_rejected
    assert not (run.out / "submission.csv").exists() and not (run.out / "logs" / "huge.log").exists()
    assert (run.out / "code" / "small.py").is_file()
    assert any("huge.log" in note and "larger than" in note for note in record.extraction_notes)
    assert sum(f.stat().st_size for f in run.out.rglob("*") if f.is_file()) < 10 * 1024**2


def test_non_utf8_submission_is_collected_and_graded_invalid(hostile, titanic) -> None:
    from cells import grade_run

    run = hostile("non_utf8")
    assert run.record.submission_exists
    bad_name = run.out / "code" / os.fsdecode(b"bad-\xff-name.py")
    assert bad_name.is_file()
    graded = grade_run(
        load_competition("titanic-lite", ROOT),
        "hostile",
        0,
        run.out,
        titanic.public,
        titanic.private,
        ROOT,
        grader="host",
    )
    assert graded["status"] == "invalid_submission" and "UTF-8" in graded["reason"]


def test_odd_names_stay_inside_the_run_directory(hostile, tmp_path) -> None:
    run = hostile("odd_names")
    code = run.out / "code"
    assert (code / "..\\..\\evil.txt").is_file() and (code / "-rf").is_file() and (code / "....").is_file()
    assert not (code / "deep" / "up").exists() and not (code / "deep" / "hardlink").exists()
    outside = [p for p in tmp_path.rglob("*") if "evil" in p.name and run.out not in p.parents]
    assert outside == []
    for path in run.out.rglob("*"):
        assert not path.is_symlink() and run.out.resolve() in path.resolve().parents


def test_fork_bomb_hits_the_pids_limit(hostile, hw) -> None:
    run = hostile("forkbomb")
    assert 0 < run.result["forks"] < hw.pids and "fork_error" in run.result, run.result
    assert run.record.status == "ok"  # the bomb stopped at the limit; the container is gone with its children


def test_memory_hog_is_killed_at_the_memory_limit(hostile, hw) -> None:
    run = hostile("memory", hardware=hw.model_copy(update={"memory": "256m"}), mb=2048)
    if "memory (no swap)" not in run.record.limits_enforced:  # no cgroup to hold it here: said, not hidden
        assert "memory (no swap)" in run.record.unisolated() and not run.record.oom_killed
        pytest.xfail(f"{run.record.runner}: memory is not held on this machine ({run.record.unisolated()})")
    assert run.record.status == "agent_error" and run.record.oom_killed, run.record
    assert "out-of-memory" in run.record.reason
    assert 0 < run.result.get("allocated_mb", 0) <= 256


def test_no_container_is_left_behind(docker_client, hostile) -> None:
    hostile("exit", code=5)
    hostile("sleep", hardware=HW_SHORT, secs=600)
    assert (
        docker_client.containers.list(all=True, filters={"label": "mlebench.cell=hostile/titanic-lite/0"})
        == []
    )


def _llm_probes(host: str, port: int) -> dict:
    """Every way around the allowed endpoint ``host:port`` (documentation addresses and names outside)."""
    return {
        "connect": [  # CONNECT through the proxy to anything but the endpoint
            f"{host}:{port + 1}",
            f"{host}:22",
            f"{host}:2375",
            "192.0.2.1:443",
            "198.51.100.7:80",
            "example.com:443",
            "localhost:3128",
            "[2001:db8::1]:443",
        ],
        "get": [  # absolute-URI plain http through the proxy
            f"http://{host}:{port + 1}/v1/models",
            f"http://{host}:22/",
            "http://192.0.2.1/",
            "http://example.com/",
            "http://127.0.0.1:3128/squid-internal-mgr/info",
        ],
        "tcp": [  # straight out, bypassing the proxy
            [host, port],
            [host, 22],
            ["172.17.0.1", 2375],
            ["192.0.2.1", 443],
            ["203.0.113.9", 53],
            ["2001:db8::1", 443],
            ["::ffff:192.0.2.1", 443],
        ],
        "dns": ["example.com", "example.net", "proxy.example"],
        "udp": [["192.0.2.1", 53], [host, 53], ["2001:db8::53", 53]],
    }


def _left(docker_client, cell: str = "hostile/titanic-lite/0") -> list[str]:
    label = {"label": f"mlebench.cell={cell}"}
    return [c.name for c in docker_client.containers.list(all=True, filters=label)] + [
        n.name for n in docker_client.networks.list(filters=label)
    ]


def test_llm_policy_reaches_only_the_allowed_endpoint(hostile, runner, llm_endpoint, docker_client) -> None:
    needs_llm_network(runner)
    ep = llm_endpoint
    ep.standin.script = [("ping", "pong from the stand-in")]
    probes = _llm_probes(ep.host, ep.port)
    run = hostile(
        "llm", network="llm", endpoints=[ep.endpoint], base_url=ep.base_url, endpoint=ep.endpoint, **probes
    )
    result, record = run.result, run.record
    assert record.status == "ok", (record.reason, (run.out / "agent_output.log").read_text()[-3000:])
    attempts = result["attempts"]
    expected = 3 + 1 + sum(len(probes[k]) for k in ("connect", "get", "tcp", "dns", "udp")) + 4
    assert len(attempts) == expected, sorted(attempts)
    blocked = [
        label for label, outcome in attempts.items() if label.startswith("allowed") and not outcome["ok"]
    ]
    through = [
        label for label, outcome in attempts.items() if not label.startswith("allowed") and outcome["ok"]
    ]
    assert blocked == [] and through == [], {label: attempts[label] for label in blocked + through}
    assert attempts["allowed GET models (HTTP_PROXY)"]["value"].startswith("200 ")
    assert "pong from the stand-in" in attempts["allowed POST chat (HTTP_PROXY)"]["value"]
    assert attempts["allowed CONNECT tunnel"]["value"] == "HTTP/1.1 200 OK"
    # only the allowed chat request reached the model (squid may resend it once on a stale kept-alive
    # connection to the stand-in, so the count is not fixed; what matters is that nothing else arrived)
    assert {r["messages"][0]["content"] for r in ep.standin.requests} == {"ping"}
    for label in (f"proxy CONNECT {ep.host}:{ep.port + 1}", "proxy CONNECT example.com:443"):
        assert "403" in attempts[label]["error"], attempts[label]  # the proxy refused; nothing was tried
    assert "403" in attempts[f"proxy GET http://{ep.host}:{ep.port + 1}/v1/models"]["error"]
    # the namespace: one interface besides lo, no default route, no IPv6 route off the loopback
    assert sorted(result["interfaces"]) == ["eth0", "lo"]
    assert all(dest != "00000000" for _iface, dest, _gw in result["routes"]), result["routes"]
    assert set(result["ipv6_routes"]) <= {"lo"}, result["ipv6_routes"]
    proxy = result["proxy_env"]
    assert proxy["HTTPS_PROXY"] == proxy["http_proxy"] and proxy["HTTPS_PROXY"].endswith(":3128")
    assert ep.endpoint in result["instructions"] and "unreachable" in result["instructions"]
    # recorded: the policy, the allow-list and the proxy image, in run.json and the grading lineage
    assert record.network == "llm" and record.egress["endpoints"] == [ep.endpoint]
    assert record.egress["proxy_image"]["tag"].startswith("mlebench-egress-proxy:")
    lineage = record.lineage()
    assert lineage["agent_network"] == "llm" and lineage["agent_endpoints"] == ep.endpoint
    log = (run.out / "proxy_access.log").read_text()
    assert "TCP_DENIED/403" in log and f"CONNECT {ep.endpoint}" in log and "example.com:443" in log
    assert _left(docker_client) == []


def test_llm_resources_are_removed_when_the_agent_fails(hostile, runner, llm_endpoint, docker_client) -> None:
    needs_llm_network(runner)
    run = hostile("exit", network="llm", endpoints=[llm_endpoint.endpoint], code=7)
    assert run.record.status == "agent_error" and run.record.exit_code == 7
    assert _left(docker_client) == []


HOSTILE = "tests/docker/hostile_agent"
KILLED_RUN = """import json, sys
sys.path[:0] = [{tests!r}, {root!r}]
from pathlib import Path
from cells import run_docker
from mlebench.spec.params import AgentConfig, DockerSettings, Hardware
a = json.loads(Path({args!r}).read_text())
run_docker("titanic-lite", "killed", AgentConfig(**a["agent"]), Hardware(**a["hardware"]), 0,
           Path(a["public"]), Path(a["out"]), Path({root!r}), DockerSettings(**a["settings"]))
"""


def test_llm_resources_are_removed_when_the_run_is_killed(
    runner, docker_client, llm_endpoint, titanic, settings, tmp_path
) -> None:
    """A run killed mid-cell (its scheduler's reaper gets SIGTERM) leaves nothing in the engine."""
    needs_llm_network(runner)
    import json
    import sys
    import time

    from mlebench.execution.executors.base import kill_group, run_command

    cell = "killed/titanic-lite/0"
    args = {
        "agent": {
            "path": HOSTILE,
            "command": ["python", "hostile.py"],
            "kwargs": {"attack": "sleep", "secs": 600},
            "network": "llm",
            "endpoints": [llm_endpoint.endpoint],
        },
        "hardware": HW_SHORT.model_copy(update={"time_limit_secs": 300}).model_dump(),
        "public": str(titanic.public),
        "out": str(tmp_path / "out"),
        "settings": settings.model_dump(),
    }
    (tmp_path / "args.json").write_text(json.dumps(args))
    script = tmp_path / "run_killed.py"
    script.write_text(
        KILLED_RUN.format(tests=str(ROOT / "tests"), root=str(ROOT), args=str(tmp_path / "args.json"))
    )
    import threading

    started: list[int] = []
    done: list[dict] = []
    worker = threading.Thread(
        target=lambda: done.append(
            run_command(
                f"{sys.executable} {script}", str(ROOT), str(tmp_path / "job.log"), {}, started.append
            )
        )
    )
    worker.start()
    deadline = time.monotonic() + 240
    roles: set[str] = set()
    while time.monotonic() < deadline and "agent" not in roles:
        time.sleep(0.5)
        roles = {
            c.labels.get("mlebench.role", "")
            for c in docker_client.containers.list(filters={"label": f"mlebench.cell={cell}"})
        }
    assert roles == {"agent", "egress-proxy", "llm-sandbox"}, (
        roles,
        (tmp_path / "job.log").read_text()[-3000:],
    )
    kill_group(started[0])
    worker.join(timeout=120)
    assert done and done[0]["returncode"] < 0
    # The reaper's sweep runs in a session of its own, so it outlives the SIGKILL that follows the grace
    # period: give it time to finish.
    deadline = time.monotonic() + 120
    while _left(docker_client, cell) and time.monotonic() < deadline:
        time.sleep(1)
    log = (tmp_path / "job.log").read_text()
    assert _left(docker_client, cell) == [], log[-3000:]
    assert "removed mlebench-proxy-" in log and "(its run was killed)" in log, log[-3000:]  # by the sweep
