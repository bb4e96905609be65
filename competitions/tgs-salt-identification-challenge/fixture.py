"""A small stand-in for Kaggle's tgs-salt-identification-challenge download.

competition_data.zip holds competition_data/train.csv (id, rle_mask), train/images/*.png,
train/masks/*.png and test/images/*.png; depths.csv (id, z) lists train and test ids.
"""

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.grading_inputs import GradingInputs
from authoring.synthetic import blob_masks, ids, jitter, rle_strings
from mlebench_spec.declarations import Competition, RealSize

_SIZE = 101


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, every random choice drawn from ``rng``."""
    ids = sorted({f"{v:010x}" for v in rng.integers(16**9, 16**10, size=110)})
    train_ids, test_ids = ids[:100], ids[100:]
    rows = []
    with zipfile.ZipFile(dest / "competition_data.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for image_id in train_ids:
            mask = np.zeros((_SIZE, _SIZE), dtype=np.uint8)
            if rng.random() < 0.6:
                top, left = rng.integers(0, 60, size=2)
                mask[top : top + rng.integers(5, 40), left : left + rng.integers(5, 40)] = 255
            rows.append({"id": image_id, "rle_mask": _rle(mask)})
            archive.writestr(f"competition_data/train/images/{image_id}.png", _png(_image(rng)))
            archive.writestr(f"competition_data/train/masks/{image_id}.png", _png(mask))
        for image_id in test_ids:
            archive.writestr(f"competition_data/test/images/{image_id}.png", _png(_image(rng)))
        archive.writestr("competition_data/train.csv", pd.DataFrame(rows).to_csv(index=False))
    depths = pd.DataFrame({"id": ids, "z": rng.integers(50, 960, size=len(ids))})
    depths.sample(frac=1, random_state=1).to_csv(dest / "depths.csv", index=False)


def _image(rng: np.random.Generator) -> np.ndarray:
    ramp = np.linspace(0, 200, _SIZE)[None, :] + rng.integers(0, 40)
    return np.broadcast_to(ramp, (_SIZE, _SIZE)).astype(np.uint8)


def _rle(mask: np.ndarray) -> str:
    """Column-major, 1-based ``start length`` pairs of the mask's foreground ('' when empty)."""
    pixels = np.concatenate([[0], (mask.T.flatten() > 0).astype(int), [0]])
    edges = np.flatnonzero(pixels[1:] != pixels[:-1]) + 1
    edges[1::2] -= edges[::2]
    return " ".join(map(str, edges))


def _png(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format="PNG")
    return buffer.getvalue()


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Answers and a submission of salt masks as RLE, the prediction shifted a little."""
    n = size.test_rows
    truth = blob_masks(rng, n, _SIZE, _SIZE, 0.4)
    row_ids = ids("", n)
    answers = pd.DataFrame({"id": row_ids, "rle_mask": rle_strings(truth)})
    submission = pd.DataFrame({"id": row_ids, "rle_mask": rle_strings(jitter(truth, rng))})
    return GradingInputs(answers, submission)
