"""Time and memory of grading each competition at real size in a fresh process; optionally v1's grader too.

Every Kaggle competition declares the size of its real test set in ``competition.yaml`` (``real_size``),
and its ``fixture.py`` synthesizes grading inputs at a given size: answers shaped like the prepared
private answers and a noisy but valid submission (``grading_inputs(comp, size, rng)``, built from
:mod:`authoring.grading_inputs`). For each competition this harness asks for inputs at the declared size
(times ``--scale``) and writes them as ``submission.csv`` and ``answers.csv`` (not timed).

What is timed is what one grading job costs: a fresh Python process that imports the grader, reads both
CSVs (:func:`graders.submission.read_submission` / ``read_answers``), validates
(:func:`graders.submission.validate`) and scores with the competition's declared metric and arguments.
``wall s`` is that process's wall time from spawn to exit, interpreter start-up and imports included;
``in-proc s`` is the same minus start-up and imports (read + validate + score, also shown apart);
``MB`` is the process's peak resident set, in MiB, as the process itself reads it (``VmHWM`` in
``/proc/self/status``, Linux): ``ru_maxrss`` would not do, as a child's starts at its parent's peak (this
harness holds the largest synthesized inputs) and Linux keeps it across ``exec``.

With ``--v1-checkout PATH`` (a checkout of MLE-bench v1, used read-only and never copied here), v1's grader
runs the same way on the same two files: a fresh process with the checkout first on ``sys.path`` imports
the function the competition's ``config.yaml`` names in ``grader.grade_fn``, reads both CSVs as v1's
``grade_csv`` does (v1's ``mlebench.utils.read_csv`` / ``load_answers``) and calls it. Its leaderboard and
medal lookup are left out on both sides. A v1 grader that raises on the files is reported with its error.
The table then shows v1's wall time, memory and score beside ours, the ratios ours / v1, and totals.

Targets: each competition <= 5 s wall; with v1, no slower and no more memory than v1's grader.

With ``--repeat N`` each grader runs N times per competition, alternating, and the run of median wall time
is shown. ``--v1-pythonpath DIR`` puts v1's own dependencies (pandas 2, Levenshtein, pyquaternion, ...,
installed into a folder with ``pip install --target``) first on v1's path only, so v1 runs as it does in
its own environment.

A grader that spreads its work over worker processes (v1's kuzushiji grades in a ``multiprocessing`` pool)
is charged for them too: while a grading process has children, the harness samples every 10 ms its resident
set plus each descendant's private pages (``Private_Clean`` + ``Private_Dirty`` of
``/proc/PID/smaps_rollup``; pages a forked worker still shares with its parent are not counted twice), and
``MB`` is the larger of that sampled peak and the process's own ``VmHWM``. Sampling can miss a peak between
two samples, so for such a grader the figure is a lower bound of what it held.

Usage: ``python benchmarks/grading.py [--only NAME ...] [--scale 1.0] [--v1-checkout PATH]
[--v1-pythonpath DIR] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.grading_inputs import GradingInputs, scaled  # noqa: E402
from authoring.kaggle_standin import load_fixture  # noqa: E402
from mlebench_spec.declarations import Competition, RealSize, all_competition_ids, load_competition  # noqa: E402
from mlebench_spec.errors import ConfigError  # noqa: E402

TARGET_SECONDS = 5.0

_OURS = """
import json, sys, time
t0 = time.perf_counter()
from pathlib import Path
from graders.answers import with_derived
from graders.registry import get_metric
from graders.submission import read_answers, read_submission, validate
from mlebench_spec.declarations import load_competition
name, folder, overrides, out = sys.argv[1], Path(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4]
comp = load_competition(name)
metric = get_metric(comp.metric.name)
args = {**comp.metric.args, **overrides}
t1 = time.perf_counter()
submission = read_submission(folder / "submission.csv")
answers = with_derived(read_answers(folder / "answers.csv"), comp.submission)
t2 = time.perf_counter()
y_true, y_pred = validate(submission, answers, comp.submission, metric, metric_args=args)
t3 = time.perf_counter()
score = float(metric.fn(y_true, y_pred, **args))
t4 = time.perf_counter()
hwm = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:")).split()[1]
Path(out).write_text(json.dumps({"import": t1 - t0, "read": t2 - t1, "validate": t3 - t2, "score": t4 - t3,
                                 "value": score, "kib": int(hwm)}))
