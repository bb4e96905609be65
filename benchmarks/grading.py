"""Time and memory of grading every competition at real size: read both CSVs, validate, score.

For every Kaggle competition declared in ``competitions/``, synthesizes answers and a noisy submission
shaped like the real ones, at the size of the real test set (row counts from
``/work/shared/spec/mlebench-competitions.md`` sections 2 and 8 where it gives them, otherwise the
estimate stated in the table's ``size`` column), writes them as CSV files (not timed), then times
:func:`graders.submission.read_submission` / ``read_answers``, :func:`graders.submission.validate` and
the metric, and measures the peak traced memory of a second, identical pass under ``tracemalloc``. The
submission spec, metric and metric arguments are the competition's own declaration. Family B
competitions have hand-written synthesizers; the others use a few generic ones chosen by metric kind
(labels, binary scores, regression, probabilities, score columns, label sets, rankings, text) plus
per-competition specifics.
Targets: each competition <= 10 s, all of them <= 2 min.

Usage: ``python benchmarks/grading.py [--only NAME ...] [--no-memory] [--scale 1.0]``.
"""

from __future__ import annotations

import argparse
import functools
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
from mlebench.spec.declarations import Submission, load_competition  # noqa: E402

TARGET_SECONDS = 10.0
TOTAL_TARGET_SECONDS = 120.0


@dataclass
class Setup:
    """One competition's synthetic grading inputs."""

    competition: str
    size: str
    answers: pd.DataFrame
    submission: pd.DataFrame
    args: dict = field(default_factory=dict)
    """Overrides of the declared metric arguments (only where ``--scale`` changes an image size)."""


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
        f"{n_seq} seqs x {length} = {len(ids):,} rows (est.)",
        answers,
        submission,
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
        f"{n:,} rows (10% of 2,400)",
        answers,
        submission,
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
        f"{n:,} rows (10% of 4.66M, est.)",
        answers,
        submission,
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
        f"{n:,} rows (66 of 660 batches x 200k events, est.)",
        answers,
        submission,
    )


