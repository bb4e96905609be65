"""Benchmark ``mlebench run``: wall time against the ideal and against sequential ``dvc repro``, per executor.

A sleep agent (tests/sleep_agent.py) on one competition, ``--cells`` seeds × ``--secs`` s, ``--slots`` at once
(``--cells`` may list several grid sizes, run one after the other with the same slots and seconds, so the
per-cell figures show whether the scheduler's cost grows with the grid; a table closes the output), under a
tiny hardware profile (0.1 CPU, 64m) so the slots, not this host's cores, bound concurrency (grading runs
beside them in its own ``stage_slots``). The host's load average is printed with the ratios. The data stages
run once first (not timed). Printed per executor, from the event log:

- ``agent phase``: first run dispatched → last run recorded; ``ideal`` = ceil(cells / slots) × secs;
  ``concurrency`` = ideal / agent phase (target >= 0.8);
- ``dispatch overhead``: per run stage, (started − dispatched) + (recorded − finished): the scheduler's own
  time, without the stage process (target <= 1 s locally);
- ``whole grid``: runs and grades, against sequential ``dvc repro`` of the same grid (``--no-sequential``
  skips it).

``local-cold`` is the local executor with ``warm_start: false`` (an interpreter per stage command), to
pair against ``local`` in one run.

    python benchmarks/scheduler.py --cells 60 --secs 10 --slots 10 --executors local,slurm,ray
    python benchmarks/scheduler.py --cells 60,300,1000 --secs 30 --slots 40 --executors local --no-sequential

Sleep agents use no CPU; what the figures measure is the scheduler's own cost and the stage processes'
start-up, so pick ``slots / secs`` (cells a second) well below what the host's free cores can start and
record (about 0.25 CPU-s a cell here, with warm starts), and read the load average printed beside them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from checkout_copy import copy_checkout, plan_and_commit, run  # noqa: E402
from sleep_agent import add_sleep_agent  # noqa: E402


def _grid(base: Path, cells: int, secs: float) -> Path:
    repo = copy_checkout(base)
    add_sleep_agent(repo, secs)
    seeds = ",".join(str(s) for s in range(cells))
    plan_and_commit(
        repo,
        [
            "competition_set=custom",
            "competition_set.ids=[titanic-lite]",
            f"seeds=[{seeds}]",
            "agent=[sleep]",
            "runner=local",
            "hardware.cpus=0.1",
            "hardware.memory=64m",
        ],
    )
    for stage in ("fetch", "prepare", "selfcheck", "audit"):
        run(["dvc", "repro", "-s", f"pipelines/titanic-lite/dvc.yaml:{stage}"], repo)
    return repo


def _phase(repo: Path) -> tuple[float, list[float]]:
    events = [json.loads(x) for x in (repo / "runs/.scheduler/events.jsonl").read_text().splitlines()]
    runs = [e for e in events if "run_agent-" in e.get("stage", "")]
    first = min(e["time"] for e in runs if e["event"] == "dispatched")
    last = max(e["time"] for e in runs if e["event"] == "recorded")
    at: dict[tuple[str, str], float] = {}
    for e in runs:
        at.setdefault((e["stage"], e["event"]), e["time"])
    overhead = [
        (at[(s, "started")] - at[(s, "dispatched")]) + (at[(s, "recorded")] - at[(s, "finished")])
        for s in {e["stage"] for e in runs}
        if (s, "started") in at and (s, "recorded") in at
    ]
    return last - first, overhead


def main() -> int:
    """Run the benchmark at each grid size and print its ratios, then one line per size and executor."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cells", default="60", help="grid sizes, comma-separated (60,300,1000)")
    p.add_argument("--secs", type=float, default=10)
    p.add_argument("--slots", type=int, default=10)
    p.add_argument("--executors", default="local,slurm,ray")
    p.add_argument("--no-sequential", action="store_true")
    p.add_argument("--keep", type=Path, help="build the grids in this folder and keep them")
    args = p.parse_args()
    rows = []
    for cells in [int(c) for c in args.cells.split(",")]:
        rows += _one_size(args, cells)
    if rows:
        print(f"\n{'cells':>6} {'executor':>10} {'ideal s':>8} {'phase s':>8} {'of ideal':>8} "
              f"{'overhead s/cell':>15} {'max':>6} {'CPU-s/cell':>10} {'load before→after':>18}")  # fmt: skip
        for r in rows:
            print(f"{r['cells']:>6} {r['executor']:>10} {r['ideal']:>8.0f} {r['phase']:>8.1f} "
                  f"{r['ideal'] / r['phase']:>8.2f} {r['overhead']:>15.2f} {r['max']:>6.2f} "
                  f"{r['cpu']:>10.2f} {r['load0']:>8.2f} → {r['load1']:<8.2f}")  # fmt: skip
    return 0


def _one_size(args: argparse.Namespace, cells: int) -> list[dict]:
    ideal = math.ceil(cells / args.slots) * args.secs
    print(f"{cells} cells × {args.secs:g} s, {args.slots} slots: ideal agent phase {ideal:.0f} s")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    wall: dict[str, float] = {}
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        tmp = str(args.keep / str(cells) if args.keep else scratch)
        if not args.no_sequential:
            repo = _grid(Path(tmp) / "sequential", cells, args.secs)
            t0 = time.monotonic()
            run(["dvc", "repro"], repo)
            wall["dvc repro"] = time.monotonic() - t0
            print(f"sequential dvc repro: whole grid {wall['dvc repro']:.1f} s")
        for i, name in enumerate(args.executors.split(",")):
            repo = _grid(Path(tmp) / f"{i}-{name}", cells, args.secs)
            load0 = os.getloadavg()[0]
            cpu0 = _children_cpu()
            t0 = time.monotonic()
            # the local pool's CPUs: the runs' 0.1 each plus a CPU per grading slot, so slots bound the runs
            engine = name.removesuffix("-cold")
            extra = [f"executor.cpus={args.slots * 0.1 + 2:g}"] if engine == "local" else []
            if name == "local-cold":  # every stage its own interpreter, as before warm starts
                extra.append("executor.warm_start=false")
            proc = run(
                [sys.executable, "-m", "mlebench.cli", "run", "--executor", engine]
                + ["--jobs", str(args.slots), "--no-progress", *extra],
                repo,
                check=False,
            )
            wall[name] = time.monotonic() - t0
            cpu = (_children_cpu() - cpu0) / cells  # the scheduler, its executor and every stage it ran
            if proc.returncode != 0:
                print(f"{name}: FAILED ({proc.returncode}): {proc.stderr[-800:]}")
                continue
            phase, overhead = _phase(repo)
            line = (
                f"{name:>10}: agent phase {phase:.1f} s, concurrency {ideal / phase:.2f} of ideal; "
                f"dispatch overhead {statistics.mean(overhead):.2f} s/cell (max {max(overhead):.2f}); "
                f"whole grid {wall[name]:.1f} s; {cpu:.2f} CPU-s a cell (scheduler and stages)"
            )
            if "dvc repro" in wall:
                line += f" = {wall['dvc repro'] / wall[name]:.1f}× faster than dvc repro"
            print(line)
            stale = run(["dvc", "status", "--json"], repo, check=False).stdout.strip()
            print(f"        dvc status afterwards: {stale or '{}'}")
            print(f"        load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            rows.append(
                dict(cells=cells, executor=name, ideal=ideal, phase=phase, overhead=statistics.mean(overhead),
                     max=max(overhead), cpu=cpu, load0=load0, load1=os.getloadavg()[0])
            )  # fmt: skip
    return rows


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    raise SystemExit(main())
