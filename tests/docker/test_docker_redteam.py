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
from container_fixtures import docker_client, env_ref, hostile, hw, settings, titanic  # noqa: F401 - fixtures

from mlebench.spec.declarations import load_competition
from mlebench.spec.hashing import sha256_tree
from mlebench.spec.params import Hardware

pytestmark = pytest.mark.docker
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


def test_egress_is_opt_in_and_recorded(hostile) -> None:
    run = hostile("env", network="egress")
    assert run.record.network == "egress" and "eth0" in run.result["interfaces"]
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
