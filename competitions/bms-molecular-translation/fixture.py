"""A small stand-in for Kaggle's bms-molecular-translation download.

train_labels.csv (image_id, InChI), train/<a>/<b>/<c>/<image_id>.png (nested by the id's first three
characters), extra_approved_InChIs.csv, and Kaggle's own test/ and sample_submission.csv (unused by v1).
"""

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.grading_inputs import GradingInputs, assemble, single
from authoring.synthetic import ids, join, mutate
from mlebench_spec.declarations import Competition, RealSize

ATOMS = ["C", "H", "N", "O", "S", "Cl", "F"]


def _inchi(rng: np.random.Generator) -> str:
    formula = "".join(f"{a}{rng.integers(1, 20)}" for a in rng.choice(ATOMS, size=3, replace=False))
    links = "-".join(str(i) for i in rng.integers(1, 20, size=int(rng.integers(3, 9))))
    return f"InChI=1S/{formula}/c{links}/h{rng.integers(1, 20)}H"


def _images(folder: Path, ids: list[str], rng: np.random.Generator) -> None:
    for image_id in ids:
        path = folder / image_id[0] / image_id[1] / image_id[2] / f"{image_id}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray((rng.random((12, 16)) > 0.1).astype(np.uint8) * 255).save(path)


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``."""
    ids = [rng.bytes(6).hex() for _ in range(150)]
    labels = pd.DataFrame({"image_id": ids, "InChI": [_inchi(rng) for _ in ids]})
    labels.to_csv(dest / "train_labels.csv", index=False)
    _images(dest / "train", ids, rng)
    pd.DataFrame({"InChI": [_inchi(rng) for _ in range(40)]}).to_csv(
        dest / "extra_approved_InChIs.csv", index=False
    )
    test_ids = [rng.bytes(6).hex() for _ in range(5)]
    _images(dest / "test", test_ids, rng)
    pd.DataFrame({"image_id": test_ids, "InChI": "InChI=1S/H2O/h1H2"}).to_csv(
        dest / "sample_submission.csv", index=False
    )


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """InChI strings of ~60-200 characters; predictions with a few wrong characters."""
    n = size.test_rows
    alphabet = np.array(list("0123456789-,()/chbtmis+"))
    lengths = rng.integers(40, 180, n)
    bodies = join(alphabet[rng.integers(0, len(alphabet), lengths.sum())], lengths, sep="")
    formula = pd.Series(rng.integers(5, 40, n)).map("InChI=1S/C{}H".format).to_numpy(dtype=object)
    truth = formula + rng.integers(5, 60, n).astype(str).astype(object) + "O2/c" + bodies
    pred = mutate(truth, rng, 6, "0123456789-,()")
    return assemble(comp, ids("", n), *single(comp, truth, pred), rng)
