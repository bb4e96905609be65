"""tensorflow-speech-recognition-challenge: MLE-bench v1 holds out 10% of Kaggle's training clips.

train.7z is extracted; every train/audio/<label>/*.wav is listed, sorted by "{label}_{filename}", and split
with TTS(0.1, 0). Train clips keep their folders; test clips are renamed clip_{index:08d}.wav in the order
TTS returns them. The answers' label is the raw folder name (v1 never maps to the 12 Kaggle classes); the
sample submission says "silence" everywhere. train.7z is extracted with py7zr (as in v1), streamed to a
scratch folder inside private/ that is removed afterwards.
"""

import os
import tempfile
from pathlib import Path

import pandas as pd
import py7zr
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition


def _move(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(source, target)


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as MLE-bench v1 does (see the module docstring)."""
    with tempfile.TemporaryDirectory(dir=private) as tmp:
        with py7zr.SevenZipFile(raw / "train.7z") as archive:
            archive.extractall(tmp)
        audio = Path(tmp) / "train" / "audio"
        clips = sorted(audio.glob("*/*.wav"), key=lambda p: f"{p.parent.name}_{p.name}")
        train, test = train_test_split(
            clips, test_size=comp.split.test_fraction, random_state=comp.split.seed
        )
        for clip in train:
            _move(clip, public / "train" / "audio" / clip.parent.name / clip.name)
        rows = []
        for index, clip in enumerate(test):
            fname = f"clip_{index:08d}.wav"
            _move(clip, public / "test" / "audio" / fname)
            rows.append((fname, clip.parent.name))
    answers = pd.DataFrame(rows, columns=["fname", "label"])
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers.assign(label="silence"), public / "sample_submission.csv")
