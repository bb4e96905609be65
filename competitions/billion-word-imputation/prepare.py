"""billion-word-imputation: MLE-bench v1's streaming split of Kaggle's train_v2.txt.

v1 reads train_v2.txt line by line with one np.random.RandomState(0): for every line it draws u, and a line
with more than 2 tokens goes to test when u <= 0.01; from a test line it removes the token at
randint(1, n - 1) (never the first or last). Public: train_v2.txt.zip (the other lines) and test_v2.txt.zip
("id","sentence" with the token removed, quotes doubled). Private: test.csv (id, full sentence) and
sample_submission.csv, a copy of test_v2.txt.

Unlike v1, the generator is created per call, so preparing twice gives the same split.
"""

import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.archives import extract_zip, write_zip
from mlebench.data.prepare import write_csv
from mlebench.spec.declarations import Competition


def _split(source: Path, train_out: Path, probability: float, seed: int) -> list[tuple[str, str]]:
    """Write the train lines to ``train_out``; return (full, masked) for each test line."""
    rng = np.random.RandomState(seed)
    held_out = []
    with source.open(encoding="utf-8") as lines, train_out.open("w", encoding="utf-8") as train:
        for line in lines:
            tokens = line.rstrip("\n").split()
            if rng.random_sample() <= probability and len(tokens) > 2:
                drop = rng.randint(1, len(tokens) - 1)
                held_out.append((" ".join(tokens), " ".join(tokens[:drop] + tokens[drop + 1 :])))
            else:
                train.write(line)
    return held_out


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        extract_zip(raw / "train_v2.txt.zip", work / "raw")
        (work / "train").mkdir()
        (work / "test").mkdir()
        train_txt, test_txt = work / "train" / "train_v2.txt", work / "test" / "test_v2.txt"
        held_out = _split(work / "raw" / "train_v2.txt", train_txt, comp.split.test_fraction, comp.split.seed)
        rows = [f'{i},"{masked.replace(chr(34), chr(34) * 2)}"' for i, (_, masked) in enumerate(held_out, 1)]
        test_txt.write_text('"id","sentence"\n' + "".join(r + "\n" for r in rows), encoding="utf-8")
        write_zip([train_txt], work / "train", public / "train_v2.txt.zip")
        write_zip([test_txt], work / "test", public / "test_v2.txt.zip")
        shutil.copyfile(test_txt, private / "sample_submission.csv")
    answers = pd.DataFrame({"id": range(1, len(held_out) + 1), "sentence": [full for full, _ in held_out]})
    write_csv(answers, private / comp.submission.answers)
