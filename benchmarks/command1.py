"""README command 1 on a fresh clone, timed as a whole and per stage kind, against its 15-minute budget.

Clones the checkout's HEAD into a temporary folder and runs the first command of the README there (read from
the README itself, so this measures exactly what a new user types), with cold pip and uv caches and a cold
import memo. Every line the command prints is timestamped; the set-up part is the time before DVC's first
``Running stage`` line, and each stage runs from its ``Running stage`` line to the next one (DVC's lock
writing included). The stages are summed by kind (``run_agent (baseline)``, ``grade (dummy)``,
``prepare``, ...). Each stage's time is also split at the last line its command printed: what comes after it
(the interpreter's exit, DVC hashing the deps and outs, caching the outs, rewriting the lock file, and its
check of the next stage) is the per-stage cost of running the grid as separate DVC stages. The gap between
runs is from one agent run's last line (its ``ok in ... s``) to the next ``run_agent`` stage's start.

A fresh machine also has no agent, environment or grader image and no build cache: ``--fresh-images``
removes this project's images (``mlebench-env``, ``mlebench-agent-*``, ``mlebench-grader``) and the build
cache first, so that their builds are timed too; without it, images left from an earlier run are reused and
the run says so. The Docker engine and the base image (``environment/bootstrap_base.sh``) are expected up,
as the README says.

Machines here are shared: a fixed CPU probe (pure Python and numpy, about a second) is timed before and
after, so that runs on different days can be put side by side.

Usage: ``python benchmarks/command1.py [--fresh-images] [--keep DIR] [--budget-minutes 15]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT_IMAGES = re.compile(r"^(mlebench-env|mlebench-agent-[\w.-]+|mlebench-grader)$")
STAGE_LINE = re.compile(r"^Running stage '(?:[^']*:)?(?P<stage>[^']+)':")
DVC_LINE = re.compile(
    r"^(> |Generating lock file|Updating lock file|To track the changes|To enable auto staging|Use `dvc push`"
    r"|\t|$)"
)
"""Lines DVC prints itself (not the stage's command): the command echo, lock-file notes, blank lines."""
CELL_SUFFIX = re.compile(r"^(?P<kind>[\w.]+?)-(?P<agent>[\w.-]+)-s\d+$")


def readme_command(readme: Path) -> str:
    """Return the command line of the first fenced bash block of ``readme`` (README command 1)."""
    blocks = re.findall(r"```bash\n(.*?)```", readme.read_text(), flags=re.S)
    if not blocks:
        raise SystemExit(f"{readme}: no ```bash block")
    lines = [ln for ln in blocks[0].splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if len(lines) != 1:
        raise SystemExit(f"{readme}: the first bash block should hold one command line, found {len(lines)}")
    return lines[0]


def cpu_probe() -> float:
    """Seconds of a fixed single-core workload: a pure-Python loop and a numpy sort."""
    code = (
        "import time,numpy as np\n"
        "t=time.perf_counter()\n"
        "s=0\n"
        "for i in range(3_000_000): s+=i*i%7\n"
        "np.sort(np.random.default_rng(0).random(4_000_000))\n"
        "print(time.perf_counter()-t)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout)


def project_images(engine: bool = True) -> list[str]:
    """``repository:tag`` of this project's derived images present on the engine (none without one)."""
    if not engine:
        return []
    out = subprocess.run(
        ["docker", "images", "--format", "{{.Repository}}:{{.Tag}}"], capture_output=True, text=True
    )
    if out.returncode != 0:
        raise SystemExit(f"docker images failed (is the engine up?): {out.stderr.strip()}")
    return [ref for ref in out.stdout.split() if PROJECT_IMAGES.match(ref.split(":")[0])]


def images_used(clone: Path) -> set[str]:
    """``repository:tag`` of the env, agent and grader images the run's records name."""
    used: set[str] = set()
    for path in [*clone.glob("runs/*/*/*/run.json"), *clone.glob("grades/*/*/*.json")]:
        record = json.loads(path.read_text(encoding="utf-8"))
        used.update(str(image["tag"]) for image in (record.get("images") or {}).values() if "tag" in image)
        used.add(str((record.get("lineage") or {}).get("grader_image_tag", "")))
    return used - {""}


def stage_kind(stage: str) -> str:
    """``run_agent-baseline-s0`` -> ``run_agent (baseline)``; a competition's data stage keeps its name."""
    m = CELL_SUFFIX.match(stage)
    if m and m["kind"] in {"run_agent", "grade", "reproduce", "integrity"}:
        return f"{m['kind']} ({m['agent']})"
    return stage


def run_timed(command: str, cwd: Path, env: dict[str, str], log: Path) -> tuple[int, list[tuple[float, str]]]:
    """Run ``command`` in bash, returning its exit code and its output lines with their arrival times."""
    lines: list[tuple[float, str]] = []
    with log.open("w") as sink:
        proc = subprocess.Popen(
            ["bash", "-c", command],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            now = time.monotonic()
            lines.append((now, line.rstrip("\n")))
            sink.write(f"{now:.3f} {line}")
        return proc.wait(), lines


def summarize(start: float, end: float, lines: list[tuple[float, str]]) -> dict:
    """Split the run into set-up and repro seconds, and the stages' durations by kind.

    ``after`` holds, by kind, each stage's seconds from its command's last printed line to the next stage
    (0 for a stage that printed nothing, whose time all counts as its own); ``gaps`` the seconds from each
    agent run's last line to the next run_agent stage.
    """
    starts = [i for i, (_, text) in enumerate(lines) if STAGE_LINE.match(text)]
    first_dvc = lines[starts[0]][0] if starts else end
    kinds: dict[str, list[float]] = defaultdict(list)
    after: dict[str, list[float]] = defaultdict(list)
    gaps: list[float] = []
    run_ended: float | None = None
    for n, i in enumerate(starts):
        began, stage = lines[i][0], STAGE_LINE.match(lines[i][1])["stage"]  # type: ignore[index]
        stop = starts[n + 1] if n + 1 < len(starts) else len(lines)
        nxt = lines[stop][0] if stop < len(lines) else end
        own = [t for t, text in lines[i + 1 : stop] if not DVC_LINE.match(text)]
        kind = stage_kind(stage)
        kinds[kind].append(nxt - began)
        after[kind].append(nxt - own[-1] if own else 0.0)
        if kind.startswith("run_agent"):
            if run_ended is not None:
                gaps.append(began - run_ended)
            run_ended = own[-1] if own else nxt
    return {
        "setup": first_dvc - start,
        "repro": end - first_dvc,
        "stages": len(starts),
        "kinds": kinds,
        "after": after,
        "gaps": gaps,
    }


def main(argv: list[str] | None = None) -> int:
    """Clone, run README command 1, print the breakdown and the ratio to the budget."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--fresh-images", action="store_true", help="remove this project's images and build cache first"
    )
    parser.add_argument("--keep", type=Path, help="clone into this new folder and keep it")
    parser.add_argument("--budget-minutes", type=float, default=15.0, help="the target (default 15)")
    parser.add_argument(
        "--no-engine",
        action="store_true",
        help="time a machine without a container engine (run it where none answers: runner auto then takes "
        "the sandbox); no images are listed",
    )
    args = parser.parse_args(argv)

    command = readme_command(ROOT / "README.md")
    if args.fresh_images and not args.no_engine:
        for ref in project_images():
            subprocess.run(["docker", "rmi", "-f", ref], capture_output=True, check=True)
        subprocess.run(["docker", "builder", "prune", "-af"], capture_output=True, check=True)
    reused = project_images(not args.no_engine)
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()

    scratch = Path(tempfile.mkdtemp(prefix="command1-"))
    clone = args.keep or scratch / "clone"
    try:
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH"}}
        env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
        env.update(
            MLEBENCH_CACHE=str(scratch / "memo"),
            PIP_CACHE_DIR=str(scratch / "pip-cache"),
            UV_CACHE_DIR=str(scratch / "uv-cache"),
        )
        probe_before = cpu_probe()
        start = time.monotonic()
        code, lines = run_timed(command, clone, env, scratch / "command1.log")
        end = time.monotonic()
        probe_after = cpu_probe()
        used = images_used(clone)
        if code != 0:
            tail = "\n".join(text for _, text in lines[-30:])
            print(f"README command 1 failed (exit {code}); last lines:\n{tail}", file=sys.stderr)
            return 1
    finally:
        if args.keep is None:
            shutil.rmtree(scratch, ignore_errors=True)

    s = summarize(start, end, lines)
    total = end - start
    minutes, seconds = divmod(round(total), 60)
    print(f"README command 1 at {head}: {minutes} min {seconds} s ({total:.0f} s)")
    print(f"  set-up (venv, pip and uv, compileall) {s['setup']:.0f} s", end="; ")
    print(f"dvc repro {s['repro']:.0f} s over {s['stages']} stages")
    kept = sorted(used & set(reused))
    if kept:
        print(f"  images reused, not built (pass --fresh-images to time their builds): {', '.join(kept)}")
    print(f"  CPU probe {probe_before:.2f} s before, {probe_after:.2f} s after")
    head = f"{'stage kind':24s} {'n':>4s} {'sum s':>8s} {'median s':>9s} {'max s':>7s}"
    print(f"  {head} {'after its last line s':>22s}")
    for kind, secs in sorted(s["kinds"].items(), key=lambda kv: -sum(kv[1])):
        tail = s["after"][kind]
        print(
            f"  {kind:24s} {len(secs):4d} {sum(secs):8.1f} {statistics.median(secs):9.2f} {max(secs):7.1f} "
            f"{sum(tail):10.1f} (median {statistics.median(tail):.2f})"
        )
    if s["gaps"]:
        gaps = s["gaps"]
        median = statistics.median(gaps)
        print(f"  between agent runs: {sum(gaps):.0f} s over {len(gaps)} gaps (median {median:.2f} s)")
    budget = args.budget_minutes * 60
    print(f"ratio to the {args.budget_minutes:g} min budget: {total / budget:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
