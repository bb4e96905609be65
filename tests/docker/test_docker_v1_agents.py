"""v1 agent folders, unchanged, as agents of the grid under the container runners (docs/v1-compatibility.md).

MLE-bench v1's own ``agents/dummy/`` (read from ``../shared/spec/v1-agents``, never copied into the project)
is built from its own Dockerfile ``FROM mlebench-env`` with v1's build args, its ``conda run -n agent pip
install`` and ``conda clean`` in the env image's conda layout, and started as v1 starts it (``bash
/home/agent/start.sh``): on every embedded competition under docker (one grid, graded and reported), and on
one under podman. Our own v1-format agent (``tests/docker/v1_agents``) takes argparse and omegaconf kwargs
and a ``${{ secrets.NAME }}`` variable, whose value ends in no output. A Dockerfile that fails to build is a
config error naming its file and line, never retried.
"""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from cells import grade_run, run_docker
from container_fixtures import (  # noqa: F401 - fixtures
    docker_client,
    env_ref,
    hw,
    podman_service,
    runner,
    settings,
    titanic,
    under,
)
from embedded_fixtures import EMBEDDED
from test_v1_agents import DISCLOSED, OURS, TOKEN_VAR, v1_agents_dir

from mlebench.execution import v1_agents
from mlebench.reporting.report import ReportData, aggregate, headline
from mlebench_spec.errors import ConfigError

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parents[2]


def dummy_checks(log: str) -> None:
    """Assert that v1's dummy did its own checks, in its own words, and they came out as v1 means them."""
    assert "You do not have root access" in log, log[-3000:]
    assert "cannot open directory '/private': Permission denied" in log, log[-3000:]
    assert "Sample submission copied to" in log and "cannot touch" not in log, log[-3000:]
    assert '{"result": "Submission is valid."}' in log, log[-3000:]


@under("docker")
def test_v1s_dummy_unchanged_on_every_embedded_competition_counts_in_the_headline(
    runner, env_ref, settings, hw, prepare_once, tmp_path
) -> None:
    agent = v1_agents.agent_config(v1_agents_dir(), "dummy", ROOT, DISCLOSED)
    records = []
    for cid in EMBEDDED:
        prepared = prepare_once(cid)
        out = tmp_path / cid
        record = run_docker(
            cid, "v1-dummy", agent, hw, 0, prepared.public, out, ROOT, settings, runner=runner
        )
        log = (out / "agent_output.log").read_text(errors="replace")
        assert record.status == "ok" and record.submission_exists, (cid, record.reason, log[-2000:])
        dummy_checks(log)
        assert (out / "code" / "code.py").is_file() and (out / "logs" / "run.log").is_file()
        assert record.images["agent"]["tag"].startswith("mlebench-agent-v1-dummy:")
        graded = grade_run(prepared.comp, "v1-dummy", 0, out, prepared.public, prepared.private, ROOT, "host")
        assert graded["status"] == "ok" and graded["valid_submission"], (cid, graded["reason"])
        assert graded["isolation"] == "isolated" and graded["score"] is not None
        records.append(graded)
    complexity = dict.fromkeys(EMBEDDED, "embedded")
    report = aggregate(ReportData(records, ["v1-dummy"], EMBEDDED, [0], "embedded", complexity))
    row = headline(report)["v1-dummy"]["embedded"]
    assert row["complete_seeds"] == [0] and row["any_medal_pct"] == 0.0, row  # counted, never a medal
    assert not report.get("excluded"), report.get("excluded")


@under("podman")
def test_v1s_dummy_unchanged_under_podman(runner, env_ref, settings, hw, titanic, tmp_path) -> None:
    agent = v1_agents.agent_config(v1_agents_dir(), "dummy", ROOT, DISCLOSED)
    out = tmp_path / "run"
    record = run_docker(
        titanic.id, "v1-dummy", agent, hw, 0, titanic.public, out, ROOT, settings, runner=runner
    )
    log = (out / "agent_output.log").read_text(errors="replace")
    assert record.runner == "podman" and record.status == "ok", (record.reason, log[-2000:])
    dummy_checks(log)


