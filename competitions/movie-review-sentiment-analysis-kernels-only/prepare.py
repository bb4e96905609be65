"""movie-review-sentiment-analysis-kernels-only: MLE-bench v1's split of Kaggle's train.tsv.

v1 holds out 30% of the phrases (TTS 0.3, seed 0), not whole sentences. Train and test (without the
label) are published as zipped TSVs like Kaggle's; the sample submission predicts the neutral class 2.
The answers private/answers.csv are v1's: the held-out rows with every column.
"""

import tempfile
from pathlib import Path

import pandas as pd

from mlebench.data.archives import write_zip
from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw``."""
    phrases = pd.read_csv(raw / "train.tsv.zip", sep="\t", keep_default_na=False)
    train, test = split_frame(phrases, comp.split)
    write_tsv_zip(train, "train.tsv", public)
    write_tsv_zip(test.drop(columns=["Sentiment"]), "test.tsv", public)
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["PhraseId"]].assign(Sentiment=2), public / "sampleSubmission.csv")


def write_tsv_zip(frame: pd.DataFrame, name: str, public: Path) -> None:
    """Write ``frame`` as ``public/<name>.zip`` holding the TSV ``name``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        frame.to_csv(path, sep="\t", index=False, lineterminator="\n")
        write_zip([path], Path(tmp), public / f"{name}.zip")
