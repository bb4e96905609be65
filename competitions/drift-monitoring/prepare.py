"""drift-monitoring: the generator's reference rows go public whole; production rows lose their labels.

The answers are each batch's true accuracy of the deployed model (its score thresholded at 0.5), computed
from the private labels; the private file also keeps the batch's drift as generated, for analysis.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write reference.csv, production.csv and the sample submission; the per-batch accuracies privately."""
    reference = pd.read_csv(raw / "reference.csv")
    production = pd.read_csv(raw / "production.csv")
    batches = pd.read_csv(raw / "batches.csv")
    correct = ((production["score"] >= 0.5).astype("int64") == production["label"]).astype("float64")
    truth = correct.groupby(production["batch"]).mean().rename("accuracy").reset_index()
    answers = truth.merge(batches, on="batch", how="left", validate="one_to_one")
    write_csv(reference, public / "reference.csv")
    write_csv(production.drop(columns="label"), public / "production.csv")
    write_csv(truth[["batch"]].assign(accuracy=0.5), public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
