"""The local runner: workspace contents, environment contract, statuses, timeouts, safe extraction."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from cells import run_local

from mlebench_spec.manifest import write_manifest
from mlebench_spec.params import AgentConfig, Hardware

HW = Hardware(name="test", cpus=1, memory="1g", shm_size="64m", pids=64, gpus=0, time_limit_secs=30)


def _agent(tmp_path: Path, body: str, **kwargs) -> tuple[Path, AgentConfig]:
    folder = tmp_path / "agents" / "probe"
    folder.mkdir(parents=True)
    (folder / "main.py").write_text("import os, json, pathlib, sys, time\n" + body, encoding="utf-8")
    return tmp_path, AgentConfig(path="agents/probe", command=["python", "main.py"], kwargs=kwargs)


def _public(tmp_path: Path) -> Path:
    public = tmp_path / "public"
    public.mkdir()
    (public / "sample_submission.csv").write_text("id,y\n1,0\n", encoding="utf-8")
    (public / "description.md").write_text("# task\n", encoding="utf-8")
    write_manifest(tmp_path)
    return public


def test_agent_sees_public_data_and_its_configured_kwargs(tmp_path: Path) -> None:
    root, agent = _agent(
        tmp_path,
        """
d = pathlib.Path(os.environ["DATA_DIR"])
keys = ("COMPETITION_ID", "SEED", "TIME_LIMIT_SECS", "HARDWARE_CPUS", "AGENT_KWARGS")
info = {k: os.environ[k] for k in keys}
info["files"] = sorted(p.name for p in d.iterdir())
info["instructions"] = pathlib.Path(os.environ["INSTRUCTIONS_FILE"]).is_file()
pathlib.Path(os.environ["LOGS_DIR"], "info.json").write_text(json.dumps(info))
pathlib.Path(os.environ["CODE_DIR"], "train.py").write_text("print(1)")
sub = pathlib.Path(os.environ["SUBMISSION_DIR"]) / "submission.csv"
sub.write_bytes((d / "sample_submission.csv").read_bytes())
""",
        model="gpt-x",
        temperature=0.5,
    )
    out = tmp_path / "out"
    record = run_local("comp-a", "probe", agent, HW, 3, _public(tmp_path), out, root)
    assert record.status == "ok" and record.exit_code == 0 and record.submission_exists
    info = json.loads((out / "logs" / "info.json").read_text())
    assert info["files"] == ["description.md", "sample_submission.csv"]
    assert info["COMPETITION_ID"] == "comp-a" and info["SEED"] == "3" and info["TIME_LIMIT_SECS"] == "30"
    assert json.loads(info["AGENT_KWARGS"]) == {"model": "gpt-x", "temperature": 0.5}
    assert info["instructions"]
    assert (out / "code" / "train.py").is_file()
    assert json.loads((out / "run.json").read_text())["config_sha256"] == record.config_sha256


def test_public_data_is_read_only_for_the_agent(tmp_path: Path) -> None:
    root, agent = _agent(
        tmp_path,
        """
p = pathlib.Path(os.environ["DATA_DIR"]) / "sample_submission.csv"
print(oct(p.stat().st_mode & 0o777))
""",
    )
    out = tmp_path / "out"
    run_local("c", "probe", agent, HW, 0, _public(tmp_path), out, root)
    assert "0o444" in (out / "agent_output.log").read_text()


def test_failing_agent_is_recorded_not_raised(tmp_path: Path) -> None:
    root, agent = _agent(tmp_path, "sys.exit(3)\n")
    record = run_local("c", "probe", agent, HW, 0, _public(tmp_path), tmp_path / "out", root)
    assert record.status == "agent_error" and record.exit_code == 3 and not record.submission_exists


def test_agent_is_killed_at_the_time_limit_and_its_partial_submission_kept(tmp_path: Path) -> None:
    root, agent = _agent(
        tmp_path,
        """
(pathlib.Path(os.environ["SUBMISSION_DIR"]) / "submission.csv").write_text("id,y\\n1,1\\n")
time.sleep(600)
""",
    )
    hw = HW.model_copy(update={"time_limit_secs": 2})
    t0 = time.monotonic()
    record = run_local("c", "probe", agent, hw, 0, _public(tmp_path), tmp_path / "out", root)
    assert time.monotonic() - t0 < 2 + 10
    assert record.status == "agent_timeout" and record.submission_exists
    assert (tmp_path / "out" / "submission.csv").read_text() == "id,y\n1,1\n"


def test_symlinked_submission_is_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "secret.csv"
    secret.write_text("id,y\n1,42\n")
    root, agent = _agent(
        tmp_path,
        f"""
os.symlink({str(secret)!r}, pathlib.Path(os.environ["SUBMISSION_DIR"]) / "submission.csv")
os.symlink({str(secret)!r}, pathlib.Path(os.environ["CODE_DIR"]) / "leak.csv")
""",
    )
    out = tmp_path / "out"
    record = run_local("c", "probe", agent, HW, 0, _public(tmp_path), out, root)
    assert not record.submission_exists and not (out / "submission.csv").exists()
    assert not (out / "code" / "leak.csv").exists()
    assert any("symlink" in note for note in record.extraction_notes)


def test_missing_public_split_is_a_clear_error(tmp_path: Path) -> None:
    from mlebench_spec.errors import ConfigError

    root, agent = _agent(tmp_path, "pass\n")
    with pytest.raises(ConfigError, match="prepare stage"):
        run_local("c", "probe", agent, HW, 0, tmp_path / "nope", tmp_path / "out", root)