"""

_V1 = """
import json, sys, time
t0 = time.perf_counter()
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from mlebench.utils import import_fn, load_answers, read_csv
grade_fn = import_fn(sys.argv[2])
folder, out = Path(sys.argv[3]), sys.argv[4]
t1 = time.perf_counter()
submission, answers = read_csv(folder / "submission.csv"), load_answers(folder / "answers.csv")
t2 = time.perf_counter()
score = float(grade_fn(submission, answers))
t3 = time.perf_counter()
hwm = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:")).split()[1]
Path(out).write_text(json.dumps({"import": t1 - t0, "read": t2 - t1, "validate": 0.0, "score": t3 - t2,
                                 "value": score, "kib": int(hwm)}))
"""


@dataclass(frozen=True)
class Run:
    """One grading process: wall seconds (start-up included), peak RSS in MiB, and what it reported."""

    wall: float
    mib: float
    phases: dict
    error: str

    @property
    def in_process(self) -> float:
        """Read + validate + score, without interpreter start-up and imports."""
        return sum(self.phases.get(k, 0.0) for k in ("read", "validate", "score"))


def sized_competitions() -> list[str]:
    """Every competition that declares its real test-set size, in declaration order of the folders."""
    return [c for c in all_competition_ids() if load_competition(c).real_size is not None]


def synthesize(comp: Competition, scale: float, seed: int = 0) -> tuple[RealSize, GradingInputs]:
    """Return the size ``comp`` is benchmarked at, and the inputs its fixture synthesizes at that size."""
    if comp.real_size is None:
        raise ConfigError(f"{comp.folder / 'competition.yaml'}: no real_size, so it cannot be benchmarked")
    size = scaled(comp.real_size, scale)
    return size, load_fixture(comp).grading_inputs(comp, size, np.random.default_rng(seed))


def write_files(inputs: GradingInputs, folder: Path) -> None:
    """Write the synthesized submission and answers as the CSV files grading reads (not timed)."""
    inputs.submission.to_csv(folder / "submission.csv", index=False)
    inputs.answers.to_csv(folder / "answers.csv", index=False)


def _kib(path: str, fields: tuple[str, ...]) -> int:
    """Sum the ``fields`` (in kB) of a ``/proc`` file; 0 when the process is gone."""
    try:
        with open(path) as f:
            return sum(int(line.split()[1]) for line in f if line.startswith(fields))
    except (OSError, ValueError, IndexError):
        return 0


def _descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (``/proc/PID/task/TID/children``, Linux)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as f:
                    children = [int(c) for c in f.read().split()]
            except OSError:
                continue
            found += children
            todo += children
    return found


class TreeSampler(threading.Thread):
    """Sample a process until it exits: the most it and its descendants held at one sample, in KiB.

    Counted while it has children: its resident set plus each descendant's private pages (a forked worker's
    pages still shared with its parent count once); ``peak`` stays 0 when it never had a child. A thread, so
    the caller's ``wait`` sees the exit at once and wall times are not rounded up to a sampling step.
    """

    def __init__(self, pid: int, every: float = 0.01) -> None:
        super().__init__(daemon=True)
        self.pid, self.every, self.peak, self.done = pid, every, 0, threading.Event()

    def run(self) -> None:
        """Sample every ``every`` seconds until ``done`` is set."""
        while not self.done.wait(self.every):
            children = _descendants(self.pid)
            if children:
                held = _kib(f"/proc/{self.pid}/status", ("VmRSS:",)) + sum(
                    _kib(f"/proc/{c}/smaps_rollup", ("Private_Clean:", "Private_Dirty:")) for c in children
                )
                self.peak = max(self.peak, held)


def run_process(argv: list[str], cwd: Path, out: Path, env: dict[str, str] | None = None) -> Run:
    """Run ``argv`` in a fresh process; return its wall time, peak memory and the JSON it wrote to ``out``.

    The peak is the process's own ``VmHWM``, or what it and its worker processes held together when that
    was more (:class:`TreeSampler`).
    """
    out.unlink(missing_ok=True)
    start = time.perf_counter()
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=stderr, env=env)
        sampler = TreeSampler(process.pid)
        sampler.start()
        try:
            process.wait()
        except BaseException:  # an interrupted benchmark leaves no grader running (as subprocess.run)
            process.kill()
            process.wait()
            raise
        finally:
            wall = time.perf_counter() - start
            sampler.done.set()
            sampler.join()
        stderr.seek(0)
        lines = stderr.read().decode(errors="replace").strip().splitlines()
    if process.returncode != 0 or not out.is_file():
        reason = lines[-1] if lines else f"exit status {process.returncode}"
        return Run(wall, float("nan"), {}, reason[:120])
    phases = {**json.loads(out.read_text()), "tree_kib": sampler.peak}
    return Run(wall, max(phases["kib"], sampler.peak) / 1024, phases, "")


def grade_ours(name: str, metric_args: dict, folder: Path) -> Run:
    """Grade ``folder``'s files for ``name`` with this checkout's graders, in a fresh process."""
    out = folder / "ours.json"
    return run_process(
        [sys.executable, "-c", _OURS, name, str(folder), json.dumps(metric_args), str(out)], ROOT, out
    )


def v1_grade_fn(checkout: Path, name: str) -> str | None:
    """Return the ``module:function`` v1's ``config.yaml`` names as the grader (None without a config)."""
    config = checkout / "mlebench" / "competitions" / name / "config.yaml"
    if not config.is_file():
        return None
    return str(yaml.safe_load(config.read_text())["grader"]["grade_fn"])


