"""v1 agent folders read as v1's registry and runner read them, without an engine (:mod:`.v1_agents`).

The folders: MLE-bench v1's own ``agents/`` (``dummy``, read from ``../shared/spec/v1-agents`` beside the
checkout, never copied) and ``tests/docker/v1_agents`` (ours, in v1's format: anchors and merges, argparse
and omegaconf kwargs, a secret, and ids that are config errors on purpose). The container side is in
tests/docker/test_docker_v1_agents.py; the ``conda`` command of the env image is tested here on the host.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from mlebench.execution import v1_agents
from mlebench.execution.docker.engine import in_ci
from mlebench.execution.docker.images import dockerfile_instructions, failed_step
from mlebench.planning.plan import with_v1_agents
from mlebench_spec.errors import ConfigError
from mlebench_spec.params import AgentConfig

ROOT = Path(__file__).resolve().parents[1]
OURS = ROOT / "tests" / "docker" / "v1_agents"
DISCLOSED = {"models": [], "uses_test_feedback": False, "web_search": False}
TOKEN_VAR = "MLEBENCH_TEST_V1_TOKEN"


def v1_agents_dir() -> Path:
    """Return v1's agents folder in the shared spec beside the checkout (or above it, for a worktree)."""
    for parent in ROOT.parents:
        if (parent / "shared" / "spec" / "v1-agents" / "dummy").is_dir():
            return parent / "shared" / "spec" / "v1-agents"
    message = "../shared/spec/v1-agents (MLE-bench v1's agent folders) is not beside the checkout"
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def test_v1s_dummy_becomes_an_agent_that_runs_its_start_script_as_v1_does() -> None:
    folder = v1_agents_dir()
    cfg = v1_agents.agent_config(folder, "dummy", ROOT, DISCLOSED)
    assert cfg.command == ["bash", "/home/agent/start.sh"]
    assert (ROOT / cfg.path).resolve() == (folder / "dummy").resolve()
    assert cfg.v1 is not None and cfg.v1.id == "dummy" and cfg.v1.dockerfile == "Dockerfile"
    assert cfg.v1.config.endswith("v1-agents/dummy/config.yaml:1") and cfg.v1.env_vars == {}
    assert AgentConfig.model_validate(cfg.model_dump(mode="json")) == cfg  # params.yaml round trip


def test_anchors_merges_and_argparse_kwargs() -> None:
    cfg = v1_agents.agent_config(OURS, "own/argparse", ROOT, DISCLOSED)
    assert cfg.command == ["bash", "/home/agent/start.sh", "--steps", "3", "--model", "tiny-model"]
    assert cfg.path == "tests/docker/v1_agents/own"
    assert cfg.v1 is not None and cfg.v1.env_vars == {
        "STEP_LIMIT": "3",
        "TIME_LIMIT_SECS": "99999",
        "OWN_TOKEN": "${{ secrets.MLEBENCH_TEST_V1_TOKEN }}",  # resolved only when the cell runs
    }
    assert v1_agents.agent_name("own/argparse") == "own-argparse"


def test_omegaconf_kwargs_are_key_value_arguments_as_v1_writes_them() -> None:
    cfg = v1_agents.agent_config(OURS, "own/omegaconf", ROOT, DISCLOSED)
    assert cfg.command[2:] == ["agent.steps=3", "agent.code.model=tiny-model", "copy_data=False"]


@pytest.mark.parametrize(
    ("agent_id", "line", "words"),
    [
        ("privileged", 38, "privileged container"),
        ("no-start", 41, "start script"),
        ("untyped", 46, "no kwargs_type"),
    ],
)
def test_a_bad_id_is_a_config_error_naming_config_yaml_and_line(agent_id: str, line: int, words: str) -> None:
    with pytest.raises(ConfigError, match=rf"config\.yaml:{line}: agent '{agent_id}'.*{words}"):
        v1_agents.agent_config(OURS, agent_id, ROOT, DISCLOSED)


def test_an_unknown_id_names_the_files_searched_and_the_ids_there() -> None:
    with pytest.raises(
        ConfigError, match=r"declares the id 'nope' \(ids there: broken, defaults, no-start, own/argparse"
    ):
        v1_agents.agent_config(OURS, "nope", ROOT, DISCLOSED)


