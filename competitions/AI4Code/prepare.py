"""AI4Code: MLE-bench v1's grouped split of Kaggle's train notebooks.

v1 shuffles the rows of train_ancestors.csv (sample(frac=1, random_state=0)), walks the ancestor_id groups
in order of first appearance and puts a whole group into test while it fits in the remaining budget of
20,000 notebooks, so forks of one ancestor never straddle the split. The notebook JSON files are copied
unchanged into train/ or test/; train_orders.csv (in its own order) and train_ancestors.csv (in the
shuffled order, as v1 writes the frame it shuffled) lose the test ids; the answers are
test_orders.csv (id, cell_order); the sample submission's cell_order is each test notebook's stored key
order.
"""

import json
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import link_or_copy, write_csv
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError


def _test_ids(shuffled: pd.DataFrame, size: int) -> set[str]:
    chosen: list[str] = []
    for _, group in shuffled.groupby("ancestor_id", sort=False):
        if len(chosen) + len(group) <= size:
            chosen.extend(group["id"])
    if len(chosen) != size:
        raise DataError(f"AI4Code: the grouped split found {len(chosen)} test notebooks, not {size}")
    return set(chosen)


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    ancestors = pd.read_csv(raw / "train_ancestors.csv", dtype=str, keep_default_na=False)
    orders = pd.read_csv(raw / "train_orders.csv", dtype=str, keep_default_na=False)
    ancestors = ancestors.sample(frac=1, random_state=comp.split.seed)
    in_test = _test_ids(ancestors, comp.split.test_size)
    test_orders = orders[orders["id"].isin(in_test)]
    write_csv(orders[~orders["id"].isin(in_test)], public / "train_orders.csv")
    write_csv(ancestors[~ancestors["id"].isin(in_test)], public / "train_ancestors.csv")
    write_csv(test_orders, private / comp.submission.answers)
    for side in ("train", "test"):
        (public / side).mkdir(parents=True, exist_ok=True)
    for nb_id in orders["id"]:
        link_or_copy(
            raw / "train" / f"{nb_id}.json",
            public / ("test" if nb_id in in_test else "train") / f"{nb_id}.json",
        )
    stored = [
        " ".join(json.loads((raw / "train" / f"{i}.json").read_text())["cell_type"])
        for i in test_orders["id"]
    ]
    write_csv(pd.DataFrame({"id": test_orders["id"], "cell_order": stored}), public / "sample_submission.csv")
