"""A small stand-in for Kaggle's mlsp-2013-birds download: mlsp_contest_dataset.zip with both data folders."""

import io
import wave
import zipfile
from pathlib import Path

import numpy as np
from PIL import Image

from authoring.grading_inputs import GradingInputs, assemble, single, units
from authoring.synthetic import text
from mlebench_spec.declarations import Competition, RealSize

ROOT = "mlsp_contest_dataset"
SPECIES = ["BRCR", "PAWR", "PSFL", "RBNU", "DEJU", "OSFL", "HETH", "CBCH", "VATH", "HEWA", "SWTH", "HAFL",
           "WETA", "BHGB", "GCKI", "WAVI", "MGWA", "STJA", "CONI"]  # fmt: skip
BMP_FOLDERS = ["filtered_spectrograms", "segmentation_examples", "spectrograms", "supervised_segmentation"]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write mlsp_contest_dataset.zip: 400 recordings, 320 of them in Kaggle's training fold 0.

    v1's prepare asserts that its 20% sample of fold 0 is 64 recordings (the real data's count), so fold 0
    holds 320 here.
    """
    n = 400
    folds = rng.permutation([0] * 320 + [1] * (n - 320))
    names = [f"PC{1 + i % 13}_2009{i:04d}_0{i % 5}0012_00{i % 9}0" for i in range(n)]
    files = {
        "essential_data/CVfolds_2.txt": table("rec_id,fold", [f"{i},{f}" for i, f in enumerate(folds)]),
        "essential_data/rec_id2filename.txt": table(
            "rec_id,filename", [f"{i},{s}" for i, s in enumerate(names)]
        ),
        "essential_data/rec_labels_test_hidden.txt": table("rec_id,[labels]", label_lines(rng, folds)),
        "essential_data/species_list.txt": table(
            "class_id,code,species", [f"{k},{code},Species {code}" for k, code in enumerate(SPECIES)]
        ),
        "supplemental_data/histogram_of_segments.txt": table(
            "rec_id,[histogram of segment features]",
            [",".join([str(i), *(f"{v:.6f}" for v in rng.dirichlet(np.ones(5)))]) for i in range(n)],
        ),
    }
    features, rectangles = [], []
    for i in range(n):
        for segment in range(int(rng.integers(0, 3))):
            features.append(",".join([str(i), str(segment), *(f"{v:.6f}" for v in rng.random(4))]))
            box = sorted(rng.integers(0, 500, 2)) + sorted(rng.integers(0, 256, 2))
            rectangles.append(",".join(map(str, [i, segment, *box])) + ",")
    files["supplemental_data/segment_features.txt"] = table("rec_id,[segment_id],[feature vector]", features)
    files["supplemental_data/segment_rectangles.txt"] = table(
        "rec_id,[segment_id],[min_x],[max_x],[min_y],[max_y],", rectangles
    )
    with zipfile.ZipFile(dest / "mlsp_contest_dataset.zip", "w") as zf:
        for path, text in files.items():
            zf.writestr(f"{ROOT}/{path}", text)
        for name in names:
            zf.writestr(f"{ROOT}/essential_data/src_wavs/{name}.wav", wav(rng))
            # Some recordings have no segmentation example; every other folder has each recording's bmp.
            for folder in BMP_FOLDERS:
                if folder == "segmentation_examples" and name.endswith("0"):
                    continue
                zf.writestr(f"{ROOT}/supplemental_data/{folder}/{name}.bmp", bmp(rng))
        for mosaic in ("segment_clusters.bmp", "segment_mosaic.bmp"):
            zf.writestr(f"{ROOT}/supplemental_data/{mosaic}", bmp(rng))


def table(header: str, lines: list[str]) -> str:
    """Return a header and lines as one text file."""
    return "\n".join([header, *lines]) + "\n"


def label_lines(rng: np.random.Generator, folds: np.ndarray) -> list[str]:
    """Return one line per recording: its species ids, none, or ``?`` for Kaggle's test fold."""
    lines = []
    for i, fold in enumerate(folds):
        labels = sorted(rng.choice(len(SPECIES), size=int(rng.integers(0, 4)), replace=False))
        lines.append(f"{i},?" if fold else ",".join(map(str, [i, *labels])))
    return lines


def wav(rng: np.random.Generator) -> bytes:
    """Return a tiny 16 kHz mono WAV."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(rng.integers(-2000, 2000, 64, dtype=np.int16).tobytes())
    return buffer.getvalue()


def bmp(rng: np.random.Generator) -> bytes:
    """Return a tiny grey BMP."""
    buffer = io.BytesIO()
    Image.fromarray(rng.integers(0, 256, (4, 8), dtype=np.uint8)).save(buffer, format="BMP")
    return buffer.getvalue()


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """One row per recording and species (``Id = rec_id * 100 + species``): 0/1 answers, noisy scores."""
    recs, k = units(size.test_rows, len(SPECIES)), len(SPECIES)
    row_ids = (np.repeat(np.arange(recs), k) * 100 + np.tile(np.arange(k), recs)).astype(str).astype(object)
    truth = (rng.random(len(row_ids)) < 0.1).astype(int)
    pred = np.clip(0.5 * truth + 0.5 * rng.random(len(row_ids)), 0, 1)
    return assemble(comp, row_ids, *single(comp, truth.astype(str), text(pred)), rng)
