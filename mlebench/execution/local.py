"""Run one agent on one competition for one seed, and collect what it leaves behind.

The local runner starts the agent as a subprocess in a fresh workspace outside the repository that holds a
read-only copy of the public split and nothing else; the private answers are never copied or named there.
It enforces the wall-clock limit (the whole process group is killed at the limit, and whatever submission
exists then is kept) and copies submission, code and logs out without following symlinks (the submission
also at the plan's snapshot marks while the agent runs, :mod:`mlebench.execution.snapshots`). An agent's
failure is recorded, never raised: the stage succeeds so the grid goes on.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

from mlebench.execution import collector
from mlebench.execution.secrets import agent_secret, redact_run
from mlebench.execution.snapshots import SNAPSHOTS_DIR, Copy, snapshotting
from mlebench.reporting.records import RunRecord
from mlebench_spec.cell import Cell
from mlebench_spec.errors import ConfigError
from mlebench_spec.files import utc_now
from mlebench_spec.hashing import sha256_json, sha256_tree
from mlebench_spec.manifest import split_sha256
from mlebench_spec.params import DockerSettings
from mlebench_spec.texts import checked_v1_file, checkout_dir
from mlebench_spec.yamlio import load_yaml

INSTRUCTIONS = Path(__file__).with_name("instructions.txt")
V1_INSTRUCTIONS = Path(__file__).with_name("instructions.v1.yaml")  # v1's, pinned by git blob id
_KILL_GRACE_SECS = 5
_MAX_COPY_BYTES = 512 * 1024 * 1024


class LocalRunner:
    """The ``local`` runner: the agent as a subprocess of this host, graded on this host."""

    name = "local"
    grader = "host"
    record = RunRecord

    def __init__(self, settings: DockerSettings) -> None:
        self.settings = settings

    def problem(self) -> str | None:
        """Why the runner cannot run here: never (it needs only this host)."""
        return None

    @staticmethod
    def image_sources(root: Path) -> list[str]:
        """Return no files: the local runner builds no image."""
        return []

    def run(self, cell: Cell) -> RunRecord:
        """Run the agent as a local subprocess and collect ``submission.csv``, ``code/`` and ``logs/``."""
        return run_local(cell)


def run_local(cell: Cell) -> RunRecord:
    """Run the agent as a local subprocess; write ``{submission.csv,code/,logs/}`` into the cell's run dir.

    Returns the run record (the caller writes it: :func:`mlebench.execution.runners.run_cell`).
    """
    agent, hardware = cell.running()
    agent_dir = (cell.root / agent.path).resolve()
    if not (agent_dir / agent.command[-1]).exists() and not shutil.which(agent.command[0]):
        raise ConfigError(f"agent {cell.agent!r}: {agent.command} not found in {agent_dir}")
    if not cell.public.is_dir():
        raise ConfigError(
            f"{cell.public} is missing: run `dvc repro` for the prepare stage of {cell.competition_id}"
        )
    secret = agent_secret(agent, cell.agent)
    out = cell.run_dir
    out.mkdir(parents=True, exist_ok=True)
    with collector.scratch_dir(f"mlebench-{cell.competition_id}-") as tmp:
        home = Path(tmp) / "home"
        dirs = {name: home / name for name in ("data", "submission", "code", "logs", "agent")}
        shutil.copytree(cell.public, dirs["data"], symlinks=False)
        _make_read_only(dirs["data"])
        for name in ("submission", "code", "logs"):
            dirs[name].mkdir()
        seed_code(cell, dirs["code"])
        shutil.copytree(agent_dir, dirs["agent"], ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        shutil.copy(instructions_file(cell), home / "instructions.txt")
        env = agent_env(cell, home, dirs)
        # `python` in what the agent starts (its scripts, a reproduce.sh) is this interpreter, as in its argv
        env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
        if secret is not None:
            env.update(secret.env())
        command = [sys.executable if part == "python" else part for part in agent.command]
        _clear_snapshots(out)
        started, t0 = utc_now(), time.monotonic()
        copy = _snapshot_copy(dirs["submission"] / "submission.csv")
        with snapshotting(out, cell.snapshots, hardware.time_limit_secs, t0, copy) as snapper:
            status, code = _supervise(
                command, dirs["agent"], env, hardware.time_limit_secs, out / "agent_output.log"
            )
        seconds = round(time.monotonic() - t0, 3)
        finished = utc_now()
        notes: list[str] = list(snapper.errors)
        exists = _copy_file_out(dirs["submission"] / "submission.csv", out / "submission.csv", notes)
        collect_outputs({dirs["code"]: out / "code", dirs["logs"]: out / "logs"}, notes)
    if secret is not None:
        notes = redact_run(out, secret, notes)
    return RunRecord(
        competition_id=cell.competition_id,
        agent=cell.agent,
        seed=cell.seed,
        runner="local",
        status=status,
        exit_code=code,
        started_at=started,
        finished_at=finished,
        agent_seconds=seconds,
        time_limit_secs=hardware.time_limit_secs,
        hardware=hardware.model_dump(),
        limits_enforced=["time_limit_secs", "cpus (thread env vars only)"],
        submission_exists=exists,
        extraction_notes=notes,
        agent_sha256=sha256_tree(agent_dir),
        config_sha256=sha256_json(cell.config("local")),
        public_sha256=split_sha256(cell.public),
        python=sys.version.split()[0],
    )


def seed_code(cell: Cell, code_dir: Path) -> None:
    """Copy ``cell.code_from`` (kept code to re-run: the reproduce stage) into the empty ``code_dir``.

    Regular files and folders only: a symlink in the kept code is left out (the runners never collect one).
    """
    if cell.code_from is None:
        return
    if not cell.code_from.is_dir():
        raise ConfigError(f"{cell.label}: the kept code {cell.code_from} to re-run is not a folder")
    for item in sorted(cell.code_from.rglob("*")):
        rel = item.relative_to(cell.code_from)
        if item.is_symlink():
            continue
        if item.is_dir():
            (code_dir / rel).mkdir(parents=True, exist_ok=True)
        elif item.is_file():
            (code_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(item, code_dir / rel)


def instructions_file(cell: Cell) -> Path:
    """Return the general instructions the cell's agent gets: ours, or v1's from its checkout, checked."""
    if cell.texts.source == "ours":
        return INSTRUCTIONS
    pin = load_yaml(V1_INSTRUCTIONS)
    what = "v1's instructions"
    if cell.texts.obfuscate:
        pin, what = pin["obfuscated"], "v1's obfuscated instructions"
    checkout = checkout_dir(cell.texts, cell.root)
    return checked_v1_file(checkout, pin["path"], pin["git_blob"], what)


def agent_env(cell: Cell, home: Path, dirs: dict[str, Path]) -> dict[str, str]:
    """Return the agent's environment: the contract's folders, the cell, its hardware and its kwargs."""
    agent, hardware = cell.running()
    threads = str(max(1, int(hardware.cpus)))
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": str(cell.seed),
        "PYTHONDONTWRITEBYTECODE": "1",
        "OMP_NUM_THREADS": threads,
        "OPENBLAS_NUM_THREADS": threads,
        "MKL_NUM_THREADS": threads,
        "OMP_WAIT_POLICY": "PASSIVE",  # spinning OpenMP waits slow boosting 5-10x on a busy small host
        "DATA_DIR": str(dirs["data"]),
        "SUBMISSION_DIR": str(dirs["submission"]),
        "CODE_DIR": str(dirs["code"]),
        "LOGS_DIR": str(dirs["logs"]),
        "AGENT_DIR": str(dirs["agent"]),
        "INSTRUCTIONS_FILE": str(home / "instructions.txt"),
        "COMPETITION_ID": cell.competition_id,
        "SEED": str(cell.seed),
        "TIME_LIMIT_SECS": str(hardware.time_limit_secs),
        "HARDWARE_NAME": hardware.name,
        "HARDWARE_CPUS": threads,
        "HARDWARE_MEMORY": hardware.memory,
        "HARDWARE_GPUS": str(hardware.gpus),
        "AGENT_KWARGS": json.dumps(agent.kwargs, sort_keys=True),
    }
    for key in (
        "OPENBLAS_CORETYPE",
        "OPENBLAS_L2_SIZE",
        "CUDA_VISIBLE_DEVICES",
    ):  # BLAS fixes, the GPUs given
        if key in os.environ:
            env[key] = os.environ[key]
    return env


def _supervise(
    command: list[str], cwd: Path, env: dict[str, str], limit: int, log: Path
) -> tuple[str, int | None]:
    with log.open("wb") as fh:
        proc = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdout=fh,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            code = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            fh.write(f"\n[runner] killed at the wall-clock limit of {limit} s\n".encode())
            return "agent_timeout", None
    return ("ok" if code == 0 else "agent_error"), code


def _kill_group(proc: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=_KILL_GRACE_SECS)
            return
        except subprocess.TimeoutExpired:
            continue


def _copy_file_out(src: Path, dest: Path, notes: list[str]) -> bool:
    if not os.path.lexists(src):
        return False
    mode = src.lstat().st_mode
    if not stat.S_ISREG(mode):
        notes.append(f"{src.name}: not a regular file (symlink or special file), not collected")
        return False
    if src.lstat().st_size > _MAX_COPY_BYTES:
        notes.append(f"{src.name}: larger than {_MAX_COPY_BYTES} bytes, not collected")
        return False
    shutil.copyfile(src, dest, follow_symlinks=False)
    return True


def _snapshot_copy(src: Path) -> Copy:
    """Copy the agent's current submission with the final copy's checks (any-time snapshots)."""

    def copy(dest: Path, notes: list[str]) -> str:
        if not os.path.lexists(src):
            return "missing"
        before = len(notes)
        return (
            "copied"
            if _copy_file_out(src, dest, notes)
            else ("refused" if len(notes) > before else "missing")
        )

    return copy


def _clear_snapshots(out: Path) -> None:
    folder = out / SNAPSHOTS_DIR
    if folder.is_symlink():
        folder.unlink()
    elif folder.exists():
        shutil.rmtree(folder)


def collect_outputs(trees: dict[Path, Path], notes: list[str]) -> None:
    """Copy the agent's output folders (source → run dir) with the bounded collector every runner uses."""
    collector.collect(
        {str(src): str(dest) for src, dest in trees.items()}, notes, collector.Limits.from_env()
    )


def _make_read_only(path: Path) -> None:
    for item in [path, *path.rglob("*")]:
        if item.is_symlink():
            continue
        item.chmod(0o555 if item.is_dir() else 0o444)
