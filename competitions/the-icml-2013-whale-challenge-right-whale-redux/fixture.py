"""A small stand-in for Kaggle's the-icml-2013-whale-challenge-right-whale-redux download.

train2.zip holds train2/YYYYMMDD_HHMMSS_{sec}_TRAIN{idx}_{label}.aif clips recorded on four dates
(tiny 16-bit mono AIFF files written here by hand).
"""

import struct
import zipfile
from pathlib import Path

import numpy as np

from authoring.grading_inputs import GradingInputs, binary
from mlebench_spec.declarations import Competition, RealSize

_DATES = ["20090328", "20090329", "20090330", "20090331"]
_RATE = 2000


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, every random choice drawn from ``rng``."""
    with zipfile.ZipFile(dest / "train2.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        index = 0
        for date in _DATES:
            for hour in range(30):
                name = f"{date}_{hour:02d}0000_{rng.integers(0, 900):03d}s{rng.integers(0, 10)}ms"
                label = int(rng.random() < 0.4)
                samples = rng.integers(-3000, 3000, size=64).astype(">i2")
                archive.writestr(f"train2/{name}_TRAIN{index}_{label}.aif", _aiff(samples))
                index += 1


def _aiff(samples: np.ndarray) -> bytes:
    """Encode ``samples`` as a mono 16-bit AIFF file (FORM/AIFF with COMM and SSND chunks) at 2 kHz."""
    rate = _ieee_extended(_RATE)
    comm = b"COMM" + struct.pack(">lhLh", 18, 1, len(samples), 16) + rate
    sound = samples.tobytes()
    ssnd = b"SSND" + struct.pack(">lLL", 8 + len(sound), 0, 0) + sound
    body = b"AIFF" + comm + ssnd
    return b"FORM" + struct.pack(">l", len(body)) + body


def _ieee_extended(value: int) -> bytes:
    """Encode an exact positive integer as an 80-bit IEEE 754 extended float (the AIFF sample-rate field)."""
    exponent = value.bit_length() - 1
    mantissa = value << (63 - exponent)
    return struct.pack(">HQ", 16383 + exponent, mantissa)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