@under("docker")
def test_our_v1_format_agents_get_their_kwargs_variables_and_secret_which_no_output_keeps(
    runner, env_ref, settings, hw, titanic, tmp_path, monkeypatch
) -> None:
    token = f"v1-secret-{time.time_ns()}"
    monkeypatch.setenv(TOKEN_VAR, token)
    seen = {}
    for agent_id in ("own/argparse", "own/omegaconf"):
        agent = v1_agents.agent_config(OURS, agent_id, ROOT, DISCLOSED)
        name = v1_agents.agent_name(agent_id)
        out = tmp_path / name
        record = run_docker(
            titanic.id, name, agent, hw, 0, titanic.public, out, ROOT, settings, runner=runner
        )
        log = (out / "agent_output.log").read_text(errors="replace")
        assert record.status == "ok" and record.submission_exists, (record.reason, log[-2000:])
        seen[agent_id] = json.loads((out / "logs" / "seen.json").read_text())
        everything = b"".join(p.read_bytes() for p in out.rglob("*") if p.is_file())
        assert token.encode() not in everything, f"{agent_id}: the secret is in the run's outputs"
        assert '{"result": "Submission is valid."}' in log
    own, omega = seen["own/argparse"], seen["own/omegaconf"]
    assert own["argv"] == ["--steps", "3", "--model", "tiny-model"]
    assert omega["argv"] == ["agent.steps=3", "agent.code.model=tiny-model", "copy_data=False"]
    for got in (own, omega):
        assert got["conda_env"] == "agent" and got["prefix"] == "/opt/conda/envs/agent", got
        assert got["step_limit"] == "3" and got["time_limit_secs"] == str(hw.time_limit_secs)  # the runner's
        assert got["uid"] == 1000
    assert own["token_set"] and not omega["token_set"]
    argparse_out = tmp_path / "own-argparse"
    assert f"[redacted: {TOKEN_VAR}]" in (argparse_out / "agent_output.log").read_text()
    assert (argparse_out / "code" / "leak.txt").read_text() == f"[redacted: {TOKEN_VAR}]"


@under("docker", "podman")
def test_a_dockerfile_that_fails_to_build_is_the_agents_config_error_named_by_line_never_retried(
    runner, env_ref, settings, hw, titanic, tmp_path
) -> None:
    agent = v1_agents.agent_config(OURS, "broken", ROOT, DISCLOSED)
    slept: list[float] = []
    with pytest.raises(
        ConfigError, match=r"broken/Dockerfile:6: building the agent's image .* failed"
    ) as err:
        run_docker(
            titanic.id,
            "broken",
            agent,
            hw,
            0,
            titanic.public,
            tmp_path / "run",
            ROOT,
            settings,
            runner=runner,
            sleep=slept.append,
        )
    assert slept == [], "a user's build error was retried as an engine failure"
    assert "exit 3" in str(err.value) or "3" in str(err.value)


@under("docker")
def test_the_env_image_answers_to_mlebench_env_and_has_v1s_conda_layout_and_tools(
    runner, docker_client, env_ref
) -> None:
    assert docker_client.images.get("mlebench-env").id == env_ref.id  # what `FROM mlebench-env` resolves
    script = "; ".join(
        [
            "set -e",
            "envsubst --version | head -1",
            "7z i | head -2 | tail -1",
            "unzip -v | head -1",
            "zip -v | sed -n 2p",
            "tmux -V",
            "wget --version | head -1",
            "ffmpeg -hide_banner -version | head -1",
            "jupyter --version | head -3",
            "jupyter kernelspec list",
            "conda env list",
            "conda run -n agent python -c 'import sys, pandas, sklearn; print(sys.version_info[:2], sys.prefix)'",  # noqa: E501
            'eval "$(conda shell.bash hook)"',
            "conda activate agent",
            'python -c "import ipykernel, nbconvert"',
            "stat -c '%U %a' /private",
        ]
    )
    out = docker_client.containers.run(
        env_ref.id, ["bash", "-c", script], user="1000:1000", remove=True, network_mode="none"
    ).decode()
    for expected in (
        "envsubst (GNU gettext-runtime)",
        "7-Zip",
        "UnZip 6",
        "tmux ",
        "GNU Wget",
        "ffmpeg version",
        "python3",
        "(3, 11) /opt/conda/envs/agent",
        "root 700",
    ):
        assert expected in out, (expected, out)
    assert ["agent", "/opt/conda/envs/agent"] in [line.split() for line in out.splitlines()], out
