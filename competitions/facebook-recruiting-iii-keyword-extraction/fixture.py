"""A small stand-in for Kaggle's facebook-recruiting-iii download: Train.zip holding Train.csv."""

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, label_sets
from mlebench_spec.declarations import Competition, RealSize

_TAGS = [
    "c#",
    "java",
    "php",
    "javascript",
    "android",
    "jquery",
    "python",
    "c++",
    "html",
    "ios",
    "mysql",
    "css",
]
_WORDS = ["how", "to", "sort", "a", "list", "error", "when", "calling", "function", "null", "pointer", "loop"]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write Train.zip with Train.csv (Id, Title, Body, Tags), a few hundred questions."""
    n = 300
    frame = pd.DataFrame(
        {
            "Id": np.arange(1, n + 1),
            "Title": [" ".join(rng.choice(_WORDS, size=5)) for _ in range(n)],
            "Body": [
                f"<p>{' '.join(rng.choice(_WORDS, size=12))}</p>\n<pre><code>x = 1;\n</code></pre>"
                for _ in range(n)
            ],
            "Tags": [" ".join(rng.choice(_TAGS, size=rng.integers(1, 4), replace=False)) for _ in range(n)],
        }
    )
    with zipfile.ZipFile(dest / "Train.zip", "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("Train.csv", frame.to_csv(index=False))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one to five of ``size.classes`` tags per question."""
    tags = np.array([f"tag-{i}" for i in range(size.classes)], dtype=object)
    return label_sets(comp, size.test_rows, tags, (1, 5), rng)
