"""A small stand-in for Kaggle's spaceship-titanic download: train.csv with the real columns."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, labels
from authoring.synthetic import names
from mlebench_spec.declarations import Competition, RealSize


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write a 400-passenger train.csv with Kaggle's columns into ``dest``."""
    n = 400
    groups = rng.integers(1, 9999, size=n)
    frame = pd.DataFrame(
        {
            "PassengerId": [f"{g:04d}_{i % 3 + 1:02d}" for i, g in enumerate(groups)],
            "HomePlanet": rng.choice(["Earth", "Europa", "Mars", ""], size=n),
            "CryoSleep": rng.choice(["True", "False", ""], size=n),
            "Cabin": [
                f"{d}/{rng.integers(0, 2000)}/{s}"
                for d, s in zip(
                    rng.choice(list("ABCDEFGT"), size=n), rng.choice(["P", "S"], size=n), strict=True
                )
            ],
            "Destination": rng.choice(["TRAPPIST-1e", "55 Cancri e", "PSO J318.5-22"], size=n),
            "Age": rng.integers(0, 80, size=n).astype(float),
            "VIP": rng.choice(["True", "False"], size=n),
            "RoomService": rng.exponential(200, size=n).round(),
            "FoodCourt": rng.exponential(400, size=n).round(),
            "ShoppingMall": rng.exponential(150, size=n).round(),
            "Spa": rng.exponential(300, size=n).round(),
            "VRDeck": rng.exponential(300, size=n).round(),
            "Name": [f"Name{i} Family{i % 50}" for i in range(n)],
            "Transported": rng.choice([True, False], size=n),
        }
    )
    frame = frame.drop_duplicates("PassengerId")
    frame.to_csv(dest / "train.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: transported True or False per passenger."""
    return labels(comp, size.test_rows, names("True", "False"), rng)
