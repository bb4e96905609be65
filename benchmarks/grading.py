"""Time and memory of grading every competition at real size: read both CSVs, validate, score.

For each competition below, synthesizes answers and a noisy submission at the size of the real test set
(row counts from ``/work/shared/spec/mlebench-competitions.md`` sections 2 and 8 where it gives them,
otherwise the estimate stated in the table's ``size`` column), writes them as CSV files (not timed), then
times :func:`graders.submission.read_submission` / ``read_answers``, :func:`graders.submission.validate`
and the metric, and measures the peak traced memory of a second, identical pass under ``tracemalloc``.
Targets: each competition <= 10 s, all of them <= 2 min.

Usage: ``python benchmarks/grading.py [--only NAME ...] [--no-memory] [--scale 1.0]``.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graders.registry import get_metric  # noqa: E402
from graders.rle import rle_encode  # noqa: E402
from graders.submission import read_answers, read_submission, validate  # noqa: E402
from mlebench.declarations import Submission  # noqa: E402

TARGET_SECONDS = 10.0
TOTAL_TARGET_SECONDS = 120.0


@dataclass
class Setup:
    """One competition's synthetic grading inputs."""

    competition: str
    metric: str
    size: str
    answers: pd.DataFrame
    submission: pd.DataFrame
    columns: list[str]
    args: dict = field(default_factory=dict)


def _n(real: int, scale: float) -> int:
    return max(1, int(real * scale))


def _text(values: np.ndarray, decimals: int = 6) -> np.ndarray:
    return pd.Series(np.round(values, decimals)).astype(str).to_numpy(dtype=object)


def _ids(prefix: str, n: int) -> np.ndarray:
    return pd.Series(np.arange(n)).map(lambda i: f"{prefix}{i:08d}").to_numpy(dtype=object)


