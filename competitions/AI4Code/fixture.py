"""A small stand-in for Kaggle's AI4Code download.

train/<id>.json notebooks ({"cell_type": {cell: type}, "source": {cell: text}}, code cells in order, then
the markdown cells shuffled), train_orders.csv (id, cell_order), train_ancestors.csv (id, ancestor_id,
parent_id).
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, assemble, single
from authoring.synthetic import ids
from mlebench.spec.declarations import Competition, RealSize

SPLIT = {"test_size": 30}


def _notebook(rng: np.random.Generator) -> tuple[dict, str]:
    cells = [rng.bytes(4).hex() for _ in range(int(rng.integers(4, 12)))]
    kinds = {c: ("markdown" if rng.random() < 0.4 else "code") for c in cells}
    code = [c for c in cells if kinds[c] == "code"]
    markdown = [c for c in cells if kinds[c] == "markdown"]
    stored = code + [markdown[i] for i in rng.permutation(len(markdown))]
    text = {c: ("import numpy as np" if kinds[c] == "code" else "# Heading") for c in stored}
    return {"cell_type": {c: kinds[c] for c in stored}, "source": text}, " ".join(cells)


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``."""
    (dest / "train").mkdir()
    ids = [rng.bytes(7).hex() for _ in range(120)]
    orders, ancestors = [], []
    group = None
    for nb_id in ids:
        if group is None or rng.random() < 0.6:
            group, parent = rng.bytes(4).hex(), ""
        else:
            parent = rng.bytes(7).hex()
        notebook, order = _notebook(rng)
        (dest / "train" / f"{nb_id}.json").write_text(json.dumps(notebook))
        orders.append({"id": nb_id, "cell_order": order})
        ancestors.append({"id": nb_id, "ancestor_id": group, "parent_id": parent})
    pd.DataFrame(orders).to_csv(dest / "train_orders.csv", index=False)
    pd.DataFrame(ancestors).to_csv(dest / "train_ancestors.csv", index=False)


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
