"""v1 agent folders, unchanged, as agents of the grid under the container runners (docs/v1-compatibility.md).

MLE-bench v1's own ``agents/dummy/`` (read from ``../shared/spec/v1-agents``, never copied into the project)
is built from its own Dockerfile ``FROM mlebench-env`` with v1's build args, its ``conda run -n agent pip
install`` and ``conda clean`` in the env image's conda layout, and started as v1 starts it (``bash
/home/agent/start.sh``): on every embedded competition under docker and under podman (root's own rootful
Podman, which holds the hardware profile on cgroups v1 too: the ``podman-rootful`` parameter), one grid each,
graded and reported, every cell counted in the headline. Our own v1-format agent (``tests/docker/v1_agents``)
takes argparse and omegaconf kwargs and a ``${{ secrets.NAME }}`` variable, whose value ends in no output. A
Dockerfile that fails to build is a config error naming its file and line, never retried.
"""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from cells import PODMAN_ROOTFUL, engine_runner, grade_run, run_docker
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


@under("docker", PODMAN_ROOTFUL)
def test_v1s_dummy_unchanged_on_every_embedded_competition_scored_and_counted(
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
        assert record.runner == engine_runner(runner, settings)[0], record.runner
        assert record.status == "ok" and record.submission_exists, (cid, record.reason, log[-2000:])
        dummy_checks(log)
        assert (out / "code" / "code.py").is_file() and (out / "logs" / "run.log").is_file()
        assert record.images["agent"]["tag"].startswith("mlebench-agent-v1-dummy:")
        graded = grade_run(prepared.comp, "v1-dummy", 0, out, prepared.public, prepared.private, ROOT, "host")
        assert graded["status"] == "ok" and graded["valid_submission"], (cid, graded["reason"])
        assert graded["score"] is not None
        # counted: the runner held the hardware profile (rootful Podman's cgroups, on v1 as on v2)
        run = json.loads((out / "run.json").read_text())
        assert run["docker"].get("limits_not_enforced", []) == [], run["docker"]
        assert graded["isolation"] == "isolated", graded["isolation_reason"]
        if runner == PODMAN_ROOTFUL:
            assert run["docker"]["rootless"] is False and graded["lineage"]["agent_rootless"] == "false"
        records.append(graded)
    complexity = dict.fromkeys(EMBEDDED, "embedded")
    report = aggregate(ReportData(records, ["v1-dummy"], EMBEDDED, [0], "embedded", complexity))
    row = headline(report)["v1-dummy"]["embedded"]
    assert report.get("excluded", []) == []
    assert row["any_medal_pct_as_scored"] == 0.0, row  # every cell scored, never a medal
    assert row["complete_seeds"] == [0] and row["any_medal_pct"] == 0.0, row  # the headline counts all
    print(
        f"{runner}: v1's dummy on {len(records)} embedded competitions, scores",
        {r["competition_id"]: r["score"] for r in records},
    )


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


V1_TOOLS = {
    # each of v1's tools that the env image has: a command, and what its answer must contain
    "envsubst": ("echo '$COMPETITION_ID' | COMPETITION_ID=titanic envsubst", "titanic"),
    "7z": ("7z i | head -2 | tail -1", "7-Zip"),
    "zip/unzip": ("cd /tmp && echo x > f && zip -q a.zip f && unzip -l a.zip | tail -1", "1 file"),
    "tmux": ("tmux -V", "tmux "),
    "curl": ("curl --version | head -1", "curl "),
    "wget": ("wget --version | head -1", "GNU Wget"),
    "ffmpeg": (
        "ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc=size=64x48:rate=5 -t 1 /tmp/clip.mp4"
        " && echo made",
        "made",
    ),
    "ffprobe": (
        "ffprobe -v error -show_entries stream=codec_type,width,height -of csv=p=0 /tmp/clip.mp4",
        "video,64,48",
    ),
    "jupyter kernel": ("jupyter kernelspec list", "python3"),
    "jupyter nbconvert": (  # a notebook run by the kernel: 6*7 in its output
        'cd /tmp && echo \'{"cells": [{"cell_type": "code", "execution_count": null, "metadata": {},'
        ' "outputs": [], "source": "print(6*7)"}], "metadata": {}, "nbformat": 4,'
        ' "nbformat_minor": 4}\' > k.ipynb'
        " && jupyter nbconvert --to notebook --execute k.ipynb --stdout 2>/dev/null | grep -o '\"42'",
        '"42',
    ),
    "jupyter notebook": ("jupyter notebook --version", "7."),
    "jupyter lab": ("jupyter lab --version", "4."),
    "jupyter server": (
        "(jupyter server --no-browser --ip=127.0.0.1 --port=8888 --IdentityProvider.token=t"
        " >/tmp/js.log 2>&1 &) && for i in $(seq 60); do"
        " curl -sf -H 'Authorization: token t' localhost:8888/api >/dev/null && break; sleep 0.5; done"
        " && curl -sf -X POST -H 'Authorization: token t' localhost:8888/api/kernels | python3 -c"
        ' \'import json,sys; print("kernel", json.load(sys.stdin)["name"])\'',
        "kernel python3",
    ),
}


@under("docker")
def test_the_env_image_answers_to_mlebench_env_and_has_v1s_conda_layout_and_tools(
    runner, docker_client, env_ref
) -> None:
    assert docker_client.images.get("mlebench-env").id == env_ref.id  # what `FROM mlebench-env` resolves
    marks = [f"echo '<<{name}>>'; ({command}) 2>&1" for name, (command, _) in V1_TOOLS.items()]
    script = "; ".join(
        [
            *marks,
            "echo '<<conda>>'",
            "conda env list",
            "conda run -n agent python -c 'import sys, pandas, sklearn; print(sys.version_info[:2], sys.prefix)'",  # noqa: E501
            'eval "$(conda shell.bash hook)"',
            "conda activate agent",
            'python -c "import ipykernel, nbconvert, jupyter_server"',
            "stat -c '%U %a' /private",
            'echo "heavy=$INSTALL_HEAVY_DEPENDENCIES"',
        ]
    )
    out = docker_client.containers.run(
        env_ref.id, ["bash", "-c", script], user="1000:1000", remove=True, network_mode="none"
    ).decode()
    answers = dict(re.findall(r"(?s)<<(.+?)>>\n(.*?)(?=\n<<|\Z)", out))
    for name, (_, expected) in V1_TOOLS.items():
        assert expected in answers.get(name, ""), (name, answers.get(name))
    for expected in ("(3, 11) /opt/conda/envs/agent", "root 700", "heavy=false"):
        assert expected in answers["conda"], (expected, out)
    assert ["agent", "/opt/conda/envs/agent"] in [line.split() for line in out.splitlines()], out
