"""A small stand-in for Kaggle's Lyft 3d-object-detection download (its train part).

train_data/*.json in the Lyft/nuScenes schema (scene and log tokens coincide, as in the real data),
train.csv (Id = sample token, PredictionString = `cx cy cz w l h yaw class` per object), one camera image
(train_images/*.jpeg) and one lidar sweep (train_lidar/*.bin) per sample, and
train_maps/map_raster_palo_alto.png.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.grading_inputs import GradingInputs
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize

CLASSES = ["car", "pedestrian", "truck", "bicycle"]


def _token(rng: np.random.Generator) -> str:
    return rng.bytes(32).hex()


def _dump(records: list[dict], path: Path) -> None:
    path.write_text(json.dumps(records, indent=4))


def _static(rng: np.random.Generator) -> dict[str, list[dict]]:
    return {
        "category": [{"token": _token(rng), "name": c, "description": ""} for c in CLASSES],
        "attribute": [{"token": _token(rng), "name": f"object_action_{a}", "description": ""} for a in "ab"],
        "visibility": [{"token": str(v), "level": f"v{v}", "description": ""} for v in range(1, 5)],
        "sensor": [
            {"token": _token(rng), "channel": "CAM_FRONT", "modality": "camera"},
            {"token": _token(rng), "channel": "LIDAR_TOP", "modality": "lidar"},
        ],
    }


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``."""
    for folder in ("train_data", "train_images", "train_lidar", "train_maps"):
        (dest / folder).mkdir()
    static = _static(rng)
    cam, lidar = static["sensor"]
    tables: dict[str, list[dict]] = {
        k: []
        for k in (
            "log",
            "scene",
            "sample",
            "sample_data",
            "ego_pose",
            "calibrated_sensor",
            "sample_annotation",
            "instance",
        )
    }
    rows = []
    for n_log in range(10):
        log = _token(rng)
        tables["log"].append(
            {
                "token": log,
                "vehicle": f"a{n_log:03d}",
                "date_captured": "2019-05-24",
                "location": "Palo Alto",
                "logfile": "",
            }
        )
        sensors = {s["token"]: _token(rng) for s in (cam, lidar)}
        for s, token in sensors.items():
            tables["calibrated_sensor"].append(
                {
                    "token": token,
                    "sensor_token": s,
                    "translation": [0, 0, 1.8],
                    "rotation": [1, 0, 0, 0],
                    "camera_intrinsic": [],
                }
            )
        samples = [_token(rng) for _ in range(15)]
        tables["scene"].append(
            {
                "token": log,
                "log_token": log,
                "nbr_samples": len(samples),
                "name": f"scene{n_log}",
                "first_sample_token": samples[0],
                "last_sample_token": samples[-1],
                "description": "",
            }
        )
        for i, sample in enumerate(samples):
            stamp = 1557858039302414 + 200000 * (15 * n_log + i)
            tables["sample"].append(
                {
                    "token": sample,
                    "timestamp": stamp,
                    "scene_token": log,
                    "prev": samples[i - 1] if i else "",
                    "next": samples[i + 1] if i < 14 else "",
                }
            )
            for sensor, kind in ((cam, "jpeg"), (lidar, "bin")):
                pose, name = _token(rng), f"host-a{n_log:03d}_{sensor['channel'].lower()}_{stamp}.{kind}"
                tables["ego_pose"].append(
                    {
                        "token": pose,
                        "timestamp": stamp,
                        "translation": rng.normal(0, 100, 3).round(3).tolist(),
                        "rotation": [1, 0, 0, 0],
                    }
                )
                folder = "images" if kind == "jpeg" else "lidar"
                tables["sample_data"].append(
                    {
                        "token": _token(rng),
                        "sample_token": sample,
                        "ego_pose_token": pose,
                        "calibrated_sensor_token": sensors[sensor["token"]],
                        "filename": f"{folder}/{name}",
                        "fileformat": kind,
                        "is_key_frame": True,
                        "timestamp": stamp,
                        "prev": "",
                        "next": "",
                    }
                )
                if kind == "jpeg":
                    (dest / "train_images" / name).write_bytes(image_bytes(rng, (8, 6)))
                else:
                    (dest / "train_lidar" / name).write_bytes(rng.normal(0, 10, 20).astype("<f4").tobytes())
            objects = []
            for _ in range(int(rng.integers(1, 4))):
                cls = int(rng.integers(0, len(CLASSES)))
                box = [
                    *rng.normal(0, 50, 2),
                    rng.normal(-1, 0.5),
                    *rng.uniform(0.5, 5, 3),
                    rng.uniform(-3, 3),
                ]
                objects.append(" ".join(f"{v:.4f}" for v in box) + f" {CLASSES[cls]}")
                instance, annotation = _token(rng), _token(rng)
                tables["instance"].append(
                    {
                        "token": instance,
                        "category_token": static["category"][cls]["token"],
                        "nbr_annotations": 1,
                        "first_annotation_token": annotation,
                        "last_annotation_token": annotation,
                    }
                )
                tables["sample_annotation"].append(
                    {
                        "token": annotation,
                        "sample_token": sample,
                        "instance_token": instance,
                        "attribute_tokens": [],
                        "visibility_token": "4",
                        "translation": box[:3],
                        "size": box[3:6],
                        "rotation": [1, 0, 0, 0],
                        "prev": "",
                        "next": "",
                        "num_lidar_pts": 5,
                        "num_radar_pts": 0,
                        "category_name": CLASSES[cls],
                    }
                )
            rows.append({"Id": sample, "PredictionString": " ".join(objects)})
    tables["map"] = [
        {
            "token": _token(rng),
            "log_tokens": [log["token"] for log in tables["log"]],
            "category": "semantic_prior",
            "filename": "maps/map_raster_palo_alto.png",
        }
    ]
    for name, records in {**tables, **static}.items():
        _dump(records, dest / "train_data" / f"{name}.json")
    Image.fromarray(rng.integers(0, 256, size=(16, 16), dtype=np.uint8)).save(
        dest / "train_maps" / "map_raster_palo_alto.png"
    )
    frame = pd.DataFrame(rows)
    frame.iloc[rng.permutation(len(frame))].to_csv(dest / "train.csv", index=False)


