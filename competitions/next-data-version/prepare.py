"""next-data-version: version 1 goes public; version 2's inputs and answers stay private, for the re-run.

``public/`` holds the first export: its labelled training rows, its test rows without labels and a sample
submission. ``private/v2/public/`` holds the second export laid out the same way (the inputs the agent's
kept pipeline is re-run on: ``rerun.inputs`` in competition.yaml), and ``private/answers.csv`` that
export's test labels, which the re-run's submission is graded against.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

TARGET = "churned"


def _version(frame: pd.DataFrame, folder: Path, id_column: str) -> pd.DataFrame:
    """Write one version's train.csv, test.csv and sample submission into ``folder``; return its answers."""
    folder.mkdir(parents=True, exist_ok=True)
    train = frame[frame["part"] == "train"].drop(columns="part")
    test = frame[frame["part"] == "test"].drop(columns="part")
    write_csv(train, folder / "train.csv")
    write_csv(test.drop(columns=TARGET), folder / "test.csv")
    write_csv(test[[id_column]].assign(**{TARGET: 0.5}), folder / "sample_submission.csv")
    return test[[id_column, TARGET]]


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write version 1 into ``public``; version 2's inputs and its answers into ``private``."""
    assert comp.rerun is not None, "next-data-version is graded on a re-run (rerun: in competition.yaml)"
    id_column = comp.submission.id_column
    _version(pd.read_csv(raw / "v1.csv"), public, id_column)
    answers = _version(pd.read_csv(raw / "v2.csv"), comp.rerun.inputs_dir(private), id_column)
    write_csv(answers, private / comp.submission.answers)
