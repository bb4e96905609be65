"""3d-object-detection-for-autonomous-vehicles: MLE-bench v1's split of Kaggle's Lyft train data by log.

v1 splits the log tokens of train_data/log.json with train_test_split(test_size=0.2, random_state=0).
A sample goes with the log its scene_token names (scene and log tokens coincide in this data); sample_data,
ego_pose, calibrated_sensor and sample_annotation follow their samples, instance follows the annotations,
scene follows its log, and attribute, category, sensor and visibility are copied to both sides. test_data/
gets no sample_annotation.json or instance.json. map.json keeps, on both sides, only the test logs (v1
mutates one shared dict). Camera images and lidar files follow their sample_data records; the map raster
goes to train_maps/ and test_maps/. The answers are the test rows of train.csv with a confidence of 1.0
put before each 8-token object; the sample submission has empty prediction strings.
"""

import json
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import link_or_copy, write_csv
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError

SHARED = ("attribute", "category", "sensor", "visibility")
PER_LOG = (
    "log",
    "scene",
    "sample",
    "sample_data",
    "ego_pose",
    "calibrated_sensor",
    "sample_annotation",
    "instance",
)
MAP_PNG = "map_raster_palo_alto.png"


def _load(folder: Path, name: str) -> list[dict]:
    return json.loads((folder / f"{name}.json").read_text())


def _dump(records: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records, indent=4))


def _keep(records: list[dict], key: str, wanted: set[str]) -> list[dict]:
    return [r for r in records if r[key] in wanted]


def _side(tables: dict[str, list[dict]], logs: set[str]) -> dict[str, list[dict]]:
    """Select the records of the logs in ``logs``, table by table."""
    samples = _keep(tables["sample"], "scene_token", logs)
    sample_ids = {s["token"] for s in samples}
    data = _keep(tables["sample_data"], "sample_token", sample_ids)
    annotations = _keep(tables["sample_annotation"], "sample_token", sample_ids)
    return {
        "log": _keep(tables["log"], "token", logs),
        "scene": _keep(tables["scene"], "log_token", logs),
        "sample": samples,
        "sample_data": data,
        "ego_pose": _keep(tables["ego_pose"], "token", {d["ego_pose_token"] for d in data}),
        "calibrated_sensor": _keep(
            tables["calibrated_sensor"], "token", {d["calibrated_sensor_token"] for d in data}
        ),
        "sample_annotation": annotations,
        "instance": _keep(tables["instance"], "token", {a["instance_token"] for a in annotations}),
    }


def _with_confidence(objects: str) -> str:
    tokens = objects.split()
    return " ".join(" ".join(["1.0", *tokens[i : i + 8]]) for i in range(0, len(tokens), 8))


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    tables = {name: _load(raw / "train_data", name) for name in (*PER_LOG, *SHARED, "map")}
    log_tokens = [log["token"] for log in tables["log"]]
    if any(s["scene_token"] not in set(log_tokens) for s in tables["sample"]):
        raise DataError("3d-object-detection: a sample's scene_token is not a log token")
    train_logs, test_logs = train_test_split(
        log_tokens, test_size=comp.split.test_fraction, random_state=comp.split.seed
    )
    maps = [{**m, "log_tokens": [t for t in m["log_tokens"] if t in set(test_logs)]} for m in tables["map"]]
    for side, logs in (("train", set(train_logs)), ("test", set(test_logs))):
        records = {**_side(tables, logs), **{name: tables[name] for name in SHARED}, "map": maps}
        if side == "test":
            del records["sample_annotation"], records["instance"]
        for name, rows in records.items():
            _dump(rows, public / f"{side}_data" / f"{name}.json")
        for record in records["sample_data"]:
            folder, name = record["filename"].split("/", 1)
            link_or_copy(raw / f"train_{folder}" / name, public / f"{side}_{folder}" / name)
        link_or_copy(raw / "train_maps" / MAP_PNG, public / f"{side}_maps" / MAP_PNG)
    labels = pd.read_csv(raw / "train.csv", dtype=str, keep_default_na=False)
    test_samples = {s["token"] for s in _side(tables, set(test_logs))["sample"]}
    in_test = labels["Id"].isin(test_samples)
    write_csv(labels[~in_test], public / "train.csv")
    test = labels[in_test]
    write_csv(test[["Id"]].assign(PredictionString=""), public / "sample_submission.csv")
    write_csv(
        test.assign(PredictionString=test["PredictionString"].map(_with_confidence)),
        private / comp.submission.answers,
    )