REAL_MIX = np.array(["car", "car", "car", "pedestrian", "truck", "bicycle", "other_vehicle", "bus"])
"""Classes of the real test objects, drawn uniformly from this list (cars three times as often)."""


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """5-50 boxes per sample; predictions drop 15% of them, jitter the rest and score them at random."""
    n = size.test_rows
    rows_t, rows_p = [], []
    for _ in range(n):
        k = rng.integers(5, 50)
        cx, cy = rng.uniform(0, 3000, k), rng.uniform(0, 3000, k)
        cz, box, yaw = rng.uniform(-20, -15, k), rng.uniform(0.6, 5, (k, 3)), rng.uniform(-np.pi, np.pi, k)
        cls = REAL_MIX[rng.integers(0, len(REAL_MIX), k)]
        rows_t.append(
            " ".join(
                f"1.0 {a:.3f} {b:.3f} {c:.3f} {s[0]:.3f} {s[1]:.3f} {s[2]:.3f} {y:.4f} {o}"
                for a, b, c, s, y, o in zip(cx, cy, cz, box, yaw, cls, strict=True)
            )
        )
        keep = rng.random(k) < 0.85
        shift = rng.normal(0, 0.4, (k, 2))
        rows_p.append(
            " ".join(
                f"{rng.random():.3f} {a + j[0]:.3f} {b + j[1]:.3f} {c:.3f} "
                f"{s[0]:.3f} {s[1]:.3f} {s[2]:.3f} {y + j[0] / 4:.4f} {o}"
                for a, b, c, s, y, o, j, q in zip(cx, cy, cz, box, yaw, cls, shift, keep, strict=True)
                if q
            )
        )
    row_ids = ids("tok", n)
    answers = pd.DataFrame({"Id": row_ids, "PredictionString": rows_t})
    submission = pd.DataFrame({"Id": row_ids, "PredictionString": rows_p})
    return GradingInputs(answers, submission)
