"""A small stand-in for Kaggle's playground-series-s3e18 download: train.csv (id, 31 features, EC1..EC6)."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, score_columns
from mlebench_spec.declarations import Competition, RealSize

FEATURES = (
    "BertzCT Chi1 Chi1n Chi1v Chi2n Chi2v Chi3v Chi4n EState_VSA1 EState_VSA2 ExactMolWt FpDensityMorgan1 "
    "FpDensityMorgan2 FpDensityMorgan3 HallKierAlpha HeavyAtomMolWt Kappa3 MaxAbsEStateIndex MinEStateIndex "
    "NumHeteroatoms PEOE_VSA10 PEOE_VSA14 PEOE_VSA6 PEOE_VSA7 PEOE_VSA8 SMR_VSA10 SMR_VSA5 SlogP_VSA3 "
    "VSA_EState9 fr_COO fr_COO2"
).split()


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small synthetic download into the empty folder ``dest``."""
    n = 300
    frame = pd.DataFrame({"id": np.arange(n)})
    for name in FEATURES:
        frame[name] = rng.gamma(2.0, 10.0, size=n).round(4)
    for k in range(1, 7):
        frame[f"EC{k}"] = rng.integers(0, 2, size=n)
    frame.to_csv(dest / "train.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 labels per column, noisy scores."""
    return score_columns(comp, size.test_rows, rng, p_positive=0.6)
