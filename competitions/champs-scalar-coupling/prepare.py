"""champs-scalar-coupling: v1 splits train.csv by molecule (TTS 0.1, seed 0 over the molecule groups).

The groups are taken in molecule_name order, and each side keeps its groups in the order
train_test_split returns them (rows within a molecule in file order). public: train.csv; test.csv (id,
molecule_name, atom_index_0, atom_index_1, type); sample_submission.csv (scalar_coupling_constant 0); the
six side CSVs and structures/*.xyz, kept for train molecules only (as in v1, so test geometry is
missing). private: answers.csv, the full test rows.
"""

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench_spec.declarations import Competition

SIDE_FILES = [
    "structures.csv",
    "dipole_moments.csv",
    "magnetic_shielding_tensors.csv",
    "mulliken_charges.csv",
    "potential_energy.csv",
    "scalar_coupling_contributions.csv",
]


def _rows_in_group_order(frame: pd.DataFrame, molecules: list[str]) -> pd.DataFrame:
    """Return the rows of ``molecules``, molecule after molecule in that order, each in file order."""
    rank = pd.Series(np.arange(len(molecules)), index=molecules)
    chosen = frame[frame["molecule_name"].isin(rank.index)]
    order = np.argsort(rank[chosen["molecule_name"]].to_numpy(), kind="stable")
    return chosen.iloc[order]


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split train.csv by molecule; publish the train molecules' side files and the test couplings."""
    frame = pd.read_csv(raw / "train.csv")
    molecules = sorted(frame["molecule_name"].unique())
    size = comp.split.test_fraction if comp.split.test_size is None else comp.split.test_size
    train_mols, test_mols = train_test_split(molecules, test_size=size, random_state=comp.split.seed)
    train, test = _rows_in_group_order(frame, train_mols), _rows_in_group_order(frame, test_mols)
    train.to_csv(public / "train.csv", index=False)
    test.drop(columns=["scalar_coupling_constant"]).to_csv(public / "test.csv", index=False)
    test.to_csv(private / "answers.csv", index=False)
    test[["id"]].assign(scalar_coupling_constant=0).to_csv(public / "sample_submission.csv", index=False)
    keep = set(train_mols)
    for name in SIDE_FILES:
        side = pd.read_csv(raw / name)
        side[side["molecule_name"].isin(keep)].to_csv(public / name, index=False)
    (public / "structures").mkdir()
    for molecule in sorted(keep):
        xyz = raw / "structures" / f"{molecule}.xyz"
        if xyz.is_file():
            shutil.copyfile(xyz, public / "structures" / xyz.name)
