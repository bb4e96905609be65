"""A small stand-in for Kaggle's hms-harmful-brain-activity-classification download.

train.csv (15 columns, several label windows per eeg_id, several eeg_ids per spectrogram), one parquet file
per EEG and per spectrogram, and example_figures/.
"""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, probabilities
from authoring.kaggle_standin import image_bytes
from mlebench_spec.declarations import Competition, RealSize

VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
CONSENSUS = ["Seizure", "LPD", "GPD", "LRDA", "GRDA", "Other"]
EEG_CHANNELS = ["Fp1", "F3", "C3", "P3", "O1", "Fz", "Cz", "EKG"]
SPECTRO_COLUMNS = ["time", "LL_0.59", "LL_0.78", "RL_0.59", "LP_0.59", "RP_0.59"]


def _rows(rng: np.random.Generator, n_spectrograms: int) -> pd.DataFrame:
    rows = []
    for spectrogram_id in rng.choice(10**9, size=n_spectrograms, replace=False):
        patient = int(rng.integers(10000, 70000))
        for eeg_id in rng.choice(10**9, size=2, replace=False):
            for sub in range(int(rng.integers(1, 4))):
                votes = np.zeros(6, dtype=int)
                votes[rng.integers(0, 6)] = rng.integers(1, 6)
                votes[rng.integers(0, 6)] += rng.integers(0, 2)
                rows.append(
                    [eeg_id, sub, 2.0 * sub, spectrogram_id, sub, 2.0 * sub, int(rng.integers(10**9))]
                    + [patient, CONSENSUS[int(votes.argmax())], *votes]
                )
    columns = ["eeg_id", "eeg_sub_id", "eeg_label_offset_seconds", "spectrogram_id", "spectrogram_sub_id"]
    columns += ["spectrogram_label_offset_seconds", "label_id", "patient_id", "expert_consensus", *VOTES]
    return pd.DataFrame(rows, columns=columns)


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``, all randomness from ``rng``."""
    train = _rows(rng, 80)
    train.to_csv(dest / "train.csv", index=False)
    for folder in ("train_eegs", "train_spectrograms", "example_figures"):
        (dest / folder).mkdir()
    for eeg_id in train["eeg_id"].unique():
        signal = rng.normal(size=(20, len(EEG_CHANNELS))).astype(np.float32)
        pd.DataFrame(signal, columns=EEG_CHANNELS).to_parquet(dest / "train_eegs" / f"{eeg_id}.parquet")
    for spectrogram_id in train["spectrogram_id"].unique():
        values = rng.exponential(size=(6, len(SPECTRO_COLUMNS))).astype(np.float32)
        values[:, 0] = np.arange(1, 12, 2)
        frame = pd.DataFrame(values, columns=SPECTRO_COLUMNS)
        frame.to_parquet(dest / "train_spectrograms" / f"{spectrogram_id}.parquet")
    for name in CONSENSUS:
        (dest / "example_figures" / f"{name}_example.png").write_bytes(image_bytes(rng, fmt="PNG"))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: soft-vote answers, softmax predictions."""
    return probabilities(comp, size.test_rows, rng, soft=True)
