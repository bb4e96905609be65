"""A small stand-in for Kaggle's champs-scalar-coupling download: train.csv, the six side CSVs, xyz files."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs
from authoring.synthetic import text
from mlebench_spec.declarations import Competition, RealSize

_TYPES = ["1JHC", "1JHN", "2JHH", "2JHC", "2JHN", "3JHH", "3JHC", "3JHN"]
_TENSOR = ["XX", "YX", "ZX", "XY", "YY", "ZY", "XZ", "YZ", "ZZ"]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write 60 molecules of 4-7 atoms with 10 couplings each, and every per-molecule side file."""
    molecules = [f"dsgdb9nsd_{i:06d}" for i in range(1, 61)]
    atoms = {m: int(rng.integers(4, 8)) for m in molecules}
    structures = pd.DataFrame(
        [(m, a, rng.choice(["C", "H", "N", "O"])) for m in molecules for a in range(atoms[m])],
        columns=["molecule_name", "atom_index", "atom"],
    )
    structures[["x", "y", "z"]] = rng.normal(0, 1.5, size=(len(structures), 3))
    couplings = pd.DataFrame(
        [(m, *rng.choice(atoms[m], size=2, replace=False)) for m in molecules for _ in range(10)],
        columns=["molecule_name", "atom_index_0", "atom_index_1"],
    )
    couplings["type"] = [_TYPES[i % len(_TYPES)] for i in rng.permutation(len(couplings))]
    parts = rng.normal(0, [20, 0.5, 1, 1], size=(len(couplings), 4))
    train = couplings.assign(scalar_coupling_constant=parts.sum(axis=1))
    train.insert(0, "id", np.arange(len(train)))
    train.to_csv(dest / "train.csv", index=False)
    structures.to_csv(dest / "structures.csv", index=False)
    couplings.assign(fc=parts[:, 0], sd=parts[:, 1], pso=parts[:, 2], dso=parts[:, 3]).to_csv(
        dest / "scalar_coupling_contributions.csv", index=False
    )
    per_molecule = pd.DataFrame({"molecule_name": molecules})
    per_molecule[["X", "Y", "Z"]] = rng.normal(0, 1, size=(len(molecules), 3))
    per_molecule.to_csv(dest / "dipole_moments.csv", index=False)
    per_molecule[["molecule_name"]].assign(potential_energy=rng.normal(-400, 20, size=len(molecules))).to_csv(
        dest / "potential_energy.csv", index=False
    )
    per_atom = structures[["molecule_name", "atom_index"]]
    per_atom.assign(mulliken_charge=rng.normal(0, 0.3, size=len(per_atom))).to_csv(
        dest / "mulliken_charges.csv", index=False
    )
    shielding = per_atom.copy()
    shielding[_TENSOR] = rng.normal(0, 50, size=(len(per_atom), 9))
    shielding.to_csv(dest / "magnetic_shielding_tensors.csv", index=False)
    (dest / "structures").mkdir()
    for name, group in structures.groupby("molecule_name"):
        lines = [str(len(group)), ""] + [
            f"{a} {x:.8f} {y:.8f} {z:.8f}"
            for a, x, y, z in group[["atom", "x", "y", "z"]].itertuples(index=False)
        ]
        (dest / "structures" / f"{name}.xyz").write_text("\n".join(lines) + "\n")


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Answers with the coupling ``type`` (the metric's groups) and a shuffled noisy submission."""
    n = size.test_rows
    types = rng.choice(_TYPES, n)
    truth = rng.normal(10, 30, n)
    row_ids = np.arange(n).astype(str).astype(object)
    answers = pd.DataFrame({"id": row_ids, "scalar_coupling_constant": text(truth), "type": types})
    submission = pd.DataFrame({"id": row_ids, "scalar_coupling_constant": text(truth + rng.normal(0, 2, n))})
    return GradingInputs(answers, submission.iloc[rng.permutation(n)].reset_index(drop=True))
