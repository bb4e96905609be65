"""A small stand-in for Kaggle's contrails download: metadata JSON and per-record .npy folders."""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs
from authoring.synthetic import blob_masks, jitter, rle_strings
from mlebench_spec.declarations import Competition, RealSize

_BANDS = [f"band_{b:02d}" for b in range(8, 17)]
_SHAPE = (8, 8)  # Kaggle's records are 256 x 256 with 8 time steps


def _record(folder: Path, rng: np.random.Generator, individual: bool) -> None:
    folder.mkdir(parents=True)
    for band in _BANDS:
        np.save(folder / f"{band}.npy", rng.normal(260, 15, size=(*_SHAPE, 2)).astype(np.float16))
    masks = (rng.random(size=(*_SHAPE, 2)) < 0.3).astype(np.int32)
    np.save(folder / "human_pixel_masks.npy", masks.max(axis=2, keepdims=True))
    if individual:
        np.save(folder / "human_individual_masks.npy", masks[:, :, None, :])


def _metadata(rng: np.random.Generator, ids: list[str]) -> list[dict]:
    return [
        {
            "record_id": rid,
            "projection_wkt": 'PROJCS["unknown",GEOGCS["WGS 84"]]',
            "row_min": float(rng.uniform(-4e6, 4e6)),
            "row_size": 2000.0,
            "col_min": float(rng.uniform(-4e6, 4e6)),
            "col_size": 2000.0,
            "timestamp": float(1.57e9 + rng.integers(0, 3e7)),
        }
        for rid in ids
    ]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write 80 train and 25 validation records (validation without individual masks)."""
    ids = [str(i) for i in rng.choice(10**18, size=105, replace=False) + 10**18]
    for name, chosen in (("train", ids[:80]), ("validation", ids[80:])):
        for rid in chosen:
            _record(dest / name / rid, rng, individual=name == "train")
        (dest / f"{name}_metadata.json").write_text(json.dumps(_metadata(rng, chosen)))


REAL_SHAPE = (256, 256)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Answers and a submission of contrail masks as RLE ("-" when empty), the prediction shifted a little."""
    n = size.test_rows
    height, width = REAL_SHAPE
    truth = blob_masks(rng, n, height, width, 0.6)
    row_ids = np.arange(1_000_000, 1_000_000 + n).astype(str).astype(object)
    answers = pd.DataFrame(
        {
            "record_id": row_ids,
            "encoded_pixels": rle_strings(truth, empty="-"),
            "height": str(height),
            "width": str(width),
        }
    )
    submission = pd.DataFrame(
        {"record_id": row_ids, "encoded_pixels": rle_strings(jitter(truth, rng), empty="-")}
    )
    return GradingInputs(answers, submission)