def grade_v1(checkout: Path, name: str, folder: Path, pythonpath: str = "") -> Run:
    """Grade ``folder``'s files for ``name`` with v1's grader from ``checkout``, in a fresh process.

    ``pythonpath`` goes first on that process's ``PYTHONPATH`` only: v1's own versions of what it imports
    (pandas 2, Levenshtein, pyquaternion, ...), so v1 is timed as it runs in its own environment.
    """
    grade_fn = v1_grade_fn(checkout, name)
    if grade_fn is None:
        return Run(float("nan"), float("nan"), {}, f"no {name}/config.yaml in the v1 checkout")
    out = folder / "v1.json"
    path = os.pathsep.join(filter(None, [pythonpath, os.environ.get("PYTHONPATH")]))
    return run_process(
        [sys.executable, "-c", _V1, str(checkout), grade_fn, str(folder), str(out)],
        folder,
        out,
        {**os.environ, "PYTHONPATH": path},
    )


def median_run(runs: list[Run]) -> Run:
    """Return the run of median wall time (its memory and phases with it), or the first failed run."""
    failed = [r for r in runs if r.error]
    if failed:
        return failed[0]
    return sorted(runs, key=lambda r: r.wall)[(len(runs) - 1) // 2]


def _ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:5.2f}" if theirs == theirs and theirs > 0 and ours == ours else "   - "


def _alone(who: str, run: Run) -> list[str]:
    """``who`` and the peak of the grading process alone, when its worker processes held more with it."""
    if run.phases.get("tree_kib", 0) > run.phases.get("kib", 0):
        return [f"{who} ({run.phases['kib'] / 1024:.0f} MB alone)"]
    return []