def smartphone(rng: np.random.Generator, scale: float) -> Setup:
    """Synthesize the smartphone competition's answers and a noisy submission."""
    trips, per_trip = _n(30, scale), 1_700
    n = trips * per_trip
    trip = np.repeat([f"2021-0{t % 9 + 1}-01-US-X-{t}-Pixel4" for t in range(trips)], per_trip)
    lat, lon = 37 + np.cumsum(rng.normal(0, 1e-5, n)), -122 + np.cumsum(rng.normal(0, 1e-5, n))
    ms = np.tile(np.arange(per_trip) * 1000 + 1_600_000_000_000, trips).astype(str)
    trip = trip.astype(object)
    answers = pd.DataFrame(
        {
            "tripId": trip,
            "UnixTimeMillis": ms,
            "LatitudeDegrees": _text(lat, 9),
            "LongitudeDegrees": _text(lon, 9),
        }
    )
    submission = pd.DataFrame(
        {
            "tripId": trip,
            "UnixTimeMillis": ms,
            "LatitudeDegrees": _text(lat + rng.normal(0, 3e-5, n), 9),
            "LongitudeDegrees": _text(lon + rng.normal(0, 3e-5, n), 9),
        }
    )
    return Setup(
        "smartphone-decimeter-2022",
        f"{trips} trips x {per_trip:,} = {n:,} rows (est.)",
        answers,
        submission,
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
        f"{patients} patients x {len(weeks)} weeks = {len(ids):,} rows",
        answers,
        submission,
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
        f"{n:,} records of 256x256 (n_test = #validation records)",
        answers,
        submission,
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
        f"{n:,} images of 101x101 (25% of 4,000)",
        answers,
        submission,
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
        f"1 fragment of {h:,}x{w:,} (fragment 3, est.)",
        answers,
        submission,
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
    answers = pd.DataFrame(
        {"id": ids, "class": classes, "predicted": truth_rles, "image_width": str(w), "image_height": str(h)}
    )
    submission = pd.DataFrame({"id": ids, "class": classes, "predicted": pred_rles})
    return Setup(
        "uw-madison-gi-tract-image-segmentation",
        f"{days} case-days x {slices} slices x 3 classes = {len(ids):,} rows of 266x266 (est.)",
        answers,
        submission,
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
        f"{studies} studies + {images} images = {len(ids):,} rows (est.)",
        answers,
        submission,
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
        f"{n:,} images (asserted by prepare)",
        answers,
        submission,
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
        f"{n:,} samples x 5-50 objects (20% of logs, est.)",
        answers,
        submission,
    )


# --- Family A and the rest: generic synthesizers by metric kind, then per-competition specifics. ---


def _declared(competition: str) -> Submission:
    """Return the competition's ``submission:`` block, validated from its real declaration."""
    return Submission.model_validate(load_competition(competition).submission.model_dump())


def _setup(
    competition: str,
    size: str,
    ids: np.ndarray,
    truth: dict[str, np.ndarray],
    pred: dict[str, np.ndarray],
    rng: np.random.Generator,
    answer_only: dict[str, np.ndarray] | None = None,
) -> Setup:
    """Assemble answers (id, targets, answer-only columns) and a shuffled submission (id, targets)."""
    id_column = _declared(competition).id_column
    answers = pd.DataFrame({id_column: ids, **truth, **(answer_only or {})})
    return Setup(competition, size, answers, _shuffled(pd.DataFrame({id_column: ids, **pred}), rng))


def _single(competition: str, truth: np.ndarray, pred: np.ndarray) -> tuple[dict, dict]:
    """Map the one target column of ``competition`` to its true and predicted values."""
    column = _declared(competition).target_columns[0]
    return {column: truth}, {column: pred}


def labels(
    competition: str, n: int, size: str, classes: np.ndarray, rng: np.random.Generator, p_right: float = 0.8
) -> Setup:
    """Kinds ``labels`` / ``integer_labels``: a class per row, right with probability ``p_right``."""
    truth = classes[rng.integers(0, len(classes), n)]
    pred = np.where(rng.random(n) < p_right, truth, classes[rng.integers(0, len(classes), n)])
    return _setup(competition, size, _ids("r", n), *_single(competition, truth, pred), rng)


def binary(competition: str, n: int, size: str, rng: np.random.Generator, unbounded: bool = False) -> Setup:
    """Kinds ``binary_probability`` / ``binary_score``: 0/1 answers, noisy scores (any real if unbounded)."""
    truth = (rng.random(n) < 0.3).astype(int)
    score = np.clip(0.3 * truth + 0.7 * rng.random(n), 0, 1)
    score = rng.normal(truth, 1.0) if unbounded else score
    return _setup(
        competition, size, _ids("r", n), *_single(competition, truth.astype(str), _text(score)), rng
    )


def regression(
    competition: str, size: str, ids: np.ndarray, truth: np.ndarray, noise: float, rng: np.random.Generator
) -> Setup:
    """Kind ``regression``: the truth plus Gaussian noise (rounded to whole numbers if the truth is)."""
    pred = truth + rng.normal(0, noise, len(truth))
    if np.issubdtype(truth.dtype, np.integer):
        pred = np.clip(np.rint(pred), truth.min(), truth.max()).astype(int)
        return _setup(competition, size, ids, *_single(competition, truth.astype(str), pred.astype(str)), rng)
    return _setup(competition, size, ids, *_single(competition, _text(truth), _text(pred)), rng)


def probabilities(competition: str, n: int, size: str, rng: np.random.Generator, soft: bool = False) -> Setup:
    """Kind ``probabilities``: one-hot (or soft vote) answers, softmax predictions summing to 1 exactly."""
    columns = _declared(competition).target_columns
    k = len(columns)
    label = rng.integers(0, k, n)
    truth = np.eye(k)[label]
    if soft:
        truth = rng.dirichlet(np.ones(k), n)
        label = truth.argmax(axis=1)
    logits = rng.normal(0, 1, (n, k))
    logits[np.arange(n), label] += 2.0
    pred = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return _setup(
        competition,
        size,
        _ids("r", n),
        {c: _text(truth[:, j], 4) for j, c in enumerate(columns)},
        {c: _text(pred[:, j], 17) for j, c in enumerate(columns)},  # full precision keeps sums at 1
        rng,
    )


def score_columns(
    competition: str,
    n: int,
    size: str,
    rng: np.random.Generator,
    p_positive: float = 0.2,
    graded: bool = False,
) -> Setup:
    """Kind ``numeric_columns``: 0/1 labels (or ratings in [0, 1] if ``graded``) per column, noisy scores."""
    columns = _declared(competition).target_columns
    shape = (n, len(columns))
    truth = rng.integers(0, 5, shape) / 4 if graded else (rng.random(shape) < p_positive).astype(int)
    pred = np.clip(truth + rng.normal(0, 0.4, shape), 0, 1)
    cells = (lambda x: _text(x, 4)) if graded else (lambda x: x.astype(str))
    return _setup(
        competition,
        size,
        _ids("r", n),
        {c: cells(truth[:, j]) for j, c in enumerate(columns)},
        {c: _text(pred[:, j], 4) for j, c in enumerate(columns)},
        rng,
    )


def _join(tokens: np.ndarray, lengths: np.ndarray, sep: str = " ") -> np.ndarray:
    """Split a flat token array into rows of ``lengths`` tokens and join each row with ``sep``."""
    cuts = np.cumsum(lengths)[:-1]
    return np.array([sep.join(row) for row in np.split(tokens.astype(str), cuts)], dtype=object)


def _vocabulary(rng: np.random.Generator, size: int, min_len: int = 2, max_len: int = 10) -> np.ndarray:
    """``size`` random lowercase words."""
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    lengths = rng.integers(min_len, max_len + 1, size)
    return _join(letters[rng.integers(0, 26, lengths.sum())], lengths, sep="")


def _sentences(rng: np.random.Generator, vocab: np.ndarray, n: int, low: int, high: int) -> np.ndarray:
    """``n`` strings of ``low``..``high`` words drawn from ``vocab`` (Zipf-like frequencies)."""
    lengths = rng.integers(low, high + 1, n)
    words = vocab[np.minimum(rng.zipf(1.3, lengths.sum()) - 1, len(vocab) - 1)]
    return _join(words, lengths)


def _mutate(texts: np.ndarray, rng: np.random.Generator, edits: int, alphabet: str) -> np.ndarray:
    """Replace up to ``edits`` random characters of each string (a noisy transcription)."""
    out = []
    for text, k in zip(texts, rng.integers(0, edits + 1, len(texts)), strict=True):
        chars = list(text)
        for pos in rng.integers(0, max(len(chars), 1), k):
            if chars:
                chars[pos] = alphabet[rng.integers(0, len(alphabet))]
        out.append("".join(chars))
    return np.array(out, dtype=object)


def _subset_noise(rows: list[list], vocab: np.ndarray, rng: np.random.Generator, keep: float) -> np.ndarray:
    """Keep each item with probability ``keep`` and add one random item from ``vocab`` per row."""
    return np.array(
        [
            " ".join([*(x for x in row if rng.random() < keep), vocab[rng.integers(0, len(vocab))]])
            for row in rows
        ],
        dtype=object,
    )


def label_sets(
    competition: str, n: int, size: str, vocab: np.ndarray, per_row: tuple[int, int], rng: np.random.Generator
) -> Setup:
    """Kind ``text`` for tag sets and rankings: 1+ items per row, predictions a noisy superset."""
    rows = [list(vocab[rng.integers(0, len(vocab), k)]) for k in rng.integers(per_row[0], per_row[1] + 1, n)]
    truth = np.array([" ".join(r) for r in rows], dtype=object)
    return _setup(
        competition,
        size,
        _ids("r", n),
        *_single(competition, truth, _subset_noise(rows, vocab, rng, 0.7)),
        rng,
    )


def ranking(
    competition: str,
    n: int,
    size: str,
    vocab: np.ndarray,
    relevant: tuple[int, int],
    k: int,
    rng: np.random.Generator,
) -> Setup:
    """Kind ``text`` for MAP@k: a set of relevant items per row, ``k`` ranked guesses, some of them right."""
    rows = [
        list(vocab[rng.integers(0, len(vocab), m)]) for m in rng.integers(relevant[0], relevant[1] + 1, n)
    ]
    truth = np.array([" ".join(r) for r in rows], dtype=object)
    guesses = vocab[rng.integers(0, len(vocab), (n, k))]
    hit = rng.random(n) < 0.4
    guesses[hit, rng.integers(0, k, hit.sum())] = [r[0] for r, h in zip(rows, hit, strict=True) if h]
    pred = np.array([" ".join(g) for g in guesses], dtype=object)
    return _setup(competition, size, _ids("r", n), *_single(competition, truth, pred), rng)


def _rows(real: int, scale: float, note: str) -> tuple[int, str]:
    """Row count at ``scale`` and the size column's text."""
    n = _n(real, scale)
    return n, f"{n:,} rows ({note})"


def bms_inchi(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """InChI strings of ~60-200 characters; predictions with a few wrong characters."""
    n, size = _rows(484_000, scale, "20% of 2.42M")
    alphabet = np.array(list("0123456789-,()/chbtmis+"))
    lengths = rng.integers(40, 180, n)
    bodies = _join(alphabet[rng.integers(0, len(alphabet), lengths.sum())], lengths, sep="")
    formula = pd.Series(rng.integers(5, 40, n)).map("InChI=1S/C{}H".format).to_numpy(dtype=object)
    truth = formula + rng.integers(5, 60, n).astype(str).astype(object) + "O2/c" + bodies
    pred = _mutate(truth, rng, 6, "0123456789-,()")
    return _setup(competition, size, _ids("", n), *_single(competition, truth, pred), rng)


def sentences(
    competition: str, rng: np.random.Generator, scale: float, real: int, note: str, words: tuple[int, int]
) -> Setup:
    """Kind ``text``: word sequences (sentences, spans, answers); predictions with a few wrong letters."""
    n, size = _rows(real, scale, note)
    truth = _sentences(rng, _vocabulary(rng, 20_000), n, *words)
    return _setup(
        competition, size, _ids("", n), *_single(competition, truth, _mutate(truth, rng, 3, "etaoin ")), rng
    )


def text_normalization(competition: str, rng: np.random.Generator, scale: float, real: int) -> Setup:
    """Tokens ``{sentence}_{token}``: mostly unchanged words, some numbers spelled out; 97% right."""
    n, size = _rows(real, scale, "10% of sentences, est.")
    vocab = _vocabulary(rng, 50_000, 1, 12)
    truth = vocab[np.minimum(rng.zipf(1.3, n) - 1, len(vocab) - 1)]
    spelled = rng.random(n) < 0.1
    truth[spelled] = "one hundred twenty three"
    pred = np.where(rng.random(n) < 0.97, truth, "123")
    sentence, token = np.divmod(np.arange(n), 20)
    ids = (
        pd.Series(sentence).astype(str).str.cat(pd.Series(token).astype(str), sep="_").to_numpy(dtype=object)
    )
    return _setup(competition, size, ids, *_single(competition, truth, pred), rng)


def ai4code(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """Kind ``permutation``: 20,000 notebooks of ~45 cells (8-hex ids); predictions partly reordered."""
    n, size = _rows(20_000, scale, "exactly 20,000 notebooks, ~45 cells each")
    truth, pred = [], []
    for cells in rng.integers(2, 90, n):
        order = np.array([f"{x:08x}" for x in rng.integers(0, 2**31) + 7_919 * np.arange(cells)])
        guess = order.copy()
        swaps = rng.integers(0, cells, (cells // 3, 2))
        for a, b in swaps:
            guess[a], guess[b] = guess[b], guess[a]
        truth.append(" ".join(order))
        pred.append(" ".join(guess))
    return _setup(
        competition,
        size,
        _ids("", n),
        *_single(competition, np.array(truth, dtype=object), np.array(pred, dtype=object)),
        rng,
    )


def kuzushiji(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """Kind ``points``: pages of ~300 ``label x y w h`` boxes; predictions are jittered box centres."""
    n, size = _rows(389, scale, "10% of 3,881 pages, ~300 characters each")
    truth, pred = [], []
    for count in rng.integers(0, 600, n):
        codes = rng.integers(0x3040, 0x9FFF, count)
        xy, wh = rng.uniform(0, 3000, (count, 2)), rng.uniform(30, 120, (count, 2))
        truth.append(
            " ".join(
                f"U+{c:04X} {x:.0f} {y:.0f} {w:.0f} {h:.0f}"
                for c, (x, y), (w, h) in zip(codes, xy, wh, strict=True)
            )
        )
        centre = xy + wh / 2 + rng.normal(0, 10, (count, 2))
        pred.append(" ".join(f"U+{c:04X} {x:.0f} {y:.0f}" for c, (x, y) in zip(codes, centre, strict=True)))
    return _setup(
        competition,
        size,
        _ids("page", n),
        *_single(competition, np.array(truth, dtype=object), np.array(pred, dtype=object)),
        rng,
    )


def _int_rows(rows: list[np.ndarray]) -> np.ndarray:
    return np.array([" ".join(map(str, r)) for r in rows], dtype=object)


def gestures(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """Kind ``integer_sequence``: ~10 gesture ids (1-20) per video; predictions with a few wrong."""
    n, size = _rows(95, scale, "archive training4, est.")
    truth = [rng.integers(1, 21, k) for k in rng.integers(8, 13, n)]
    pred = [np.where(rng.random(len(t)) < 0.8, t, rng.integers(1, 21, len(t))) for t in truth]
    ids = np.arange(1, n + 1).astype(str).astype(object)
    return _setup(competition, size, ids, *_single(competition, _int_rows(truth), _int_rows(pred)), rng)


def inaturalist(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """Kind ``integer_sequence``: one of 1,010 categories; five ranked guesses, the first 70% right."""
    n, size = _rows(32_000, scale, "~12% of 265,213 per category, est.")
    truth = rng.integers(0, 1_010, n)
    guesses = rng.integers(0, 1_010, (n, 5))
    guesses[:, 0] = np.where(rng.random(n) < 0.7, truth, guesses[:, 0])
    pred = np.array([" ".join(map(str, g)) for g in guesses], dtype=object)
    return _setup(
        competition, size, _ids("", n), *_single(competition, truth.astype(str).astype(object), pred), rng
    )


def mlsp(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """64 recordings x 19 species, Id = rec_id * 100 + species."""
    recs = _n(64, scale)
    ids = (np.repeat(np.arange(recs), 19) * 100 + np.tile(np.arange(19), recs)).astype(str).astype(object)
    truth = (rng.random(len(ids)) < 0.1).astype(int)
    pred = np.clip(0.5 * truth + 0.5 * rng.random(len(ids)), 0, 1)
    size = f"{recs} recordings x 19 species = {len(ids):,} rows"
    return _setup(competition, size, ids, *_single(competition, truth.astype(str), _text(pred)), rng)


def rsna_spine(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """Eight rows per study (patient_overall, C1-C7), 0/1 fractures, noisy probabilities."""
    studies = _n(1_817, scale)
    types = ["patient_overall", *(f"C{i}" for i in range(1, 8))]
    ids = np.array([f"1.2.826.0.1.3680043.{s}_{t}" for s in range(studies) for t in types], dtype=object)
    truth = (rng.random(len(ids)) < 0.15).astype(int)
    pred = np.clip(0.5 * truth + 0.5 * rng.random(len(ids)), 0, 1)
    size = f"{studies:,} studies (90% of 2,019) x 8 = {len(ids):,} rows"
    return _setup(competition, size, ids, *_single(competition, truth.astype(str), _text(pred)), rng)


def jigsaw_bias(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """Toxicity and identity fractions in the answers; a noisy toxicity score as the prediction."""
    n, size = _rows(97_320, scale, "Kaggle private test")
    spec = _declared(competition)
    toxicity = rng.beta(0.5, 3, n)
    identities = {c: np.where(rng.random(n) < 0.1, _text(rng.random(n), 3), "") for c in spec.answer_columns}
    identities["toxicity"] = _text(toxicity, 4)
    pred = _text(np.clip(toxicity + rng.normal(0, 0.2, n), 0, 1), 4)
    return _setup(
        competition, size, _numbered(n), *_single(competition, _text(toxicity, 4), pred), rng, identities
    )


def ventilator(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """80 time steps per breath; ``u_out`` is 0 for the first ~30 (the scored inspiratory phase)."""
    breaths = _n(7_545, scale)
    n = breaths * 80
    step = np.tile(np.arange(80), breaths)
    pressure = 6 + 20 * np.exp(-((step - 15) ** 2) / 200) + rng.normal(0, 1, n)
    u_out = (step >= 30).astype(int).astype(str)
    size = f"{breaths:,} breaths (10% of 75,450) x 80 = {n:,} rows"
    return _setup(
        competition,
        size,
        np.arange(1, n + 1).astype(str).astype(object),
        *_single(competition, _text(pressure, 4), _text(pressure + rng.normal(0, 0.8, n), 4)),
        rng,
        {"u_out": u_out},
    )


def _blob_runs(h: int, w: int, blobs: int, shift: int = 0) -> str:
    """Encode ``blobs`` disjoint discs on a grid of an ``h`` x ``w`` image as column-major RLE runs."""
    side = int(np.ceil(np.sqrt(blobs)))
    cell_h, cell_w = h // side, w // side
    r = min(cell_h, cell_w) // 3
    starts, lengths = [], []
    for k in range(blobs):
        cy, cx = (k // side) * cell_h + cell_h // 2 + shift, (k % side) * cell_w + cell_w // 2
        dx = np.arange(-r + 1, r)
        half = np.sqrt(r * r - dx * dx).astype(int)
        starts.append((cx + dx) * h + cy - half + 1)  # 1-based
        lengths.append(2 * half + 1)
    starts, lengths = np.concatenate(starts), np.concatenate(lengths)
    order = np.argsort(starts)
    return " ".join(f"{a} {b}" for a, b in zip(starts[order], lengths[order], strict=True))


def hubmap(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """Three whole-slide images (~26k-38k x 26k-50k) with ~600 glomeruli each, as RLE."""
    sizes = [
        (int(h * scale**0.5), int(w * scale**0.5))
        for h, w in ((31_278, 25_794), (38_160, 42_360), (26_840, 49_548))
    ]
    ids = np.array(["aaa6a05cc", "cb2d976f4", "e79de561c"], dtype=object)
    truth = [_blob_runs(h, w, 600) for h, w in sizes]
    pred = [_blob_runs(h, w, 600, shift=int(rng.integers(-20, 20))) for h, w in sizes]
    size = "3 images of " + ", ".join(f"{h:,}x{w:,}" for h, w in sizes) + " (est.)"
    return _setup(
        competition,
        size,
        ids,
        *_single(competition, np.array(truth, dtype=object), np.array(pred, dtype=object)),
        rng,
        {
            "height_pixels": np.array([str(h) for h, _ in sizes]),
            "width_pixels": np.array([str(w) for _, w in sizes]),
        },
    )


def tf2_qa(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """``{example}_long`` / ``_short`` rows: token spans, YES/NO or blank; 65% right."""
    examples = _n(30_737, scale)
    n = 2 * examples
    start = rng.integers(0, 5_000, n)
    span = (
        pd.Series(start).astype(str).str.cat(pd.Series(start + rng.integers(1, 300, n)).astype(str), sep=":")
    )
    truth = np.where(rng.random(n) < 0.5, "", span.to_numpy(dtype=object))
    truth[1::2] = np.where(rng.random(examples) < 0.05, "YES", truth[1::2])
    pred = np.where(rng.random(n) < 0.65, truth, span.to_numpy(dtype=object))
    ex = pd.Series(rng.integers(-(2**62), 2**62, examples)).astype(str)
    ids = np.ravel(np.column_stack([(ex + "_long").to_numpy(), (ex + "_short").to_numpy()])).astype(object)
    size = f"{examples:,} examples (10% of 307,373) x 2 = {n:,} rows"
    return _setup(competition, size, ids, *_single(competition, truth, pred), rng)


def denoising(competition: str, rng: np.random.Generator, scale: float) -> Setup:
    """One row per pixel ``img_row_col`` of 29 test images of 258 x 540 (est.); intensities in [0, 1]."""
    images, rows, cols = _n(29, scale), 258, 540
    img, row, col = np.meshgrid(
        np.arange(images), np.arange(1, rows + 1), np.arange(1, cols + 1), indexing="ij"
    )
    ids = (
        pd.Series(img.ravel())
        .astype(str)
        .str.cat([pd.Series(row.ravel()).astype(str), pd.Series(col.ravel()).astype(str)], sep="_")
    ).to_numpy(dtype=object)
    truth = np.where(rng.random(len(ids)) < 0.9, 1.0, rng.random(len(ids)))
    size = f"{images} images (20% of 144) x {rows}x{cols} = {len(ids):,} pixels (est.)"
    return regression(competition, size, ids, truth, 0.05, rng)


def _classes(*names: str | int) -> np.ndarray:
    return np.array([str(x) for x in names], dtype=object)


def _numbered(k: int) -> np.ndarray:
    return np.arange(k).astype(str).astype(object)


def _int_regression(
    competition: str, rng: np.random.Generator, scale: float, real: int, note: str, top: int
) -> Setup:
    """Whole-number ratings 0..``top`` (kappa, MCC), predictions off by about one."""
    n, size = _rows(real, scale, note)
    return regression(competition, size, _ids("", n), rng.integers(0, top + 1, n), 0.8, rng)


def _float_regression(
    competition: str,
    rng: np.random.Generator,
    scale: float,
    real: int,
    note: str,
    truth: Callable,
    noise: float,
) -> Setup:
    """Continuous targets drawn by ``truth(rng, n)``, predictions with Gaussian noise."""
    n, size = _rows(real, scale, note)
    return regression(competition, size, _ids("", n), truth(rng, n), noise, rng)


def _labels(real: int, note: str, classes: np.ndarray, p_right: float = 0.8) -> Callable:
    return lambda c, rng, s: labels(c, *_rows(real, s, note), classes, rng, p_right)


def _binary(real: int, note: str, unbounded: bool = False) -> Callable:
    return lambda c, rng, s: binary(c, *_rows(real, s, note), rng, unbounded)


def _probabilities(real: int, note: str, soft: bool = False) -> Callable:
    return lambda c, rng, s: probabilities(c, *_rows(real, s, note), rng, soft)


def _score_columns(real: int, note: str, **options) -> Callable:
    return lambda c, rng, s: score_columns(c, *_rows(real, s, note), rng, **options)


def _label_sets(real: int, note: str, vocab: np.ndarray, per_row: tuple[int, int]) -> Callable:
    return lambda c, rng, s: label_sets(c, *_rows(real, s, note), vocab, per_row, rng)


def _ranking(real: int, note: str, vocab: np.ndarray, relevant: tuple[int, int], k: int) -> Callable:
    return lambda c, rng, s: ranking(c, *_rows(real, s, note), vocab, relevant, k, rng)


def _sentences_of(real: int, note: str, words: tuple[int, int]) -> Callable:
    return lambda c, rng, s: sentences(c, rng, s, real, note, words)


_FAMILY_A: dict[str, Callable[[str, np.random.Generator, float], Setup]] = {
    "AI4Code": ai4code,
    "aerial-cactus-identification": _binary(3_325, "19% of 17,500"),
    "alaska2-image-steganalysis": _binary(5_000, "TTS(5000)", unbounded=True),
    "aptos2019-blindness-detection": lambda c, rng, s: _int_regression(c, rng, s, 367, "10% of 3,662", 4),
    "billion-word-imputation": _sentences_of(306_000, "~1% of 30.6M lines, est.", (3, 45)),
    "bms-molecular-translation": bms_inchi,
    "cassava-leaf-disease-classification": _labels(
        2_140, "10% of 21,397 by tfrecord, est.", _classes(*range(5))
    ),
    "cdiscount-image-classification-challenge": _labels(
        707_000, "10% of 7.07M products", _classes(*range(1_000_000_000, 1_000_005_270))
    ),
    "chaii-hindi-and-tamil-question-answering": _sentences_of(112, "10% of 1,114", (1, 6)),
    "denoising-dirty-documents": denoising,
    "detecting-insults-in-social-commentary": _binary(2_647, "Kaggle test with solutions"),
    "dog-breed-identification": _probabilities(1_023, "10% of 10,222"),
    "dogs-vs-cats-redux-kernels-edition": _binary(2_500, "10% of 25,000"),
    "facebook-recruiting-iii-keyword-extraction": _label_sets(
        603_000, "10% of 6.03M", np.array([f"tag-{i}" for i in range(42_000)], dtype=object), (1, 5)
    ),
    "freesound-audio-tagging-2019": _score_columns(3_361, "Kaggle private test, est.", p_positive=0.02),
    "google-quest-challenge": _score_columns(608, "10% of 6,079", graded=True),
    "h-and-m-personalized-fashion-recommendations": _ranking(
        75_000,
        "customers buying in the last week, est.",
        np.array([f"0{i:09d}" for i in range(100_000_000, 100_105_000)], dtype=object),
        (1, 20),
        12,
    ),
    "herbarium-2020-fgvc7": _labels(206_000, "~20% of 1.03M, est.", _numbered(32_093), 0.6),
    "herbarium-2021-fgvc8": _labels(452_000, "~20% of 2.26M, est.", _numbered(64_500), 0.6),
    "herbarium-2022-fgvc9": _labels(168_000, "20% of 840k, est.", _numbered(15_501), 0.6),
    "histopathologic-cancer-detection": _binary(57_458, "Kaggle test size"),
    "hms-harmful-brain-activity-classification": _probabilities(10_680, "~10% of 106,800, est.", soft=True),
    "hotel-id-2021-fgvc8": _ranking(9_756, "10% of 97,554", _numbered(7_770), (1, 1), 5),
    "hubmap-kidney-segmentation": hubmap,
    "imet-2020-fgvc7": _label_sets(21_318, "15% of 142,119", _numbered(3_474), (1, 8)),
    "inaturalist-2019-fgvc6": inaturalist,
    "iwildcam-2019-fgvc6": _labels(19_600, "~10% by location, est.", _classes(*range(23))),
    "iwildcam-2020-fgvc7": _labels(48_000, "~22% of 217,959 by location, est.", _numbered(267)),
    "jigsaw-toxic-comment-classification-challenge": _score_columns(153_164, "Kaggle test", p_positive=0.05),
    "jigsaw-unintended-bias-in-toxicity-classification": jigsaw_bias,
    "kuzushiji-recognition": kuzushiji,
    "leaf-classification": _probabilities(99, "10% of 990"),
    "learning-agency-lab-automated-essay-scoring-2": lambda c, rng, s: _int_regression(
        c, rng, s, 1_731, "10% of 17,307", 6
    ),
    "lmsys-chatbot-arena": _probabilities(5_748, "10% of 57,477"),
    "ml2021spring-hw2": _labels(451_552, "26.8% of 1.68M frames", _numbered(39)),
    "mlsp-2013-birds": mlsp,
    "movie-review-sentiment-analysis-kernels-only": _labels(46_818, "30% of 156,060", _numbered(5)),
    "multi-modal-gesture-recognition": gestures,
    "new-york-city-taxi-fare-prediction": lambda c, rng, s: _float_regression(
        c, rng, s, 9_914, "TTS(9914)", lambda r, n: r.gamma(2.0, 5.5, n), 4.0
    ),
    "nfl-player-contact-detection": lambda c, rng, s: _int_regression(
        c, rng, s, 472_000, "~10% of 4.72M by game_play, est.", 1
    ),
    "paddy-disease-classification": _labels(
        2_602,
        "25% of 10,407",
        _classes(
            "normal",
            "blast",
            "hispa",
            "dead_heart",
            "tungro",
            "brown_spot",
            "downy_mildew",
            "bacterial_leaf_blight",
            "bacterial_leaf_streak",
            "bacterial_panicle_blight",
        ),
    ),
    "petfinder-pawpularity-score": lambda c, rng, s: _float_regression(
        c, rng, s, 992, "10% of 9,912", lambda r, n: r.integers(1, 101, n).astype(float), 18.0
    ),
    "plant-pathology-2020-fgvc7": _score_columns(183, "10% of 1,821", p_positive=0.3),
    "plant-pathology-2021-fgvc8": _label_sets(
        3_727,
        "20% of 18,632",
        _classes("healthy", "scab", "rust", "frog_eye_leaf_spot", "complex", "powdery_mildew"),
        (1, 2),
    ),
    "plant-seedlings-classification": _labels(
        665,
        "14% of 4,750",
        _classes(
            "Black-grass",
            "Charlock",
            "Cleavers",
            "Common Chickweed",
            "Common wheat",
            "Fat Hen",
            "Loose Silky-bent",
            "Maize",
            "Scentless Mayweed",
            "Shepherds Purse",
            "Small-flowered Cranesbill",
            "Sugar beet",
        ),
    ),
    "playground-series-s3e18": _score_columns(1_484, "10% of 14,838", p_positive=0.6),
    "predict-volcanic-eruptions-ingv-oe": lambda c, rng, s: _float_regression(
        c, rng, s, 444, "10% of 4,431", lambda r, n: r.integers(6_000, 49_000_000, n).astype(float), 5e6
    ),
    "random-acts-of-pizza": _binary(1_162, "28.8% of 4,040"),
    "ranzcr-clip-catheter-line-classification": _score_columns(3_009, "10% of 30,083", p_positive=0.1),
    "rsna-2022-cervical-spine-fracture-detection": rsna_spine,
    "rsna-breast-cancer-detection": _binary(2_382, "~10% of patients x 2 sides, est."),
    "rsna-miccai-brain-tumor-radiogenomic-classification": _binary(59, "10% of 585"),
    "seti-breakthrough-listen": _binary(6_000, "10% of 60,000"),
    "siim-isic-melanoma-classification": _binary(4_142, "2 tfrecords of ~2,071"),
    "spaceship-titanic": _labels(870, "10% of 8,693", _classes("True", "False")),
    "spooky-author-identification": _probabilities(1_958, "10% of 19,579"),
    "statoil-iceberg-classifier-challenge": _binary(321, "20% of 1,604"),
    "tabular-playground-series-dec-2021": _labels(400_000, "10% of 4M", _classes(*range(1, 8)), 0.95),
    "tabular-playground-series-may-2022": _binary(100_000, "TTS(100,000)"),
    "tensorflow-speech-recognition-challenge": _labels(
        6_473,
        "10% of 64,727",
        _classes("yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go", "silence", "unknown"),
    ),
    "tensorflow2-question-answering": tf2_qa,
    "text-normalization-challenge-english-language": lambda c, rng, s: text_normalization(c, rng, s, 993_000),
    "text-normalization-challenge-russian-language": lambda c, rng, s: text_normalization(
        c, rng, s, 1_057_000
    ),
    "the-icml-2013-whale-challenge-right-whale-redux": _binary(15_000, "last 2 of 4 days, est."),
    "tweet-sentiment-extraction": _sentences_of(2_749, "10% of 27,481", (1, 20)),
    "us-patent-phrase-to-phrase-matching": lambda c, rng, s: _float_regression(
        c, rng, s, 3_648, "10% of 36,473", lambda r, n: r.integers(0, 5, n) / 4, 0.2
    ),
    "ventilator-pressure-prediction": ventilator,
    "whale-categorization-playground": _ranking(2_600, "est.", _numbered(5_005), (1, 1), 5),
    "invasive-species-monitoring": _binary(459, "20% of 2,295"),
}
"""The competitions built from the generic synthesizers, by id; each takes (id, rng, scale)."""


_FAMILY_B: dict[str, Callable[[np.random.Generator, float], Setup]] = {
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


COMPETITIONS: dict[str, Callable[[np.random.Generator, float], Setup]] = {
    **_FAMILY_B,
    **{c: functools.partial(fn, c) for c, fn in _FAMILY_A.items()},
}
"""Every Kaggle competition declared in ``competitions/``: ``fn(rng, scale) -> Setup``."""


def write_files(setup: Setup, folder: Path) -> None:
    """Write the synthesized submission and answers as the CSV files grading reads (not timed)."""
    setup.submission.to_csv(folder / "submission.csv", index=False)
    setup.answers.to_csv(folder / "answers.csv", index=False)


def grade(setup: Setup, folder: Path) -> tuple[float, float, float, float]:
    """Read both CSVs in ``folder``, validate and score once; return (read s, validate s, score s, score).

    The submission spec and the metric with its arguments come from the competition's own declaration
    (``setup.args`` overrides arguments only where ``--scale`` changed an image size).
    """
    declaration = load_competition(setup.competition)
    spec = _declared(setup.competition)
    metric = get_metric(declaration.metric.name)
    args = {**declaration.metric.args, **setup.args}
    start = time.perf_counter()
    submission, answers = read_submission(folder / "submission.csv"), read_answers(folder / "answers.csv")
    read = time.perf_counter()
    y_true, y_pred = validate(submission, answers, spec, metric, metric_args=args)
    middle = time.perf_counter()
    score = metric.fn(y_true, y_pred, **args)
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
        f"| {'competition':<57} | {'metric':<28} | {'size':<66} "
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
            f"| {name:<57} | {load_competition(name).metric.name:<28} | {setup.size:<66} | {t_read:6.2f} "
            f"| {t_validate:10.2f} "
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
