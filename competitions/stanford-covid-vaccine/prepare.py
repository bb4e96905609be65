"""stanford-covid-vaccine: MLE-bench v1 holds out int(0.1 * N) train.json sequences with SN_filter > 0.

The test rows are drawn with DataFrame.sample(n, random_state=seed) and then kept in train.json's order.
Public gets train.json and test.json (JSON lines, Kaggle's test columns only, `index` renumbered) and a zero
sample submission; the answers have one row per position of each test sequence, in that order, targets past
seq_scored set to 0 and `keep` False there. Both CSVs write floats with ten decimals (``%.10f``), as v1.
"""

from pathlib import Path

import pandas as pd

from mlebench_spec.declarations import Competition

TEN_DECIMALS = "%.10f"


def _answers(test: pd.DataFrame, targets: list[str]) -> pd.DataFrame:
    rows = []
    for seq in test.itertuples(index=False):
        for pos in range(seq.seq_length):
            scored = pos < seq.seq_scored
            values = [getattr(seq, t)[pos] if scored else 0.0 for t in targets]
            rows.append([f"{seq.id}_{pos}", *values, scored])
    return pd.DataFrame(rows, columns=["id_seqpos", *targets, "keep"])


def _write_json(frame: pd.DataFrame, path: Path) -> None:
    frame = frame.reset_index(drop=True)
    frame["index"] = frame.index
    frame.to_json(path, orient="records", lines=True)


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as MLE-bench v1 does (see the module docstring)."""
    train = pd.read_json(raw / "train.json", lines=True)
    test_columns = pd.read_json(raw / "test.json", lines=True).columns
    targets = pd.read_csv(raw / "sample_submission.csv", nrows=0).columns[1:].tolist()
    n_test = int(comp.split.test_fraction * len(train))
    drawn = train[train["SN_filter"] > 0].sample(n_test, random_state=comp.split.seed)
    test = train[train.index.isin(drawn.index)]
    _write_json(train.drop(index=test.index), public / "train.json")
    _write_json(test[test_columns], public / "test.json")
    answers = _answers(test, targets)
    answers.to_csv(private / comp.submission.answers, index=False, float_format=TEN_DECIMALS)
    sample = answers[["id_seqpos"]].assign(**{t: 0.0 for t in targets})
    sample.to_csv(public / "sample_submission.csv", index=False, float_format=TEN_DECIMALS)
