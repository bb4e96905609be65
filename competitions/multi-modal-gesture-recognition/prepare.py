"""multi-modal-gesture-recognition: MLE-bench v1's split, where Kaggle's training4 archive becomes test.

The test ids are the last 4 digits of each ``SampleNNNNN.zip`` in ``training4.tar.gz``, which is published
unchanged as ``test.tar.gz`` (its ``_data.mat`` files still hold the labels, as in v1). ``training.csv``
loses the test rows, which become the answers; ``randomPredictions.csv`` is the sample submission, a
random order of the 20 gestures per test id: ``sample(range(1, 21), 20)`` from Python's generator seeded
with the split seed, drawn in test-id order, as v1 does. Every other archive is published as it is,
hard-linked from the raw files where the filesystem allows (the same bytes, written once).
"""

import random
import tarfile
from pathlib import Path, PurePosixPath

import pandas as pd

from mlebench.data.prepare import link_or_copy, write_csv
from mlebench_spec.declarations import Competition

COPIED = [
    *(f"training{k}.tar.gz" for k in (1, 2, 3)),
    *(f"validation{k}.tar.gz" for k in (1, 2, 3)),
    "devel01-40.7z",
    "valid_all_files_combined.7z",
    "sample_code_mmrgc.zip",
]
GESTURES = 20


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw``."""
    test_ids = sorted(archive_ids(raw / "training4.tar.gz"))
    labels = pd.read_csv(raw / "training.csv", dtype=str)
    in_test = labels["Id"].isin(test_ids)
    write_csv(labels[~in_test], public / "training.csv")
    write_csv(labels[in_test], private / comp.submission.answers)
    write_csv(pd.DataFrame({"Id": test_ids}), public / "test.csv")
    write_csv(random_predictions(test_ids, comp.split.seed), public / "randomPredictions.csv")
    link_or_copy(raw / "training4.tar.gz", public / "test.tar.gz")
    for name in COPIED:
        link_or_copy(raw / name, public / name)


def archive_ids(archive: Path) -> list[str]:
    """Return the last 4 digits of every ``SampleNNNNN.zip`` in ``archive``, streaming through it."""
    with tarfile.open(archive, "r|gz") as tar:
        stems = [PurePosixPath(m.name).stem for m in tar if m.name.endswith(".zip")]
    return [stem[-4:] for stem in stems if stem.startswith("Sample")]


def random_predictions(test_ids: list[str], seed: int) -> pd.DataFrame:
    """One random order of gestures 1..20 per test id, each ``sample`` of ``random.Random(seed)``."""
    rng = random.Random(seed)
    gestures = range(1, GESTURES + 1)
    sequences = [" ".join(map(str, rng.sample(gestures, GESTURES))) for _ in test_ids]
    return pd.DataFrame({"Id": test_ids, "Sequence": sequences})
