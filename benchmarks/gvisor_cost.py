"""gVisor's cost on the baseline agent: the same cells under the Docker runner with ``runc`` and with gVisor.

Each competition is fetched and prepared once (embedded competitions: no network), then, per seed, the
baseline agent (``params.yaml``'s ``agent.baseline``) runs as a real Docker-runner cell twice, once with
``docker.runtime: runc`` and once with the gVisor runtime (``--runtime``, default ``runsc``, as
environment/start_engine.sh registers it), the order alternating from pair to pair so that neither runtime
always meets the machine first. Printed: each run's ``agent_seconds`` (run.json's figure: the agent's
container from start to exit), then per competition the medians and the median of the paired ratios, and the
median ratio over every pair. A run that is not ``ok`` with a submission stops the benchmark.

Usage (an engine that offers gVisor; the env and agent images are built by the first cell):
``python benchmarks/gvisor_cost.py --competitions ames-house-prices,titanic-lite,credit-scoring --seeds 3``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from mlebench.data.fetch import fetch  # noqa: E402
from mlebench.data.prepare import prepare_competition  # noqa: E402
from mlebench.execution.runners import RUNNERS  # noqa: E402
from mlebench_spec.cell import Cell  # noqa: E402
from mlebench_spec.declarations import parse_declaration  # noqa: E402
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware  # noqa: E402

HW = Hardware(name="bench", cpus=2, memory="4g", shm_size="256m", pids=512, gpus=0, time_limit_secs=1800)


def prepare(competition_id: str, scratch: Path) -> Path:
    """Fetch and prepare one competition under ``scratch``; return its prepared folder."""
    comp = parse_declaration(ROOT / "competitions" / competition_id / "competition.yaml")
    raw, out = scratch / "raw" / competition_id, scratch / "prepared" / competition_id
    fetch(comp, raw)
    prepare_competition(comp, raw, out, folder=ROOT / "competitions" / competition_id)
    out.chmod(0o755)
    for path in out.rglob("*"):  # the agent (uid 1000) reads the public split through a bind mount
        path.chmod(0o755 if path.is_dir() else 0o644)
    return out


def run_once(competition_id: str, prepared: Path, seed: int, runtime: str, scratch: Path) -> float:
    """Run the baseline cell once under ``runtime``; return run.json's ``agent_seconds``."""
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    agent = AgentConfig(**params["agent"]["baseline"])
    out = scratch / "runs" / f"{competition_id}-s{seed}-{runtime}"
    cell = Cell(
        competition_id,
        "baseline",
        seed,
        ROOT,
        prepared / "public",
        prepared / "private",
        out,
        agent,
        HW,
    )
    record = RUNNERS["docker"](DockerSettings(runtime=runtime)).run(cell)
    if record.status != "ok" or not record.submission_exists:
        raise SystemExit(f"{competition_id} seed {seed} under {runtime}: {record.status} {record.reason}")
    print(f"  {competition_id:24s} seed {seed}  {runtime:12s} {record.agent_seconds:6.1f} s", flush=True)
    return record.agent_seconds


def main(argv: list[str] | None = None) -> int:
    """Prepare each competition, then run its seeds' pairs under runc and gVisor, alternating the order."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--competitions", default="ames-house-prices,titanic-lite,credit-scoring")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--runtime", default="runsc", help="the engine's gVisor runtime (docker.runtime)")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="gvisor-cost-"))
    scratch.chmod(0o755)
    ratios: dict[str, list[float]] = {}
    times: dict[str, dict[str, list[float]]] = {}
    n = 0
    try:
        for competition_id in args.competitions.split(","):
            prepared = prepare(competition_id, scratch)
            times[competition_id] = {"runc": [], args.runtime: []}
            for seed in range(args.seeds):
                order = ("runc", args.runtime) if n % 2 == 0 else (args.runtime, "runc")
                n += 1
                for runtime in order:
                    seconds = run_once(competition_id, prepared, seed, runtime, scratch)
                    times[competition_id][runtime].append(seconds)
            pairs = zip(times[competition_id][args.runtime], times[competition_id]["runc"], strict=True)
            ratios[competition_id] = [g / r for g, r in pairs]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"baseline agent, agent_seconds, gVisor runtime {args.runtime!r} against runc:")
    for competition_id, by in times.items():
        print(
            f"  {competition_id:24s} runc median {statistics.median(by['runc']):6.1f} s  "
            f"gVisor median {statistics.median(by[args.runtime]):6.1f} s  "
            f"paired ratio median {statistics.median(ratios[competition_id]):.2f}  "
            f"(runc {by['runc']}, gVisor {by[args.runtime]})"
        )
    every = [r for rs in ratios.values() for r in rs]
    print(
        f"  every pair ({len(every)}): median ratio {statistics.median(every):.2f}, "
        f"range {min(every):.2f}-{max(every):.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
