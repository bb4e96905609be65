"""The run-cache hand-off without a shared disk, engine aside: real git, real DVC, local-directory remotes.

A small pipeline in a scratch repository (``make`` writes a public and a private output, the private one on
its own remote; ``use`` reads both): ``make`` is recorded on the coordinator first, then ``use`` is handed to
a worker in its own checkout, as the ``ray`` executor does it, minus Ray. Each stage command appends its name
to a counter file outside every checkout, so a run anywhere is seen.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from dvc.repo import Repo

from mlebench.scheduling.dvc_stages import Pipelines
from mlebench.scheduling.executors.handoff import Coordinator, HandoffError, work
from mlebench_spec.errors import ConfigError

pytestmark = pytest.mark.slow

REMOTES = ("storage", "answers")
PIPELINE = {
    "stages": {
        "make": {
            "cmd": 'echo make >> "$HANDOFF_COUNT" && python make.py',
            "deps": ["make.py", "src.txt"],
            "outs": ["data/public.txt", {"data/private.txt": {"remote": "answers"}}],
        },
        "use": {
            "cmd": 'echo use >> "$HANDOFF_COUNT" && python use.py',
            "deps": ["use.py", "extra.txt", "data/public.txt", "data/private.txt"],
            "params": ["factor"],
            "outs": ["result.txt"],
        },
        "peek": {
            "cmd": 'echo peek >> "$HANDOFF_COUNT" && cp data/public.txt peek.txt',
            "deps": ["data/public.txt"],
            "outs": ["peek.txt"],
        },
        "fail": {
            "cmd": 'echo fail >> "$HANDOFF_COUNT" && exit 3',
            "deps": ["src.txt"],
            "outs": ["never.txt"],
        },
    }
}
MAKE = """\
from pathlib import Path
text = Path("src.txt").read_text()
Path("data").mkdir(exist_ok=True)
Path("data/public.txt").write_text(text.upper())
Path("data/private.txt").write_text(text[::-1])
"""
USE = """\
import time
from pathlib import Path
parts = [Path(p).read_text() for p in ("data/public.txt", "data/private.txt", "extra.txt")]
Path("result.txt").write_text("|".join(parts) + f"|{time.time_ns()}")  # a re-run never gives the same bytes
"""


def _sh(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    full = {**os.environ, **(env or {}), "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    proc = subprocess.run(args, cwd=cwd, env=full, capture_output=True, text=True)
    assert proc.returncode == 0, f"{args}: {proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Return a committed git + DVC repository with the pipeline above and two local remotes."""
    root = tmp_path / "coordinator"
    root.mkdir()
    count = tmp_path / "count"
    monkeypatch.setenv("HANDOFF_COUNT", str(count))
    (root / "dvc.yaml").write_text(yaml.safe_dump(PIPELINE, sort_keys=False))
    (root / "params.yaml").write_text("factor: 2\n")
    (root / "make.py").write_text(MAKE)
    (root / "use.py").write_text(USE)
    (root / "src.txt").write_text("hello\n")
    (root / "extra.txt").write_text("extra\n")
    (root / ".gitignore").write_text("/data/\n/result.txt\n/peek.txt\n/never.txt\n")
    _sh(["git", "init", "-q"], root)
    _sh(["dvc", "init", "-q"], root)
    remotes = "".join(f"['remote \"{n}\"']\n    url = {tmp_path / 'remotes' / n}\n" for n in REMOTES)
    (root / ".dvc" / "config").write_text(f"[core]\n    remote = storage\n{remotes}")
    _sh(["dvc", "add", "-q", "src.txt"], root)  # a data source: a .dvc file, upstream of make and fail
    _sh(["git", "add", "-A"], root)
    _sh(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "scratch"], root)
    monkeypatch.chdir(root)  # where the scheduler runs
    return root


def _count(root: Path) -> list[str]:
    path = root.parent / "count"
    return path.read_text().split() if path.exists() else []


def _hand_off(coordinator: Coordinator, root: Path, address: str, log: Path) -> dict:
    """Dispatch ``address`` as the scheduler and executor do: begin, push inputs, work, receive, record."""
    pipelines = Pipelines(root)
    try:
        snapshot = pipelines.begin([address], check=False)[address]
        unsent = coordinator.unsent(address)
        if unsent:
            coordinator.push_inputs(address, unsent, str(log))
            coordinator.sent.update(unsent)
        cmd = PIPELINE["stages"][address.split(":")[1]]["cmd"]
        done = work(coordinator.spec(address, cmd), {})
        log.write_text(log.read_text() + done["log"] if log.exists() else done["log"])
        if done["result"] and done["result"]["ok"]:
            coordinator.receive(address, done["result"], str(log))
            assert pipelines.record({address: snapshot}) == {address: ""}
        return done
    finally:
        pipelines.close()


