"""cassava-leaf-disease-classification: MLE-bench v1's split of Kaggle's train TFRecord files.

v1 splits the sorted train_tfrecords/*.tfrec files with train_test_split(test_size=0.1, random_state=0) and
renames them ld_train{i:02d}-{n}.tfrec / ld_test{i:02d}-{n}.tfrec (i in split order, n records). Test ids
are the image_name features of the test files; train.csv, train_images/ and test_images/ follow them; the
answers are the test rows of train.csv; the sample submission predicts label 4.

Unlike v1, which copies the test files byte for byte, each test record is rewritten without its `target`
feature (the label); the split and the answers are unchanged.
"""

import shutil
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import link_or_copy, write_csv
from mlebench.data.tfrecord import decode_example, encode_example, read_records, write_records
from mlebench_spec.declarations import Competition

SAMPLE_LABEL = 4


def _unlabelled(path: Path, names: list[str]) -> Iterator[bytes]:
    for record in read_records(path):
        feats = decode_example(record)
        names.append(feats["image_name"].values[0].decode())
        yield encode_example({k: v for k, v in feats.items() if k != "target"})


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    files = sorted((raw / "train_tfrecords").glob("*.tfrec"))
    train_files, test_files = train_test_split(
        files, test_size=comp.split.test_fraction, random_state=comp.split.seed
    )
    for i, path in enumerate(train_files):
        count = sum(1 for _ in read_records(path))
        link_or_copy(path, public / "train_tfrecords" / f"ld_train{i:02d}-{count}.tfrec")
    test_ids: list[str] = []
    (public / "test_tfrecords").mkdir(parents=True)
    for i, path in enumerate(test_files):
        names: list[str] = []
        staged = public / "test_tfrecords" / "staged.tfrec"
        write_records(staged, _unlabelled(path, names))
        staged.rename(public / "test_tfrecords" / f"ld_test{i:02d}-{len(names)}.tfrec")
        test_ids += names
    labels = pd.read_csv(raw / "train.csv")
    in_test = labels["image_id"].isin(set(test_ids))
    train, test = labels[~in_test], labels[in_test]
    write_csv(train, public / "train.csv")
    write_csv(test[["image_id"]].assign(label=SAMPLE_LABEL), public / "sample_submission.csv")
    write_csv(test, private / comp.submission.answers)
    for side, rows in (("train_images", train), ("test_images", test)):
        for image_id in rows["image_id"]:
            link_or_copy(raw / "train_images" / image_id, public / side / image_id)
    shutil.copyfile(raw / "label_num_to_disease_map.json", public / "label_num_to_disease_map.json")
