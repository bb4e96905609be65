"""nomad2018-predict-transparent-conductors: MLE-bench v1's split of Kaggle's train.csv (TTS 0.1, seed 0).

After the split, ids are renumbered 1..n separately for train and test, in the shuffled order, and each
material's ``geometry.xyz`` is copied to ``{train,test}/<new id>/``. v1 grades by position, so the answers
and the sample list ids 1..n in order. Kaggle's test files are not used.
"""

import zipfile
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition

TARGETS = ["formation_energy_ev_natom", "bandgap_energy_ev"]


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw``."""
    with zipfile.ZipFile(raw / "train.csv.zip") as zf, zf.open("train.csv") as f:
        table = pd.read_csv(f)
    train, test = split_frame(table, comp.split)
    with zipfile.ZipFile(raw / "train.zip") as geometries:
        train = renumbered(train, geometries, public / "train")
        test = renumbered(test, geometries, public / "test")
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns=TARGETS), public / "test.csv")
    write_csv(test, private / comp.submission.answers)
    sample = test[["id"]].assign(**{TARGETS[0]: 0.1779, TARGETS[1]: 1.8892})
    write_csv(sample, public / "sample_submission.csv")


def renumbered(rows: pd.DataFrame, geometries: zipfile.ZipFile, dest: Path) -> pd.DataFrame:
    """``rows`` with ids 1..n in order; each geometry.xyz written to ``dest/<new id>/``."""
    new_ids = list(range(1, len(rows) + 1))
    for old, new in zip(rows["id"], new_ids, strict=True):
        folder = dest / str(new)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "geometry.xyz").write_bytes(geometries.read(f"train/{old}/geometry.xyz"))
    return rows.assign(id=new_ids)
