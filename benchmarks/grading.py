"""Time and memory of grading every competition at real size: read both CSVs, validate, score.

Every Kaggle competition declares the size of its real test set in ``competition.yaml`` (``real_size``),
and its ``fixture.py`` synthesizes grading inputs at a given size: answers shaped like the prepared
private answers and a noisy but valid submission (``grading_inputs(comp, size, rng)``, built from
:mod:`authoring.grading_inputs`). For each competition this harness asks for inputs at the declared size
(times ``--scale``), writes them as CSV files (not timed), then times
:func:`graders.submission.read_submission` / ``read_answers``, :func:`graders.submission.validate` and
the metric, and measures the peak traced memory of a second, identical pass under ``tracemalloc``. The
submission spec, metric and metric arguments are the competition's own declaration.
Targets: each competition <= 10 s, all of them <= 2 min.

Usage: ``python benchmarks/grading.py [--only NAME ...] [--no-memory] [--scale 1.0]``.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.grading_inputs import GradingInputs, scaled  # noqa: E402
from authoring.kaggle_standin import load_fixture  # noqa: E402
from graders.registry import get_metric  # noqa: E402
from graders.submission import read_answers, read_submission, validate  # noqa: E402
from mlebench.spec.declarations import Competition, RealSize, all_competition_ids, load_competition  # noqa: E402
from mlebench.spec.errors import ConfigError  # noqa: E402

TARGET_SECONDS = 10.0
TOTAL_TARGET_SECONDS = 120.0


def sized_competitions() -> list[str]:
    """Every competition that declares its real test-set size, in declaration order of the folders."""
    return [c for c in all_competition_ids() if load_competition(c).real_size is not None]


def synthesize(comp: Competition, scale: float, seed: int = 0) -> tuple[RealSize, GradingInputs]:
    """Return the size ``comp`` is benchmarked at, and the inputs its fixture synthesizes at that size."""
    if comp.real_size is None:
        raise ConfigError(f"{comp.folder / 'competition.yaml'}: no real_size, so it cannot be benchmarked")
    size = scaled(comp.real_size, scale)
    return size, load_fixture(comp).grading_inputs(comp, size, np.random.default_rng(seed))


def describe(size: RealSize, rows: int) -> str:
    """Return the size column: rows (or images) synthesized, and where the real number comes from."""
    if size.test_images:
        shapes = ", ".join(f"{h:,}x{w:,}" for h, w in size.test_images)
        return f"{rows} image{'s' if rows > 1 else ''} of {shapes} ({size.basis})"
    return f"{rows:,} rows ({size.basis})"


def write_files(inputs: GradingInputs, folder: Path) -> None:
    """Write the synthesized submission and answers as the CSV files grading reads (not timed)."""
    inputs.submission.to_csv(folder / "submission.csv", index=False)
    inputs.answers.to_csv(folder / "answers.csv", index=False)


def grade(comp: Competition, metric_args: dict, folder: Path) -> tuple[float, float, float, float]:
    """Read both CSVs in ``folder``, validate and score once; return (read s, validate s, score s, score).

    The submission spec and the metric with its arguments come from the competition's own declaration
    (``metric_args`` overrides arguments only where ``--scale`` changed an image size).
    """
    metric = get_metric(comp.metric.name)
    args = {**comp.metric.args, **metric_args}
    start = time.perf_counter()
    submission, answers = read_submission(folder / "submission.csv"), read_answers(folder / "answers.csv")
    read = time.perf_counter()
    y_true, y_pred = validate(submission, answers, comp.submission, metric, metric_args=args)
    middle = time.perf_counter()
    score = metric.fn(y_true, y_pred, **args)
    return read - start, middle - read, time.perf_counter() - middle, float(score)


def _peak_mib(comp: Competition, metric_args: dict, folder: Path) -> float:
    gc.collect()
    tracemalloc.start()
    grade(comp, metric_args, folder)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return peak


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one row per competition, then the total."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", help="competition ids (default: all with a real_size)")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc pass")
    parser.add_argument("--scale", type=float, default=1.0, help="size multiplier (1 = real size)")
    args = parser.parse_args(argv)
    names = args.only or sized_competitions()
    header = (
        f"| {'competition':<57} | {'metric':<28} | {'size':<66} "
        "| read s | validate s | score s | total s | peak MiB | score |"
    )
    print(header)
    print("|" + "|".join("-" * (len(part)) for part in header.split("|")[1:-1]) + "|")
    total, slow, wrong_size = 0.0, [], []
    folder = Path(tempfile.mkdtemp(prefix="mlebench-grading-bench-"))
    for name in names:
        comp = load_competition(name)
        size, inputs = synthesize(comp, args.scale)
        rows = len(inputs.answers)
        if args.scale == 1.0 and rows != size.test_rows:
            wrong_size.append(f"{name} ({rows:,} rows, declared {size.test_rows:,})")
        write_files(inputs, folder)
        gc.collect()
        t_read, t_validate, t_score, score = grade(comp, inputs.metric_args, folder)
        peak = float("nan") if args.no_memory else _peak_mib(comp, inputs.metric_args, folder)
        seconds = t_read + t_validate + t_score
        total += seconds
        if seconds > TARGET_SECONDS:
            slow.append(name)
        print(
            f"| {name:<57} | {comp.metric.name:<28} | {describe(size, rows):<66} | {t_read:6.2f} "
            f"| {t_validate:10.2f} | {t_score:7.2f} | {seconds:7.2f} | {peak:8.0f} | {score:.5f} |",
            flush=True,
        )
        del inputs
    print(
        f"\ntotal read+validate+score: {total:.1f} s (target <= {TOTAL_TARGET_SECONDS:.0f} s); "
        f"over {TARGET_SECONDS:.0f} s: {', '.join(slow) or 'none'}"
    )
    if wrong_size:
        print(f"synthesized size differs from real_size.test_rows: {', '.join(wrong_size)}")
    return 0 if not slow and not wrong_size and total <= TOTAL_TARGET_SECONDS else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ConfigError as exc:
        sys.exit(f"error: {exc}")
