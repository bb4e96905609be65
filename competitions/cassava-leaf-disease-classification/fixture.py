"""A small stand-in for Kaggle's cassava-leaf-disease-classification download.

train.csv (image_id, label 0-4), train_images/<image_id>, label_num_to_disease_map.json, and
train_tfrecords/ld_train{i:02d}-{n}.tfrec: tf.train.Example records with image, image_name and target.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, labels
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import names
from mlebench.data.tfrecord import bytes_feature, encode_example, int64_feature, write_records
from mlebench_spec.declarations import Competition, RealSize

DISEASES = {
    "0": "Cassava Bacterial Blight (CBB)",
    "1": "Cassava Brown Streak Disease (CBSD)",
    "2": "Cassava Green Mottle (CGM)",
    "3": "Cassava Mosaic Disease (CMD)",
    "4": "Healthy",
}


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``."""
    (dest / "train_images").mkdir()
    (dest / "train_tfrecords").mkdir()
    (dest / "label_num_to_disease_map.json").write_text(json.dumps(DISEASES))
    rows = []
    for shard in range(20):
        records = []
        for _ in range(15):
            name, label, image = (
                f"{rng.integers(1e8, 1e10)}.jpg",
                int(rng.choice(5, p=[0.1, 0.2, 0.2, 0.4, 0.1])),
                image_bytes(rng),
            )
            (dest / "train_images" / name).write_bytes(image)
            feats = {
                "image": bytes_feature(image),
                "image_name": bytes_feature(name.encode()),
                "target": int64_feature(label),
            }
            records.append(encode_example(feats))
            rows.append({"image_id": name, "label": label})
        write_records(dest / "train_tfrecords" / f"ld_train{shard:02d}-{len(records)}.tfrec", records)
    pd.DataFrame(rows).iloc[rng.permutation(len(rows))].to_csv(dest / "train.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one of the five disease labels per image."""
    return labels(comp, size.test_rows, names(*DISEASES), rng)
