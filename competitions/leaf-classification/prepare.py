"""leaf-classification: v1 holds out 10% of Kaggle's train.csv (TTS 0.1, seed 0).

Public: train.csv, test.csv (features, no species), sample_submission.csv (id + 99 species, each 1/99),
images/ (the images of the new train and test rows). Private: test.csv, the species one-hot encoded in
the submission's column order. v1 also creates an empty private/images/ folder.
"""

import zipfile
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    species = comp.submission.columns[1:]
    train, test = split_frame(pd.read_csv(raw / "train.csv.zip"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns=["species"]), public / "test.csv")
    answers = pd.DataFrame({"id": test["id"], **{s: (test["species"] == s).astype(int) for s in species}})
    write_csv(answers, private / comp.submission.answers)
    sample = pd.DataFrame({"id": test["id"], **{s: 1 / len(species) for s in species}})
    write_csv(sample, public / "sample_submission.csv")
    _copy_images(raw / "images.zip", [*train["id"], *test["id"]], public / "images")
    (private / "images").mkdir()


def _copy_images(archive: Path, ids: list[int], dest: Path) -> None:
    dest.mkdir()
    with zipfile.ZipFile(archive) as zf:
        for image_id in ids:
            (dest / f"{image_id}.jpg").write_bytes(zf.read(f"images/{image_id}.jpg"))
