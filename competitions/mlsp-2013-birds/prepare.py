"""mlsp-2013-birds: MLE-bench v1's re-split of Kaggle's training recordings.

v1 keeps only fold 0 of ``CVfolds_2.txt`` (Kaggle's labelled recordings), renumbers them 0..N-1 in order
and marks ``DataFrame.sample(frac=0.2, random_state=0)`` of them as the new test fold 1 (64 recordings on
the real data). Every essential and supplemental table is filtered to the kept recordings and remapped to
the new ids; the new test labels are hidden as ``?``. Wavs and spectrogram images are copied as they are.
The answers have one row per test recording and species, ``Id = rec_id * 100 + species``.
"""

import shutil
import tempfile
from pathlib import Path

import pandas as pd

from mlebench.data.archives import extract_zip
from mlebench.data.prepare import write_csv
from mlebench.spec.declarations import Competition

FEATURE_TABLES = ["histogram_of_segments.txt", "segment_features.txt", "segment_rectangles.txt"]
SPECIES_COUNT = 19


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw``."""
    with tempfile.TemporaryDirectory() as tmp:
        extract_zip(raw / "mlsp_contest_dataset.zip", Path(tmp))
        source = Path(tmp) / "mlsp_contest_dataset"
        essential, supplemental = source / "essential_data", source / "supplemental_data"
        folds = pd.read_csv(essential / "CVfolds_2.txt")
        kept = folds.loc[folds["fold"] == 0, "rec_id"].tolist()
        new_id = {old: new for new, old in enumerate(kept)}
        renumbered = pd.DataFrame({"rec_id": range(len(kept)), "fold": 0})
        test = renumbered.sample(frac=comp.split.test_fraction, random_state=comp.split.seed).index
        renumbered.loc[test, "fold"] = 1
        test_ids = sorted(renumbered.loc[test, "rec_id"])

        out = public / "essential_data"
        out.mkdir(parents=True)
        write_csv(renumbered, out / "CVfolds_2.txt")
        remap_lines(essential / "rec_id2filename.txt", out / "rec_id2filename.txt", new_id)
        labels = read_labels(essential / "rec_labels_test_hidden.txt")
        write_labels(labels, new_id, set(test_ids), out / "rec_labels_test_hidden.txt")
        shutil.copyfile(essential / "species_list.txt", out / "species_list.txt")
        shutil.copytree(essential / "src_wavs", out / "src_wavs")
        copy_supplemental(supplemental, public / "supplemental_data", new_id)

    answers = [(rec * 100 + k, int(k in labels[kept[rec]])) for rec in test_ids for k in range(SPECIES_COUNT)]
    answers = pd.DataFrame(answers, columns=["Id", "Probability"])
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers.assign(Probability=0), public / "sample_submission.csv")


def remap_lines(source: Path, dest: Path, new_id: dict[int, int]) -> None:
    """Copy the header and the lines whose leading rec_id is kept, with that id replaced by the new one."""
    with source.open() as lines, dest.open("w") as out:
        out.write(next(lines))
        for line in lines:
            rec, sep, rest = line.partition(",")
            if rec.strip() and int(rec) in new_id:
                out.write(f"{new_id[int(rec)]}{sep}{rest}")


def read_labels(path: Path) -> dict[int, set[int]]:
    """Read each recording's species ids from Kaggle's label file (``?`` lines give no labels)."""
    labels = {}
    for line in path.read_text().splitlines()[1:]:
        rec, *species = line.strip().split(",")
        labels[int(rec)] = {int(s) for s in species if s not in ("", "?")}
    return labels


def write_labels(labels: dict[int, set[int]], new_id: dict[int, int], test: set[int], dest: Path) -> None:
    """Write the label file for the kept recordings: ``id,?`` for test, ``id`` alone when unlabelled."""
    lines = ["rec_id,[labels]"]
    for old, new in new_id.items():
        species = ["?"] if new in test else [str(s) for s in sorted(labels[old])]
        lines.append(",".join([str(new), *species]))
    dest.write_text("\n".join(lines) + "\n")


def copy_supplemental(source: Path, dest: Path, new_id: dict[int, int]) -> None:
    """Copy the image folders and mosaics; filter and remap the three feature tables."""
    dest.mkdir(parents=True)
    for path in sorted(source.iterdir()):
        if path.is_dir():
            shutil.copytree(path, dest / path.name)
        elif path.name in FEATURE_TABLES:
            remap_lines(path, dest / path.name, new_id)
        else:
            shutil.copyfile(path, dest / path.name)
