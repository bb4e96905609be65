"""A small stand-in for Kaggle's herbarium-2021-fgvc8 download.

A COCO-like train/metadata.json and tiny JPEGs.

Category sizes cover every branch of v1's per-category rule (1, 2-4, and 5 or more images).
"""

from pathlib import Path

import numpy as np

from authoring import coco_fixture
from authoring.grading_inputs import GradingInputs, labels
from authoring.synthetic import numbered
from mlebench_spec.declarations import Competition, RealSize

SIZES = [1] * 5 + [2, 3, 4] * 4 + list(range(5, 13)) * 3


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``, all randomness from ``rng``."""
    coco_fixture.write_fixture(dest / "train", rng, SIZES, group="institution", encoding="utf-8")


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one of ``size.classes`` numbered species per image, 60% right."""
    return labels(comp, size.test_rows, numbered(size.classes), rng, p_right=0.6)
