"""A small stand-in for Kaggle's tensorflow-speech-recognition-challenge download: .7z archives of WAVs.

train.7z holds train/audio/<label>/<speaker>_nohash_<n>.wav (including _background_noise_), written with
py7zr from files stamped with a fixed mtime (same seed, same bytes); test.7z and sample_submission.7z are
tiny. Clips are 0.01 s of 16 kHz noise.
"""

import os
import tempfile
import wave
from pathlib import Path

import numpy as np
import py7zr

from authoring.grading_inputs import GradingInputs, labels
from authoring.synthetic import names
from mlebench_spec.declarations import Competition, RealSize

LABELS = ["_background_noise_", "bed", "down", "go", "left", "no", "off", "on", "right", "stop", "yes"]
# What a submission says: the ten commands, "silence", and "unknown" for every other word.
SUBMITTED = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go", "silence", "unknown"]


def _wav(path: Path, rng: np.random.Generator) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(rng.integers(-2000, 2000, size=160).astype("<i2").tobytes())


def _archive(root: Path, archive: Path) -> None:
    with py7zr.SevenZipFile(archive, "w") as out:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            os.chmod(path, 0o644)
            os.utime(path, (946_684_800, 946_684_800))
            out.write(path, path.relative_to(root).as_posix())


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, all randomness from ``rng``."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "train_root"
        speakers = [f"{int(s):08x}" for s in rng.choice(16**8, size=40, replace=False)]
        for label in LABELS:
            for k in range(25):
                name = f"{rng.choice(speakers)}_nohash_{k}.wav"
                _wav(root / "train" / "audio" / label / name, rng)
        (root / "train" / "audio" / "_background_noise_" / "README.md").write_text(
            "Background noise clips.\n"
        )
        (root / "train" / "validation_list.txt").write_text("yes/0a0b0c0d_nohash_0.wav\n")
        (root / "train" / "testing_list.txt").write_text("no/0a0b0c0d_nohash_1.wav\n")
        _archive(root, dest / "train.7z")
        test_root = Path(tmp) / "test_root"
        names = [f"clip_{int(i):09x}.wav" for i in rng.choice(16**9, size=5, replace=False)]
        for name in names:
            _wav(test_root / "test" / "audio" / name, rng)
        _archive(test_root, dest / "test.7z")
        sample_root = Path(tmp) / "sample_root"
        sample_root.mkdir()
        (sample_root / "sample_submission.csv").write_text(
            "fname,label\n" + "".join(f"{n},silence\n" for n in names)
        )
        _archive(sample_root, dest / "sample_submission.7z")


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one of the twelve submitted labels per clip."""
    return labels(comp, size.test_rows, names(*SUBMITTED), rng)
