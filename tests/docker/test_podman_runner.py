"""The ``podman`` runner beyond the tests it shares with ``docker``: a grid, and a cell dispatched by Slurm.

A grid (two embedded competitions, both agents) reproduced under ``runner: docker`` and then, in the same
checkout copy, under ``runner: podman`` gives the same statuses and scores, and the podman records say what
ran them (rootless Podman, in the lineage) and which hardware limits were not held. A Slurm job submitted
by an ordinary user (``MLEBENCH_PODMAN_USER``; .ci/run creates it) runs a Podman cell as that user.
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
from checkout_copy import copy_checkout, plan_and_commit
from checkout_copy import run as _run
from container_fixtures import PODMAN_USER, podman_service  # noqa: F401 - a fixture

from mlebench.execution.docker.engine import in_ci
from mlebench.execution.docker.images import CA_ENV_VARS

pytestmark = [pytest.mark.docker, pytest.mark.slow]
COMPS = ["titanic-lite", "chicago-ridership"]
GRID = ["competition_set=custom", f"competition_set.ids=[{','.join(COMPS)}]", "seeds=[0]", "hardware.cpus=1"]


def _grades(repo: Path) -> dict[str, dict]:
    return {
        str(path.relative_to(repo / "grades")): json.loads(path.read_text())
        for path in sorted((repo / "grades").rglob("*.json"))
    }


def _outcome(record: dict) -> tuple:
    return record["status"], record["score"], record["valid_submission"], record["any_medal"]


def test_the_grid_under_podman_scores_what_it_scores_under_docker(podman_service, tmp_path: Path) -> None:
    repo = copy_checkout(tmp_path)
    share(repo)
    plan_and_commit(repo, [*GRID, "runner=docker"])
    _run(["dvc", "repro"], repo)
    under_docker = _grades(repo)
    plan_and_commit(repo, [*GRID, "runner=podman"])
    share(repo)
    _run(["dvc", "repro"], repo)
    under_podman = _grades(repo)
    assert len(under_docker) == 4 and under_docker.keys() == under_podman.keys()
    assert {k: _outcome(v) for k, v in under_docker.items()} == {
        k: _outcome(v) for k, v in under_podman.items()
    }
    for name, record in under_podman.items():
        assert record["runner"] == "podman" and record["lineage"]["grader_runner"] == "podman", name
        assert (
            record["lineage"]["agent_runtime"] == "podman" and record["lineage"]["agent_rootless"] == "true"
        )
        assert record["lineage"]["agent_image_id"] == under_docker[name]["lineage"]["agent_image_id"]
        run = json.loads((repo / "runs" / name.removesuffix(".json") / "run.json").read_text())
        assert run["docker"]["rootless"] is True and run["docker"]["engine"] == "podman"
        missing = run["docker"]["limits_not_enforced"]
        # what rootless Podman could not hold makes the cell not comparable, and the record says why
        assert (record["isolation"] == "unisolated") == bool(missing), record["isolation_reason"]
        assert all(limit in record["isolation_reason"] for limit in missing)
        assert under_docker[name]["isolation"] == "isolated"


def _slurm_up() -> bool:
    return bool(shutil.which("sinfo")) and subprocess.run(["sinfo"], capture_output=True).returncode == 0


@pytest.mark.slurm
def test_a_slurm_job_runs_a_podman_cell_as_an_ordinary_user(podman_service, tmp_path: Path) -> None:
    if not _slurm_up():
        if in_ci():
            pytest.fail("no Slurm cluster answers: run environment/start_slurm.sh")
        pytest.skip("no Slurm cluster (environment/start_slurm.sh starts one)")
    if os.getuid() != 0:
        pytest.skip("submits as another user: run as root (CI does)")
    user = pwd.getpwnam(PODMAN_USER)
    repo = copy_checkout(tmp_path)
    plan_and_commit(
        repo,
        [
            "competition_set=custom",
            "competition_set.ids=[titanic-lite]",
            "seeds=[0]",
            "agent=[dummy]",
            "runner=podman",
            "hardware.cpus=1",
        ],
    )
    subprocess.run(["chown", "-R", f"{user.pw_uid}:{user.pw_gid}", str(tmp_path)], check=True)
    share(tmp_path)
    env = {
        "HOME": user.pw_dir,
        "USER": user.pw_name,
        "LOGNAME": user.pw_name,
        "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
        "XDG_RUNTIME_DIR": f"/run/user/{user.pw_uid}",  # the user's own Podman service answers there
        "CI": os.environ.get("CI", ""),
        # the same build CA as this process (part of the env image's build context, so of its tag)
        **{k: v for k, v in os.environ.items() if k in CA_ENV_VARS},
    }
    proc = subprocess.run(
        [
            shutil.which("runuser") or "runuser",
            "-u",
            user.pw_name,
            "--",
            sys.executable,
            "-m",
            "mlebench.cli",
            "run",
            "--executor",
            "slurm",
            "--jobs",
            "2",
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert proc.returncode == 0 and "failed" not in proc.stderr, (proc.stdout[-3000:], proc.stderr[-3000:])
    out = repo / "runs" / "dummy" / "titanic-lite" / "0"
    run = json.loads((out / "run.json").read_text())
    assert run["runner"] == "podman" and run["status"] == "ok", run.get("reason")
    assert run["executor"]["executor"] == "slurm" and run["executor"]["slurm_job_id"]
    assert run["docker"]["rootless"] is True and out.stat().st_uid == user.pw_uid
    grade = json.loads((repo / "grades" / "dummy" / "titanic-lite" / "0.json").read_text())
    assert grade["status"] == "ok" and grade["lineage"]["grader_runner"] == "podman"
    assert grade["lineage"]["agent_rootless"] == "true"


def test_auto_picks_podman_when_no_docker_engine_answers(podman_service, monkeypatch) -> None:
    from mlebench.execution.runners import choose_runner
    from mlebench_spec.params import DockerSettings

    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    runner, why = choose_runner("auto", DockerSettings())
    assert runner.name == "podman" and "no Docker engine reachable" in why
    monkeypatch.delenv("DOCKER_HOST")
    assert choose_runner("auto", DockerSettings())[0].name == "docker"  # Docker first, when it answers
