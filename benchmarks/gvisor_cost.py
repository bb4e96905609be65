"""gVisor's cost on the baseline agent: the same container run under ``runsc`` and under ``runc``, in turn.

The engine on the build machine may not offer ``runsc`` (adding it means restarting dockerd:
environment/start_engine.sh), so this drives the two OCI runtimes directly, on one bundle: the env image's
root file system (exported once from the engine), read-only, with the agent contract bound in as the Docker
runner binds it (``/home/data`` read-only, ``/home/{agent,submission,code,logs}``, the instructions), the
agent's environment from :func:`mlebench.execution.docker.agent.container_env`, uid 1000, no capabilities,
``no-new-privileges``, its own PID, IPC, UTS, mount and network namespaces (loopback only), memory 4 GiB.
Pairs alternate which runtime goes first; each run's wall time (the agent's seconds plus the runtime's start
and stop) is printed, then the medians and the median of the paired ratios.

Usage (root; ``runc`` and Debian's ``runsc`` installed; a prepared split, e.g. from ``dvc repro``):
``python benchmarks/gvisor_cost.py data/prepared/ames-house-prices/public --pairs 4``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from mlebench.execution.docker.agent import CONTRACT_DIRS, INSTRUCTIONS_PATH, container_env  # noqa: E402
from mlebench_spec.cell import Cell  # noqa: E402
from mlebench_spec.params import AgentConfig, Hardware  # noqa: E402

HW = Hardware(name="bench", cpus=2, memory="4g", shm_size="256m", pids=512, gpus=0, time_limit_secs=1800)


def env_rootfs(into: Path) -> str:
    """Export the newest ``mlebench-env`` image's file system into ``into``; return the image's tag."""
    tags = subprocess.run(
        ["docker", "images", "--format", "{{.Repository}}:{{.Tag}}", "mlebench-env"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if not tags:
        raise SystemExit(
            "no mlebench-env image: run a cell under the docker runner once (it builds the image)"
        )
    container = subprocess.run(["docker", "create", tags[0]], capture_output=True, text=True, check=True)
    cid = container.stdout.strip()
    try:
        into.mkdir(parents=True)
        subprocess.run(f"docker export {cid} | tar -x -C {into}", shell=True, check=True)  # noqa: S602
    finally:
        subprocess.run(["docker", "rm", cid], capture_output=True)
    return tags[0]


def bundle_config(rootfs: Path, work: Path, public: Path, env: dict[str, str]) -> dict:
    """Return the OCI runtime config of one run: the agent contract, as the Docker runner makes it."""
    rw = {"agent": "AGENT_DIR", "submission": "SUBMISSION_DIR", "code": "CODE_DIR", "logs": "LOGS_DIR"}
    mounts = [
        {"destination": "/proc", "type": "proc", "source": "proc"},
        {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "mode=755"]},
        {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "mode=1777"]},
        {
            "destination": CONTRACT_DIRS["DATA_DIR"],
            "type": "bind",
            "source": str(public),
            "options": ["rbind", "ro"],
        },
        {
            "destination": INSTRUCTIONS_PATH,
            "type": "bind",
            "source": str(work / "instructions.txt"),
            "options": ["rbind", "ro"],
        },
    ]
    for name, key in rw.items():
        mounts.append(
            {
                "destination": CONTRACT_DIRS[key],
                "type": "bind",
                "source": str(work / name),
                "options": ["rbind", "rw"],
            }
        )
    return {
        "ociVersion": "1.0.2",
        "process": {
            "user": {"uid": 1000, "gid": 1000},
            "args": ["python", "main.py"],
            "cwd": CONTRACT_DIRS["AGENT_DIR"],
            "env": [f"{k}={v}" for k, v in env.items()],
            "noNewPrivileges": True,
            "capabilities": {"bounding": [], "effective": [], "permitted": []},
        },
        "root": {"path": str(rootfs), "readonly": True},
        "hostname": "agent",
        "mounts": mounts,
        "linux": {
            "namespaces": [{"type": t} for t in ("pid", "network", "ipc", "uts", "mount")],
            "resources": {"memory": {"limit": 4 << 30}},
        },
    }


def run_once(runtime: str, scratch: Path, rootfs: Path, public: Path, env: dict[str, str], n: int) -> float:
    """Run the baseline agent once under ``runtime``; return its wall seconds (a missing submission fails)."""
    work = scratch / f"{runtime}-{n}"
    for name in ("submission", "code", "logs"):
        (work / name).mkdir(parents=True)
    shutil.copytree(ROOT / "agents" / "baseline", work / "agent")
    (work / "instructions.txt").write_text("benchmark\n")
    subprocess.run(["chown", "-R", "1000:1000", str(work)], check=True)
    bundle = work / "bundle"
    bundle.mkdir()
    (bundle / "config.json").write_text(json.dumps(bundle_config(rootfs, work, public, env)))
    name = f"mlebench-gvisor-cost-{runtime}-{n}-{time.monotonic_ns()}"
    command = {
        "runc": ["runc", "--root", str(scratch / "runc-state"), "run", "--bundle", str(bundle), name],
        "runsc": [
            "runsc",
            "--root",
            str(scratch / "runsc-state"),
            "--network=none",
            "run",
            "--bundle",
            str(bundle),
            name,
        ],
    }[runtime]
    t0 = time.monotonic()
    proc = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    seconds = time.monotonic() - t0
    if proc.returncode != 0 or not (work / "submission" / "submission.csv").is_file():
        raise SystemExit(f"{runtime}: exit {proc.returncode}, no submission: {proc.stderr[-1000:]}")
    print(f"{runtime:5s} run {n}: {seconds:.1f} s", flush=True)
    return seconds


def main(argv: list[str] | None = None) -> int:
    """Export the env image once, then run the baseline agent under runc and runsc in alternating pairs."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("public", type=Path, help="a prepared public split (data/prepared/<id>/public)")
    parser.add_argument("--pairs", type=int, default=4)
    args = parser.parse_args(argv)
    public = args.public.resolve()
    competition = public.parent.name
    scratch = Path(tempfile.mkdtemp(prefix="gvisor-cost-"))
    try:
        tag = env_rootfs(scratch / "rootfs")
        agent = AgentConfig(path="agents/baseline", command=["python", "main.py"])
        cell = Cell(
            competition, "baseline", 0, ROOT, public, public.parent / "private", scratch / "out", agent, HW
        )
        env = container_env(cell)
        env["PATH"] = "/opt/venv/bin:/usr/local/bin:/usr/bin:/bin"
        times: dict[str, list[float]] = {"runc": [], "runsc": []}
        for n in range(args.pairs):
            for runtime in ("runc", "runsc") if n % 2 == 0 else ("runsc", "runc"):
                times[runtime].append(run_once(runtime, scratch, scratch / "rootfs", public, env, n))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    version = subprocess.run(["runsc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    print(f"baseline agent on {competition}, image {tag}, {version}")
    for runtime, secs in times.items():
        print(f"  {runtime:5s} median {statistics.median(secs):.1f} s  {[round(s, 1) for s in secs]}")
    ratios = [a / b for a, b in zip(times["runsc"], times["runc"], strict=True)]
    print(f"  runsc / runc, median of {len(ratios)} pairs: {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
