"""A small stand-in for Kaggle's multi-modal-gesture-recognition download: sample archives and labels."""

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, assemble, single
from authoring.synthetic import int_rows
from mlebench_spec.declarations import Competition, RealSize

FIXED = (1980, 1, 1, 0, 0, 0)


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write training1-4 / validation1-3 archives of SampleNNNNN.zip files, training.csv and the extras."""
    labels = []
    start = 1
    for name, count, labelled in [(f"training{k}", 10 if k < 4 else 30, True) for k in range(1, 5)] + [
        (f"validation{k}", 5, False) for k in range(1, 4)
    ]:
        ids = [f"{i:04d}" for i in range(start, start + count)]
        start += count
        members = {}
        for sample_id in ids:
            sequence = " ".join(str(g) for g in rng.choice(np.arange(1, 21), size=int(rng.integers(8, 13))))
            if labelled:
                labels.append((sample_id, sequence))
            members[f"Sample0{sample_id}.zip"] = sample_zip(rng, sample_id, sequence)
        (dest / f"{name}.tar.gz").write_bytes(tar_gz(members))
    pd.DataFrame(labels, columns=["Id", "Sequence"]).to_csv(dest / "training.csv", index=False)
    for extra in ("devel01-40.7z", "valid_all_files_combined.7z"):
        (dest / extra).write_bytes(b"7z\xbc\xaf\x27\x1c\x00\x04" + rng.bytes(24))
    (dest / "sample_code_mmrgc.zip").write_bytes(
        zip_bytes({"sample_code_mmrgc/README.txt": b"sample code\n"})
    )


def sample_zip(rng: np.random.Generator, sample_id: str, sequence: str) -> bytes:
    """Return one SampleNNNNN.zip: placeholder media files and a _data.mat that spells the labels."""
    stem = f"Sample0{sample_id}"
    files = {f"{stem}_{kind}": rng.bytes(8) for kind in ("audio.wav", "color.mp4", "depth.mp4", "user.mp4")}
    files[f"{stem}_data.mat"] = b"MATLAB 5.0 MAT-file, Labels: " + sequence.encode()
    return zip_bytes(files)


def zip_bytes(files: dict[str, bytes]) -> bytes:
    """Return a zip of ``files`` with fixed dates."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in files.items():
            zf.writestr(zipfile.ZipInfo(name, date_time=FIXED), data)
    return buffer.getvalue()


def tar_gz(files: dict[str, bytes]) -> bytes:
    """Return a gzipped tar of ``files`` with fixed dates."""
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as gz, tarfile.open(fileobj=gz, mode="w") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Kind ``integer_sequence``: ~10 gesture ids (1-20) per video; predictions with a few wrong."""
    n = size.test_rows
    truth = [rng.integers(1, 21, k) for k in rng.integers(8, 13, n)]
    pred = [np.where(rng.random(len(t)) < 0.8, t, rng.integers(1, 21, len(t))) for t in truth]
    row_ids = np.arange(1, n + 1).astype(str).astype(object)
    return assemble(comp, row_ids, *single(comp, int_rows(truth), int_rows(pred)), rng)
