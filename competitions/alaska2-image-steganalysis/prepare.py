"""alaska2-image-steganalysis: MLE-bench v1's split of Kaggle's Cover/ images and their stego versions.

v1 splits the sorted Cover/ paths with train_test_split(test_size=5000, random_state=42). Train images keep
all four versions (Cover/, JMiPOD/, JUNIWARD/, UERD/), renamed 00001.jpg, ... in split order. The test list
is shuffled with Python's random seeded 0; for each image random.choice([True, False]) picks the cover
(Label 0) or else a stego version (Label 1) from an algorithm picked by random.choice; it is saved as
Test/0001.jpg, ... The sample submission predicts Label 0; the answers are test.csv (Id, Label).
"""

import random
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import link_or_copy, write_csv
from mlebench_spec.declarations import Competition

ALGORITHMS = ["JMiPOD", "JUNIWARD", "UERD"]
SHUFFLE_SEED = 0


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    covers = sorted((raw / "Cover").glob("*.jpg"))
    train, test = train_test_split(covers, test_size=comp.split.test_size, random_state=comp.split.seed)
    for i, path in enumerate(train, 1):
        for folder in ["Cover", *ALGORITHMS]:
            link_or_copy(raw / folder / path.name, public / folder / f"{i:05d}.jpg")
    draw = random.Random(SHUFFLE_SEED)
    draw.shuffle(test)
    rows = []
    for i, path in enumerate(test, 1):
        is_cover = draw.choice([True, False])
        folder = "Cover" if is_cover else draw.choice(ALGORITHMS)
        name = f"{i:04d}.jpg"
        link_or_copy(raw / folder / path.name, public / "Test" / name)
        rows.append({"Id": name, "Label": 0 if is_cover else 1})
    answers = pd.DataFrame(rows)
    write_csv(answers.assign(Label=0), public / "sample_submission.csv")
    write_csv(answers, private / comp.submission.answers)
