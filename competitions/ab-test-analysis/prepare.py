"""ab-test-analysis: designs and user logs go public; the true effects and decisions stay private.

The answers file is itself a perfect submission (estimate = the true effect, an interval of half the
allowed width around it, the right decision) and carries ``true_effect`` and ``max_width`` for the grader,
plus how each experiment was generated (its trap, lift, novelty boost, lost share), for analysis.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Copy the designs and logs; write the sample submission and the answers."""
    experiments = pd.read_csv(raw / "experiments.csv")
    users = pd.read_csv(raw / "users.csv", dtype={"arm": str})
    truth = pd.read_csv(raw / "truth.csv").sort_values("experiment_id")
    write_csv(experiments.sort_values("experiment_id"), public / "experiments.csv")
    write_csv(users, public / "users.csv")
    ids = truth[["experiment_id"]]
    write_csv(ids.assign(estimate=0.0, lower=0.0, upper=0.0, decision=0), public / "sample_submission.csv")
    answers = ids.assign(
        estimate=truth["true_effect"],
        lower=truth["true_effect"] - truth["max_width"] / 4,
        upper=truth["true_effect"] + truth["max_width"] / 4,
        decision=truth["decision"],
    )
    extra = truth.drop(columns=["experiment_id", "decision"])
    write_csv(pd.concat([answers, extra], axis=1), private / "answers.csv")
