"""Time and peak memory of the streamed prepare as its input grows: 1x, 4x and 16x a base size.

The input is a synthetic new-york-city-taxi-fare-prediction train.csv (the real columns and formats; the
real file has ~55M rows). For each size, in fresh processes so each peak RSS is its own:

- **streamed**: the competition's prepare.py (``mlebench.data.streaming``: the v1 split in bounded memory);
- **plain read**: reading the same bytes in 16 MiB blocks and nothing else, the throughput ceiling;
- **whole frame** (up to ``--whole-max``): what v1 does, ``pd.read_csv`` + ``train_test_split`` +
  ``to_csv``, for the memory comparison.

Printed per size: rows, MB, seconds and peak RSS of each, and the streamed/plain-read time ratio.
Flat memory means the streamed RSS barely moves while the input grows 16-fold (it holds one chunk, one
bucket and 4 bytes per row of positions).

Usage: ``python benchmarks/prepare_streaming.py [--base-rows N] [--whole-max X]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TAXI = ROOT / "competitions" / "new-york-city-taxi-fare-prediction"

_CHILD = r"""
import json, resource, shutil, sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
mode, folder = sys.argv[1], Path(sys.argv[2])
started = time.perf_counter()
if mode == "streamed":
    from mlebench_spec.declarations import load_competition
    from mlebench.data.prepare import load_prepare_function
    comp = load_competition("new-york-city-taxi-fare-prediction")
    prepare = load_prepare_function(Path({taxi!r}) / "prepare.py")
    out = folder / "out"
    shutil.rmtree(out, ignore_errors=True)
    (out / "public").mkdir(parents=True); (out / "private").mkdir()
    prepare(folder / "raw", out / "public", out / "private", comp)
elif mode == "read":
    with open(folder / "raw" / "train.csv", "rb") as src:
        while src.read(1 << 24):
            pass
else:
    import pandas as pd
    from sklearn.model_selection import train_test_split
    train, test = train_test_split(pd.read_csv(folder / "raw" / "train.csv"), test_size=9914, random_state=0)
    train.to_csv(folder / "whole_labels.csv", index=False)
seconds = time.perf_counter() - started
print(json.dumps({{"seconds": seconds, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def _write_input(folder: Path, rows: int) -> float:
    sys.path.insert(0, str(TAXI))
    import numpy as np
    from fixture import taxi_rides  # the competition's own fixture generator

    raw = folder / "raw"
    raw.mkdir(parents=True)
    (raw / "GCP-Coupons-Instructions.rtf").write_text("{\\rtf1 coupons}\n")
    rng = np.random.default_rng(0)
    block = 500_000
    with (raw / "train.csv").open("w") as out:
        for start in range(0, rows, block):
            rides = taxi_rides(min(block, rows - start), rng)
            rides["key"] = [f"{k}.{start}" for k in rides["key"]]  # unique across blocks
            rides.to_csv(out, index=False, header=start == 0)
    return (raw / "train.csv").stat().st_size / 1e6


def _measure(mode: str, folder: Path) -> dict[str, float]:
    code = _CHILD.format(root=str(ROOT), taxi=str(TAXI))
    done = subprocess.run(
        [sys.executable, "-c", code, mode, str(folder)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    """Run the three sizes and print the table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base-rows", type=int, default=250_000)
    parser.add_argument(
        "--whole-max", type=int, default=4, help="largest multiple to run the whole-frame way"
    )
    args = parser.parse_args()
    print("| size | rows | MB | streamed s | streamed RSS MB | read s | ratio | whole s | whole RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for factor in (1, 4, 16):
        rows = args.base_rows * factor
        with tempfile.TemporaryDirectory(prefix="mlebench-prepare-bench-") as tmp:
            folder = Path(tmp)
            mb = _write_input(folder, rows)
            streamed = _measure("streamed", folder)
            read = _measure("read", folder)
            whole = _measure("whole", folder) if factor <= args.whole_max else None
        ratio = streamed["seconds"] / max(read["seconds"], 1e-9)
        whole_cells = f"{whole['seconds']:.1f} | {whole['rss_mb']:.0f}" if whole else "— | —"
        print(
            f"| {factor}x | {rows:,} | {mb:.0f} | {streamed['seconds']:.1f} | {streamed['rss_mb']:.0f} | "
            f"{read['seconds']:.2f} | {ratio:.0f}x | {whole_cells} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