def test_secrets_resolve_only_at_run_time_and_an_unset_one_names_its_line(monkeypatch) -> None:
    cfg = v1_agents.agent_config(OURS, "own/argparse", ROOT, DISCLOSED)
    monkeypatch.delenv(TOKEN_VAR, raising=False)
    with pytest.raises(
        ConfigError, match=rf"config\.yaml:22: .*needs the secret {TOKEN_VAR}, which is not set"
    ):
        v1_agents.runtime(cfg, "own-argparse", ROOT)
    monkeypatch.setenv(TOKEN_VAR, "short")
    with pytest.raises(ConfigError, match="too short to redact"):
        v1_agents.runtime(cfg, "own-argparse", ROOT)
    monkeypatch.setenv(TOKEN_VAR, "tok-" + "x" * 20)
    found = v1_agents.runtime(cfg, "own-argparse", ROOT)
    assert found.env == {"STEP_LIMIT": "3", "OWN_TOKEN": "tok-" + "x" * 20}  # TIME_LIMIT_SECS: the runner's
    assert [s.name for s in found.secrets] == [TOKEN_VAR]
    assert "tok-" not in repr(found.secrets) and found.command == cfg.command


def test_a_secret_in_omegaconf_kwargs_is_resolved_in_its_argument(monkeypatch, tmp_path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "Dockerfile").write_text("FROM mlebench-env\n")
    (tmp_path / "a" / "start.sh").write_text("true\n")
    (tmp_path / "config.yaml").write_text(
        "a:\n  start: a/start.sh\n  dockerfile: a/Dockerfile\n  kwargs_type: omegaconf\n"
        "  kwargs:\n    api_key: ${{ secrets.MLEBENCH_TEST_V1_TOKEN }}\n"
    )
    cfg = v1_agents.agent_config(tmp_path, "a", ROOT, DISCLOSED)
    assert cfg.command[2] == "api_key=${{ secrets.MLEBENCH_TEST_V1_TOKEN }}"
    monkeypatch.setenv(TOKEN_VAR, "value-" + "y" * 12)
    assert v1_agents.runtime(cfg, "a", ROOT).command[2] == "api_key=value-" + "y" * 12


def test_the_plan_expands_a_v1_source_into_agents() -> None:
    config = {
        "agent": {"dummy": {"path": "agents/dummy", "command": ["python", "main.py"]}},
        "v1_agents": [
            {
                "dir": "tests/docker/v1_agents",
                "ids": ["own/argparse", "own/omegaconf"],
                "disclosures": DISCLOSED,
            }
        ],
    }
    out = with_v1_agents(config, ROOT)
    assert "v1_agents" not in out and list(out["agent"]) == ["dummy", "own-argparse", "own-omegaconf"]
    assert out["agent"]["own-omegaconf"]["v1"]["id"] == "own/omegaconf"
    clash = {
        **config,
        "v1_agents": [
            {
                "dir": "tests/docker/v1_agents",
                "ids": ["own/argparse", "own/argparse"],
                "disclosures": DISCLOSED,
            }
        ],
    }
    with pytest.raises(ConfigError, match="already"):
        with_v1_agents(clash, ROOT)
    with pytest.raises(ConfigError, match=r"v1_agents\[0\]"):
        with_v1_agents({"v1_agents": [{"dir": "x", "ids": ["a"]}]}, ROOT)  # no disclosures: nothing assumed


def test_a_failed_build_step_is_found_in_the_dockerfile_by_docker_and_podman_logs() -> None:
    dockerfile = OURS / "broken" / "Dockerfile"
    assert dockerfile_instructions(dockerfile.read_text())[-1] == (
        6,
        'RUN echo "installing the agent" && exit 3',
    )
    docker_log = (
        'Step 1/4 : FROM mlebench-env\n ---> 1\nStep 4/4 : RUN echo "installing the agent" && exit 3\n'
    )
    podman_log = (
        'STEP 1/4: FROM mlebench-env\nSTEP 4/4: RUN echo "installing the agent" && exit 3\nError: exit 3'
    )
    assert failed_step(dockerfile, docker_log) == f"{dockerfile}:6"
    assert failed_step(dockerfile, podman_log) == f"{dockerfile}:6"
    assert failed_step(dockerfile, "Step 3/4 : COPY . ${AGENT_DIR}\n") == f"{dockerfile}:4"
    assert failed_step(dockerfile, "no steps at all") == str(dockerfile)


