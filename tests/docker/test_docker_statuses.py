"""Statuses and scores through the container path: equal to the local runner's, one status per outcome."""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from cells import grade_run, run_docker, run_local, share
from container_fixtures import (  # noqa: F401 - fixtures
    ENGINES,
    GVISOR,
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

from mlebench.execution.docker import gvisor
from mlebench.execution.docker.gvisor import KERNEL
from mlebench_spec.declarations import load_competition
from mlebench_spec.params import AgentConfig

pytestmark = [pytest.mark.docker, under(*ENGINES)]
ROOT = Path(__file__).resolve().parents[2]
DUMMY = AgentConfig(path="agents/dummy", command=["python", "main.py"], kwargs={})
COMPARED = [
    "status",
    "score",
    "valid_submission",
    "submission_exists",
    "any_medal",
    "gold_medal",
    "silver_medal",
    "bronze_medal",
    "above_median",
    "gold_threshold",
    "median_threshold",
    "is_lower_better",
]
SAME_LINEAGE = [
    "public_sha256",
    "private_sha256",
    "submission_sha256",
    "agent_sha256",
    "grader_sha256",
    "competition_sha256",
]


def recorded(runner: str) -> str:
    """Return the runner a cell of this parameter records (gVisor is the docker runner, runtime runsc)."""
    return "docker" if runner == GVISOR else runner


@pytest.mark.parametrize("competition_id", ["titanic-lite", "chicago-ridership"])
def test_dummy_agent_scores_the_same_in_a_container_as_locally(
    competition_id, prepare_once, runner, settings, env_ref, hw, tmp_path
) -> None:
    prepared = prepare_once(competition_id)
    comp = load_competition(competition_id, ROOT)
    local = run_local(competition_id, "dummy", DUMMY, hw, 0, prepared.public, tmp_path / "local", ROOT)
    docker = run_docker(
        competition_id,
        "dummy",
        DUMMY,
        hw,
        0,
        prepared.public,
        tmp_path / "docker",
        ROOT,
        settings,
        runner=runner,
    )
    share(prepared.public, prepared.private, tmp_path / "docker")
    assert local.status == docker.status == "ok"
    assert (tmp_path / "local" / "submission.csv").read_bytes() == (
        tmp_path / "docker" / "submission.csv"
    ).read_bytes()
    by_host = grade_run(comp, "dummy", 0, tmp_path / "local", prepared.public, prepared.private, ROOT)
    in_container = grade_run(comp, "dummy", 0, tmp_path / "docker", prepared.public, prepared.private, ROOT)
    assert {k: by_host[k] for k in COMPARED} == {k: in_container[k] for k in COMPARED}
    assert by_host["status"] == "ok" and by_host["score"] is not None and not by_host["any_medal"]
    assert {k: by_host["lineage"][k] for k in SAME_LINEAGE} == {
        k: in_container["lineage"][k] for k in SAME_LINEAGE
    }
    assert by_host["runner"] == "local" and in_container["runner"] == recorded(runner)
    assert by_host["lineage"]["grader_runner"] == "host"
    assert in_container["lineage"]["grader_runner"] == recorded(runner)
    # under gVisor the grader's threads (OpenBLAS) start and its calls meet gVisor's kernel, as the agent's
    kernels = {k: in_container["lineage"].get(k) for k in ("agent_kernel", "grader_kernel")}
    assert kernels == ({k: KERNEL for k in kernels} if runner == GVISOR else dict.fromkeys(kernels)), kernels
    assert in_container["lineage"]["grader_image_id"].startswith("sha256:")
    assert in_container["lineage"]["agent_image_id"] == docker.images["agent"]["id"]
    assert in_container["lineage"]["agent_network"] == "none"


def test_agent_error_is_recorded_never_retried(hostile) -> None:
    run = hostile("exit", code=5)
    assert run.record.status == "agent_error" and run.record.exit_code == 5 and run.record.attempts == 1
    assert "code 5" in run.record.reason


def test_agent_that_writes_nothing_is_no_submission(hostile, titanic, runner) -> None:
    run = hostile("nothing")
    assert run.record.status == "ok" and not run.record.submission_exists
    record = grade_run(
        load_competition("titanic-lite", ROOT), "hostile", 0, run.out, titanic.public, titanic.private, ROOT
    )
    assert record["status"] == "no_submission" and record["lineage"]["grader_runner"] == recorded(runner)


@pytest.mark.parametrize("ignore_sigterm", [False, True])
def test_agent_sleeping_past_its_limit_is_killed_and_its_submission_kept(
    hostile, hw, titanic, ignore_sigterm
) -> None:
    limit = 3
    t0 = time.monotonic()
    run = hostile(
        "sleep",
        hardware=hw.model_copy(update={"time_limit_secs": limit}),
        secs=600,
        ignore_sigterm=ignore_sigterm,
    )
    killed_after = time.monotonic() - t0
    assert run.record.status == "agent_timeout" and run.record.exit_code is None
    assert run.record.agent_seconds < limit + 10 and killed_after < limit + 10, (
        run.record.agent_seconds,
        killed_after,
    )
    assert run.record.submission_exists and (run.out / "logs" / "before-sleep.txt").is_file()
    assert "wall-clock limit" in (run.out / "agent_output.log").read_text()
    record = grade_run(
        load_competition("titanic-lite", ROOT), "hostile", 0, run.out, titanic.public, titanic.private, ROOT
    )
    assert record["status"] == "agent_timeout" and record["valid_submission"] and record["score"] is not None


def test_grader_failure_is_grader_error_with_traceback(hostile, titanic, tmp_path, runner) -> None:
    run = hostile("env")
    broken = tmp_path / "prepared" / "private"
    broken.mkdir(parents=True)
    shutil.copy(titanic.private / "secret_token.txt", broken)  # no answers.csv: the grader itself must fail
    record = grade_run(
        load_competition("titanic-lite", ROOT), "hostile", 0, run.out, titanic.public, broken, ROOT
    )
    assert record["status"] == "grader_error" and "answers.csv" in record["traceback"]
    assert record["lineage"]["grader_runner"] == recorded(runner)


def test_host_grader_stays_available_for_container_runs(hostile, titanic, runner) -> None:
    run = hostile("env")
    comp = load_competition("titanic-lite", ROOT)
    host = grade_run(comp, "hostile", 0, run.out, titanic.public, titanic.private, ROOT, grader="host")
    container = grade_run(comp, "hostile", 0, run.out, titanic.public, titanic.private, ROOT)
    assert host["lineage"]["grader_runner"] == "host"
    assert container["lineage"]["grader_runner"] == recorded(runner)
    assert host["score"] == container["score"] and host["status"] == container["status"] == "ok"


def test_engine_refusing_to_create_the_container_is_infra_error_after_bounded_retries(
    settings, titanic, hw, tmp_path, monkeypatch
) -> None:
    # The runner checks a runtime against the engine's list first (an unknown name is the user's config
    # error, tests/test_gvisor.py); here the engine is taken at its word, so the refusal is the engine's own,
    # as when a runtime goes between that check and the create.
    monkeypatch.setattr(gvisor, "engine_runtime", lambda client, runtime, policy: (runtime, {}))
    waits: list[float] = []
    broken = settings.model_copy(update={"runtime": "no-such-runtime", "infra_retries": 2})
    record = run_docker(
        "titanic-lite",
        "dummy",
        DUMMY,
        hw,
        0,
        titanic.public,
        tmp_path / "out",
        ROOT,
        broken,
        sleep=waits.append,
    )
    assert record.status == "infra_error" and record.attempts == 3 and waits == [2.0, 4.0]
    assert "no-such-runtime" in record.reason and (tmp_path / "out" / "infra_error.log").is_file()
