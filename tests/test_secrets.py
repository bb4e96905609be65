"""The agent's API key: read from the runner's environment, passed as one variable, redacted from outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cells import run_local

from mlebench.execution.secrets import Secret, agent_secret, redact_run, redact_tree
from mlebench_spec.errors import ConfigError
from mlebench_spec.manifest import write_manifest
from mlebench_spec.params import AgentConfig, Hardware

KEY = "sk-unit-0123456789abcdef"
HW = Hardware(name="t", cpus=1, memory="1g", shm_size="64m", pids=64, gpus=0, time_limit_secs=60)


def test_the_key_is_read_at_run_time_and_a_missing_one_is_a_clear_error(monkeypatch) -> None:
    agent = AgentConfig(path="a", command=["x"], network="egress", api_key_env="MLEBENCH_UNIT_KEY")
    monkeypatch.delenv("MLEBENCH_UNIT_KEY", raising=False)
    with pytest.raises(ConfigError, match=r"agent 'aide'.*MLEBENCH_UNIT_KEY.*not set"):
        agent_secret(agent, "aide")
    monkeypatch.setenv("MLEBENCH_UNIT_KEY", "short")
    with pytest.raises(ConfigError, match="too short"):
        agent_secret(agent, "aide")
    monkeypatch.setenv("MLEBENCH_UNIT_KEY", KEY)
    secret = agent_secret(agent, "aide")
    assert secret is not None and secret.env() == {"MLEBENCH_UNIT_KEY": KEY}
    assert KEY not in repr(secret) and KEY not in str(secret)
    assert agent_secret(AgentConfig(path="a", command=["x"]), "dummy") is None


def test_redaction_covers_contents_names_and_notes(tmp_path: Path) -> None:
    secret = Secret("K", KEY)
    (tmp_path / "code" / f"dir-{KEY}").mkdir(parents=True)
    (tmp_path / "code" / f"dir-{KEY}" / f"f-{KEY}.txt").write_bytes(b"a" + KEY.encode() * 2 + b"\xff\n")
    (tmp_path / "clean.txt").write_text("nothing here\n")
    notes = redact_run(tmp_path, secret, [f"code/{KEY}: refused"])
    names = [p.relative_to(tmp_path).as_posix() for p in sorted(tmp_path.rglob("*"))]
    assert not any(KEY in n for n in names) and "code/dir-[redacted: K]/f-[redacted: K].txt" in names
    data = (tmp_path / "code" / "dir-[redacted: K]" / "f-[redacted: K].txt").read_bytes()
    assert data == b"a[redacted: K][redacted: K]\xff\n"
    assert (tmp_path / "clean.txt").read_text() == "nothing here\n"
    assert all(KEY not in n for n in notes) and "[redacted: K]" in notes[-1]
    assert redact_tree(tmp_path, secret) == []  # nothing left to change


def test_local_runner_passes_only_the_named_variable_and_redacts(tmp_path: Path, monkeypatch) -> None:
    agent_dir = tmp_path / "agents" / "leak"
    agent_dir.mkdir(parents=True)
    (agent_dir / "main.py").write_text(
        "import json, os\n"
        "key = os.environ['MLEBENCH_UNIT_KEY']\n"
        "print('key', key)\n"
        "open(os.path.join(os.environ['CODE_DIR'], 'k.txt'), 'w').write(key)\n"
        "print(json.dumps(sorted(k for k in os.environ if 'UNIT' in k)))\n"
    )
    public = tmp_path / "data" / "public"
    public.mkdir(parents=True)
    (public / "description.md").write_text("a task\n")
    write_manifest(public.parent)
    monkeypatch.setenv("MLEBENCH_UNIT_KEY", KEY)
    monkeypatch.setenv("MLEBENCH_UNIT_OTHER", "never passed")
    agent = AgentConfig(path="agents/leak", command=["python", "main.py"], api_key_env="MLEBENCH_UNIT_KEY")
    out = tmp_path / "out"
    record = run_local("c", "leak", agent, HW, 0, public, out, tmp_path)
    log = (out / "agent_output.log").read_text()
    assert record.status == "ok", log
    assert "key [redacted: MLEBENCH_UNIT_KEY]" in log and json.dumps(["MLEBENCH_UNIT_KEY"]) in log
    assert (out / "code" / "k.txt").read_text() == "[redacted: MLEBENCH_UNIT_KEY]"
    for path in out.rglob("*"):
        assert not path.is_file() or KEY.encode() not in path.read_bytes(), path
