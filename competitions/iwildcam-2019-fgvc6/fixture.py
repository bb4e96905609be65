"""A small stand-in for Kaggle's iwildcam-2019-fgvc6 download: train.csv and train_images.zip of JPEGs."""

import io
import uuid
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.grading_inputs import GradingInputs, labels
from authoring.synthetic import names
from mlebench_spec.declarations import Competition, RealSize

CATEGORIES = [0, 1, 3, 4, 8, 10, 11, 13, 14, 16, 17, 18, 19, 22]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small stand-in download into ``dest``."""
    n = 400
    ids = [str(uuid.UUID(bytes=rng.bytes(16), version=4)) for _ in range(n)]
    frame = pd.DataFrame(
        {
            "category_id": rng.choice(CATEGORIES, size=n),
            "date_captured": [
                f"2012-{m:02d}-{d:02d} 09:{s:02d}:00" for m, d, s in rng.integers(1, 29, (n, 3))
            ],
            "file_name": [f"{i}.jpg" for i in ids],
            "frame_num": rng.integers(1, 4, size=n),
            "id": ids,
            "location": rng.integers(0, 20, size=n) * 7 + 3,
            "rights_holder": rng.choice(["Justin Brown", "Erin Boydston"], size=n),
            "seq_id": [str(uuid.UUID(bytes=rng.bytes(16), version=4)) for _ in range(n)],
            "seq_num_frames": 3,
            "width": 1024,
            "height": 747,
        }
    )
    frame.to_csv(dest / "train.csv", index=False)
    with zipfile.ZipFile(dest / "train_images.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for name in frame["file_name"]:
            buf = io.BytesIO()
            Image.fromarray(rng.integers(0, 256, size=(12, 16), dtype=np.uint8)).save(buf, format="JPEG")
            zf.writestr(name, buf.getvalue())


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one of the real category ids per image."""
    return labels(comp, size.test_rows, names(*CATEGORIES), rng)
