"""A small stand-in for Kaggle's AI4Code download.

train/<id>.json notebooks ({"cell_type": {cell: type}, "source": {cell: text}}, code cells in order, then
the markdown cells shuffled), train_orders.csv (id, cell_order), train_ancestors.csv (id, ancestor_id,
parent_id). It is as large as the real split needs: v1 holds out exactly 20,000 notebooks (a number its
prepare hard-codes), so the fixture has 20,400, and the declared split runs on it unchanged.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, assemble, single
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize

NOTEBOOKS = 20_400


def _hex(rng: np.random.Generator, digits: int, n: int) -> list[str]:
    return [f"{x:0{digits}x}" for x in rng.integers(0, 16**digits, n, dtype=np.uint64)]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the download into ``dest``: 4 to 11 cells a notebook, 40% of them markdown.

    Six notebooks in ten start an ancestor group (no parent); the others fork the group before them.
    """
    (dest / "train").mkdir()
    ids = _hex(rng, 14, NOTEBOOKS)
    starts_group = rng.random(NOTEBOOKS) < 0.6
    starts_group[0] = True
    group = np.cumsum(starts_group) - 1
    ancestor = np.array(_hex(rng, 8, int(group[-1]) + 1))[group]
    parent = np.where(starts_group, "", _hex(rng, 14, NOTEBOOKS))
    sizes = rng.integers(4, 12, NOTEBOOKS)
    owner = np.repeat(np.arange(NOTEBOOKS), sizes)
    cells = np.array(_hex(rng, 8, len(owner)))
    markdown = rng.random(len(owner)) < 0.4
    # Stored order: each notebook's code cells as they come, then its markdown cells shuffled.
    within = np.where(markdown, rng.random(len(owner)), np.arange(len(owner)))
    stored = np.lexsort((within, markdown, owner))
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    orders = []
    for k, nb_id in enumerate(ids):
        true_order = cells[bounds[k] : bounds[k + 1]]
        if len(set(true_order)) != len(true_order):
            raise ValueError(f"fixture notebook {nb_id} drew one cell id twice")
        kept = stored[bounds[k] : bounds[k + 1]]
        notebook = {
            "cell_type": {cells[i]: "markdown" if markdown[i] else "code" for i in kept},
            "source": {cells[i]: "# Heading" if markdown[i] else "import numpy as np" for i in kept},
        }
        (dest / "train" / f"{nb_id}.json").write_text(json.dumps(notebook))
        orders.append(" ".join(true_order))
    pd.DataFrame({"id": ids, "cell_order": orders}).to_csv(dest / "train_orders.csv", index=False)
    frame = pd.DataFrame({"id": ids, "ancestor_id": ancestor, "parent_id": parent})
    frame.to_csv(dest / "train_ancestors.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Each notebook's cell ids (8 hex digits) in order; predictions partly reordered."""
    n = size.test_rows
    truth, pred = [], []
    for cells in rng.integers(2, 90, n):
        order = np.array([f"{x:08x}" for x in rng.integers(0, 2**31) + 7_919 * np.arange(cells)])
        guess = order.copy()
        swaps = rng.integers(0, cells, (cells // 3, 2))
        for a, b in swaps:
            guess[a], guess[b] = guess[b], guess[a]
        truth.append(" ".join(order))
        pred.append(" ".join(guess))
    pair = single(comp, np.array(truth, dtype=object), np.array(pred, dtype=object))
    return assemble(comp, ids("", n), *pair, rng)
