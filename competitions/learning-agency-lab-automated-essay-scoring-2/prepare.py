"""learning-agency-lab-automated-essay-scoring-2: v1 holds out 10% of train.csv (TTS 0.1, seed 0).

Public: train.csv, test.csv (essay_id, full_text), sample_submission.csv (score drawn with
``RandomState(42).randint(1, 7)``). Private: answers.csv, v1's held-out rows (essay_id, full_text, score).
"""

from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test[["essay_id", "full_text"]], public / "test.csv")
    write_csv(test, private / comp.submission.answers)
    scores = np.random.RandomState(42).randint(1, 7, size=len(test))
    write_csv(pd.DataFrame({"essay_id": test["essay_id"], "score": scores}), public / "sample_submission.csv")
