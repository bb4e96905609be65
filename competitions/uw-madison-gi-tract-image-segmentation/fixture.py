"""A small stand-in for Kaggle's uw-madison-gi-tract-image-segmentation download.

train.csv has three rows (one per organ) per slice; train/<case>/<case>_<day>/scans/ holds each slice as
slice_<ZZZZ>_<width>_<height>_<sx>_<sy>.png (tiny 16-bit PNGs).
"""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, units
from authoring.synthetic import rle
from mlebench.data.prepare import write_png
from mlebench_spec.declarations import Competition, RealSize

_CLASSES = ["large_bowel", "small_bowel", "stomach"]
_SLICES = 3


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, every random choice drawn from ``rng``."""
    rows = []
    for case in rng.choice(np.arange(1, 160), size=20, replace=False):
        width, height = (int(v) for v in rng.choice([12, 16], size=2))
        days = np.sort(rng.choice(np.arange(0, 40), size=int(rng.integers(3, 7)), replace=False))
        for day in days:
            scans = dest / "train" / f"case{case}" / f"case{case}_day{day}" / "scans"
            for number in range(1, _SLICES + 1):
                write_png(
                    rng.integers(0, 2000, size=(height, width), dtype=np.uint16),
                    scans / f"slice_{number:04d}_{width}_{height}_1.50_1.50.png",
                )
                for organ in _CLASSES:
                    start = int(rng.integers(1, width * height - 10))
                    mask = f"{start} {rng.integers(2, 9)}" if rng.random() < 0.5 else ""
                    rows.append((f"case{case}_day{day}_slice_{number:04d}", organ, mask))
    pd.DataFrame(rows, columns=["id", "class", "segmentation"]).to_csv(dest / "train.csv", index=False)


REAL_SLICES, REAL_SIZE = 144, 266  # slices per case-day and image side, est.


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Answers and a submission of organ masks (discs growing and shrinking over the slices) as RLE."""
    days, h, w = units(size.test_rows, REAL_SLICES * len(_CLASSES)), REAL_SIZE, REAL_SIZE
    row_ids, classes, truth_rles, pred_rles = [], [], [], []
    yy, xx = np.mgrid[0:h, 0:w]
    for d in range(days):
        centres = rng.uniform(60, 200, (3, 2))
        for s in range(1, REAL_SLICES + 1):
            for k, name in enumerate(_CLASSES):
                r = 25 * np.sin(np.pi * s / REAL_SLICES) - 8 * k
                m = (yy - centres[k, 0]) ** 2 + (xx - centres[k, 1]) ** 2 < max(r, 0) ** 2
                row_ids.append(f"case{d}_day{d % 30}_slice_{s:04d}")
                classes.append(name)
                truth_rles.append(rle(m))
                pred_rles.append(rle(np.roll(m, tuple(rng.integers(-4, 5, 2)), axis=(0, 1))))
    answers = pd.DataFrame(
        {
            "id": row_ids,
            "class": classes,
            "predicted": truth_rles,
            "image_width": str(w),
            "image_height": str(h),
        }
    )
    submission = pd.DataFrame({"id": row_ids, "class": classes, "predicted": pred_rles})
    return GradingInputs(answers, submission)