def test_a_stage_runs_once_in_a_workers_checkout_and_is_restored_here(scratch: Path, tmp_path: Path) -> None:
    root = scratch
    _sh(["dvc", "repro", "dvc.yaml:make"], root)  # recorded before "this run": the coordinator pushes it
    assert _count(root) == ["make"]
    workers = tmp_path / "workers"
    coordinator = Coordinator.open(root, checkout=str(workers))
    assert coordinator.unsent("dvc.yaml:use") == ["dvc.yaml:make"]
    assert set(coordinator.generated) == {"dvc.lock"}  # written by dvc repro, not committed: it travels
    assert set(coordinator.spec("dvc.yaml:use", "x")["files"]) == {"dvc.lock"}

    log = tmp_path / "use.log"
    done = _hand_off(coordinator, root, "dvc.yaml:use", log)
    assert done["result"]["ok"], log.read_text()
    # the command ran once, on the worker, and the coordinator restored its result from the run-cache
    assert _count(root) == ["make", "use"]
    assert "is cached - skipping run, checking out outputs" in log.read_text()
    clone = next(workers.glob("*/clone-0"))
    assert (root / "result.txt").read_bytes() == (clone / "result.txt").read_bytes()
    # the entry went where DVC's own run-cache transfer (`dvc fetch --run-cache`) finds it
    key, value = done["result"]["key"], done["result"]["value"]
    runs = root / ".dvc" / "cache" / "runs"
    shutil.rmtree(runs)
    with Repo(str(root)) as repo:
        repo.stage_cache.pull("storage")
    assert (runs / key[:2] / key / value).is_file()
    assert (root / "result.txt").read_text().startswith("HELLO\n|\nolleh|extra\n|")
    assert "up to date" in _sh(["dvc", "status", "dvc.yaml:make", "dvc.yaml:use"], root)
    # the private output went to its own remote only, and the stage's lock entry records the worker's bytes
    lock = yaml.safe_load((root / "dvc.lock").read_text())["stages"]
    private = next(o["md5"] for o in lock["make"]["outs"] if o["path"] == "data/private.txt")
    remotes = tmp_path / "remotes"
    assert (remotes / "answers/files/md5" / private[:2] / private[2:]).is_file()
    assert not (remotes / "storage/files/md5" / private[:2] / private[2:]).exists()
    assert len(list((remotes / "storage/runs").rglob("*"))) == 3  # runs/<k[:2]>/<key>/<value>: one entry
    assert done["host"] and done["returncode"] == 0


def test_other_inputs_here_fail_the_hand_off_and_nothing_runs_on_the_coordinator(
    scratch: Path, tmp_path: Path
) -> None:
    root = scratch
    _sh(["dvc", "repro", "dvc.yaml:make"], root)
    coordinator = Coordinator.open(root, checkout=str(tmp_path / "workers"))
    # pushed for a stage that reads only the public output: the private one goes too (use needs it)
    coordinator.push_inputs("dvc.yaml:peek", ["dvc.yaml:make"], str(tmp_path / "push.log"))
    done = work(coordinator.spec("dvc.yaml:use", PIPELINE["stages"]["use"]["cmd"]), {})
    assert done["result"]["ok"], done["log"]
    (root / "extra.txt").write_text("edited on the coordinator after dispatch\n")
    with pytest.raises(HandoffError, match=r"other inputs than this checkout's: dep extra\.txt") as err:
        coordinator.receive("dvc.yaml:use", done["result"], str(tmp_path / "receive.log"))
    assert err.value.step == "compare the run-cache key"
    assert _count(root) == ["make", "use"]  # once on the worker; never here
    assert not (root / "result.txt").exists()


def test_a_failing_command_is_its_exit_code_and_a_missing_commit_names_the_step(
    scratch: Path, tmp_path: Path
) -> None:
    root = scratch
    coordinator = Coordinator.open(root, checkout=str(tmp_path / "workers"))
    assert coordinator.unsent("dvc.yaml:fail") == ["src.txt.dvc"]  # pushed first, then pulled by the worker
    done = _hand_off(coordinator, root, "dvc.yaml:fail", tmp_path / "fail.log")
    assert done["result"]["step"] == "run the stage" and done["result"]["returncode"] == 3, done["log"]
    assert _count(root) == ["fail"]
    spec = coordinator.spec("dvc.yaml:make", PIPELINE["stages"]["make"]["cmd"])
    spec["revision"] = "0" * 40
    done = work(spec, {})
    assert done["result"]["step"] == f"fetch commit {'0' * 12}"
    assert "is not in" in done["result"]["error"] and "push it there" in done["result"]["error"]


def test_uncommitted_changes_a_worker_cannot_get_are_refused_by_name(scratch: Path) -> None:
    root = scratch
    (root / "params.yaml").write_text("factor: 3\n")  # generated files travel with each task
    assert Coordinator.open(root).generated == ("params.yaml",)
    with pytest.raises(ConfigError, match=r"worker_checkout .*/workers is inside this checkout"):
        Coordinator.open(root, checkout=str(root / "workers"))
    (root / "make.py").write_text(MAKE + "# edited\n")
    (root / "notes.txt").write_text("scratch\n")
    with pytest.raises(ConfigError, match=r"would not reach them: M make\.py, \?\? notes\.txt\. Commit them"):
        Coordinator.open(root)


def test_stages_dvc_keeps_no_run_cache_for_are_refused_up_front(scratch: Path) -> None:
    root = scratch
    pipeline = yaml.safe_load((root / "dvc.yaml").read_text())
    pipeline["stages"]["make"]["outs"][0] = {"data/public.txt": {"persist": True}}
    (root / "dvc.yaml").write_text(yaml.safe_dump(pipeline, sort_keys=False))
    with pytest.raises(ConfigError, match=r"dvc\.yaml:make \(out data/public\.txt has persist: true\)"):
        Coordinator.open(root)
