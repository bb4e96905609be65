"""A small stand-in for the freesound-audio-tagging-2019 raw folder.

Kaggle's download (train_curated.csv, train_noisy.csv, sample_submission.csv and the three audio zips) plus
FSDKaggle2019.meta.zip from Zenodo, whose test_post_competition.csv holds the test labels.
"""

import io
import wave
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from authoring.grading_inputs import GradingInputs, score_columns
from mlebench_spec.declarations import Competition, RealSize

_CLASSES = yaml.safe_load((Path(__file__).parent / "competition.yaml").read_text())["submission"]["columns"][
    1:
]


def _wav(rng: np.random.Generator) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(44100)
        w.writeframes(rng.integers(-3000, 3000, size=200, dtype=np.int16).tobytes())
    return out.getvalue()


def _clips(rng: np.random.Generator, n: int) -> pd.DataFrame:
    names = [f"{rng.bytes(4).hex()}.wav" for _ in range(n)]
    labels = [
        ",".join(sorted(rng.choice(_CLASSES, size=rng.integers(1, 3), replace=False))) for _ in range(n)
    ]
    return pd.DataFrame({"fname": names, "labels": labels})


def _entry(name: str) -> zipfile.ZipInfo:
    return zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # no clock in the bytes


def _zip(path: Path, names: pd.Series, rng: np.random.Generator) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for name in names:
            zf.writestr(_entry(name), _wav(rng))


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the Kaggle files and the Zenodo metadata zip; 40 private and 10 public test clips."""
    curated, noisy, test = _clips(rng, 20), _clips(rng, 20), _clips(rng, 50)
    curated.to_csv(dest / "train_curated.csv", index=False)
    noisy.to_csv(dest / "train_noisy.csv", index=False)
    test["usage"] = ["Public"] * 10 + ["Private"] * 40
    test["freesound_id"] = rng.integers(1000, 400000, size=len(test))
    test["license"] = "CC-BY"
    private = test[test["usage"] == "Private"]
    sample = pd.DataFrame(0, index=range(len(private)), columns=_CLASSES)
    sample.insert(0, "fname", sorted(private["fname"]))
    sample.to_csv(dest / "sample_submission.csv", index=False)
    _zip(dest / "train_curated.zip", curated["fname"], rng)
    _zip(dest / "train_noisy.zip", noisy["fname"], rng)
    _zip(dest / "test.zip", private["fname"], rng)
    with zipfile.ZipFile(dest / "FSDKaggle2019.meta.zip", "w") as zf:
        zf.writestr(_entry("FSDKaggle2019.meta/test_post_competition.csv"), test.to_csv(index=False))
        zf.writestr(
            _entry("FSDKaggle2019.meta/train_curated_post_competition.csv"), curated.to_csv(index=False)
        )


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 labels per column, noisy scores."""
    return score_columns(comp, size.test_rows, rng, p_positive=0.02)