# --- the env image's `conda` (environment/conda), on the host, in a folder of its own ---


@pytest.fixture(scope="module")
def conda(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Install the conda command as the env image does (``<root>/bin/conda``) and make an env ``agent``."""
    root = tmp_path_factory.mktemp("conda")
    (root / "bin").mkdir()
    exe = root / "bin" / "conda"
    exe.write_bytes((ROOT / "environment" / "conda").read_bytes())
    exe.chmod(0o755)
    subprocess.run([str(exe), "create", "-n", "agent", "python=3.11", "-y"], check=True, capture_output=True)
    return exe


def _run(args: list[str], **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CONDA", "VIRTUAL_ENV"))}
    return subprocess.run(args, capture_output=True, text=True, env=env, **kw)


def test_conda_run_uses_the_environment(conda: Path) -> None:
    done = _run([str(conda), "run", "-n", "agent", "python", "-c", "import sys; print(sys.prefix)"])
    assert done.returncode == 0 and done.stdout.strip() == str(conda.parent.parent / "envs" / "agent")
    missing = _run([str(conda), "run", "-n", "nope", "python", "-V"])
    assert missing.returncode == 1 and "no environment 'nope'" in missing.stderr and "agent" in missing.stderr


def test_conda_hook_activate_and_deactivate_in_bash(conda: Path) -> None:
    script = (
        f'eval "$({conda} shell.bash hook)"; conda activate agent; '
        'echo "$CONDA_DEFAULT_ENV $(command -v python)"; '
        'conda deactivate; echo "after:${CONDA_DEFAULT_ENV:-none}"; conda clean -afy && echo cleaned'
    )
    done = _run(["bash", "-c", script])
    lines = done.stdout.split("\n")
    assert done.returncode == 0, done.stderr
    assert lines[0] == f"agent {conda.parent.parent}/envs/agent/bin/python"
    assert "after:none" in lines and "cleaned" in lines


def test_conda_refuses_what_it_cannot_do_naming_the_command(conda: Path) -> None:
    wrong_python = _run([str(conda), "install", "-n", "agent", "-y", "python=3.8"])
    assert wrong_python.returncode == 1 and "`conda install -n agent -y python=3.8`" in wrong_python.stderr
    assert "Python 3.11" in wrong_python.stderr
    unknown = _run([str(conda), "build", "recipe/"])
    assert unknown.returncode == 2 and "`conda build recipe/`: not supported" in unknown.stderr
    outside = _run([str(conda), "activate", "agent"])
    assert outside.returncode == 1 and "shell.bash hook" in outside.stderr


def test_conda_specs_become_pip_requirements() -> None:
    import importlib.machinery
    import importlib.util

    loader = importlib.machinery.SourceFileLoader("conda_shim", str(ROOT / "environment" / "conda"))
    spec = importlib.util.spec_from_loader("conda_shim", loader)
    shim = importlib.util.module_from_spec(spec)
    loader.exec_module(shim)
    got = shim.pip_specs(
        ["conda-forge::lightgbm=4.5", "numpy=1.26.4=py311h0", "pandas>=2", "python=3.11"], Path()
    )
    assert got == ["lightgbm==4.5.*", "numpy==1.26.4", "pandas>=2"]


def test_our_own_agents_command_script_missing_or_not_executable_is_named(tmp_path) -> None:
    from mlebench.execution.docker.images import _check_start

    agent = AgentConfig(path=str(tmp_path), command=["./start.sh", "--fast"])
    with pytest.raises(ConfigError, match=r"runs \./start\.sh, but .*start\.sh is missing"):
        _check_start("mine", agent, tmp_path)
    (tmp_path / "start.sh").write_text("#!/bin/sh\ntrue\n")
    with pytest.raises(ConfigError, match=r"is not executable: `chmod \+x"):
        _check_start("mine", agent, tmp_path)
    (tmp_path / "start.sh").chmod(0o755)
    _check_start("mine", agent, tmp_path)
