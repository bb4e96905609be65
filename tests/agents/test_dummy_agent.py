"""The dummy agent copies the sample submission, saves its code and logs the contract."""

from __future__ import annotations

import json


def test_dummy_copies_sample_and_echoes_kwargs(public_folders, agent_runner, tmp_path):
    public, _ = public_folders["tabular_binary"]
    run = agent_runner("dummy", public, tmp_path, kwargs={"model": "none", "steps": 3})
    assert run.returncode == 0, run.stderr
    assert run.submission.read_bytes() == (public / "sample_submission.csv").read_bytes()
    log = (run.logs_dir / "agent.log").read_text()
    assert json.dumps({"model": "none", "steps": 3}, sort_keys=True) in log
    assert "reference dir /home/data:" in log
    assert (run.code_dir / "main.py").is_file()


def test_dummy_fails_without_sample(tmp_path, agent_runner):
    public = tmp_path / "public"
    public.mkdir()
    (public / "train.csv").write_text("id,y\n1,0\n")
    run = agent_runner("dummy", public, tmp_path / "work")
    assert run.returncode == 1
    assert not run.submission.exists()
