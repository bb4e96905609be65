"""Container-path logic that needs no engine: safe extraction, retries, runner choice, CI policy, kwargs."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
from cells import cell, run_docker

from graders.result import NO_MEDALS, GradeResult, Thresholds
from mlebench.execution.docker.engine import InfraError, with_retries
from mlebench.execution.docker.extract import extract_tar, fetch_file
from mlebench.execution.docker.images import BuildContext
from mlebench.execution.runners import choose_runner, run_cell
from mlebench.reporting.records import GradeOutcome, RunRecord, cell_status
from mlebench_spec.cell import Cell
from mlebench_spec.manifest import write_manifest
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware

ROOT = Path(__file__).resolve().parents[2]
DEAD = "unix:///nonexistent/docker.sock"
HW = Hardware(name="t", cpus=1, memory="1g", shm_size="64m", pids=64, gpus=0, time_limit_secs=30)


def _tar(members: list[tuple[str, str, bytes | str]]) -> io.BytesIO:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, kind, payload in members:
            info = tarfile.TarInfo(name)
            if kind == "file":
                data = payload if isinstance(payload, bytes) else payload.encode()
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
                continue
            info.type = {
                "dir": tarfile.DIRTYPE,
                "sym": tarfile.SYMTYPE,
                "lnk": tarfile.LNKTYPE,
                "fifo": tarfile.FIFOTYPE,
                "chr": tarfile.CHRTYPE,
            }[kind]
            info.linkname = payload if isinstance(payload, str) else ""
            tar.addfile(info)
    buf.seek(0)
    return buf


def test_extraction_refuses_traversal_absolute_links_and_specials(tmp_path: Path) -> None:
    dest = tmp_path / "run" / "code"
    stream = _tar(
        [
            ("code", "dir", ""),
            ("code/ok.py", "file", "print(1)"),
            ("code/sub", "dir", ""),
            ("code/sub/deep.txt", "file", "deep"),
            ("code/../../evil.txt", "file", "x"),
            ("/etc/evil", "file", "x"),
            ("other/x.txt", "file", "x"),
            ("code/link", "sym", "/etc/passwd"),
            ("code/link/through.txt", "file", "x"),
            ("code/hard", "lnk", "code/ok.py"),
            ("code/fifo", "fifo", ""),
            ("code/dev", "chr", ""),
            ("code/sub/../../../escape.txt", "file", "x"),
            ("code/ok.py", "file", "second copy"),
        ]
    )
    notes: list[str] = []
    written = extract_tar(stream, "code", dest, notes)
    assert written == 3
    assert (dest / "ok.py").read_text() == "print(1)" and (dest / "sub" / "deep.txt").read_text() == "deep"
    # The refused symlink is never created, so a member "under" it lands in a real folder inside the run dir.
    files = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    assert files == [
        "run",
        "run/code",
        "run/code/link",
        "run/code/link/through.txt",
        "run/code/ok.py",
        "run/code/sub",
        "run/code/sub/deep.txt",
    ], files
    assert not any(p.is_symlink() for p in tmp_path.rglob("*"))
    joined = "\n".join(notes)
    for needle in (
        "evil.txt",
        "/etc/evil",
        "other/x.txt",
        "symlink",
        "hard link",
        "special file",
        "escape.txt",
        "File exists",
    ):
        assert needle in joined, (needle, notes)


def test_extraction_bounds_file_size_tree_size_and_entry_count(tmp_path: Path) -> None:
    members = [("logs", "dir", ""), ("logs/big.bin", "file", b"x" * 5000), ("logs/a.txt", "file", "a")]
    notes: list[str] = []
    extract_tar(_tar(members), "logs", tmp_path / "a", notes, max_file_bytes=1000)
    assert (tmp_path / "a" / "a.txt").is_file() and not (tmp_path / "a" / "big.bin").exists()
    assert any("larger than 1000" in n for n in notes)
    many = [("logs", "dir", "")] + [(f"logs/{i}.txt", "file", "x") for i in range(20)]
    notes = []
    assert extract_tar(_tar(many), "logs", tmp_path / "b", notes, max_members=5) == 4
    assert any("more than 5 entries" in n for n in notes)


class _FakeContainer:
    """Answers get_archive like the engine: a stat dict (Go file mode bits) and tar chunks."""

    def __init__(self, stat: dict, members: list) -> None:
        self.stat, self.members = stat, members

    def get_archive(self, path: str):
        return iter([_tar(self.members).getvalue()]), self.stat


@pytest.mark.parametrize(
    ("stat", "reason"),
    [
        (
            {"name": "submission.csv", "size": 10, "mode": 0o777 | (1 << 27), "linkTarget": "/etc/passwd"},
            "symlink",
        ),
        ({"name": "submission.csv", "size": 4096, "mode": 0o755 | (1 << 31), "linkTarget": ""}, "folder"),
        ({"name": "submission.csv", "size": 0, "mode": 0o644 | (1 << 25), "linkTarget": ""}, "special"),
        ({"name": "submission.csv", "size": 3 * 1024**3, "mode": 0o644, "linkTarget": ""}, "larger than"),
    ],
)
def test_submission_is_refused_from_its_stat_before_reading(tmp_path: Path, stat: dict, reason: str) -> None:
    notes: list[str] = []
    container = _FakeContainer(stat, [("submission.csv", "file", "id,y\n")])
    assert fetch_file(container, "/home/submission/submission.csv", tmp_path / "s.csv", notes) == "refused"
    assert not (tmp_path / "s.csv").exists() and reason in notes[0] and notes[0].startswith("submission.csv:")


def test_submission_whose_archive_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    notes: list[str] = []
    stat = {"name": "submission.csv", "size": 5, "mode": 0o644, "linkTarget": ""}
    container = _FakeContainer(stat, [("submission.csv", "sym", "/x")])
    assert fetch_file(container, "/home/submission/submission.csv", tmp_path / "s.csv", notes) == "refused"
    assert not (tmp_path / "s.csv").exists()


def test_engine_failures_are_retried_with_backoff_then_infra_error() -> None:
    import requests.exceptions

    waits: list[float] = []
    calls = []

    def flaky() -> str:
        calls.append(1)
        raise requests.exceptions.ConnectionError("engine gone")

    with pytest.raises(InfraError, match="3 attempt"):
        with_retries(flaky, "pinging", retries=2, sleep=waits.append)
    assert len(calls) == 3 and waits == [2.0, 4.0]
    results = iter([requests.exceptions.ConnectionError("blip"), "fine"])

    def recovers() -> str:
        value = next(results)
        if isinstance(value, Exception):
            raise value
        return value

    assert with_retries(recovers, "x", retries=2, sleep=waits.append) == "fine"


def test_bugs_are_not_retried() -> None:
    calls = []

    def buggy() -> None:
        calls.append(1)
        raise KeyError("bug")

    with pytest.raises(KeyError):
        with_retries(buggy, "x", retries=5, sleep=lambda s: None)
    assert len(calls) == 1


def _probe(tmp_path: Path) -> AgentConfig:
    folder = tmp_path / "agents" / "probe"
    folder.mkdir(parents=True)
    (folder / "main.py").write_text(
        "import os, pathlib\npathlib.Path(os.environ['SUBMISSION_DIR'], 'submission.csv')"
        ".write_text('id,y\\n1,0\\n')\n"
    )
    (folder / "Dockerfile").write_text("FROM scratch\n")
    public = tmp_path / "public"
    public.mkdir()
    (public / "sample_submission.csv").write_text("id,y\n1,0\n")
    write_manifest(tmp_path)
    return AgentConfig(path="agents/probe", command=["python", "main.py"], kwargs={"model": "m"})


def test_docker_runner_without_engine_records_infra_error_after_bounded_retries(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("DOCKER_HOST", DEAD)
    agent = _probe(tmp_path)
    waits: list[float] = []
    record = run_docker(
        "c",
        "probe",
        agent,
        HW,
        0,
        tmp_path / "public",
        tmp_path / "out",
        tmp_path,
        DockerSettings(infra_retries=2),
        sleep=waits.append,
    )
    assert record.status == "infra_error" and record.runner == "docker" and waits == [2.0, 4.0]
    assert "no Docker engine reachable" in record.reason and not record.submission_exists
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run["status"] == "infra_error" and (tmp_path / "out" / run["log"]).is_file()


def test_auto_runner_falls_back_to_local_visibly(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("DOCKER_HOST", DEAD)
    monkeypatch.setenv("CONTAINER_HOST", DEAD)  # and no Podman either
    monkeypatch.setattr("mlebench.execution.bwrap.bwrap_binary", lambda: None)  # nor bubblewrap
    auto, docker = choose_runner("auto", DockerSettings()), choose_runner("docker", DockerSettings())
    resolve_runner = {"auto": (auto[0].name, auto[1]), "docker": (docker[0].name, docker[1])}.get
    assert resolve_runner("auto")[0] == "local" and resolve_runner("docker") == ("docker", "")
    agent = _probe(tmp_path)
    record = run_cell(
        cell("c", "probe", agent, HW, 0, tmp_path / "public", tmp_path / "out", tmp_path),
        "auto",
        DockerSettings(),
    )
    assert record.status == "ok" and record.runner == "local"
    assert "WARNING: runner 'auto' found no usable Docker engine" in capsys.readouterr().err
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run["runner"] == "local" and run["runner_requested"] == "auto" and DEAD in run["runner_note"]


@pytest.fixture
def probe_cell(tmp_path: Path) -> Cell:
    """Return a cell of the probe agent, for records built by :meth:`RunRecord.for_cell`."""
    return cell("c", "a", _probe(tmp_path), HW, 0, tmp_path / "public", tmp_path / "out", tmp_path)


def _run(ran: Cell, status: str, notes: list[str], rejected: str = "") -> RunRecord:
    from mlebench.execution.docker.agent import ContainerRunRecord

    record, facts = (ContainerRunRecord, {"submission_rejected": rejected}) if rejected else (RunRecord, {})
    return record.for_cell(
        ran,
        "docker",
        status=status,
        started_at="",
        finished_at="",
        exit_code=0,
        extraction_notes=notes,
        **facts,
    )


def test_a_record_under_gvisor_says_the_agent_met_a_user_space_kernel(probe_cell: Cell) -> None:
    from mlebench.execution.docker.agent import ContainerRunRecord

    fields = _run(probe_cell, "ok", []).to_json()
    under = {
        runtime: ContainerRunRecord.from_json({**fields, "docker": {"runtime": runtime}})
        for runtime in ("runc", "runsc")
    }
    assert under["runsc"].lineage()["agent_kernel"] == "gVisor user-space kernel (runsc)"
    assert "agent_kernel" not in under["runc"].lineage()


def _outcome(status: str, reason: str) -> GradeOutcome:
    result = GradeResult(
        status, reason, None, Thresholds(1, 1, 1, 1), NO_MEDALS, False, status != "no_submission", False, 0.0
    )
    return GradeOutcome(result, 0.0)


def test_refused_submission_turns_no_submission_into_invalid_submission(probe_cell: Cell) -> None:
    symlink = _run(probe_cell, "ok", ["submission.csv: is a symlink (to '/x'), not collected"])
    status, reason = cell_status(symlink, _outcome("no_submission", "no submission file"))
    assert status == "invalid_submission" and "symlink" in reason
    timed_out = _run(probe_cell, "agent_timeout", [], rejected="submission.csv: is a folder, not collected")
    status, reason = cell_status(timed_out, _outcome("no_submission", "no submission file"))
    assert status == "agent_timeout" and "folder" in reason and "killed" in reason
    untouched = _run(probe_cell, "ok", ["code/x: symlink"])
    assert cell_status(untouched, _outcome("ok", "")) == ("ok", "")


def test_gpus_become_device_requests_and_limits_reach_create() -> None:
    from mlebench.execution.docker.agent import _create_kwargs
    from mlebench.execution.docker.images import ImageRef

    image = ImageRef("t:1", "sha256:x", "c", built=False, seconds=0.0)
    agent = AgentConfig(path="a", command=["python", "main.py"])
    gpu = Hardware(name="g", cpus=2, memory="1g", shm_size="1g", pids=10, gpus=2, time_limit_secs=5)

    def at(agent: AgentConfig, hardware: Hardware) -> Any:
        return cell("c", "a", agent, hardware, 0, Path("/tmp"), Path("/out"), Path("/r"))

    kwargs = _create_kwargs(image, at(agent, gpu))
    (request,) = kwargs["device_requests"]
    assert request["Count"] == 2 and request["Capabilities"] == [["gpu"]]
    no_gpu = _create_kwargs(image, at(agent, gpu.model_copy(update={"gpus": 0})))
    assert "device_requests" not in no_gpu
    assert (
        kwargs["network_mode"] == "none" and kwargs["user"] == "1000:1000" and kwargs["cap_drop"] == ["ALL"]
    )
    assert kwargs["mem_limit"] == kwargs["memswap_limit"] == "1g" and kwargs["pids_limit"] == 10
    assert kwargs["nano_cpus"] == 2_000_000_000 and kwargs["shm_size"] == "1g" and kwargs["runtime"] == "runc"
    binds = [m for m in kwargs["mounts"] if m["Type"] == "bind"]
    assert [m["Source"] for m in binds] == ["/tmp"] and binds[0]["ReadOnly"]  # the only host path
    # the agent's output folders are anonymous volumes (collected by size alone: issue 39)
    volumes = [m["Target"] for m in kwargs["mounts"] if m["Type"] == "volume"]
    assert volumes == ["/home/submission", "/home/code", "/home/logs"]
    assert all(not m.get("Source") for m in kwargs["mounts"] if m["Type"] == "volume")
    # egress leaves through the cell's logging proxy too (issue 39): never the engine's shared bridge
    with pytest.raises(ValueError, match="needs the cell's egress sandbox"):
        _create_kwargs(image, at(agent.model_copy(update={"network": "egress"}), gpu))


def test_build_contexts_never_include_data_or_answers() -> None:
    ctx = BuildContext()
    ctx.add_tree("validator/graders", ROOT / "graders")
    ctx.add_tree("mlebench", ROOT / "mlebench")
    ctx.add_tree("", ROOT / "agents" / "dummy")
    assert ctx.files and not [
        rel
        for rel in ctx.files
        if rel.startswith("data/")
        or ("answers" in rel and not rel.endswith(".py"))  # graders/answers.py is code, not answers
        or "/private/" in rel
        or "__pycache__" in rel
    ]
    assert ctx.sha256({"a": 1}) == ctx.sha256({"a": 1}) != ctx.sha256({"a": 2})
    assert ctx.tar().getvalue() == ctx.tar().getvalue()


@pytest.mark.parametrize(
    ("ci", "expect_rc", "expect_text"),
    [
        ("true", 1, "CI=true but the Docker engine is unreachable"),
        ("", 0, "no Docker engine reachable"),
    ],
)
def test_docker_tests_skip_without_engine_only_outside_ci(ci: str, expect_rc: int, expect_text: str) -> None:
    env = {**os.environ, "DOCKER_HOST": DEAD, "CI": ci}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            "--no-header",
            "tests/docker/test_docker_images.py::test_env_image_is_reused_by_content_hash",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == expect_rc, proc.stdout[-2000:]
    assert expect_text in proc.stdout, proc.stdout[-2000:]


def test_llm_containers_join_the_sandbox_with_the_proxy_and_only_the_named_key() -> None:
    from types import SimpleNamespace

    from mlebench.execution.contract import network_note
    from mlebench.execution.docker.agent import _create_kwargs
    from mlebench.execution.docker.egress import Egress
    from mlebench.execution.docker.images import ImageRef
    from mlebench.execution.secrets import Secret

    image = ImageRef("t:1", "sha256:x", "c", built=False, seconds=0.0)
    agent = AgentConfig(
        path="a", command=["python"], network="llm", endpoints=["172.17.0.1:8000"], api_key_env="KEY_X"
    )
    at = cell("c", "a", agent, HW, 0, Path("/tmp"), Path("/out"), Path("/r"))
    sealed = Egress(network=None, sandbox=SimpleNamespace(id="abc123"), proxy_ip="10.9.0.2")
    kwargs = _create_kwargs(image, at, secret=Secret("KEY_X", "value-of-the-key"), sealed=sealed)
    assert kwargs["network_mode"] == "container:abc123" and "hostname" not in kwargs
    env = kwargs["environment"]
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        assert env[name] == "http://10.9.0.2:3128"
    assert env["KEY_X"] == "value-of-the-key" and "127.0.0.1" in env["NO_PROXY"]
    assert kwargs["cap_drop"] == ["ALL"] and kwargs["user"] == "1000:1000"
    assert kwargs["labels"]["mlebench.owner"].split(":")[1] == str(os.getpid())
    with pytest.raises(ValueError, match="sandbox"):
        _create_kwargs(image, at)
    note = network_note(agent)
    assert "172.17.0.1:8000" in note and "$KEY_X" in note and "value-of-the-key" not in note


def test_the_proxy_allows_exactly_the_endpoints_and_the_sandbox_only_the_proxy() -> None:
    from mlebench.execution.docker.egress import sandbox_script
    from mlebench.execution.proxy import squid_config

    conf = squid_config(["172.17.0.1:8000", "api.example.com:443"], "10.9.0.0/16").splitlines()
    access = [line for line in conf if line.startswith("http_access")]
    assert access[0] == "http_access deny !agent" and access[-1] == "http_access deny all"
    assert "acl agent src 10.9.0.0/16" in conf
    assert "acl endpoint0_host dstdomain -n 172.17.0.1" in conf and "acl endpoint0_port port 8000" in conf
    assert "acl endpoint1_host dstdomain -n api.example.com" in conf and "acl endpoint1_port port 443" in conf
    allowed = [line for line in access if " allow " in line]
    assert allowed == [
        f"http_access allow {kind} endpoint{i}_host endpoint{i}_port"
        for i in range(2)
        for kind in ("CONNECT", "plain_http", "inspected")  # inspected: https seen through TLS inspection
    ]
    script = sandbox_script("10.9.0.2")
    assert "ip route del default" in script and "-d 10.9.0.2 --dport 3128 -j ACCEPT" in script
    assert script.index("-P OUTPUT DROP") < script.index("exec sleep infinity")


def test_sweep_owners_are_this_host_and_a_live_process(tmp_path: Path) -> None:
    import socket

    from mlebench.execution.docker.egress import owner, owner_gone

    assert not owner_gone(owner())
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    assert owner_gone(f"{socket.gethostname()}:{int(child.stdout)}:1")
    host, pid, started = owner().split(":")
    assert owner_gone(f"{host}:{pid}:{int(started) + 1}")  # the same pid, a later process
    assert not owner_gone(f"another-host:{pid}:1") and not owner_gone("garbage")


def test_a_killed_runs_grader_container_is_reaped(tmp_path: Path) -> None:
    """Issue 51: a run killed while grading left its exited grader container behind (it had no owner label).

    The grader container carries the owner label every per-cell resource carries, so the reaper removes it
    once the process that made it is gone, and keeps it while that process lives.
    """
    import socket
    from types import SimpleNamespace

    from mlebench.execution.docker import grading
    from mlebench.execution.docker.egress import OWNER, sweep

    made: dict[str, Any] = {}

    class Made(Exception):
        pass

    def create(**kwargs: Any) -> None:
        made.update(kwargs)
        raise Made

    the_cell = cell(
        "c", "a", None, None, 0, tmp_path / "public", tmp_path / "run", tmp_path, tmp_path / "priv"
    )
    client = SimpleNamespace(containers=SimpleNamespace(create=create))
    with pytest.raises(Made):
        grading._grade_once(client, SimpleNamespace(id="sha256:g"), the_cell, "runc", "v1")
    assert made["labels"]["mlebench.role"] == "grader" and made["labels"]["mlebench.cell"] == "a/c/0"
    owner = made["labels"][OWNER]
    assert owner.split(":")[:2] == [socket.gethostname(), str(os.getpid())]

    removed: list[str] = []

    def container(name: str, label: str) -> Any:
        labels = {**made["labels"], OWNER: label}
        return SimpleNamespace(name=name, labels=labels, remove=lambda **_: removed.append(name))

    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    found = [
        container("killed-runs-grader", f"{socket.gethostname()}:{int(child.stdout)}:1"),
        container("live-runs-grader", owner),
    ]
    empty = SimpleNamespace(list=lambda **_: [])
    engine = SimpleNamespace(
        containers=SimpleNamespace(list=lambda **_: found), networks=empty, volumes=empty
    )
    assert sweep(engine) == ["killed-runs-grader"] and removed == ["killed-runs-grader"]


def test_llm_lineage_names_the_policy_and_allow_list(probe_cell: Cell) -> None:
    from mlebench.execution.docker.agent import ContainerRunRecord

    base = dict(status="ok", exit_code=0, started_at="", finished_at="", submission_exists=True)
    plain = ContainerRunRecord.for_cell(probe_cell, "docker", **base, network="none")
    assert (plain.competition_id, plain.time_limit_secs) == ("c", HW.time_limit_secs)  # from the cell
    assert plain.lineage() == {"agent_network": "none"}
    egress = {"endpoints": ["h:1", "g:2"], "proxy": "squid", "proxy_image": {"id": "sha256:p"}}
    llm = ContainerRunRecord.for_cell(
        probe_cell, "docker", **base, network="llm", egress=egress, api_key_env="K"
    )
    assert llm.lineage() == {
        "agent_network": "llm",
        "agent_endpoints": "h:1,g:2",
        "proxy_image_id": "sha256:p",
    }


def test_the_collector_skips_a_sparse_file_by_its_size_without_reading_it(tmp_path: Path) -> None:
    """Issue 39, finding 3: the collector's script (run here with this Python) decides by lstat alone.

    A 12 GiB sparse log is left out in well under a second (reading it through took 114 s in the engine's
    tar stream). Since issue 51 the collector (:mod:`mlebench.execution.collector`, the same under every
    runner) leaves symlinks, second hard links and fifos out itself, each with a note.
    """
    import json
    import os
    import subprocess
    import sys
    import time

    from mlebench.execution.docker.collect import SCRIPT

    logs = tmp_path / "home" / "logs"
    (logs / "deep").mkdir(parents=True)
    with open(logs / "huge.log", "wb") as fh:
        fh.truncate(12 * 1024**3)
    (logs / "a.txt").write_text("kept\n")
    os.link(logs / "a.txt", logs / "deep" / "b.txt")
    os.symlink("/etc/passwd", logs / "link")
    os.mkfifo(logs / "fifo")
    out = tmp_path / "out"
    limits = {
        "secs": 60,
        "max_file_bytes": 1000,
        "max_tree_bytes": 10**6,
        "max_members": 100,
        "max_notes": 10,
    }
    config = {"trees": {str(logs): str(out / "logs")}, "limits": limits}
    t0 = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-I", "-c", SCRIPT, json.dumps(config)], capture_output=True, text=True, check=True
    )
    seconds = time.monotonic() - t0
    notes = [json.loads(line)["note"] for line in done.stdout.splitlines()]
    assert seconds < 5, seconds
    huge = next(n for n in notes if n.startswith("logs/huge.log: larger than 1000 bytes"))
    assert "sparse" in huge and "unread" in huge and not (out / "logs" / "huge.log").exists()
    assert (out / "logs" / "a.txt").read_text() == "kept\n"
    assert "logs/deep/b.txt: a hard link, not collected" in notes
    assert "logs/link: symlink, not collected" in notes and not (out / "logs" / "fifo").exists()
    assert not (out / "logs" / "deep" / "b.txt").exists() and not (out / "logs" / "link").exists()
    config.update(limits={**limits, "max_tree_bytes": 3}, trees={str(logs): str(tmp_path / "out2" / "logs")})
    done = subprocess.run(
        [sys.executable, "-I", "-c", SCRIPT, json.dumps(config)], capture_output=True, text=True, check=True
    )
    assert any("holds more than 3 bytes" in json.loads(line)["note"] for line in done.stdout.splitlines())
