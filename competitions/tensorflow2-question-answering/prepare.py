"""tensorflow2-question-answering: MLE-bench v1 splits simplified-nq-train.jsonl chunk by chunk.

The file is read 1,000 lines at a time (example_id as text) and TTS(0.1, 0) runs inside each chunk. Train
records go to public simplified-nq-train.jsonl; test records keep only example_id, question_text,
document_text and long_answer_candidates in public simplified-nq-test.jsonl, and in full in private
test.jsonl. Each test example gives the ids {example_id}_short and {example_id}_long. gold_submission.csv
(our answers file) is v1's: per example the short answer (YES or NO when annotated, else the first short
span "start:end", else blank), then the long answer ("start:end" or blank).
"""

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

CHUNK_LINES = 1000
TEST_FIELDS = ["example_id", "question_text", "document_text", "long_answer_candidates"]


def _gold(record: pd.Series) -> list[tuple[str, str]]:
    """Return the short then the long answer of one example, as v1 writes them (YES/NO before a span)."""
    annotation = record["annotations"][0]
    long_answer = annotation["long_answer"]
    long = (
        f"{long_answer['start_token']}:{long_answer['end_token']}" if long_answer["start_token"] != -1 else ""
    )
    shorts = [f"{s['start_token']}:{s['end_token']}" for s in annotation["short_answers"]]
    if annotation["yes_no_answer"] != "NONE":
        shorts.insert(0, annotation["yes_no_answer"])
    short = shorts[0] if shorts else ""
    return [(f"{record['example_id']}_short", short), (f"{record['example_id']}_long", long)]


def _append(frame: pd.DataFrame, path: Path) -> None:
    with path.open("a") as out:
        frame.to_json(out, orient="records", lines=True)


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as MLE-bench v1 does (see the module docstring)."""
    gold = []
    chunks = pd.read_json(raw / "simplified-nq-train.jsonl", lines=True, chunksize=CHUNK_LINES)
    for chunk in chunks:
        chunk["example_id"] = chunk["example_id"].astype(str)
        train, test = train_test_split(
            chunk, test_size=comp.split.test_fraction, random_state=comp.split.seed
        )
        _append(train, public / "simplified-nq-train.jsonl")
        _append(test[TEST_FIELDS], public / "simplified-nq-test.jsonl")
        _append(test, private / "test.jsonl")
        gold += [pair for _, record in test.iterrows() for pair in _gold(record)]
    answers = pd.DataFrame(gold, columns=["example_id", "PredictionString"])
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers.assign(PredictionString=""), public / "sample_submission.csv")
