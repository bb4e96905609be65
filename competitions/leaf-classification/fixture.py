"""A small stand-in for Kaggle's leaf-classification download: zipped CSVs and images.zip of tiny JPEGs."""

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.grading_inputs import GradingInputs, probabilities
from mlebench_spec.declarations import Competition, RealSize, load_competition

FEATURES = [f"{kind}{i}" for kind in ("margin", "shape", "texture") for i in range(1, 65)]


def _zip_csv(frame: pd.DataFrame, dest: Path, name: str) -> None:
    with zipfile.ZipFile(dest / f"{name}.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, frame.to_csv(index=False))


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small stand-in download into ``dest``."""
    species = load_competition("leaf-classification").submission.columns[1:]
    n_train, n_test = 300, 40
    ids = rng.permutation(np.arange(1, n_train + n_test + 1))
    features = pd.DataFrame(rng.random((n_train + n_test, len(FEATURES))).round(6), columns=FEATURES)
    train = pd.concat(
        [
            pd.DataFrame({"id": ids[:n_train], "species": rng.choice(species, size=n_train)}),
            features[:n_train],
        ],
        axis=1,
    )
    test = pd.concat([pd.DataFrame({"id": ids[n_train:]}), features[n_train:].reset_index(drop=True)], axis=1)
    _zip_csv(train.sort_values("id"), dest, "train.csv")
    _zip_csv(test.sort_values("id"), dest, "test.csv")
    sample = pd.DataFrame({"id": sorted(ids[n_train:]), **{s: 1 / len(species) for s in species}})
    _zip_csv(sample, dest, "sample_submission.csv")
    with zipfile.ZipFile(dest / "images.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for image_id in sorted(ids):
            buf = io.BytesIO()
            Image.fromarray(rng.integers(0, 2, size=(12, 16), dtype=np.uint8) * 255).save(buf, format="JPEG")
            zf.writestr(f"images/{image_id}.jpg", buf.getvalue())


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one-hot answers, softmax predictions."""
    return probabilities(comp, size.test_rows, rng)
