"""mlsp-2013-birds: MLE-bench v1's re-split of Kaggle's training recordings.

v1 keeps only fold 0 of ``CVfolds_2.txt`` (Kaggle's labelled recordings), renumbers them 0..N-1 in order
and marks ``DataFrame.sample(frac=0.2, random_state=0)`` of them as the new test fold 1 (v1 asserts 64
recordings, the count on the real data). The tables keyed by rec_id are filtered to the kept recordings and
remapped to the new ids:
- ``rec_labels_test_hidden.txt`` keeps each line's label text, ``?`` for a new test recording, and a bare
  ``rec_id`` for one without labels;
- the three segment tables of ``supplemental_data`` all get the header
  ``rec_id,[histogram of segment features]``, as v1 writes them, whatever header each had.
Only the kept recordings' files are published: their wavs and their bmps in ``filtered_spectrograms``,
``spectrograms``, ``supervised_segmentation`` and, where there is one, ``segmentation_examples``; plus
``segment_clusters.bmp``, ``segment_mosaic.bmp`` and ``species_list.txt``. Kaggle's own test recordings
(fold 1) are left out. The answers have one row per test recording and species,
``Id = rec_id * 100 + species``.
"""

import shutil
import tempfile
from pathlib import Path

import pandas as pd

from mlebench.data.archives import extract_zip
from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

SEGMENT_TABLES = ["histogram_of_segments.txt", "segment_features.txt", "segment_rectangles.txt"]
SEGMENT_HEADER = "rec_id,[histogram of segment features]"
LABELS_HEADER = "rec_id,[labels]"
BMP_FOLDERS = {  # folder: whether every recording has a bmp there
    "filtered_spectrograms": True,
    "segmentation_examples": False,
    "spectrograms": True,
    "supervised_segmentation": True,
}
MOSAICS = ["segment_clusters.bmp", "segment_mosaic.bmp"]
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
        test_ids = renumbered.loc[renumbered["fold"] == 1, "rec_id"].tolist()

        out = public / "essential_data"
        out.mkdir(parents=True)
        write_csv(renumbered, out / "CVfolds_2.txt")
        names = pd.read_csv(essential / "rec_id2filename.txt")
        names = names[names["rec_id"].isin(new_id)].assign(rec_id=lambda f: f["rec_id"].map(new_id))
        write_csv(names, out / "rec_id2filename.txt")
        labels = [(new_id[rec], text) for rec, text in read_rows(essential / "rec_labels_test_hidden.txt")
                  if rec in new_id]  # fmt: skip
        write_labels(labels, set(test_ids), out / "rec_labels_test_hidden.txt")
        shutil.copyfile(essential / "species_list.txt", out / "species_list.txt")
        for name in names["filename"]:
            copy(essential / "src_wavs" / f"{name}.wav", out / "src_wavs")
        copy_supplemental(supplemental, public / "supplemental_data", names["filename"].tolist(), new_id)

    test_set = set(test_ids)
    answers = [
        (rec * 100 + k, int(k in species))
        for rec, species in ((rec, {int(s) for s in text.split(",") if s}) for rec, text in labels)
        if rec in test_set
        for k in range(SPECIES_COUNT)
    ]
    answers = pd.DataFrame(answers, columns=["Id", "Probability"])
    write_csv(answers, private / comp.submission.answers)
    sample = [(rec * 100 + k, 0) for rec in test_ids for k in range(SPECIES_COUNT)]
    write_csv(pd.DataFrame(sample, columns=["Id", "Probability"]), public / "sample_submission.csv")


def read_rows(path: Path) -> list[tuple[int, str]]:
    """Return (rec_id, the rest of the line after its first comma) for each line after the header."""
    rows = []
    for line in path.read_text().splitlines()[1:]:
        rec, _, rest = line.partition(",")
        rows.append((int(rec), rest))
    return rows


def write_labels(labels: list[tuple[int, str]], test: set[int], dest: Path) -> None:
    """Write the label file: ``id,?`` for test, ``id`` alone when unlabelled, else ``id,<labels>``."""
    lines = [LABELS_HEADER]
    for rec, text in labels:
        text = "?" if rec in test else text
        lines.append(f"{rec},{text}" if text else str(rec))
    dest.write_text("".join(line + "\n" for line in lines))


def copy(path: Path, folder: Path) -> None:
    """Copy ``path`` into ``folder`` (created if needed) under its own name."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, folder / path.name)


def copy_supplemental(source: Path, dest: Path, names: list[str], new_id: dict[int, int]) -> None:
    """Copy the kept recordings' bmps and the mosaics; filter and remap the segment tables."""
    for folder, everyone in BMP_FOLDERS.items():
        (dest / folder).mkdir(parents=True)
        for name in names:
            bmp = source / folder / f"{name}.bmp"
            if everyone or bmp.is_file():
                copy(bmp, dest / folder)
    for mosaic in MOSAICS:
        copy(source / mosaic, dest)
    for table in SEGMENT_TABLES:
        rows = [(new_id[rec], rest) for rec, rest in read_rows(source / table) if rec in new_id]
        (dest / table).write_text(
            "".join(f"{line}\n" for line in [SEGMENT_HEADER, *(f"{r},{t}" for r, t in rows)])
        )