def _shuffled(frame: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    return frame.iloc[rng.permutation(len(frame))].reset_index(drop=True)


def stanford(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the stanford competition's answers and a noisy submission."""
    n_seq, length, scored = _n(240, scale), 107, 68
    seq = np.repeat(np.arange(n_seq), length)
    pos = np.tile(np.arange(length), n_seq)
    ids = (
        pd.Series(seq)
        .map("id_{:07x}".format)
        .str.cat(pd.Series(pos).astype(str), sep="_")
        .to_numpy(dtype=object)
    )
    cols = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
    truth = rng.gamma(1.0, 0.5, (len(ids), 5))
    answers = pd.DataFrame(
        {
            "id_seqpos": ids,
            **{c: _text(truth[:, k]) for k, c in enumerate(cols)},
            "keep": np.where(pos < scored, "True", "False"),
        }
    )
    noisy = truth + rng.normal(0, 0.3, truth.shape)
    submission = pd.DataFrame({"id_seqpos": ids, **{c: _text(noisy[:, k]) for k, c in enumerate(cols)}})
    return Setup(
        "stanford-covid-vaccine",
        "mcrmse",
        f"{n_seq} seqs x {length} = {len(ids):,} rows (est.)",
        answers,
        submission,
        ["id_seqpos", *cols],
    )


def nomad(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the nomad competition's answers and a noisy submission."""
    n = _n(240, scale)
    truth = np.column_stack([rng.uniform(0, 0.5, n), rng.uniform(0, 5, n)])
    noisy = np.abs(truth + rng.normal(0, 0.1, truth.shape))
    cols = ["formation_energy_ev_natom", "bandgap_energy_ev"]
    ids = np.arange(1, n + 1).astype(str).astype(object)
    answers = pd.DataFrame({"id": ids, cols[0]: _text(truth[:, 0]), cols[1]: _text(truth[:, 1])})
    submission = pd.DataFrame({"id": ids, cols[0]: _text(noisy[:, 0]), cols[1]: _text(noisy[:, 1])})
    return Setup(
        "nomad2018-predict-transparent-conductors",
        "mean_rmsle_columns",
        f"{n:,} rows (10% of 2,400)",
        answers,
        submission,
        ["id", *cols],
    )


def champs(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the champs competition's answers and a noisy submission."""
    n = _n(466_000, scale)
    types = rng.choice(["1JHC", "1JHN", "2JHC", "2JHH", "2JHN", "3JHC", "3JHH", "3JHN"], n)
    truth = rng.normal(10, 30, n)
    ids = np.arange(n).astype(str).astype(object)
    answers = pd.DataFrame({"id": ids, "scalar_coupling_constant": _text(truth), "type": types})
    submission = _shuffled(
        pd.DataFrame({"id": ids, "scalar_coupling_constant": _text(truth + rng.normal(0, 2, n))}), rng
    )
    return Setup(
        "champs-scalar-coupling",
        "log_mae_by_group",
        f"{n:,} rows (10% of 4.66M, est.)",
        answers,
        submission,
        ["id", "scalar_coupling_constant"],
    )


def icecube(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the icecube competition's answers and a noisy submission."""
    n = _n(13_200_000, scale)
    az, ze = rng.uniform(0, 2 * np.pi, n), rng.uniform(0, np.pi, n)
    ids = np.arange(n).astype(str).astype(object)
    answers = pd.DataFrame({"event_id": ids, "azimuth": _text(az, 4), "zenith": _text(ze, 4)})
    submission = pd.DataFrame(
        {
            "event_id": ids,
            "azimuth": _text(az + rng.normal(0, 0.3, n), 4),
            "zenith": _text(ze + rng.normal(0, 0.3, n), 4),
        }
    )
    return Setup(
        "icecube-neutrinos-in-deep-ice",
        "mean_angular_error",
        f"{n:,} rows (66 of 660 batches x 200k events, est.)",
        answers,
        submission,
        ["event_id", "azimuth", "zenith"],
        {"azimuth_column": "azimuth", "zenith_column": "zenith"},
    )


def smartphone(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the smartphone competition's answers and a noisy submission."""
    trips, per_trip = _n(30, scale), 1_700
    n = trips * per_trip
    trip = np.repeat([f"2021-0{t % 9 + 1}-01-US-X-{t}-Pixel4" for t in range(trips)], per_trip)
    lat, lon = 37 + np.cumsum(rng.normal(0, 1e-5, n)), -122 + np.cumsum(rng.normal(0, 1e-5, n))
    ms = np.tile(np.arange(per_trip) * 1000 + 1_600_000_000_000, trips).astype(str)
    ids = pd.Series(trip).str.cat(pd.Series(ms), sep="_").to_numpy(dtype=object)
    answers = pd.DataFrame(
        {"id": ids, "LatitudeDegrees": _text(lat, 9), "LongitudeDegrees": _text(lon, 9), "tripId": trip}
    )
    submission = pd.DataFrame(
        {
            "id": ids,
            "LatitudeDegrees": _text(lat + rng.normal(0, 3e-5, n), 9),
            "LongitudeDegrees": _text(lon + rng.normal(0, 3e-5, n), 9),
        }
    )
    return Setup(
        "smartphone-decimeter-2022",
        "haversine_p50_p95",
        f"{trips} trips x {per_trip:,} = {n:,} rows (est.)",
        answers,
        submission,
        ["id", "LatitudeDegrees", "LongitudeDegrees"],
    )


def osic(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the osic competition's answers and a noisy submission."""
    patients, weeks = _n(18, scale), np.arange(-12, 134)
    ids = np.array([f"ID{p:017d}_{w}" for p in range(patients) for w in weeks], dtype=object)
    fvc = rng.normal(2700, 600, len(ids))
    measured = rng.random(len(ids)) < 0.06
    answers = pd.DataFrame(
        {"Patient_Week": ids, "FVC": np.where(measured, _text(fvc, 0), ""), "Confidence": "100"}
    )
    submission = pd.DataFrame(
        {
            "Patient_Week": ids,
            "FVC": _text(fvc + rng.normal(0, 200, len(ids)), 1),
            "Confidence": _text(rng.uniform(50, 400, len(ids)), 1),
        }
    )
    return Setup(
        "osic-pulmonary-fibrosis-progression",
        "laplace_log_likelihood",
        f"{patients} patients x {len(weeks)} weeks = {len(ids):,} rows",
        answers,
        submission,
        ["Patient_Week", "FVC", "Confidence"],
    )


def _blob_masks(rng: np.random.Generator, n: int, h: int, w: int, p_empty: float) -> list[np.ndarray]:
    yy, xx = np.mgrid[0:h, 0:w]
    out = []
    for _ in range(n):
        if rng.random() < p_empty:
            out.append(np.zeros((h, w), dtype=bool))
            continue
        cy, cx, r = rng.uniform(0, h), rng.uniform(0, w), rng.uniform(3, max(h, w) / 3)
        out.append((yy - cy) ** 2 + (xx - cx) ** 2 < r**2)
    return out


def _jitter(masks: list[np.ndarray], rng: np.random.Generator) -> list[np.ndarray]:
    return [np.roll(m, tuple(rng.integers(-3, 4, 2)), axis=(0, 1)) for m in masks]


def contrails(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the contrails competition's answers and a noisy submission."""
    n = _n(1_856, scale)
    truth = _blob_masks(rng, n, 256, 256, 0.6)
    ids = np.arange(1_000_000, 1_000_000 + n).astype(str).astype(object)
    answers = pd.DataFrame(
        {
            "record_id": ids,
            "encoded_pixels": [rle_encode(m) or "-" for m in truth],
            "height": "256",
            "width": "256",
        }
    )
    submission = pd.DataFrame(
        {"record_id": ids, "encoded_pixels": [rle_encode(m) or "-" for m in _jitter(truth, rng)]}
    )
    return Setup(
        "google-research-identify-contrails-reduce-global-warming",
        "dice_global_rle",
        f"{n:,} records of 256x256 (n_test = #validation records)",
        answers,
        submission,
        ["record_id", "encoded_pixels"],
    )


def tgs(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the tgs competition's answers and a noisy submission."""
    n = _n(1_000, scale)
    truth = _blob_masks(rng, n, 101, 101, 0.4)
    ids = _ids("", n)
    answers = pd.DataFrame({"id": ids, "rle_mask": [rle_encode(m) for m in truth]})
    submission = pd.DataFrame({"id": ids, "rle_mask": [rle_encode(m) for m in _jitter(truth, rng)]})
    return Setup(
        "tgs-salt-identification-challenge",
        "iou_threshold_precision",
        f"{n:,} images of 101x101 (25% of 4,000)",
        answers,
        submission,
        ["id", "rle_mask"],
        {"height": 101, "width": 101},
    )


def vesuvius(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the vesuvius competition's answers and a noisy submission."""
    h, w = int(7_606 * scale**0.5), int(5_249 * scale**0.5)
    yy = np.arange(h)[:, None]
    truth = (np.sin(yy / 37.0) + np.cos(np.arange(w)[None, :] / 53.0)) > 0.6  # ink strokes
    noisy = truth ^ (rng.random((h, w)) < 0.02)
    answers = pd.DataFrame(
        {"Id": ["a"], "Predicted": [rle_encode(truth.T)], "width": [str(w)], "height": [str(h)]}
    )
    submission = pd.DataFrame({"Id": ["a"], "Predicted": [rle_encode(noisy.T)]})
    return Setup(
        "vesuvius-challenge-ink-detection",
        "f_beta_rle",
        f"1 fragment of {h:,}x{w:,} (fragment 3, est.)",
        answers,
        submission,
        ["Id", "Predicted"],
        {"height": h, "width": w},
    )


def uw(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the uw competition's answers and a noisy submission."""
    days, slices, h, w = _n(35, scale), 144, 266, 266  # ~9 test cases x ~3 days + later train days
    ids, classes, truth_rles, pred_rles = [], [], [], []
    yy, xx = np.mgrid[0:h, 0:w]
    for d in range(days):
        centres = rng.uniform(60, 200, (3, 2))
        for s in range(1, slices + 1):
            for k, name in enumerate(("large_bowel", "small_bowel", "stomach")):
                r = 25 * np.sin(np.pi * s / slices) - 8 * k
                m = (yy - centres[k, 0]) ** 2 + (xx - centres[k, 1]) ** 2 < max(r, 0) ** 2
                ids.append(f"case{d}_day{d % 30}_slice_{s:04d}")
                classes.append(name)
                truth_rles.append(rle_encode(m))
                pred_rles.append(rle_encode(np.roll(m, tuple(rng.integers(-4, 5, 2)), axis=(0, 1))))
    key = np.array([f"{i}_{c}" for i, c in zip(ids, classes, strict=True)], dtype=object)
    answers = pd.DataFrame(
        {
            "key": key,
            "predicted": truth_rles,
            "id": ids,
            "class": classes,
            "image_height": str(h),
            "image_width": str(w),
        }
    )
    submission = pd.DataFrame({"key": key, "predicted": pred_rles})
    return Setup(
        "uw-madison-gi-tract-image-segmentation",
        "dice_hausdorff",
        f"{days} case-days x {slices} slices x 3 classes = {len(ids):,} rows of 266x266 (est.)",
        answers,
        submission,
        ["key", "predicted"],
    )


def siim(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the siim competition's answers and a noisy submission."""
    studies, images = _n(606, scale), _n(635, scale)
    labels = np.array(["negative", "typical", "indeterminate", "atypical"])
    rows_t, rows_p, ids = [], [], []
    for s in range(studies):
        ids.append(f"{s:012x}_study")
        lab = labels[rng.integers(0, 4)]
        rows_t.append(f"{lab} 1 0 0 1 1")
        rows_p.append(" ".join(f"{c} {rng.random():.4f} 0 0 1 1" for c in labels))
    for i in range(images):
        ids.append(f"{i:012x}_image")
        n = rng.integers(0, 4)
        if n == 0:
            rows_t.append("none 1 0 0 1 1")
            rows_p.append(f"none {rng.random():.3f} 0 0 1 1 opacity {rng.random():.3f} 100 100 400 500")
            continue
        boxes = [
            (x, y, x + rng.uniform(100, 600), y + rng.uniform(100, 900))
            for x, y in rng.uniform(0, 2000, (n, 2))
        ]
        rows_t.append(" ".join(f"opacity 1 {a:.1f} {b:.1f} {c:.1f} {d:.1f}" for a, b, c, d in boxes))
        rows_p.append(
            " ".join(
                f"opacity {rng.random():.3f} {a + rng.normal(0, 30):.1f} {b:.1f} {c:.1f} {d:.1f}"
                for a, b, c, d in boxes + boxes[:1]
            )
            + f" none {rng.random():.3f} 0 0 1 1"
        )
    answers = pd.DataFrame({"id": ids, "PredictionString": rows_t})
    submission = pd.DataFrame({"id": ids, "PredictionString": rows_p})
    return Setup(
        "siim-covid19-detection",
        "voc_map",
        f"{studies} studies + {images} images = {len(ids):,} rows (est.)",
        answers,
        submission,
        ["id", "PredictionString"],
    )


def vinbig(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the vinbig competition's answers and a noisy submission."""
    n = _n(1_500, scale)
    rows_t, rows_p = [], []
    for _ in range(n):
        if rng.random() < 0.7:
            rows_t.append("14 1 0 0 1 1")
            rows_p.append(f"14 {rng.random():.3f} 0 0 1 1 3 {rng.random() / 3:.3f} 700 800 1200 1300")
            continue
        k = rng.integers(1, 6)
        cls = rng.integers(0, 14, k)
        xy = rng.uniform(0, 2000, (k, 2))
        wh = rng.uniform(50, 600, (k, 2))
        rows_t.append(
            " ".join(
                f"{c} 1 {x:.0f} {y:.0f} {x + a:.0f} {y + b:.0f}"
                for c, (x, y), (a, b) in zip(cls, xy, wh, strict=True)
            )
        )
        rows_p.append(
            " ".join(
                f"{c} {rng.random():.3f} {x + rng.normal(0, 20):.0f} {y:.0f} {x + a:.0f} {y + b:.0f}"
                for c, (x, y), (a, b) in zip(cls, xy, wh, strict=True)
            )
            + f" 14 {rng.random():.3f} 0 0 1 1"
        )
    ids = _ids("img", n)
    answers = pd.DataFrame({"image_id": ids, "PredictionString": rows_t})
    submission = pd.DataFrame({"image_id": ids, "PredictionString": rows_p})
    return Setup(
        "vinbigdata-chest-xray-abnormalities-detection",
        "coco_map",
        f"{n:,} images (asserted by prepare)",
        answers,
        submission,
        ["image_id", "PredictionString"],
    )


def lyft(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the lyft competition's answers and a noisy submission."""
    n = _n(4_500, scale)
    names = np.array(["car", "car", "car", "pedestrian", "truck", "bicycle", "other_vehicle", "bus"])
    rows_t, rows_p = [], []
    for _ in range(n):
        k = rng.integers(5, 50)
        cx, cy = rng.uniform(0, 3000, k), rng.uniform(0, 3000, k)
        cz, size, yaw = rng.uniform(-20, -15, k), rng.uniform(0.6, 5, (k, 3)), rng.uniform(-np.pi, np.pi, k)
        cls = names[rng.integers(0, len(names), k)]
        rows_t.append(
            " ".join(
                f"1.0 {a:.3f} {b:.3f} {c:.3f} {s[0]:.3f} {s[1]:.3f} {s[2]:.3f} {y:.4f} {o}"
                for a, b, c, s, y, o in zip(cx, cy, cz, size, yaw, cls, strict=True)
            )
        )
        keep = rng.random(k) < 0.85
        jitter = rng.normal(0, 0.4, (k, 2))
        rows_p.append(
            " ".join(
                f"{rng.random():.3f} {a + j[0]:.3f} {b + j[1]:.3f} {c:.3f} "
                f"{s[0]:.3f} {s[1]:.3f} {s[2]:.3f} {y + j[0] / 4:.4f} {o}"
                for a, b, c, s, y, o, j, q in zip(cx, cy, cz, size, yaw, cls, jitter, keep, strict=True)
                if q
            )
        )
    ids = _ids("tok", n)
    answers = pd.DataFrame({"Id": ids, "PredictionString": rows_t})
    submission = pd.DataFrame({"Id": ids, "PredictionString": rows_p})
    return Setup(
        "3d-object-detection-for-autonomous-vehicles",
        "map_3d",
        f"{n:,} samples x 5-50 objects (20% of logs, est.)",
        answers,
        submission,
        ["Id", "PredictionString"],
    )


COMPETITIONS: dict[str, Callable[[np.random.Generator, float], Setup]] = {
    "stanford-covid-vaccine": stanford,
    "nomad2018-predict-transparent-conductors": nomad,
    "champs-scalar-coupling": champs,
    "icecube-neutrinos-in-deep-ice": icecube,
    "smartphone-decimeter-2022": smartphone,
    "osic-pulmonary-fibrosis-progression": osic,
    "google-research-identify-contrails-reduce-global-warming": contrails,
    "tgs-salt-identification-challenge": tgs,
    "vesuvius-challenge-ink-detection": vesuvius,
    "uw-madison-gi-tract-image-segmentation": uw,
    "siim-covid19-detection": siim,
    "vinbigdata-chest-xray-abnormalities-detection": vinbig,
    "3d-object-detection-for-autonomous-vehicles": lyft,
}


def write_files(setup: Setup, folder: Path) -> None:
    """Write the synthesized submission and answers as the CSV files grading reads (not timed)."""
    setup.submission.to_csv(folder / "submission.csv", index=False)
    setup.answers.to_csv(folder / "answers.csv", index=False)


def grade(setup: Setup, folder: Path) -> tuple[float, float, float, float]:
    """Read both CSVs in ``folder``, validate and score once; return (read s, validate s, score s, score)."""
    metric = get_metric(setup.metric)
    spec = Submission(id_column=setup.columns[0], columns=setup.columns)
    start = time.perf_counter()
    submission, answers = read_submission(folder / "submission.csv"), read_answers(folder / "answers.csv")
    read = time.perf_counter()
    y_true, y_pred = validate(submission, answers, spec, metric, metric_args=setup.args)
    middle = time.perf_counter()
    score = metric.fn(y_true, y_pred, **setup.args)
    return read - start, middle - read, time.perf_counter() - middle, float(score)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one row per competition, then the total."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", help="competition ids (default: all)")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc pass")
    parser.add_argument("--scale", type=float, default=1.0, help="size multiplier (1 = real size)")
    args = parser.parse_args(argv)
    names = args.only or list(COMPETITIONS)
    header = (
        f"| {'competition':<57} | {'metric':<23} | {'size':<58} "
        "| read s | validate s | score s | total s | peak MiB | score |"
    )
    print(header)
    print("|" + "|".join("-" * (len(part)) for part in header.split("|")[1:-1]) + "|")
    total, slow = 0.0, []
    folder = Path(tempfile.mkdtemp(prefix="mlebench-grading-bench-"))
    for name in names:
        setup = COMPETITIONS[name](np.random.default_rng(0), args.scale)
        write_files(setup, folder)
        gc.collect()
        t_read, t_validate, t_score, score = grade(setup, folder)
        peak = float("nan")
        if not args.no_memory:
            gc.collect()
            tracemalloc.start()
            grade(setup, folder)
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
        seconds = t_read + t_validate + t_score
        total += seconds
        if seconds > TARGET_SECONDS:
            slow.append(name)
        print(
            f"| {name:<57} | {setup.metric:<23} | {setup.size:<58} | {t_read:6.2f} | {t_validate:10.2f} "
            f"| {t_score:7.2f} "
            f"| {seconds:7.2f} | {peak:8.0f} | {score:.5f} |",
            flush=True,
        )
        del setup
    print(
        f"\ntotal read+validate+score: {total:.1f} s (target <= {TOTAL_TARGET_SECONDS:.0f} s); "
        f"over {TARGET_SECONDS:.0f} s: {', '.join(slow) or 'none'}"
    )
    return 0 if not slow and total <= TOTAL_TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
