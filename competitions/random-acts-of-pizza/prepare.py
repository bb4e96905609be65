"""random-acts-of-pizza: MLE-bench v1's split of Kaggle's train.json records.

v1 sends len(test) / (len(train) + len(test)) of the train.json records to test (scikit-learn's
train_test_split, seed 0), where the sizes are those of Kaggle's train.json and test.json. Test records
keep only the fields Kaggle's test.json has. Both sides are written as JSON (indent 4) and also zipped
(train.zip, test.zip); the private test.csv holds the outcome as 0/1 and sampleSubmission.csv predicts 0.
"""

import json
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.archives import write_zip
from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

TARGET = "requester_received_pizza"


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the raw download into ``public`` and ``private`` as v1 does."""
    records = json.loads((raw / "train.json").read_text())
    kaggle_test = json.loads((raw / "test.json").read_text())
    share = len(kaggle_test) / (len(records) + len(kaggle_test))
    train, test = train_test_split(records, test_size=share, random_state=comp.split.seed)
    fields = list(kaggle_test[0])
    public_test = [{key: record[key] for key in fields} for record in test]
    for name, data in (("train", train), ("test", public_test)):
        (public / f"{name}.json").write_text(json.dumps(data, indent=4))
        write_zip([public / f"{name}.json"], public, public / f"{name}.zip")
    ids = [record["request_id"] for record in test]
    answers = pd.DataFrame({"request_id": ids, TARGET: [int(record[TARGET]) for record in test]})
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers[["request_id"]].assign(**{TARGET: 0}), public / "sampleSubmission.csv")
