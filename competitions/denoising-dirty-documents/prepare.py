"""denoising-dirty-documents: v1 splits the sorted train/*.png pages (TTS 0.2, seed 0).

train.zip and train_cleaned.zip are extracted into public/; the test pages move to public/test/ and their
cleaned versions leave public. private/answers.csv has one row per test pixel, id = {stem}_{row}_{col}
(1-based) and value = cleaned gray level / 255, the test pages in file-name order;
public/sampleSubmission.csv has the same ids, value 1.
"""

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image
from sklearn.model_selection import train_test_split

from mlebench.data.archives import extract_zip
from mlebench_spec.declarations import Competition


def _pixels(image: Path) -> pd.DataFrame:
    values = np.asarray(Image.open(image).convert("L"), dtype=np.float64) / 255
    rows, cols = np.indices(values.shape) + 1
    ids = [f"{image.stem}_{r}_{c}" for r, c in zip(rows.ravel(), cols.ravel(), strict=True)]
    return pd.DataFrame({"id": ids, "value": values.ravel()})


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Extract both zips, move the test pages out of train, and turn their clean pages into answers."""
    extract_zip(raw / "train.zip", public)
    extract_zip(raw / "train_cleaned.zip", public)
    size = comp.split.test_fraction if comp.split.test_size is None else comp.split.test_size
    pages = sorted((public / "train").glob("*.png"))
    _, test = train_test_split(pages, test_size=size, random_state=comp.split.seed)
    (public / "test").mkdir()
    answers = []
    for page in sorted(test):
        shutil.move(page, public / "test" / page.name)
        cleaned = public / "train_cleaned" / page.name
        answers.append(_pixels(cleaned))
        cleaned.unlink()
    answers = pd.concat(answers, ignore_index=True)
    answers.to_csv(private / "answers.csv", index=False)
    answers.assign(value=1).to_csv(public / "sampleSubmission.csv", index=False)
