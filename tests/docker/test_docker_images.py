"""Images: base image as a setting, content-hash tags, reuse, build contexts that never carry data."""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from container_fixtures import docker_client, env_ref, runner, settings  # noqa: F401 - fixtures

from mlebench.execution.docker.images import BuildContext, agent_image, ensure_image, env_image, grader_image
from mlebench_spec.errors import ConfigError
from mlebench_spec.params import AgentConfig, DockerSettings

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parents[2]


def test_env_image_is_reused_by_content_hash(docker_client, settings, env_ref) -> None:
    again = env_image(docker_client, settings, ROOT)
    assert again.tag == env_ref.tag and again.id == env_ref.id and not again.built
    assert env_ref.tag.startswith("mlebench-env:") and env_ref.id.startswith("sha256:")
    labels = docker_client.images.get(env_ref.tag).labels
    assert labels["mlebench.context_sha256"] == env_ref.context_sha256


def test_base_image_is_a_build_arg_and_a_missing_one_says_how_to_bootstrap(docker_client, settings) -> None:
    dockerfile = (ROOT / "environment" / "Dockerfile").read_text()
    assert "ARG BASE_IMAGE" in dockerfile and "FROM ${BASE_IMAGE}" in dockerfile
    with pytest.raises(ConfigError, match="bootstrap_base.sh"):
        env_image(docker_client, DockerSettings(base_image="mlebench-no-such-base:never"), ROOT)


def test_agent_image_tag_follows_its_folder_content(docker_client, env_ref, tmp_path) -> None:
    folder = tmp_path / "agents" / "tiny"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "agents" / "dummy" / "Dockerfile", folder)
    (folder / "main.py").write_text("print('v1')\n")
    agent = AgentConfig(path="agents/tiny", command=["python", "main.py"])
    first = agent_image(docker_client, "tiny", agent, env_ref, tmp_path, retries=0)
    assert first.built and first.tag.startswith("mlebench-agent-tiny:")
    assert agent_image(docker_client, "tiny", agent, env_ref, tmp_path, retries=0).tag == first.tag
    (folder / "main.py").write_text("print('v2')\n")
    second = agent_image(docker_client, "tiny", agent, env_ref, tmp_path, retries=0)
    assert second.tag != first.tag and second.id != first.id
    docker_client.images.remove(first.tag)
    docker_client.images.remove(second.tag)


def test_agent_without_dockerfile_is_a_config_error(docker_client, env_ref, tmp_path) -> None:
    (tmp_path / "agents" / "bare").mkdir(parents=True)
    with pytest.raises(ConfigError, match="Dockerfile"):
        agent_image(
            docker_client,
            "bare",
            AgentConfig(path="agents/bare", command=["python", "main.py"]),
            env_ref,
            tmp_path,
            retries=0,
        )


def test_every_agent_in_the_repository_builds(docker_client, env_ref) -> None:
    for folder in sorted((ROOT / "agents").iterdir()):
        if (folder / "Dockerfile").is_file():
            agent = AgentConfig(path=f"agents/{folder.name}", command=["python", "main.py"])
            ref = agent_image(docker_client, folder.name, agent, env_ref, ROOT, retries=0)
            assert docker_client.images.get(ref.tag).id == ref.id


def test_grader_image_holds_graders_and_no_data(docker_client, env_ref) -> None:
    ref = grader_image(docker_client, env_ref, ROOT, retries=0)
    out = docker_client.containers.run(
        ref.id,
        ["sh", "-c", "ls /mlebench; ls -d /mlebench/data 2>&1 || true"],
        remove=True,
        network_mode="none",
        user="1000:1000",
    )
    listing = out.decode()
    assert "graders" in listing and "mlebench" in listing and "No such file" in listing


def test_build_failure_is_an_infra_error_after_bounded_retries(docker_client, env_ref) -> None:
    from mlebench.execution.docker.engine import InfraError

    ctx = BuildContext({"Dockerfile": f"FROM {env_ref.tag}\nRUN exit 7\n".encode()})
    with pytest.raises(InfraError, match="2 attempt"):
        ensure_image(
            docker_client, "mlebench-test-broken", ctx, "Dockerfile", {}, parent_id=env_ref.id, retries=1
        )
