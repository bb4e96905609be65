"""the-icml-2013-whale-challenge-right-whale-redux: MLE-bench v1's split of Kaggle's train2.zip by date.

The clips (train2/YYYYMMDD_HHMMSS_{sec}_TRAIN{idx}_{label}.aif) were recorded on four dates. v1 keeps
the clips of the first two dates (sorted) as train, renamed ``{prefix}TRAIN{k}_{label}.aif``, and makes
the clips of the last two dates the test set, renamed ``{prefix}Test{k}.aif``; ``k`` counts the sorted
file names on each side from 0. Public: train2.zip, test2.zip, sampleSubmission.csv (probability 0);
private: test.csv (clip, probability = the label).
"""

import re
import shutil
import zipfile
from pathlib import Path

import pandas as pd

from mlebench.data.archives import write_zip
from mlebench_spec.declarations import Competition

_NAME = re.compile(r"^(?P<prefix>(?P<date>\d{8})_\d{6}_[^_]+_)TRAIN\d+_(?P<label>[01])\.aif$")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from the raw download, as the module docstring says."""
    with zipfile.ZipFile(raw / "train2.zip") as archive:
        clips = [
            (match, member)
            for member in sorted(archive.namelist())
            if (match := _NAME.match(Path(member).name))
        ]
        dates = sorted({match["date"] for match, _ in clips})
        train = [(m, member) for m, member in clips if m["date"] in dates[:2]]
        test = [(m, member) for m, member in clips if m["date"] in dates[2:]]
        train_names = [f"{m['prefix']}TRAIN{k}_{m['label']}.aif" for k, (m, _) in enumerate(train)]
        test_names = [f"{m['prefix']}Test{k}.aif" for k, (m, _) in enumerate(test)]
        _zip_folder(archive, [member for _, member in train], train_names, public, "train2")
        _zip_folder(archive, [member for _, member in test], test_names, public, "test2")
    labels = [int(m["label"]) for m, _ in test]
    pd.DataFrame({"clip": test_names, "probability": labels}).to_csv(
        private / comp.submission.answers, index=False
    )
    sample = pd.DataFrame({"clip": test_names, "probability": 0})
    sample.to_csv(public / "sampleSubmission.csv", index=False)


def _zip_folder(
    archive: zipfile.ZipFile, members: list[str], names: list[str], public: Path, folder: str
) -> None:
    """Copy ``members`` out of ``archive`` as ``public/<folder>/<name>``, zip that folder, remove it."""
    target = public / folder
    target.mkdir()
    for member, name in zip(members, names, strict=True):
        with archive.open(member) as src, (target / name).open("wb") as dst:
            shutil.copyfileobj(src, dst)
    write_zip(sorted(target.iterdir()), public, public / f"{folder}.zip")
    shutil.rmtree(target)
