"""A small stand-in for Kaggle's nomad2018 download: zipped train/test tables and geometry.xyz folders."""

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs
from authoring.synthetic import text
from mlebench_spec.declarations import Competition, RealSize

TARGETS = ["formation_energy_ev_natom", "bandgap_energy_ev"]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write train.csv.zip, train.zip, test.csv.zip and test.zip into ``dest``."""
    for name, n, targets in (("train", 300, True), ("test", 30, False)):
        table = materials(rng, n, targets)
        with zipfile.ZipFile(dest / f"{name}.csv.zip", "w") as zf:
            zf.writestr(f"{name}.csv", table.to_csv(index=False))
        with zipfile.ZipFile(dest / f"{name}.zip", "w") as zf:
            for material in table["id"]:
                zf.writestr(f"{name}/{material}/geometry.xyz", geometry(rng))


def materials(rng: np.random.Generator, n: int, targets: bool) -> pd.DataFrame:
    """Return one row per material with Kaggle's columns (the two targets only for train)."""
    al, ga = rng.uniform(0, 0.5, n).round(4), rng.uniform(0, 0.5, n).round(4)
    table = pd.DataFrame(
        {
            "id": range(1, n + 1),
            "spacegroup": rng.choice([12, 33, 167, 194, 206, 227], size=n),
            "number_of_total_atoms": rng.choice([10.0, 20.0, 30.0, 40.0, 60.0, 80.0], size=n),
            "percent_atom_al": al,
            "percent_atom_ga": ga,
            "percent_atom_in": (1 - al - ga).round(4),
        }
    )
    for axis in (1, 2, 3):
        table[f"lattice_vector_{axis}_ang"] = rng.uniform(3, 25, n).round(4)
    for angle in ("alpha", "beta", "gamma"):
        table[f"lattice_angle_{angle}_degree"] = rng.uniform(80, 120, n).round(4)
    if targets:
        table[TARGETS[0]] = rng.uniform(0, 0.6, n).round(4)
        table[TARGETS[1]] = rng.uniform(0.2, 5.5, n).round(4)
    return table


def geometry(rng: np.random.Generator) -> str:
    """Return a short geometry.xyz: three lattice vectors and a few atoms."""
    lines = [
        "#=======================================================",
        "# Created using the Atomic Simulation",
    ]
    lines += [f"lattice_vector {' '.join(f'{v:.8f}' for v in rng.uniform(-10, 10, 3))} " for _ in range(3)]
    for element in rng.choice(["Al", "Ga", "In", "O"], size=6):
        lines.append(f"atom {' '.join(f'{v:.8f}' for v in rng.uniform(0, 10, 3))} {element}")
    return "\n".join(lines) + "\n"


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Answers and a noisy submission of the two targets, ids numbered from 1."""
    n = size.test_rows
    truth = np.column_stack([rng.uniform(0, 0.5, n), rng.uniform(0, 5, n)])
    noisy = np.abs(truth + rng.normal(0, 0.1, truth.shape))
    row_ids = np.arange(1, n + 1).astype(str).astype(object)
    answers = pd.DataFrame({"id": row_ids, **{c: text(truth[:, k]) for k, c in enumerate(TARGETS)}})
    submission = pd.DataFrame({"id": row_ids, **{c: text(noisy[:, k]) for k, c in enumerate(TARGETS)}})
    return GradingInputs(answers, submission)