def _score(run: Run) -> str:
    return f"{run.phases['value']:.5f}" if "value" in run.phases else "error"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one row per competition, then the totals."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--only", nargs="*", help="competition ids (default: all with a real_size)")
    parser.add_argument("--scale", type=float, default=1.0, help="size multiplier (1 = real size)")
    parser.add_argument("--v1-checkout", type=Path, help="a checkout of MLE-bench v1 to time beside ours")
    parser.add_argument(
        "--v1-pythonpath", default="", help="PYTHONPATH for v1's process only (pandas 2, its extra packages)"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="grade N times with each grader, alternating; report the median"
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    v1 = args.v1_checkout.resolve() if args.v1_checkout else None
    if v1 is not None and not (v1 / "mlebench" / "grade.py").is_file():
        raise ConfigError(f"--v1-checkout {v1}: no mlebench/grade.py there (not an MLE-bench checkout)")
    names = args.only or sized_competitions()
    header = (
        f"| {'competition':<57} | {'rows':>10} | import s | read s | validate s | score s | in-proc s "
        "| wall s | MB | score |"
    )
    if v1 is not None:
        header += " v1 in-proc s | v1 wall s | v1 MB | wall ratio | MB ratio | v1 score |"
    print(header)
    print("|" + "|".join("-" * len(part) for part in header.split("|")[1:-1]) + "|")
    totals = np.zeros(6)
    slow, slower, heavier, failed, v1_failed, wrong_size, workers = [], [], [], [], [], [], []
    folder = Path(tempfile.mkdtemp(prefix="mlebench-grading-bench-"))
    for name in names:
        comp = load_competition(name)
        size, inputs = synthesize(comp, args.scale)
        rows = len(inputs.answers)
        if args.scale == 1.0 and rows != size.test_rows:
            wrong_size.append(f"{name} ({rows:,} rows, declared {size.test_rows:,})")
        write_files(inputs, folder)
        metric_args = inputs.metric_args
        del inputs
        os.sync()  # else the first grader timed reads while the kernel writes the files back (icecube +0.8 s)
        ours_runs: list[Run] = []
        theirs_runs: list[Run] = []
        for _ in range(args.repeat):  # alternating, so load drifts reach both graders alike
            ours_runs.append(grade_ours(name, metric_args, folder))
            if v1 is not None:
                theirs_runs.append(grade_v1(v1, name, folder, args.v1_pythonpath))
        ours = median_run(ours_runs)
        if ours.error:
            failed.append(f"{name}: {ours.error}")
        if ours.wall > TARGET_SECONDS:
            slow.append(name)
        p = ours.phases
        row = (
            f"| {name:<57} | {rows:>10,} | {p.get('import', 0):8.2f} | {p.get('read', 0):6.2f} "
            f"| {p.get('validate', 0):10.2f} | {p.get('score', 0):7.2f} | {ours.in_process:9.2f} "
            f"| {ours.wall:6.2f} | {ours.mib:4.0f} | {_score(ours)} |"
        )
        totals[:2] += ours.wall, ours.mib
        workers += _alone(f"{name}, ours", ours)
        if v1 is not None:
            theirs = median_run(theirs_runs)
            workers += _alone(f"{name}, v1", theirs)
            if theirs.error:
                v1_failed.append(f"{name}: {theirs.error}")
            else:
                totals[2:4] += theirs.wall, theirs.mib
                totals[4:] += ours.wall, ours.mib
                if ours.wall > theirs.wall:
                    slower.append(f"{name} ({ours.wall:.2f} s vs {theirs.wall:.2f} s)")
                if ours.mib > theirs.mib:
                    heavier.append(f"{name} ({ours.mib:.0f} MB vs {theirs.mib:.0f} MB)")
            row += (
                f" {theirs.in_process:12.2f} | {theirs.wall:9.2f} | {theirs.mib:5.0f} "
                f"| {_ratio(ours.wall, theirs.wall):>10} | {_ratio(ours.mib, theirs.mib):>8} "
                f"| {_score(theirs)} |"
            )
        print(row, flush=True)
    print(
        f"\nours: {totals[0]:.1f} s wall in all, peak RSS summed {totals[1]:,.0f} MB; "
        f"over {TARGET_SECONDS:.0f} s: "
        f"{', '.join(slow) or 'none'}"
    )
    if v1 is not None:
        print(
            f"where v1 ran: v1 {totals[2]:.1f} s wall in all, ours {totals[4]:.1f} s "
            f"(ratio {_ratio(totals[4], totals[2]).strip()}); peak RSS summed: v1 {totals[3]:,.0f} MB, "
            f"ours {totals[5]:,.0f} MB (ratio {_ratio(totals[5], totals[3]).strip()})"
        )
        print(f"slower than v1: {len(slower)}: {', '.join(slower) or 'none'}")
        print(f"more memory than v1: {len(heavier)}: {', '.join(heavier) or 'none'}")
    if workers:
        print(f"MB includes worker processes: {', '.join(workers)}")
    for line in failed:
        print(f"failed: {line}")
    for line in v1_failed:
        print(f"v1's grader failed: {line}")
    if wrong_size:
        print(f"synthesized size differs from real_size.test_rows: {', '.join(wrong_size)}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if not (slow or failed or wrong_size or slower or heavier) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ConfigError as exc:
        sys.exit(f"error: {exc}")
