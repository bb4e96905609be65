"""Per-cell overhead of the Docker runner next to the local runner's, on a real engine.

Runs the dummy agent (which only copies the sample submission, so nearly all time is harness time) on a
small synthetic competition, ``--cells`` times with each runner, after one warm-up cell that builds the
images. A cell's *overhead* is everything that is not the agent process itself:

- local: the cell's wall time minus the agent's run time (workspace copy, extraction, hashing, run.json);
- docker: create + start + stop + extract + remove, as the runner measured them (``overhead_seconds`` in
  run.json; images already built, so their lookup is reported apart), and the cell's wall time minus the
  agent's run time, comparable with the local figure.

Usage: ``python benchmarks/container_overhead.py [--cells N] [--rows N] [--base-image IMAGE]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mlebench.execution.docker.engine import connect  # noqa: E402
from mlebench.execution.runners import run_cell  # noqa: E402
from mlebench_spec.cell import Cell  # noqa: E402
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware  # noqa: E402

DUMMY = AgentConfig(path="agents/dummy", command=["python", "main.py"], kwargs={})
HW = Hardware(name="bench", cpus=1, memory="1g", shm_size="64m", pids=256, gpus=0, time_limit_secs=300)
PHASES = ("create", "start", "stop", "extract", "remove")


def _competition(folder: Path, rows: int = 1000) -> Path:
    public = folder / "public"
    public.mkdir(parents=True)
    (public / "description.md").write_text("# Benchmark task\nPredict y.\n")
    (public / "train.csv").write_text("id,x,y\n" + "".join(f"{i},{i % 7},{i % 2}\n" for i in range(rows)))
    (public / "test.csv").write_text("id,x\n" + "".join(f"{i},{i % 5}\n" for i in range(rows, 2 * rows)))
    (public / "sample_submission.csv").write_text(
        "id,y\n" + "".join(f"{i},0\n" for i in range(rows, 2 * rows))
    )
    return public


def _cell(public: Path, seed: int, out: Path) -> Cell:
    return Cell("bench", "dummy", seed, ROOT, public, public.parent / "private", out, DUMMY, HW)


def main(argv: list[str] | None = None) -> int:
    """Measure and print the per-cell overheads and their ratio."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cells", type=int, default=5, help="cells per runner (default 5)")
    parser.add_argument(
        "--rows", type=int, default=1000, help="rows of train.csv and test.csv (default 1000)"
    )
    parser.add_argument(
        "--base-image", default=DockerSettings().base_image, help="docker.base_image to build on"
    )
    args = parser.parse_args(argv)
    settings = DockerSettings(base_image=args.base_image)
    engine = connect().version().get("Version", "?")
    local_over, docker_over, docker_wall_over, phases, lookups = [], [], [], {p: [] for p in PHASES}, []
    with tempfile.TemporaryDirectory(prefix="mlebench-bench-") as tmp:
        public = _competition(Path(tmp) / "comp", args.rows)
        t0 = time.monotonic()
        warm = run_cell(_cell(public, 0, Path(tmp) / "warm"), "docker", settings)
        print(f"warm-up (image build or lookup): {time.monotonic() - t0:.1f} s, status {warm.status}")
        for i in range(args.cells):
            t0 = time.monotonic()
            rec = run_cell(_cell(public, i, Path(tmp) / f"local{i}"), "local", settings)
            local_over.append(time.monotonic() - t0 - rec.agent_seconds)
            t0 = time.monotonic()
            drec = run_cell(_cell(public, i, Path(tmp) / f"docker{i}"), "docker", settings)
            docker_wall_over.append(time.monotonic() - t0 - drec.agent_seconds)
            assert rec.status == drec.status == "ok", (rec.status, drec.status, drec.reason)
            docker_over.append(sum(drec.overhead_seconds.get(p, 0.0) for p in PHASES))
            for phase in PHASES:
                phases[phase].append(drec.overhead_seconds.get(phase, 0.0))
            lookups.append(drec.overhead_seconds.get("images", 0.0))
    mean = statistics.mean
    print(
        f"\n{args.cells} cells per runner, dummy agent, {args.rows}-row competition, engine {engine}, "
        f"base image {args.base_image}"
    )
    print(f"{'per cell (s)':<44}{'local':>10}{'docker':>10}{'ratio':>10}")
    print(
        f"{'overhead (docker: create+start+stop+extract+rm)':<44}"
        f"{mean(local_over):>10.3f}{mean(docker_over):>10.3f}"
        f"{mean(docker_over) / mean(local_over):>9.1f}x"
    )
    print(
        f"{'overhead: wall time minus agent time':<44}"
        f"{mean(local_over):>10.3f}{mean(docker_wall_over):>10.3f}"
        f"{mean(docker_wall_over) / mean(local_over):>9.1f}x"
    )
    for phase in PHASES:
        print(f"{'  docker ' + phase:<44}{'':>10}{mean(phases[phase]):>10.3f}")
    print(f"{'  docker image lookup (already built)':<44}{'':>10}{mean(lookups):>10.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
